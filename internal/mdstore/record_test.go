package mdstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRecordMatchesParsedMemory: Record decides repeats from the file's
// bytes alone; on lessons drawn from a small vocabulary (so that ids,
// fingerprints and symbol twins collide often), each decision is the one a
// reader of the whole parsed memory makes: the entry with the lesson's id
// chain and the same text, else the first with its fingerprint and the
// same symbols, else none. Seen counts add up too.
func TestRecordMatchesParsedMemory(t *testing.T) {
	t.Parallel()
	words := []string{"cache", "caches", "cached", "results", "tests", "test", "go", "between", "runs", "the", "of", "are", "never", "2", "3"}
	syms := []string{"", "", "==", "===", "!=", "C#", "C++"}
	r := rand.New(rand.NewPCG(7, 11))
	lesson := func() Entry {
		n := 2 + r.IntN(4)
		var parts []string
		for range n {
			w := words[r.IntN(len(words))]
			if r.IntN(4) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			parts = append(parts, w)
		}
		if s := syms[r.IntN(len(syms))]; s != "" {
			parts = slices.Insert(parts, r.IntN(len(parts)+1), s)
		}
		text := strings.Join(parts, " ")
		if r.IntN(3) == 0 {
			text += "."
		}
		return Entry{Issue: text, Fix: "fix it", Tasks: []string{"fn-" + words[r.IntN(3)]}}
	}
	s := Open(t.TempDir())
	ctx := context.Background()
	day := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	repeats := 0
	for i := range 400 {
		var batch []Entry
		for range 1 + r.IntN(3) {
			batch = append(batch, lesson())
		}
		for j := range batch {
			// The reference: what a reader of the parsed memory finds.
			memory, err := s.Load(Pitfall)
			if err != nil {
				t.Fatal(err)
			}
			l := batch[j]
			l.Kind = Pitfall
			l.Normalize()
			want := referenceRepeat(memory, &l)
			out, err := s.Record(ctx, Pitfall, batch[j:j+1], day)
			if err != nil {
				t.Fatal(err)
			}
			o := out[0]
			switch {
			case want == nil && !o.New:
				t.Fatalf("lesson %d %q: Record found a repeat (%s %q), the parsed memory has none", i, l.Issue, o.ID, o.Entry.Issue)
			case want != nil && o.New:
				t.Fatalf("lesson %d %q: Record added it, the parsed memory repeats %s %q", i, l.Issue, want.ID, want.Issue)
			case want != nil && (o.ID != want.ID || o.Seen != want.Seen+1):
				t.Fatalf("lesson %d %q: Record counted %s seen %d, want %s seen %d", i, l.Issue, o.ID, o.Seen, want.ID, want.Seen+1)
			}
			if want != nil {
				repeats++
			}
		}
	}
	t.Logf("%d repeats", repeats)
	if repeats < 100 {
		t.Errorf("only %d repeats: the vocabulary is too large to test much", repeats)
	}
}

func referenceRepeat(memory []Entry, l *Entry) *Entry {
	for id, salt := l.ID, 1; ; salt++ {
		taken := false
		for i := range memory {
			if memory[i].ID == id {
				taken = true
				if SameText(memory[i].Text(), l.Text()) {
					return &memory[i]
				}
			}
		}
		if !taken {
			break
		}
		id = distinctID(l.Kind, l.Text(), salt)
	}
	if l.FP == "" {
		return nil
	}
	for i := range memory {
		if memory[i].FP == l.FP && slices.Equal(symbols(memory[i].Text()), symbols(l.Text())) {
			return &memory[i]
		}
	}
	return nil
}

// TestRecordLegacyFirstLine: a flow-next entry (no metadata) on the file's
// first line counts as one, so its repeat is found even when the file
// holds as many flowmem entries as flow-next ones below it.
func TestRecordLegacyFirstLine(t *testing.T) {
	s := Open(t.TempDir())
	raw := "## 2026-01-10 fn-1.1 impl-review [framework]\n**Issue**: placeholder export still present after adding new export\n**Fix**: remove it\n\n" +
		"## 2026-01-11 fn-1.2 impl-review [api] <!-- p-1 -->\n<!-- flowmem: id=p-1 seen=1 -->\n**Issue**: another lesson\n"
	if err := os.WriteFile(s.Path(Pitfall), []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	out, err := s.Record(context.Background(), Pitfall, []Entry{{Issue: "placeholder export still present after adding new export"}}, day)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].New || out[0].Seen != 2 {
		t.Errorf("the flow-next entry's repeat: new %v seen %d, want a sighting seen 2", out[0].New, out[0].Seen)
	}
}

