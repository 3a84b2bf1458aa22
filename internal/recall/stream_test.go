package recall

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/sanitize"
)

// TestStreamLargeFile: a memory file several chunks long is read a chunk at
// a time, and every entry, those that straddle a chunk's end included, is
// seen once, with its place and line, as in the file's bytes read whole.
func TestStreamLargeFile(t *testing.T) {
	t.Parallel()
	entries := genEntries(t, 6000)
	files := FilesOf(t, entries)
	raw, err := os.ReadFile(files[0].Path)
	if err != nil || len(raw) < 2*mdstore.ScanChunk {
		t.Fatalf("pitfalls.md is %d bytes (%v), want several chunks", len(raw), err)
	}
	type seg struct {
		fi   int
		off  int64
		line int
		n    int
	}
	var want, got []seg
	mdstore.Segments(raw, func(b []byte, line int) bool {
		want = append(want, seg{0, int64(cap(raw) - cap(b)), line, len(b)})
		return true
	})
	n := 0
	must(0, new(reader).eachSegment(files, func(fi int, b []byte, off int64, line int) {
		n++
		if fi == 0 {
			got = append(got, seg{fi, off, line, len(b)})
		}
	}))
	if n != len(entries) || !slices.Equal(got, want) {
		t.Fatalf("read %d entries (want %d); first difference at %d", n, len(entries), firstDiff(got, want))
	}
	if hits := must(Search(files, []string{benchQuery}, Options{Limit: 20})); len(hits) == 0 {
		t.Errorf("%q: nothing found", benchQuery)
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

// collectSightings finds a sighting line wherever the reads cut it, and
// only a whole one.
func TestSightingsAcrossPieces(t *testing.T) {
	dir := t.TempDir()
	line := []byte("<!-- flowmem: seen id=p-1 last=2026-01-02 -->\n")
	for _, at := range []int{0, 1, mdstore.ScanChunk - len(seenOpen), mdstore.ScanChunk - 7, mdstore.ScanChunk - 1, mdstore.ScanChunk, 2*mdstore.ScanChunk - 3, 3 * mdstore.ScanChunk} {
		for _, want := range []bool{true, false} {
			raw := bytes.Repeat([]byte("x"), 3*mdstore.ScanChunk+len(line))
			raw[len(raw)-1] = '\n'
			if at > 0 {
				raw[at-1] = '\n'
			}
			if want {
				copy(raw[at:], line)
			} else {
				copy(raw[at:], seenOpen[:len(seenOpen)-1]) // all but its last byte
			}
			path := filepath.Join(dir, "pitfalls.md")
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := new(reader).collectSightings([]File{{Path: path}}, nil)
			if got := m["p-1"].n == 1; got != want || err != nil {
				t.Errorf("line at %d (whole %v): %v, %v", at, want, m, err)
			}
		}
	}
}

// TestEachLive: EachLive shows what Render shows of each parsed entry, for
// the entries it renders from their bytes and for those it parses (a
// lesson seen again, a copy of one, a manual note, an archived one, text
// that folds), and stops where fn says.
func TestEachLive(t *testing.T) {
	t.Parallel()
	entries := genEntries(t, 300)
	archived := pit("p-arch", "archived lesson", "", "")
	archived.Status = mdstore.Archived
	tab := pit("p-tab", "a tab\tinside", "fix", "")
	entries = append(entries, note(mdstore.Convention, "c-manual", "a manual note"), archived, tab, entries[3])
	files := FilesOf(t, entries)
	f, err := os.OpenFile(files[0].Path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString("\n<!-- flowmem: seen id=" + entries[0].ID + " last=2026-03-01 tasks=fn-9 -->\n")
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	// What mdstore reads: each file's copies of a lesson folded, sightings
	// counted.
	live := slices.DeleteFunc(folded(t, files), func(e mdstore.Entry) bool { return !e.Live() })
	// Marking stale entries, with a window that leaves about half of them
	// fresh: the entries rendered from their bytes and those parsed must
	// be marked alike.
	days := make([]string, len(live))
	for i := range live {
		days[i] = lastSeen(&live[i])
	}
	slices.Sort(days)
	mid := must(time.Parse(time.DateOnly, days[len(days)/2]))
	for _, a := range []ageing{{}, {mid.AddDate(0, 0, 30), 30}} {
		var want []string
		for _, e := range live {
			want = append(want, string(e.Kind)+"|"+string(render(nil, &e, false, a)))
		}
		var got []string
		plain := 0
		must(0, EachLive(files, a.now, a.days, func(k mdstore.Kind, line []byte, p bool) bool {
			got = append(got, string(k)+"|"+string(line))
			if p {
				plain++
				if s := sanitize.Text(string(line)); s != string(line) {
					t.Fatalf("a line said plain is not: %q, cleaned %q", line, s)
				}
			}
			return true
		}))
		if plain == 0 || plain == len(got) {
			t.Fatalf("%d of %d lines said plain: the store lacks the entries the test is about", plain, len(got))
		}
		if len(want) < 290 || !slices.Equal(got, want) {
			t.Fatalf("%v: EachLive gave %d entries, parsed %d; first difference at %d", a, len(got), len(want), firstDiff(got, want))
		}
		all := strings.Join(got, "")
		if !strings.Contains(all, "seen ") || !strings.Contains(all, "manual") {
			t.Fatal("the store lacks the entries the test is about")
		}
		if stale := strings.Count(all, " · stale"); (a.days > 0) != (stale > 0 && stale < len(got)) {
			t.Fatalf("%v: %d of %d entries marked stale", a, stale, len(got))
		}
	}
	n := 0
	must(0, EachLive(files, time.Time{}, 0, func(mdstore.Kind, []byte, bool) bool { n++; return n != 7 }))
	if n != 7 {
		t.Fatalf("EachLive went on to %d entries after fn said stop at 7", n)
	}
}
