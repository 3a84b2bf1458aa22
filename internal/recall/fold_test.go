package recall

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// folded is what mdstore reads of files: each file's entries with the
// copies of a lesson folded (Doc.Folded) and every sighting counted, in
// file order, an id a later file holds again left out (as memory read
// shows each id once).
func folded(t *testing.T, files []File) []mdstore.Entry {
	t.Helper()
	var out []mdstore.Entry
	seen := map[string]bool{}
	for _, f := range files {
		d, err := mdstore.Parse(f.Kind, must(os.ReadFile(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range d.Folded() {
			if !seen[e.ID] {
				seen[e.ID] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// capturedBy is e captured again by another task: the copy the other side
// of a merge wrote.
func capturedBy(e mdstore.Entry, task, day string) mdstore.Entry {
	e.Task, e.Tasks, e.Date, e.LastSeen = task, []string{task}, day, day
	return e
}

// headOnly is the heading and metadata line of e's rendering: what a
// union merge leaves of one side's copy when the other side's copy holds
// the lines they share.
func headOnly(e *mdstore.Entry) string {
	r := mdstore.Render(e)
	i := strings.Index(r, "\n")
	j := strings.Index(r[i+1:], "\n")
	return r[:i+1+j+1]
}

// TestFoldedCopies: a lesson that a file holds more than once reads as
// mdstore folds it (one entry, its text, seen and tasks from every copy,
// first and last seen from both) in every reader: memory read's listing,
// a search, prime with and without a task. The copies are those a git
// union merge leaves when both branches captured the lesson (the first a
// heading and metadata line, the second the text; TestUnionMergedCopies in
// internal/app makes them with git), three such copies, whole copies apart
// (a cherry-pick), an archived copy, and copies with a sighting.
func TestFoldedCopies(t *testing.T) {
	t.Parallel()
	lesson := pit("p-5a1e0c9d2b7f", "webhook sender retries ignore the context deadline", "check ctx.Err before each retry", "pkg/webhook/sender.go")
	a, b, c := capturedBy(lesson, "fn-5.5", "2026-01-10"), capturedBy(lesson, "fn-3.1", "2026-01-12"), capturedBy(lesson, "fn-8.2", "2026-01-05")
	archived := b
	archived.Status = mdstore.Archived
	archived.LastSeen = "2026-01-20"
	other := pit("p-0ther", "an unrelated lesson about CSS grid gaps", "", "")
	sighting := "<!-- flowmem: seen id=" + lesson.ID + " last=2026-01-25 tasks=fn-9.9 -->\n"
	for _, tc := range []struct {
		name, raw string
		seen      int
		tasks     []string
		live      bool
	}{
		{"union", headOnly(&a) + mdstore.Render(&b), 2, []string{"fn-5.5", "fn-3.1"}, true},
		{"three", headOnly(&a) + headOnly(&c) + mdstore.Render(&b), 3, []string{"fn-5.5", "fn-8.2", "fn-3.1"}, true},
		{"apart", mdstore.Render(&a) + "\n" + mdstore.Render(&other) + "\n" + mdstore.Render(&b), 2, []string{"fn-5.5", "fn-3.1"}, true},
		{"archived later", headOnly(&a) + mdstore.Render(&archived), 2, []string{"fn-5.5", "fn-3.1"}, false},
		{"sighting", headOnly(&a) + mdstore.Render(&b) + sighting, 3, []string{"fn-5.5", "fn-3.1", "fn-9.9"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A memory big enough that idf and the floor behave as in a
			// project's, the copies in the middle of its pitfalls.
			entries := genEntries(t, 400)
			for i := range entries {
				// Seen once: prime without a task lists confirmed lessons,
				// and the fold is one when it counts its copies.
				entries[i].Seen = 1
			}
			s := storeOf(t, entries)
			path := s.Path(mdstore.Pitfall)
			raw := must(os.ReadFile(path))
			mid := len(raw) / 2
			mid += strings.Index(string(raw[mid:]), "\n## ") + 1
			raw = slices.Concat(raw[:mid], []byte(tc.raw+"\n"), raw[mid:])
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			files := must(Load(s))
			all := folded(t, files)
			i := slices.IndexFunc(all, func(e mdstore.Entry) bool { return e.ID == lesson.ID })
			if i < 0 {
				t.Fatal("mdstore does not read the lesson")
			}
			want := all[i]
			if want.Issue != lesson.Issue || want.Fix != lesson.Fix || want.Context != lesson.Context || want.Seen != tc.seen ||
				!slices.Equal(want.Tasks, tc.tasks) || want.Live() != tc.live {
				t.Fatalf("mdstore folds the copies into %+v; the test expects seen %d, tasks %v, live %v", want, tc.seen, tc.tasks, tc.live)
			}

			// memory read: every entry as mdstore reads it, in order.
			var wantList, gotList []string
			for _, e := range all {
				if e.Live() {
					wantList = append(wantList, string(e.Kind)+"|"+Render(&e, false))
				}
			}
			must(0, EachLive(files, time.Time{}, 0, func(k mdstore.Kind, line []byte, _ bool) bool {
				gotList = append(gotList, string(k)+"|"+string(line))
				return true
			}))
			if !slices.Equal(gotList, wantList) {
				n := firstDiff(gotList, wantList)
				t.Fatalf("memory read shows %d entries, mdstore reads %d live; first difference at %d:\n got %q\nwant %q", len(gotList), len(wantList), n, nth(gotList, n), nth(wantList, n))
			}
			if !tc.live {
				if hits := must(Search(files, []string{"webhook sender retries context deadline"}, Options{Limit: 30})); slices.Contains(ids(hits), lesson.ID) {
					t.Errorf("a search finds the archived lesson")
				}
				return
			}

			// A search (read -r, read -r --json) and several (the scout).
			for _, qs := range [][]string{{"webhook sender retries ignore the context deadline"}, {"webhook retries", "context deadline sender"}} {
				hits := must(Search(files, qs, Options{Limit: 30}))
				j := slices.IndexFunc(hits, func(h Hit) bool { return h.Entry.ID == lesson.ID })
				if j < 0 {
					t.Errorf("%q: the lesson is not found", qs)
					continue
				}
				if n := len(slices.DeleteFunc(ids(hits), func(id string) bool { return id != lesson.ID })); n != 1 {
					t.Errorf("%q: the lesson is found %d times", qs, n)
				}
				got := hits[j].Entry
				if got.Issue != want.Issue || got.Fix != want.Fix || got.Context != want.Context || got.Seen != want.Seen ||
					!slices.Equal(got.Tasks, want.Tasks) || got.LastSeen != want.LastSeen || got.Date != want.Date || got.Status != want.Status {
					t.Errorf("%q: found as %+v\nmdstore reads %+v", qs, got, want)
				}
			}

			// prime, with a task and without (confirmed lessons: the
			// fold is seen twice or more).
			line := Render(&want, true)
			for _, task := range []string{"fn-7.1: stop the webhook sender retries at the context deadline", ""} {
				out := must(Prime(files, task, Options{Limit: 30, MaxChars: PrimeHardCap}))
				if !strings.Contains(out, line) || strings.Count(out, lesson.Issue) != 1 {
					t.Errorf("prime %q does not show the lesson once as\n%s\n:\n%s", task, line, out)
				}
			}
		})
	}
}

func nth(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

// TestFoldedCopiesAcrossFiles: the same id in two files is two entries
// for mdstore; memory read shows the first (each id once), a search finds
// one.
func TestFoldedCopiesAcrossFiles(t *testing.T) {
	t.Parallel()
	e := pit("p-5a1e0c9d2b7f", "webhook sender retries ignore the context deadline", "check ctx.Err before each retry", "")
	n := note(mdstore.Convention, e.ID, "webhook sender retries stop at the context deadline")
	files := FilesOf(t, []mdstore.Entry{e, n})
	var got []string
	must(0, EachLive(files, time.Time{}, 0, func(k mdstore.Kind, line []byte, _ bool) bool {
		got = append(got, string(line))
		return true
	}))
	if len(got) != 1 || !strings.Contains(got[0], e.Issue) {
		t.Errorf("memory read shows %q", got)
	}
	if hits := must(Search(files, []string{"webhook sender retries context deadline"}, Options{})); len(hits) != 1 {
		t.Errorf("a search finds %d entries: %v", len(hits), ids(hits))
	}
}

// An id that ends at once, or has no space after it, is still counted:
// a lesson whose copies' metadata lines read that way is folded.
func TestMetaID(t *testing.T) {
	for line, want := range map[string]string{
		"<!-- flowmem: id=p-5a1e0c9d2b7f fp=1 seen=1 -->":                "p-5a1e0c9d2b7f",
		"<!-- flowmem: id=p-5a1e0c9d2b7f-12345678 seen=1 -->":            "p-5a1e0c9d2b7f-12345678",
		"<!-- flowmem: id=p-5a1e0c9d2b7f-123456789abcdef seen=1 -->":     "p-5a1e0c9d2b7f-123456789abcdef",
		"<!-- flowmem: id=p-1 -->":                                       "p-1",
		"<!-- flowmem: id= seen=1 last=2026-01-01 status=active -->":     "",
		"<!-- flowmem: seen id=p-1 last=2026-01-01 -->":                  "",
		"<!-- flowmem: fp=1 id=p-1 seen=1 -->":                           "",
		"<!-- flowmem: id=p-5a1e0c9d2b7f\n**Issue**: a lesson":           "p-5a1e0c9d2b7f",
		"<!-- flowmem: id=p-1\n**Issue**: a lesson in words":             "p-1",
		"<!-- flowmem: id=p-5a1e0c9d2b7f12345678901234567890 seen=1 -->": "p-5a1e0c9d2b7f12345678901234567890",
	} {
		if got := string(metaID([]byte(line))); got != want {
			t.Errorf("metaID(%q) = %q, want %q", line, got, want)
		}
	}
	// Every id of a real memory: the same as mdstore reads it.
	for _, f := range FilesOf(t, genEntries(t, 200)) {
		mdstore.Segments(must(os.ReadFile(f.Path)), func(seg []byte, line int) bool {
			e, _ := mdstore.ParseSegment(f.Kind, seg, line)
			if got := string(segID(seg)); got != e.ID {
				t.Errorf("segID = %q, mdstore reads %q", got, e.ID)
			}
			return true
		})
	}
}

// FuzzSeenOnce: when seenOnce reads a metadata line, ReadMeta reads the
// same id and seen 1 from it (mayBeConfirmed's shortcut decides as the
// full read would).
func FuzzSeenOnce(f *testing.F) {
	for _, l := range []string{
		"<!-- flowmem: id=p-5a1e0c9d2b7f fp=83c779ebac9e seen=1 last=2026-01-12 tasks=fn-3.1 status=active -->",
		"<!-- flowmem: id=p-5a1e0c9d2b7f seen=1 last=2026-01-12 seen=3 -->",
		"<!-- flowmem: id=p-1 seen=1 id=p-2 -->",
		"<!-- flowmem: id=p-1  seen=1  -->",
		"<!-- flowmem: id=p-1 seen=1 --> ",
		"<!-- flowmem: id=p-1 seen=1-->",
		"<!-- flowmem: id=p-1 seen=10 -->",
		"<!-- flowmem: id=p-1 xseen=1 seen=2 -->",
		"<!-- flowmem: seen id=p-1 seen=1 -->",
		"<!-- flowmem: id= seen=1 -->",
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, l []byte) {
		id, ok := seenOnce(l)
		if !ok {
			return
		}
		line, _, _ := bytes.Cut(l, []byte("\n"))
		m, mok := mdstore.ReadMeta(line)
		if !mok || m.Sighting || !bytes.Equal(m.ID, id) || m.Seen != 1 {
			t.Fatalf("seenOnce(%q) = %q; ReadMeta reads id %q seen %d sighting %v ok %v", l, id, m.ID, m.Seen, m.Sighting, mok)
		}
	})
}

// A sighting comment inside a line (a lesson that quotes one) is no
// sighting, for mdstore or for any reader.
func TestSightingInsideALine(t *testing.T) {
	t.Parallel()
	e := pit("p-5a1e0c9d2b7f", "the webhook log line ends in <!-- flowmem: seen id=p-5a1e0c9d2b7f last=2026-01-25 tasks=fn-9.9 -->", "", "")
	files := FilesOf(t, []mdstore.Entry{e})
	if all := folded(t, files); len(all) != 1 || all[0].Seen != 1 {
		t.Fatalf("mdstore reads %+v", all)
	}
	var got []string
	must(0, EachLive(files, time.Time{}, 0, func(_ mdstore.Kind, line []byte, _ bool) bool {
		got = append(got, string(line))
		return true
	}))
	if len(got) != 1 || !strings.Contains(got[0], "\n  fn-1.1 · 2026-01-01 · ") {
		t.Errorf("memory read shows %q", got)
	}
	if hits := must(Search(files, []string{"webhook log line ends"}, Options{})); len(hits) != 1 || hits[0].Entry.Seen != 1 {
		t.Errorf("a search finds %+v", hits)
	}
	if out := must(Prime(files, "", Options{})); out != "" {
		t.Errorf("prime without a task takes the lesson as confirmed:\n%s", out)
	}
}

// TestIDCountManyBuckets counts enough ids to spread them over many of
// resolve's buckets: exactly the ids counted twice came twice.
func TestIDCountManyBuckets(t *testing.T) {
	id := func(i int) []byte { return []byte("lesson-" + strconv.Itoa(i) + "-words") }
	for _, n := range []int{0, 1, 64, 65, 5000} {
		c := &idCount{}
		for i := range n {
			c.add(id(i))
		}
		for i := 3; i < n; i += 97 {
			c.add(id(i))
		}
		if c.twice() != (n > 3) {
			t.Errorf("%d ids, every 97th twice: twice() = %v", n, c.twice())
		}
		for i := range n {
			if got := c.cameTwice(id(i)); got != (i%97 == 3) {
				t.Errorf("%d ids: cameTwice(%s) = %v", n, id(i), got)
			}
		}
	}
}