// referenceScan is prepare's pass written plainly: every line split off,
// every field of a metadata line looked up.
func referenceScan(raw []byte, wanted map[string]bool) (found map[string][]int, heads, metas int) {
	found = map[string][]int{}
	start := 0
	for _, l := range bytes.SplitAfter(raw, []byte("\n")) {
		line := bytes.TrimRight(bytes.TrimSuffix(l, []byte("\n")), "\r")
		if bytes.HasPrefix(line, []byte("## ")) && isEntryHeading(line) {
			heads++
		}
		if rest, ok := bytes.CutPrefix(line, []byte(metaPrefix)); ok {
			if !bytes.HasPrefix(rest, []byte(" seen ")) {
				metas++
			}
			for _, f := range bytes.Split(rest, []byte(" ")) {
				if len(f) > 3 && f[2] == '=' && wanted[string(f)] {
					found[string(f)] = append(found[string(f)], start)
				}
			}
		}
		start += len(l)
	}
	return found, heads, metas
}

// FuzzPrepare: reading the file in pieces finds the records and counts
// the lines that one pass over its bytes in memory finds.
func FuzzPrepare(f *testing.F) {
	f.Add([]byte(tallyCorpus()), "p-003", "abc", uint8(5))
	f.Add([]byte("## 2026-01-01 x\n<!-- flowmem: id=a fp=b -->\n## 2026-01-02 y\n<!-- flowmem: seen id=a -->"), "a", "b", uint8(1))
	f.Add([]byte("<!-- flowmem: id=a -->\r\n## 2026-01-01 x\r\n## 2026-01-02 y"), "a", "", uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, id, fp string, piece uint8) {
		var in memory
		in.wantKey("id=" + id)
		in.wantKey("fp=" + fp)
		found, heads, metas := referenceScan(raw, in.wanted)
		size, last, err := in.prepareFrom(bytes.NewReader(raw), &Reader{Buf: make([]byte, 0, int(piece)%64+1)})
		if err != nil || size != int64(len(raw)) || len(raw) > 0 && last != raw[len(raw)-1] {
			t.Fatalf("size %d last %q err %v, file of %d", size, last, err, len(raw))
		}
		if in.legacy != (heads > metas) || !reflect.DeepEqual(in.found, found) {
			t.Fatalf("in pieces of %d: legacy %v found %v; every line: heads %d metas %d found %v", int(piece)%64+1, in.legacy, in.found, heads, metas, found)
		}
	})
}

// expiring is a context whose Err reports the deadline as passed after it
// has been asked n times; Lock's own timeout never asks it.
type expiring struct {
	context.Context
	n int
}

func (c *expiring) Err() error {
	if c.n == 0 {
		return context.DeadlineExceeded
	}
	c.n--
	return nil
}

// TestRecordStopsAtDeadline: a capture whose deadline passes while it
// works through a long review's lessons writes none of them.
func TestRecordStopsAtDeadline(t *testing.T) {
	s := Open(t.TempDir())
	var lessons []Entry
	for i := range 5 {
		lessons = append(lessons, Entry{Issue: fmt.Sprintf("widget%d leaks handles under load", i), Fix: "close it"})
	}
	_, err := s.Record(&expiring{Context: context.Background(), n: 2}, Pitfall, lessons, time.Now())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if _, err := os.Stat(s.Path(Pitfall)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("memory written after the deadline: %v", err)
	}
}

// TestLockAfterDeadline: a writer whose deadline has already passed is
// told so, not that another process held the lock.
func TestLockAfterDeadline(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := Open(t.TempDir()).Lock(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrLockTimeout) {
		t.Errorf("err = %v, want the caller's context error", err)
	}
}

