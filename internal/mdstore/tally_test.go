package mdstore

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadTally counts entries the long way: parse everything, fold, ask
// each entry. Tally must agree with it on every file.
func loadTally(k Kind, raw []byte, now time.Time, days int) (Tally, error) {
	d, err := Parse(k, raw)
	if err != nil {
		return Tally{}, err
	}
	var t Tally
	for _, e := range d.Folded() {
		switch e.Status {
		case Archived:
			t.Archived++
		case Pending:
			t.Pending++
		default:
			t.Active++
			if e.Stale(now, days) {
				t.Stale++
			}
		}
	}
	return t, nil
}

// tallyCorpus is a memory that exercises every path of counting: copies of
// one lesson a union merge left (with other days and states), sightings
// before and after their entry, a metadata line a merge moved into another
// entry, flow-next entries without metadata, ids in tags only, and damaged
// metadata lines.
func tallyCorpus() string {
	var b strings.Builder
	b.WriteString(Header(Pitfall))
	states := []string{"active", "archived", "pending", "", "bogus"}
	for i := range 60 {
		id := fmt.Sprintf("p-%03d", i%23)
		day := fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28)
		last := fmt.Sprintf("2026-%02d-%02d", 1+(i*7)%12, 1+(i*5)%28)
		switch i % 6 {
		case 0: // flow-next: no metadata line
			fmt.Fprintf(&b, "\n## %s fn-%d impl-review [pitfall]\n**Issue**: lesson %d\n", day, i, i%9)
		case 1: // a sighting of an entry written later or earlier
			fmt.Fprintf(&b, "\n## %s fn-%d impl-review <!-- %s -->\n<!-- flowmem: id=%s seen=2 last=%s tasks=fn-%d status=%s -->\n**Issue**: lesson %d\n<!-- flowmem: seen id=p-%03d last=2026-12-%02d tasks=fn-9 -->\n", day, i, id, id, last, i, states[i%5], i, (i+5)%23, 1+i%28)
		case 2: // a moved metadata line of another entry
			fmt.Fprintf(&b, "\n## %s fn-%d impl-review <!-- %s -->\n<!-- flowmem: id=%s last=%s status=%s -->\n<!-- flowmem: id=p-%03d last=2026-11-30 -->\n**Issue**: lesson %d\n", day, i, id, id, last, states[(i+1)%5], (i+3)%23, i)
		case 3: // no id on the metadata line: the id comes from the text
			fmt.Fprintf(&b, "\n## %s fn-%d impl-review\n<!-- flowmem: seen=3 last=%s status=%s -->\n**Issue**: lesson %d\r\n", day, i, last, states[i%5], i%4)
		case 4: // two metadata lines of one lesson, one unreadable line
			fmt.Fprintf(&b, "\n## %s fn-%d impl-review\n<!-- flowmem: id=%s last=%s status=archived -->\n<!-- flowmem: id=%s last=%s status=active -->\n<!-- flowmem: seen -->\n<!-- flowmem: id=x\n**Issue**: lesson %d\n", day, i, id, last, id, day, i)
		default:
			fmt.Fprintf(&b, "\n## %s fn-%d impl-review\n<!-- flowmem: id=%s last=%s status=%s -->\n**Fix**: x <!-- %s -->\n", day, i, id, last, states[i%5], id)
		}
	}
	// Two copies seen last on one day: the active one wins.
	b.WriteString("\n## 2026-03-01 fn-1 impl-review\n<!-- flowmem: id=p-eq last=2026-03-02 status=archived -->\n**Issue**: eq\n")
	b.WriteString("\n## 2026-03-01 fn-1 impl-review\n<!-- flowmem: id=p-eq last=2026-03-02 status=active -->\n**Issue**: eq\n")
	return b.String()
}

func TestTallyMatchesLoad(t *testing.T) {
	now := time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)
	raw := []byte(tallyCorpus())
	for _, days := range []int{0, 30, 120, 365} {
		got, err := tallyBytes(Pitfall, raw, now, days)
		want, werr := loadTally(Pitfall, raw, now, days)
		if err != nil || werr != nil {
			t.Fatal(err, werr)
		}
		if got != want {
			t.Errorf("days %d: tally %+v, load %+v", days, got, want)
		}
		if want.Pending == 0 || want.Archived == 0 || want.Active == 0 || days == 120 && want.Stale == 0 {
			t.Errorf("days %d: the corpus should hold every state: %+v", days, want)
		}
	}
}

func TestTallyReadsTheStore(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	if got, err := s.Tally(Pitfall, time.Now(), 30); err != nil || got != (Tally{}) {
		t.Fatalf("missing file: %+v, %v", got, err)
	}
	if err := os.WriteFile(s.Path(Pitfall), []byte(tallyCorpus()), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := s.Load(Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Tally(Pitfall, time.Now(), 30)
	if err != nil || got.Active+got.Pending+got.Archived != len(entries) {
		t.Fatalf("tally %+v (%v) for %d entries", got, err, len(entries))
	}
	if err := os.WriteFile(s.Path(Decision), []byte("---\nflowmem: [\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Tally(Decision, time.Now(), 30)
	_, lerr := s.Load(Decision)
	if err == nil || lerr == nil || err.Error() != lerr.Error() || !strings.Contains(err.Error(), filepath.Base(s.Path(Decision))) {
		t.Fatalf("bad front matter: tally says %v, load says %v", err, lerr)
	}
}

// FuzzTally: counting from headings and metadata lines gives what a full
// parse and fold gives, on any file.
func FuzzTally(f *testing.F) {
	f.Add([]byte(tallyCorpus()), 30)
	f.Add([]byte(flowNextPitfalls), 0)
	f.Add([]byte("## 2026-01-01 x <!-- p-1 -->\n<!-- flowmem: id=p-2 last=2026-02-01 status=pending -->\n<!-- flowmem: id=p-1 -->\n"), 10)
	f.Add([]byte("---\nflowmem: 1\n---\n## 2026-01-01 x\n```\n## 2026-01-02 y\n<!-- flowmem: id=a -->\n"), 1)
	f.Add([]byte("---\nflowmem: [\n---\r\r\n## 2026-01-01 x\n"), 3)
	f.Fuzz(func(t *testing.T, raw []byte, days int) {
		now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		got, err := tallyBytes(Pitfall, raw, now, days)
		want, werr := loadTally(Pitfall, raw, now, days)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("errors differ: tally %v, load %v", err, werr)
		}
		if got != want {
			t.Fatalf("tally %+v, load %+v", got, want)
		}
		// Read in pieces, as Tally reads a file.
		n := int(uint(days)%17) + 1
		if got, err := tallyReader(Pitfall, &pieces{raw, n}, now, days); got != want || (err == nil) != (werr == nil) {
			t.Fatalf("in pieces of %d: tally %+v (%v), load %+v (%v)", n, got, err, want, werr)
		}
	})
}

// tallyBytes is Tally of a file's bytes.
func tallyBytes(k Kind, raw []byte, now time.Time, staleDays int) (Tally, error) {
	return tallyReader(k, bytes.NewReader(raw), now, staleDays)
}

// tallyReader is Tally of the file r reads.
func tallyReader(k Kind, r io.Reader, now time.Time, staleDays int) (Tally, error) {
	var sr Reader
	return tally(k, 0, func(front func([]byte) error, fn func([]byte, int64, int) bool) error {
		return sr.scan(r, front, fn)
	}, now, staleDays)
}
