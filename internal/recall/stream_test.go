package recall

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestStreamLargeFile: a memory file several chunks long is read a chunk at
// a time, and every entry, those that straddle a chunk's end included, is
// seen once, with its line, and found as it would be in memory.
func TestStreamLargeFile(t *testing.T) {
	t.Parallel()
	entries := genEntries(t, 6000)
	mem := FilesOf(entries)
	dir := t.TempDir()
	s := mdstore.Open(dir)
	for _, f := range mem {
		if err := os.WriteFile(filepath.Join(dir, f.Kind.File()), f.Raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(mem[0].Raw) < 2*chunkSize {
		t.Fatalf("pitfalls.md is %d bytes, want several chunks", len(mem[0].Raw))
	}
	disk, err := Load(s)
	if err != nil {
		t.Fatal(err)
	}
	type seg struct {
		fi   int
		off  int64
		line int
		n    int
	}
	collect := func(files []File) []seg {
		var out []seg
		if err := eachSegment(files, func(fi int, b []byte, off int64, line int) { out = append(out, seg{fi, off, line, len(b)}) }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := collect(mem), collect(disk)
	if len(a) != len(entries) || !slices.Equal(a, b) {
		t.Fatalf("in memory %d entries, on disk %d (want %d); first difference at %d", len(a), len(b), len(entries), firstDiff(a, b))
	}
	for _, q := range []string{benchQuery, "useEffect cleanup", "flaky tests in CI"} {
		want := ids(must(Search(mem, []string{q}, Options{Limit: 20})))
		if got := ids(must(Search(disk, []string{q}, Options{Limit: 20}))); !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("%q: on disk %q, in memory %q", q, got, want)
		}
	}
}

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A memory file that is a named pipe is an error, not a hang.
func TestLoadFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, mdstore.Pitfall.File()), 0o644); err != nil {
		t.Skip(err)
	}
	files, err := Load(mdstore.Open(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Search(files, []string{"webhook"}, Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Search over a FIFO: %v", err)
	}
	if _, err := Prime(files, "", Options{}); err == nil {
		t.Error("Prime over a FIFO: no error")
	}
}

// holdsSighting finds the marker wherever the reads cut it, and only
// there.
func TestHoldsSightingAcrossPieces(t *testing.T) {
	dir := t.TempDir()
	for _, at := range []int{0, 1, chunkSize - len(seenOpen), chunkSize - 7, chunkSize - 1, chunkSize, 2*chunkSize - 3, 3 * chunkSize} {
		for _, want := range []bool{true, false} {
			raw := bytes.Repeat([]byte("x"), 3*chunkSize+len(seenOpen))
			if want {
				copy(raw[at:], seenOpen)
			} else {
				copy(raw[at:], seenOpen[:len(seenOpen)-1]) // all but its last byte
			}
			path := filepath.Join(dir, "pitfalls.md")
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, f := range []File{{Path: path}, {Raw: raw}} {
				if got, err := new(reader).holdsSighting(&f); got != want || err != nil {
					t.Errorf("marker at %d (whole %v), file %v: %v, %v", at, want, f.Path != "", got, err)
				}
			}
		}
	}
}
