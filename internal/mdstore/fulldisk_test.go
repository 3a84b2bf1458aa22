package mdstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFullDisk: on a 64 KiB tmpfs, lessons are recorded until the disk is
// full. The append that fails leaves the file exactly as it was (cut back
// under the lock), so nothing half-written is ever read, and a retry does
// not count a sighting of a broken entry. Needs root to mount; skipped
// otherwise.
func TestFullDisk(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here: %v %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	s := Open(dir)
	ctx := context.Background()
	day := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	long := strings.Repeat("stream the request body with io.LimitReader ", 40)
	var before []byte
	full := false
	for i := 0; i < 200 && !full; i++ {
		before, _ = os.ReadFile(s.Path(Pitfall))
		lesson := Entry{Issue: fmt.Sprintf("lesson %d: the upload handler reads the whole body", i), Fix: long, Context: long}
		_, err := s.Record(ctx, Pitfall, []Entry{lesson}, day)
		if err == nil {
			continue
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("lesson %d: %v", i, err)
		}
		full = true
		after, rerr := os.ReadFile(s.Path(Pitfall))
		if rerr != nil {
			t.Fatal(rerr)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("the failed append left %d bytes behind:\n%s", len(after)-len(before), after[min(len(before), len(after)):])
		}
		// The retry fails the same way and still changes nothing.
		if _, err := s.Record(ctx, Pitfall, []Entry{lesson}, day); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("retry: %v", err)
		}
		if again, _ := os.ReadFile(s.Path(Pitfall)); !bytes.Equal(before, again) {
			t.Fatal("the retry changed the file")
		}
	}
	if !full {
		t.Fatal("the disk never filled")
	}
	d, err := Parse(Pitfall, before)
	if err != nil || d.Incomplete != 0 || len(d.Damaged) != 0 {
		t.Fatalf("after a full disk: %v, incomplete line %d, damaged %v", err, d.Incomplete, d.Damaged)
	}
	for _, e := range d.Folded() {
		if e.Seen != 1 || e.Fix != strings.TrimSpace(long) {
			t.Errorf("entry %s: seen %d, fix of %d bytes", e.ID, e.Seen, len(e.Fix))
		}
	}
}
