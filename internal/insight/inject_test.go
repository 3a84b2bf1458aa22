package insight

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

func TestNoteInjected(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".lock"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := NoteInjected(dir, "read", "fn-3.2: add retries", []string{"p-0123456789ab", fmt.Sprintf("p-%012d", i)}, now.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing returned, nothing noted.
	if err := NoteInjected(dir, "prime", "fn-3.2", nil, now); err != nil {
		t.Fatal(err)
	}
	got, skipped, err := ReadInjections(dir)
	if err != nil || skipped != 0 || len(got) != 3 {
		t.Fatalf("got %+v skipped %d err %v", got, skipped, err)
	}
	if got[0].Task != "fn-3.2" || got[0].By != "read" || len(got[2].IDs) != 2 || !got[2].Time.Equal(now.Add(2*time.Hour)) {
		t.Fatalf("got %+v", got)
	}
	ig, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if string(ig) != ".lock\n"+ignoreLine+"\n" {
		t.Fatalf(".gitignore: %q", ig)
	}
}

// The request's words never reach the record: only a leading task id.
func TestNoteInjectedKeepsNoRequestText(t *testing.T) {
	dir := t.TempDir()
	if err := NoteInjected(dir, "read", "deploy with password=hunter2 to prod", []string{"p-0123456789ab"}, now); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, InjectFile))
	if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "deploy") {
		t.Fatalf("request text recorded: %s", raw)
	}
}

// No memory folder: nothing is created.
func TestNoteInjectedNoFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	if err := NoteInjected(dir, "read", "", []string{"p-0123456789ab"}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("folder created: %v", err)
	}
}

// The record stays bounded: past injectMax it becomes the old generation,
// and both are read, oldest first.
func TestInjectionsBounded(t *testing.T) {
	dir := t.TempDir()
	ids := make([]string, injectMaxIDs+50)
	for i := range ids {
		ids[i] = fmt.Sprintf("p-%012d", i)
	}
	n := 0
	for ; n < 2000; n++ {
		if err := NoteInjected(dir, "read", "", ids, now.Add(time.Duration(n)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	var total int64
	for _, f := range []string{InjectFile, injectOldFile} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			total += fi.Size()
		}
	}
	if total > 2*injectMax+4096 {
		t.Fatalf("record holds %d bytes", total)
	}
	got, skipped, err := ReadInjections(dir)
	if err != nil || skipped != 0 || len(got) == 0 || len(got) >= n {
		t.Fatalf("%d lines, skipped %d, err %v", len(got), skipped, err)
	}
	if len(got[0].IDs) != injectMaxIDs || !got[len(got)-1].Time.Equal(now.Add(time.Duration(n-1)*time.Second)) {
		t.Fatalf("first %d ids, last at %v", len(got[0].IDs), got[len(got)-1].Time)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Time.Before(got[i-1].Time) {
			t.Fatalf("out of order at %d", i)
		}
	}
}

func TestInjectionsFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, InjectFile), 0o644); err != nil {
		t.Skip(err)
	}
	if err := NoteInjected(dir, "read", "", []string{"p-0123456789ab"}, now); err == nil {
		t.Error("NoteInjected wrote to a FIFO")
	}
	if _, _, err := ReadInjections(dir); err == nil {
		t.Error("ReadInjections read a FIFO")
	}
}

func TestTaskIDOf(t *testing.T) {
	for in, want := range map[string]string{
		"fn-3.2: add retries": "fn-3.2",
		"  fn-12 add":         "fn-12",
		"FN-1.2.3, more":      "FN-1.2.3",
		"fn-:":                "",
		"fn-1.":               "",
		"add retries to fn-3": "",
		"-3: x":               "",
		"fn-3a: x":            "",
		"":                    "",
		"sk-1234567890123456789012345678901234567890": "",
	} {
		if got := TaskIDOf(in); got != want {
			t.Errorf("TaskIDOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// The note is one small append whatever the memory's size: it never reads
// the memory or the record.
func BenchmarkNoteInjected(b *testing.B) {
	dir := b.TempDir()
	ids := []string{"p-0123456789ab", "p-0123456789ac", "p-0123456789ad", "p-0123456789ae", "p-0123456789af"}
	for i := 0; i < b.N; i++ {
		_ = NoteInjected(dir, "read", "fn-3.2: add retries", ids, now)
	}
}

func FuzzInjections(f *testing.F) {
	f.Add([]byte(`{"time":"2026-11-27T09:00:00Z","by":"read","task":"fn-1","ids":["p-0123456789ab"]}` + "\n{\"time\":\n"))
	f.Add([]byte("\n\n[]\n{}\nnull\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		ins, skipped := parseInjections(raw)
		if len(ins)+skipped > bytes.Count(raw, []byte("\n"))+1 {
			t.Fatalf("%d lines read, %d skipped from %d lines", len(ins), skipped, bytes.Count(raw, []byte("\n"))+1)
		}
		for _, in := range ins {
			if in.Time.IsZero() || len(in.IDs) == 0 {
				t.Fatalf("unusable line accepted: %+v", in)
			}
		}
	})
}
