package reviewlog

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var day = time.Date(2026, 11, 20, 14, 3, 7, 0, time.UTC)

func TestAppendRead(t *testing.T) {
	dir := t.TempDir()
	in := []Review{
		{Time: day, Task: "fn-1.1", Kind: "impl-review", Verdict: "NEEDS_WORK", Findings: 4, Kept: 2, New: 2, IDs: []string{"p-0123456789ab", "p-ba9876543210"}},
		{Time: day.Add(time.Hour), Task: "fn-1.1", Kind: "impl-review", Verdict: "SHIP"},
	}
	for _, r := range in {
		if err := appendReview(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	got, skipped, err := Read(dir)
	if err != nil || len(skipped) != 0 {
		t.Fatalf("Read: %v %v", err, skipped)
	}
	if len(got) != 2 || got[0].Task != "fn-1.1" || got[0].Kept != 2 || len(got[0].IDs) != 2 || got[1].Verdict != "SHIP" || !got[1].Time.Equal(day.Add(time.Hour)) {
		t.Fatalf("round trip: %+v", got)
	}
	raw, _ := os.ReadFile(Path(dir))
	if n := bytes.Count(raw, []byte("\n")); n != 2 {
		t.Fatalf("want 2 lines, got %d:\n%s", n, raw)
	}
}

func TestMissingLogIsEmpty(t *testing.T) {
	got, skipped, err := Read(t.TempDir())
	if err != nil || got != nil || skipped != nil {
		t.Fatalf("got %v %v %v", got, skipped, err)
	}
}

// A secret in any text field is masked before the line is written, and a
// secret-looking id is dropped.
func TestLineRedacted(t *testing.T) {
	secret := "ghp_" + strings.Repeat("aB3xY9", 6)
	l := Line(Review{Time: day, Task: "token=" + secret, Kind: "impl-review " + secret, Verdict: "SHIP",
		IDs: []string{"p-0123456789ab", secret}})
	if bytes.Contains(l, []byte(secret)) {
		t.Fatalf("secret in line: %s", l)
	}
	if !bytes.Contains(l, []byte("p-0123456789ab")) {
		t.Fatalf("id dropped: %s", l)
	}
}

// However much a review touched and however long its fields, a line stays
// one bounded line.
func TestLineBounded(t *testing.T) {
	var ids []string
	for i := range 1000 {
		ids = append(ids, fmt.Sprintf("p-%012x", i))
	}
	l := Line(Review{Time: day, Task: strings.Repeat("fn-1\n", 5000), Kind: strings.Repeat("k", 1e5), Verdict: "NEEDS_WORK", IDs: ids})
	if len(l) > MaxLine || bytes.Count(l, []byte("\n")) != 1 || l[len(l)-1] != '\n' {
		t.Fatalf("line of %d bytes, %d newlines", len(l), bytes.Count(l, []byte("\n")))
	}
	rs, skipped := Parse(l)
	if len(skipped) != 0 || len(rs) != 1 || len(rs[0].IDs) != maxIDs {
		t.Fatalf("parse: %v %+v", skipped, rs)
	}
}

// Corrupt lines — a torn tail, a merge conflict marker, a foreign object,
// an over-long line — are skipped and named; the good lines around them
// are read.
func TestCorruptLinesSkipped(t *testing.T) {
	good := string(Line(Review{Time: day, Task: "fn-2", Kind: "impl-review", Verdict: "SHIP"}))
	in := good +
		`{"time":"2026-11-20T14:03:07Z","task":"fn-3","ki` + "\n" +
		"<<<<<<< HEAD\n" +
		`{"time":"2026-11-20T14:03:07Z","kind":"x","verdict":"SHIP","findings":-1}` + "\n" +
		`{"kind":"x"}` + "\n" +
		`{"time":"2026-11-20T14:03:07Z","kind":"x","verdict":"SHIP","extra":1}` + "\n" +
		`[1,2]` + "\n" +
		`{"time":"2026-11-20T14:03:07Z","kind":"` + strings.Repeat("x", 2*MaxLine) + `"}` + "\n" +
		"\n" + good
	rs, skipped := Parse([]byte(in))
	if len(rs) != 2 {
		t.Errorf("want the 2 good lines, got %d: %+v", len(rs), rs)
	}
	var lines []int
	for _, s := range skipped {
		lines = append(lines, s.Line)
	}
	if fmt.Sprint(lines) != "[2 3 4 5 6 7 8]" {
		t.Errorf("skipped lines %v (%+v)", lines, skipped)
	}
	w := Warning("reviews.jsonl", skipped)
	if !strings.Contains(w, "skipped 7") || !strings.Contains(w, "line 2") || !strings.Contains(w, "and 4 more") {
		t.Errorf("warning: %s", w)
	}
}

// A crash that left a line without its newline does not swallow the next
// line: AppendLine starts on a fresh one.
func TestAppendAfterTornTail(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(Path(dir), []byte(`{"time":"2026-11-20T14:03:07Z","ta`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendReview(dir, Review{Time: day, Kind: "impl-review", Verdict: "SHIP"}); err != nil {
		t.Fatal(err)
	}
	rs, skipped, err := Read(dir)
	if err != nil || len(rs) != 1 || len(skipped) != 1 {
		t.Fatalf("got %+v skipped %+v err %v", rs, skipped, err)
	}
}

// Many hooks at once: every line arrives whole.
func TestConcurrentAppends(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	const n = 24
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := Review{Time: day, Task: fmt.Sprintf("fn-%d", i), Kind: "impl-review", Verdict: "NEEDS_WORK", IDs: []string{fmt.Sprintf("p-%012x", i)}}
			if err := appendReview(dir, r); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	rs, skipped, err := Read(dir)
	if err != nil || len(skipped) != 0 || len(rs) != n {
		t.Fatalf("%d reviews, skipped %v, err %v", len(rs), skipped, err)
	}
}

// A FIFO where the log should be is an error at once, for the reader and
// the writer, never a hang.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(Path(dir), 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	if _, _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read: %v", err)
	}
	if err := appendReview(dir, Review{Time: day}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("append: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(string(Line(Review{Time: day, Task: "fn-1", Kind: "impl-review", Verdict: "NEEDS_WORK", Findings: 3, Kept: 1, New: 1, IDs: []string{"p-0123456789ab"}})))
	f.Add("{\"time\":\"2026-11-20T14:03:07Z\"}\n<<<<<<<\n\n{")
	f.Add(`{"time":"0001-01-01T00:00:00Z","ids":["a\u0000b"]}`)
	f.Fuzz(func(t *testing.T, in string) {
		rs, skipped := Parse([]byte(in))
		lines := strings.Count(in, "\n") + 1
		if len(rs)+len(skipped) > lines {
			t.Fatalf("%d reviews + %d skipped from %d lines", len(rs), len(skipped), lines)
		}
		for _, r := range rs {
			if r.Time.IsZero() || r.Findings < 0 || strings.ContainsAny(r.Task+r.Kind+r.Verdict, "\n\r") {
				t.Fatalf("invalid review accepted: %+v", r)
			}
			for _, id := range r.IDs {
				if !validID(id) {
					t.Fatalf("invalid id %q", id)
				}
			}
			// What was read writes back as one line that reads the same.
			again, sk := Parse(Line(r))
			if len(again) != 1 || len(sk) != 0 {
				t.Fatalf("rewrite of %+v: %+v %+v", r, again, sk)
			}
		}
	})
}

// TestLogged: the tool call a line names is found among the log's last
// lines, only as that field and only whole; an event that is not an id is
// not stored.
func TestLogged(t *testing.T) {
	dir := t.TempDir()
	if ok, err := Logged(dir, "toolu_01A"); ok || err != nil {
		t.Fatalf("no log: %v %v", ok, err)
	}
	r := Review{Time: day, Kind: "impl-review", Verdict: "NEEDS_WORK", Task: `"event":"toolu_01B"`, Event: "toolu_01A"}
	if err := appendReview(dir, r); err != nil {
		t.Fatal(err)
	}
	for event, want := range map[string]bool{"toolu_01A": true, "toolu_01": false, "toolu_01B": false, "": false} {
		if ok, err := Logged(dir, event); ok != want || err != nil {
			t.Errorf("Logged(%q) = %v %v, want %v", event, ok, err, want)
		}
	}
	// The runs of one call are seconds apart: only the log's tail is read.
	for i := 0; i < tail/100; i++ {
		if _, err := AppendLine(Path(dir), Line(Review{Time: day, Kind: "review", Event: fmt.Sprintf("toolu_%d", i)})); err != nil {
			t.Fatal(err)
		}
	}
	if ok, _ := Logged(dir, "toolu_01A"); ok {
		t.Error("a call logged before the last tail bytes still found")
	}
	if ok, _ := Logged(dir, fmt.Sprintf("toolu_%d", tail/100-1)); !ok {
		t.Error("the last call not found")
	}
	for _, bad := range []string{"toolu 1", "sk-ant-api03-" + strings.Repeat("a", 20)} {
		if b := Line(Review{Time: day, Kind: "review", Event: bad}); bytes.Contains(b, []byte(`"event"`)) {
			t.Errorf("event %q stored: %s", bad, b)
		}
	}
}

// appendReview appends r as the hook does (under the lock it holds).
func appendReview(dir string, r Review) error {
	_, err := AppendLine(Path(dir), Line(r))
	return err
}
