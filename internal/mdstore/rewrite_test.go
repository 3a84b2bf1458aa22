package mdstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var day = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func recordText(t *testing.T, s *Store, k Kind, when time.Time, texts ...string) []Outcome {
	t.Helper()
	var lessons []Entry
	for _, x := range texts {
		lessons = append(lessons, Entry{Issue: x, Task: "fn-1", Tasks: []string{"fn-1"}})
	}
	out, err := s.Record(context.Background(), k, lessons, when)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func byID(t *testing.T, s *Store, k Kind) map[string]Entry {
	t.Helper()
	entries, err := s.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Entry{}
	for _, e := range entries {
		m[e.ID] = e
	}
	return m
}

func setStatus(id string, st Status) Edit {
	return func(entries []Entry) (map[string]*Entry, error) {
		for _, e := range entries {
			if e.ID == id {
				e.Status = st
				return map[string]*Entry{id: &e}, nil
			}
		}
		return nil, fmt.Errorf("no %s", id)
	}
}

func TestRewriteArchiveKeepsOthersAndCountsSightings(t *testing.T) {
	s := Open(t.TempDir())
	out := recordText(t, s, Pitfall, day, "first lesson about retries", "second lesson about timeouts", "third lesson about locks")
	a, b := out[0].ID, out[1].ID
	// Sightings of a and b are appended after the third entry.
	recordText(t, s, Pitfall, day.AddDate(0, 0, 3), "first lesson about retries", "second lesson about timeouts")
	before := byID(t, s, Pitfall)
	if err := s.Rewrite(context.Background(), Pitfall, setStatus(a, Archived)); err != nil {
		t.Fatal(err)
	}
	after := byID(t, s, Pitfall)
	if len(after) != 3 {
		t.Fatalf("got %d entries, want 3", len(after))
	}
	if got := after[a]; got.Status != Archived || got.Seen != 2 || got.LastSeen != "2026-03-04" {
		t.Errorf("archived entry = %+v, want archived, seen 2, last 2026-03-04", got)
	}
	for id, e := range before {
		if id == a {
			continue
		}
		e.Line, after[id] = 0, func(x Entry) Entry { x.Line = 0; return x }(after[id])
		if fmt.Sprint(after[id]) != fmt.Sprint(e) {
			t.Errorf("entry %s changed:\n got %+v\nwant %+v", id, after[id], e)
		}
	}
	raw, _ := os.ReadFile(s.Path(Pitfall))
	// A union merge brings back a deleted line that a teammate's append
	// touches: the sighting stays, and the metadata counts only the rest.
	if n := strings.Count(string(raw), "seen id="+a); n != 1 {
		t.Errorf("%d sighting lines of the rewritten entry, want its 1 kept:\n%s", n, raw)
	}
	if !strings.Contains(string(raw), "id="+a+" fp="+after[a].FP+" seen=1 ") {
		t.Errorf("the rewritten entry's metadata should count itself once, its sighting line the other time:\n%s", raw)
	}
	if n := strings.Count(string(raw), "seen id="+b); n != 1 {
		t.Errorf("%d sighting lines of an untouched entry, want 1:\n%s", n, raw)
	}
}

func TestRewriteRemove(t *testing.T) {
	for _, which := range []int{0, 1, 2} {
		t.Run(fmt.Sprint(which), func(t *testing.T) {
			s := Open(t.TempDir())
			out := recordText(t, s, Pitfall, day, "alpha lesson text", "beta lesson text", "gamma lesson text")
			recordText(t, s, Pitfall, day, "alpha lesson text", "beta lesson text", "gamma lesson text")
			id := out[which].ID
			err := s.Rewrite(context.Background(), Pitfall, func([]Entry) (map[string]*Entry, error) {
				return map[string]*Entry{id: nil}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			after := byID(t, s, Pitfall)
			if _, ok := after[id]; ok || len(after) != 2 {
				t.Fatalf("after removing %s: %v", id, after)
			}
			for i, o := range out {
				if i != which && after[o.ID].Seen != 2 {
					t.Errorf("entry %s lost its sighting: seen %d", o.ID, after[o.ID].Seen)
				}
			}
			raw, _ := os.ReadFile(s.Path(Pitfall))
			// Only its sighting line may name it, which no reader counts
			// without its entry, and which a union merge would bring
			// back if it went.
			for _, l := range strings.Split(string(raw), "\n") {
				if strings.Contains(l, id) && !strings.HasPrefix(l, "<!-- flowmem: seen id="+id+" ") {
					t.Errorf("file still holds %s's line %q:\n%s", id, l, raw)
				}
			}
			if strings.Contains(string(raw), "\n\n\n") {
				t.Errorf("removal left a run of blank lines:\n%s", raw)
			}
			if _, err := Parse(Pitfall, raw); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRewriteFlowNextEntry(t *testing.T) {
	s := Open(t.TempDir())
	legacy := "# Pitfalls\n\n## 2026-01-10 manual [pitfall]\nAlways use flowctl rp wrappers\ninstead of calling builder directly\n\n## 2026-01-11 fn-1.1 impl-review [framework]\n**Issue**: placeholder export still present\n**Fix**: Remove unused exports\n"
	if err := os.WriteFile(s.Path(Pitfall), []byte(legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, _ := s.Load(Pitfall)
	id := entries[0].ID
	if err := s.Rewrite(context.Background(), Pitfall, setStatus(id, Archived)); err != nil {
		t.Fatal(err)
	}
	after := byID(t, s, Pitfall)
	if got := after[id]; got.Status != Archived || got.Body != "Always use flowctl rp wrappers instead of calling builder directly" {
		t.Errorf("flow-next entry after archive = %+v", got)
	}
	raw, _ := os.ReadFile(s.Path(Pitfall))
	if !strings.HasSuffix(string(raw), "## 2026-01-11 fn-1.1 impl-review [framework]\n**Issue**: placeholder export still present\n**Fix**: Remove unused exports\n") {
		t.Errorf("the other flow-next entry changed:\n%s", raw)
	}
}

func TestRewriteErrorChangesNothing(t *testing.T) {
	s := Open(t.TempDir())
	recordText(t, s, Pitfall, day, "one lesson here")
	before, _ := os.ReadFile(s.Path(Pitfall))
	boom := errors.New("boom")
	if err := s.Rewrite(context.Background(), Pitfall, func([]Entry) (map[string]*Entry, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	err := s.Rewrite(context.Background(), Pitfall, func([]Entry) (map[string]*Entry, error) {
		return map[string]*Entry{"p-nothere": nil}, nil
	})
	if err == nil {
		t.Fatal("removing an unknown id succeeded")
	}
	after, _ := os.ReadFile(s.Path(Pitfall))
	if string(after) != string(before) {
		t.Errorf("file changed:\n%s", after)
	}
}

// TestRewriteRacesCaptures: a rewrite racing 16 concurrent captures loses
// none of them, and its own change holds.
func TestRewriteRacesCaptures(t *testing.T) {
	s := Open(t.TempDir())
	base := recordText(t, s, Pitfall, day, "the lesson to archive", "the lesson to forget")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each process has its own store value, as separate hooks do.
			_, err := Open(s.Dir).Record(context.Background(), Pitfall,
				[]Entry{{Issue: fmt.Sprintf("captured lesson number %d", i), Task: "fn-2"}}, day)
			errs <- err
		}()
	}
	for i, edit := range []Edit{
		setStatus(base[0].ID, Archived),
		func([]Entry) (map[string]*Entry, error) { return map[string]*Entry{base[1].ID: nil}, nil },
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				time.Sleep(time.Millisecond)
			}
			errs <- Open(s.Dir).Rewrite(context.Background(), Pitfall, edit)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	after := byID(t, s, Pitfall)
	if len(after) != 17 {
		t.Errorf("got %d entries, want 16 captures and the archived one", len(after))
	}
	if after[base[0].ID].Status != Archived {
		t.Errorf("the archive was lost")
	}
	if _, ok := after[base[1].ID]; ok {
		t.Errorf("the removal was lost")
	}
}

// FuzzRewrite: whatever a memory file holds, archiving or removing its
// first entry leaves a file that parses, with every other entry as it was,
// an archived entry counted as often as before, and every sighting line
// still there (a git union merge brings back a deleted one next to a
// teammate's append, and it would count twice).
func FuzzRewrite(f *testing.F) {
	// An entry last in the file, its sightings at the end: where hooks
	// append.
	f.Add([]byte(Header(Pitfall)+"\n"+Render(&Entry{Kind: Pitfall, ID: "p-2", Date: "2026-01-01", Issue: "b", Seen: 1, LastSeen: "2026-01-01", Status: Active})+"\n"+
		Render(&Entry{Kind: Pitfall, ID: "p-1", Date: "2026-01-01", Issue: "a", Seen: 1, LastSeen: "2026-01-01", Tasks: []string{"fn-1"}, Status: Active})+
		"\n"+renderSighting("p-1", "2026-02-01", "fn-2")+"\n"+renderSighting("p-1", "2026-02-02", "fn-3")), false)
	// Two copies of one lesson, as a union merge of two branches that
	// both captured it leaves them, with sightings naming their tasks.
	f.Add([]byte(Header(Pitfall)+"\n"+Render(&Entry{Kind: Pitfall, ID: "p-1", Date: "2026-01-01", Task: "fn-1", Issue: "a", Seen: 1, LastSeen: "2026-01-01", Tasks: []string{"fn-1"}, Status: Active})+
		"\n"+renderSighting("p-1", "2026-02-01", "fn-2")+"\n"+renderSighting("p-1", "2026-02-02", "fn-1")+"\n"+
		Render(&Entry{Kind: Pitfall, ID: "p-1", Date: "2026-01-01", Task: "fn-3", Issue: "a", Seen: 1, LastSeen: "2026-01-01", Tasks: []string{"fn-3"}, Status: Active})), false)
	f.Add([]byte("# Pitfalls\n\n## 2026-01-10 manual [pitfall]\nAlways use wrappers\ninstead of builder\n\n## 2026-01-11 fn-1.1 impl-review [framework]\n**Issue**: x\n"), false)
	f.Add([]byte(Header(Pitfall)+"\n"+Render(&Entry{Kind: Pitfall, ID: "p-1", Date: "2026-01-01", Issue: "a", Seen: 1, LastSeen: "2026-01-01", Status: Active})+"\n"+renderSighting("p-1", "2026-02-01", "fn-2")+"\n"+Render(&Entry{Kind: Pitfall, ID: "p-2", Date: "2026-01-01", Issue: "b", Seen: 1, LastSeen: "2026-01-01", Status: Active})), true)
	f.Add([]byte("## 2026-01-01 x\n<!-- flowmem: id=p-1 seen=2 -->\n<!-- flowmem: seen id=p-2 last=2026-01-02 -->\n## 2026-01-02 y\n<!-- flowmem: id=p-2 -->\n```\n## 2026-01-03 z\n```\n"), true)
	f.Fuzz(func(t *testing.T, raw []byte, remove bool) {
		s := Open(t.TempDir())
		if err := os.WriteFile(s.Path(Pitfall), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		before, err := s.Load(Pitfall)
		if err != nil || len(before) == 0 {
			return
		}
		target := before[0].ID
		err = s.Rewrite(context.Background(), Pitfall, func(entries []Entry) (map[string]*Entry, error) {
			if remove {
				return map[string]*Entry{target: nil}, nil
			}
			e := entries[0]
			e.Status = Archived
			return map[string]*Entry{target: &e}, nil
		})
		if err != nil {
			return
		}
		after, err := s.Load(Pitfall)
		if err != nil {
			t.Fatalf("the rewritten file does not parse: %v", err)
		}
		got := map[string]Entry{}
		for _, e := range after {
			got[e.ID] = e
		}
		for _, e := range before[1:] {
			if e.ID == target {
				continue
			}
			g, ok := got[e.ID]
			if !ok {
				t.Fatalf("entry %s lost", e.ID)
			}
			if g.Text() != e.Text() || g.Seen != e.Seen || g.Status != e.Status {
				t.Fatalf("entry %s changed: %+v -> %+v", e.ID, e, g)
			}
		}
		if g, ok := got[target]; remove == ok || (!remove && (g.Status != Archived || g.Seen != before[0].Seen)) {
			t.Fatalf("remove=%v: target after = %+v (present %v), before %+v", remove, g, ok, before[0])
		}
		// Records count by id wherever they stand (Doc.Sightings), for
		// the entry of that id if there is one.
		rewritten, _ := os.ReadFile(s.Path(Pitfall))
		counts := func(raw []byte) map[string]int {
			d, err := Parse(Pitfall, raw)
			if err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, r := range d.Sightings {
				n[r.ID]++
			}
			return n
		}
		was, now := counts(raw), counts(rewritten)
		for _, e := range before {
			id, n := e.ID, was[e.ID]
			if remove && id == target {
				continue
			}
			if now[id] < n {
				t.Fatalf("%d of %s's %d sighting lines went:\n%s", n-now[id], id, n, rewritten)
			}
		}
	})
}

// A removed entry can hold another entry's metadata line (a merge of files
// written before entries were merge-safe moves them). Rewrite keeps that
// record, but it must not land where an entry without a metadata line of
// its own (flow-next's format) takes it as its own and changes id: before,
// the legacy entry below became a second copy of p-c and vanished from
// every reader. Fuzzing found the same with the record moved to the end.
func TestRewriteKeepsMovedRecordARecord(t *testing.T) {
	raw := "## 2026-01-01 manual [pitfall]\nLegacy lesson without metadata\n\n" +
		"## 2026-01-02 fn-1.1 impl-review\n**Issue**: b\n<!-- flowmem: id=p-b -->\n<!-- flowmem: id=p-c last=2026-02-01 tasks=fn-9 -->\n\n" +
		"## 2026-01-03 fn-1.2 impl-review\n**Issue**: c\n<!-- flowmem: id=p-c -->\n"
	for _, removeFirst := range []bool{false, true} {
		s := Open(t.TempDir())
		text := raw
		if removeFirst {
			// The record's entry first, the legacy one last.
			text = "## 2026-01-02 fn-1.1 impl-review\n**Issue**: b\n<!-- flowmem: id=p-b -->\n<!-- flowmem: id=p-c last=2026-02-01 tasks=fn-9 -->\n\n" +
				"## 2026-01-01 manual [pitfall]\nLegacy lesson without metadata\n"
		}
		if err := os.WriteFile(s.Path(Pitfall), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		before := byID(t, s, Pitfall)
		err := s.Rewrite(context.Background(), Pitfall, func([]Entry) (map[string]*Entry, error) {
			return map[string]*Entry{"p-b": nil}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		after := byID(t, s, Pitfall)
		if len(after) != len(before)-1 {
			b, _ := os.ReadFile(s.Path(Pitfall))
			t.Fatalf("removeFirst=%v: %d entries after removing one of %d; file:\n%s", removeFirst, len(after), len(before), b)
		}
		for id, e := range before {
			if id == "p-b" {
				continue
			}
			g, ok := after[id]
			if !ok || g.Text() != e.Text() || g.Seen != e.Seen || g.LastSeen != e.LastSeen {
				t.Errorf("removeFirst=%v: entry %s %+v became %+v (present %v)", removeFirst, id, e, g, ok)
			}
		}
	}
}

// TestRewriteThroughSymlink: a memory file that links to one shared by
// several projects is rewritten at the shared file; the link stays, so
// the projects keep one memory.
func TestRewriteThroughSymlink(t *testing.T) {
	s := Open(t.TempDir())
	shared := filepath.Join(t.TempDir(), "pitfalls.md")
	if err := os.WriteFile(shared, []byte(Header(Pitfall)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, s.Path(Pitfall)); err != nil {
		t.Fatal(err)
	}
	a := recordText(t, s, Pitfall, day, "shared lesson about retries")[0].ID
	if err := s.Rewrite(context.Background(), Pitfall, setStatus(a, Archived)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(s.Path(Pitfall)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a copy: %v", err)
	}
	if raw, _ := os.ReadFile(shared); !strings.Contains(string(raw), "status=archived") {
		t.Errorf("the shared file was not rewritten:\n%s", raw)
	}
}

// TestCreateThroughDanglingSymlink: a memory file linked to a shared file
// that does not exist yet is created there, by init and by a first lesson.
func TestCreateThroughDanglingSymlink(t *testing.T) {
	for _, first := range []string{"init", "record"} {
		s := Open(t.TempDir())
		shared := filepath.Join(t.TempDir(), "pitfalls.md")
		if err := os.MkdirAll(s.Dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(shared, s.Path(Pitfall)); err != nil {
			t.Fatal(err)
		}
		if first == "init" {
			if _, err := s.Init(); err != nil {
				t.Fatalf("init: %v", err)
			}
		}
		recordText(t, s, Pitfall, day, "shared lesson about retries")
		if raw, err := os.ReadFile(shared); err != nil || !strings.Contains(string(raw), "shared lesson about retries") {
			t.Errorf("%s first: the shared file holds %q, %v", first, raw, err)
		}
		if fi, err := os.Lstat(s.Path(Pitfall)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s first: the link was replaced", first)
		}
	}
}

// TestRewriteKeepsUnionCopies: a lesson both branches captured stands twice
// after git's union merge, the first copy only its heading and metadata
// (the merge kept the shared lines once, in the second). Archiving it
// changes each copy's metadata line and removes neither, so no next union
// merge can bring back a copy with its old status; the count and tasks read
// as before.
func TestRewriteKeepsUnionCopies(t *testing.T) {
	s := Open(t.TempDir())
	sighting := renderSighting("p-0123456789ab", "2026-03-02", "fn-7.1")
	raw := Header(Pitfall) + "\n" +
		"## 2026-03-01 fn-5.5 impl-review [api] <!-- p-0123456789ab -->\n" +
		"<!-- flowmem: id=p-0123456789ab seen=1 last=2026-03-01 tasks=fn-5.5 status=active -->\n" +
		"## 2026-03-01 fn-3.1 impl-review [api] <!-- p-0123456789ab -->\n" +
		"<!-- flowmem: id=p-0123456789ab seen=1 last=2026-03-01 tasks=fn-3.1 status=active -->\n" +
		"**Issue**: The cache key leaves out the tenant\n" +
		"**Fix**: Put the tenant id in the key <!-- p-0123456789ab -->\n\n" + sighting
	if err := os.WriteFile(s.Path(Pitfall), []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	const id = "p-0123456789ab"
	was := byID(t, s, Pitfall)[id]
	if err := s.Rewrite(context.Background(), Pitfall, setStatus(id, Archived)); err != nil {
		t.Fatal(err)
	}
	got := byID(t, s, Pitfall)[id]
	if got.Status != Archived || got.Seen != was.Seen || got.Seen != 3 || len(got.Tasks) != 3 || got.Fix != was.Fix || got.Issue != was.Issue {
		t.Errorf("after archiving: %+v\nbefore: %+v", got, was)
	}
	after, _ := os.ReadFile(s.Path(Pitfall))
	if n := strings.Count(string(after), "## 2026-03-01 "); n != 2 {
		t.Errorf("%d copies of the lesson after archiving it, want both:\n%s", n, after)
	}
	if strings.Contains(string(after), "status=active") || !strings.Contains(string(after), "\n"+sighting) {
		t.Errorf("a copy kept its old metadata, or the sighting line went:\n%s", after)
	}
}

// TestForgetMark: memory forget leaves a mark (a sighting line of the id,
// status=forgotten) where the entry was. A union merge that brings the
// entry's lines back, before or after the mark, does not bring the lesson
// back for any reader; the lesson recorded again later is a new entry
// (the next id of its chain), which the mark does not touch.
func TestForgetMark(t *testing.T) {
	for _, back := range []string{"after", "before"} {
		t.Run(back, func(t *testing.T) {
			s := Open(t.TempDir())
			out := recordText(t, s, Pitfall, day, "keep this lesson", "forget this lesson")
			x := out[1].ID
			base, _ := os.ReadFile(s.Path(Pitfall))
			xLines := base[strings.Index(string(base), "\n## "+day.Format("2006-01-02")+" fn-1 [pitfall] <!-- "+x)+1:]
			if err := s.Rewrite(context.Background(), Pitfall, func([]Entry) (map[string]*Entry, error) {
				return map[string]*Entry{x: nil}, nil
			}); err != nil {
				t.Fatal(err)
			}
			forgot, _ := os.ReadFile(s.Path(Pitfall))
			mark := "<!-- flowmem: seen id=" + x + " status=forgotten -->\n"
			if !strings.HasSuffix(string(forgot), mark) {
				t.Fatalf("no forget mark at the end:\n%s", forgot)
			}
			// What git's union merge makes of it with a teammate's
			// append after X: X's lines on one side of the mark.
			merged := string(forgot) + "\n" + string(xLines)
			if back == "before" {
				merged = strings.TrimSuffix(string(forgot), mark) + string(xLines) + mark
			}
			if err := os.WriteFile(s.Path(Pitfall), []byte(merged), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := byID(t, s, Pitfall); len(got) != 1 || got[x].ID != "" {
				t.Fatalf("after the merge, readers see %v", got)
			}
			if n, err := s.Tally(Pitfall, day, 0); err != nil || n != (Tally{Active: 1}) {
				t.Fatalf("tally %+v, %v; want one active", n, err)
			}
			var hits []Hit
			if err := s.SearchEach(regexpMust("this lesson"), func(h Hit) error { hits = append(hits, h); return nil }); err != nil || len(hits) != 1 || hits[0].ID == x {
				t.Fatalf("search hits %+v, %v; want the kept lesson's only", hits, err)
			}
			again := recordText(t, s, Pitfall, day.AddDate(0, 0, 1), "forget this lesson")
			if !again[0].New || again[0].ID == x {
				t.Fatalf("the lesson recorded again: %+v; want a new entry, not %s", again[0], x)
			}
			third := recordText(t, s, Pitfall, day.AddDate(0, 0, 2), "forget this lesson")
			if got := byID(t, s, Pitfall); third[0].New || third[0].ID != again[0].ID || got[again[0].ID].Seen != 2 || len(got) != 2 {
				t.Fatalf("seen a third time: %+v; readers %v", third[0], got)
			}
		})
	}
}

// TestRewriteKeepsCaptureNames: a rewrite that keeps a lesson's count
// (archive, approve) keeps the captures its metadata line names, which
// tell a teammate's own capture of it apart; one that raises the count (a
// merge's survivor, which now counts other lessons' sightings, and a
// teammate may have merged the same) names none, so no count adds up twice.
func TestRewriteKeepsCaptureNames(t *testing.T) {
	s := Open(t.TempDir())
	day := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	out := recordText(t, s, Pitfall, day, "Temp files outlive a failed upload")
	id, copies := out[0].ID, out[0].Entry.Copies
	if len(copies) != 8 {
		t.Fatalf("a new lesson's capture token is %q, want 8 hex digits", copies)
	}
	if again := recordText(t, s, Pitfall, day, "Temp files outlive a failed upload"); again[0].New || again[0].Entry.Copies != copies {
		t.Fatalf("a repeat is a new capture: %+v", again[0])
	}
	edit := func(seen int) {
		t.Helper()
		err := s.Rewrite(context.Background(), Pitfall, func(entries []Entry) (map[string]*Entry, error) {
			e := entries[0]
			e.Status, e.Seen = Archived, e.Seen+seen
			return map[string]*Entry{id: &e}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	edit(0)
	if got := byID(t, s, Pitfall)[id]; got.Copies != copies || got.Seen != 2 {
		t.Fatalf("after an archive: seen %d, captures %q; want 2, %q", got.Seen, got.Copies, copies)
	}
	edit(3)
	if got := byID(t, s, Pitfall)[id]; got.Copies != "" || got.Seen != 5 {
		t.Fatalf("after a merge into it: seen %d, captures %q; want 5, none", got.Seen, got.Copies)
	}
}

// TestNoWriteThroughForeignLink: a memory file that links to a file of
// another name (a committed link to ~/.bashrc) is neither appended to nor
// rewritten; the file it points at stays as it was.
func TestNoWriteThroughForeignLink(t *testing.T) {
	s := Open(t.TempDir())
	id := recordText(t, s, Pitfall, day, "a lesson about retries")[0].ID
	victim := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.Rename(s.Path(Pitfall), victim); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, s.Path(Pitfall)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(victim)
	if _, err := s.Record(context.Background(), Pitfall, []Entry{{Issue: "another lesson about timeouts"}}, day); err == nil || !strings.Contains(err.Error(), "not a memory file") {
		t.Errorf("Record through a link to .bashrc: %v, want a refusal", err)
	}
	if err := s.Rewrite(context.Background(), Pitfall, setStatus(id, Archived)); err == nil || !strings.Contains(err.Error(), "not a memory file") {
		t.Errorf("Rewrite through a link to .bashrc: %v, want a refusal", err)
	}
	if after, _ := os.ReadFile(victim); string(after) != string(before) {
		t.Errorf("the linked file changed:\n%s", after)
	}
}