// TestRecordNewEntryLine: a new entry's outcome names the line of its
// heading, as every reader's entries do (memory add --json prints it).
func TestRecordNewEntryLine(t *testing.T) {
	s := Open(t.TempDir())
	for round := range 2 {
		lessons := []Entry{
			{Issue: fmt.Sprintf("round %d: the pool drops idle connections", round), Fix: "set the idle limit"},
			{Issue: fmt.Sprintf("round %d: the cache key leaves out the tenant", round)},
		}
		out, err := s.Record(context.Background(), Pitfall, lessons, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(s.Path(Pitfall))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		for _, o := range out {
			if l := o.Entry.Line; l < 1 || l > len(lines) || !strings.HasSuffix(lines[l-1], "<!-- "+o.ID+" -->") || !strings.HasPrefix(lines[l-1], "## ") {
				t.Errorf("round %d: %s at line %d, which is not its heading", round, o.ID, l)
			}
		}
	}
}

// TestRecordMakesFolderWithIgnore: a capture into a memory folder that is
// gone makes it as init does, .gitignore included, so that git add -A
// does not take the lock file.
func TestRecordMakesFolderWithIgnore(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), ".flow", "memory"))
	if _, err := s.Record(context.Background(), Pitfall, []Entry{{Issue: "the queue drops messages on restart"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir, ".gitignore"))
	if err != nil || !strings.Contains(string(b), LockName) {
		t.Errorf(".gitignore %q, %v", b, err)
	}
}

// TestTornAppend: the next append after one cut off (the file ends inside
// a line) starts on a fresh line and marks the cut-off record, so readers
// leave it out as they did while it ended the file; a last line that is
// whole (a hand edit saved without a newline) is read, and no mark written.
func TestTornAppend(t *testing.T) {
	whole := Entry{Kind: Pitfall, ID: contentID(Pitfall, "The queue drops messages on restart"), Date: "2026-03-01", Task: "fn-1", Issue: "The queue drops messages on restart", Seen: 1, LastSeen: "2026-03-01", Tasks: []string{"fn-1"}, Status: Active}
	whole.Normalize()
	keep := Render(&whole)
	cases := []struct {
		name, tail string
		torn       bool
	}{
		{"issue cut", "\n## 2026-03-02 fn-2 [pitfall] <!-- p-0123456789ab -->\n<!-- flowmem: id=p-0123456789ab seen=1 last=2026-03-02 tasks=fn-2 status=active -->\n**Issue**: Logs print the session tok", true},
		{"heading cut", "\n## 2026-03-02 fn-2 [pitfall] <!-- p-01234", true},
		{"metadata cut", "\n## 2026-03-02 fn-2 [pitfall] <!-- p-0123456789ab -->\n<!-- flowmem: id=p-0123456789ab seen=1 la", true},
		{"sighting cut", "\n<!-- flowmem: seen id=" + whole.ID + " last=2026-03-0", true},
		{"fix cut", "\n**Fix**: drain the queue bef", true},
		{"no newline, whole", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			raw := Header(Pitfall) + "\n" + keep + c.tail
			if c.tail == "" {
				raw = strings.TrimSuffix(raw, "\n")
			}
			if err := os.WriteFile(s.Path(Pitfall), []byte(raw), 0o644); err != nil {
				t.Fatal(err)
			}
			out := recordText(t, s, Pitfall, day, "Temp dirs are never removed")
			after, _ := os.ReadFile(s.Path(Pitfall))
			d, err := Parse(Pitfall, after)
			if err != nil {
				t.Fatal(err)
			}
			f := d.Folded()
			if len(f) != 2 || f[0].ID != whole.ID || f[0].Issue != whole.Issue || f[0].Body != "" || f[0].Fix != "" || f[0].Seen != 1 || f[1].ID != out[0].ID {
				t.Errorf("read %+v\nfrom:\n%s", f, after)
			}
			if marked := strings.Contains(string(after), "seen id=torn lines="); marked != c.torn || (len(d.Torn) == 1) != c.torn {
				t.Errorf("torn mark written %v, read at %v; want %v:\n%s", marked, d.Torn, c.torn, after)
			}
			if n, err := s.Tally(Pitfall, day, 0); err != nil || n.Active != 2 {
				t.Errorf("tally %+v, %v", n, err)
			}
			// A rewrite of the entry holding a cut-off line takes the line
			// and its mark away together, and nothing else.
			if err := s.Rewrite(context.Background(), Pitfall, setStatus(whole.ID, Archived)); err != nil {
				t.Fatal(err)
			}
			if got := byID(t, s, Pitfall); len(got) != 2 || got[whole.ID].Status != Archived || got[whole.ID].Body != "" || got[out[0].ID].Seen != 1 {
				t.Errorf("after a rewrite: %+v", got)
			}
		})
	}
}
