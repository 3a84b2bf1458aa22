package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesAtOnce: a FIFO, a device, a folder and an oversized file
// are errors returned at once; a symlink to a regular file reads through.
func TestReadRefusesAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("ok"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("small", link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		want error
	}{{fifo, ErrNotRegular}, {zero, ErrNotRegular}, {dir, ErrNotRegular}, {big, ErrTooLarge}, {filepath.Join(dir, "none"), fs.ErrNotExist}} {
		done := make(chan error, 1)
		go func() { _, err := Read(tt.path, 100); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, tt.want) {
				t.Errorf("Read(%s) = %v, want %v", filepath.Base(tt.path), err, tt.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Read(%s) hung", filepath.Base(tt.path))
		}
	}
	if b, err := Read(link, 100); err != nil || string(b) != "ok" {
		t.Errorf("Read(link) = %q, %v", b, err)
	}
	// Opening a FIFO for appending does not wait for a reader either.
	if _, err := Open(fifo, os.O_WRONLY|os.O_APPEND, 0); err == nil {
		t.Error("Open(fifo) for writing succeeded")
	}
}

func TestEnsureLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".gitignore")
	if err := os.WriteFile(path, []byte("local/"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		added, err := EnsureLine(path, ".*.tmp-*", "temp files of interrupted writes")
		if err != nil || added != want {
			t.Fatalf("call %d: added=%v err=%v", i, added, err)
		}
	}
	b, _ := os.ReadFile(path)
	if string(b) != "local/\n# temp files of interrupted writes\n.*.tmp-*\n" {
		t.Errorf("file = %q", b)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := EnsureLine(fifo, "x", ""); !errors.Is(err, ErrNotRegular) {
			t.Errorf("EnsureLine(fifo) = %v", err)
		}
	}
}

// TestEnsureLineRefusesForeignLinks: a committed .gitattributes that is a
// link to some other file (a shell profile) is not appended to; a link to
// a file of the same name (one shared by several checkouts) is.
func TestEnsureLineRefusesForeignLinks(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	if err := os.WriteFile(profile, []byte("export PATH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "repo", ".gitattributes")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../profile", link); err != nil {
		t.Fatal(err)
	}
	if added, err := EnsureLine(link, "*.md merge=union", ""); err == nil || added || !strings.Contains(err.Error(), "links to") {
		t.Errorf("EnsureLine through a link to profile = %v, %v; want a refusal", added, err)
	}
	if b, _ := os.ReadFile(profile); string(b) != "export PATH\n" {
		t.Errorf("profile changed: %q", b)
	}
	shared := filepath.Join(dir, "shared", ".gitattributes")
	if err := os.MkdirAll(filepath.Dir(shared), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(link)
	if err := os.Symlink(shared, link); err != nil {
		t.Fatal(err)
	}
	if added, err := EnsureLine(link, "*.md merge=union", ""); err != nil || !added {
		t.Errorf("EnsureLine through a link to a shared .gitattributes = %v, %v", added, err)
	}
}
