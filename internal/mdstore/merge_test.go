package mdstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/gittest"
)

var git = gittest.Run

// TestUnionMergeKeepsEntriesWhole: clones that each record lessons on the
// same day, for the same task and category, with Fix and Context lines
// shared between lessons and sightings of the same entries on every side,
// then pull one another (merge or rebase, with the merge=union attribute
// flowmem installs), end with every lesson whole: its own text, fix and
// context, no entry holding another's lines, and the sightings counted.
// Files written before entries carried their id on every line they could
// share lost a lesson in 5 of 10 such merges (issue 18).
func TestUnionMergeKeepsEntriesWhole(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	day := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	fixes := []string{"Add a test for it", "Wrap it in io.LimitReader", ""}
	contexts := []string{"internal/api/upload.go", "", "From the review"}
	n := 0
	for _, clones := range []int{2, 3} {
		for _, mode := range []string{"merge", "rebase"} {
			for seed := range 5 {
				n++
				r := rand.New(rand.NewPCG(uint64(seed), uint64(clones)))
				t.Run(fmt.Sprintf("%d-clones/%s/%d", clones, mode, seed), func(t *testing.T) {
					t.Parallel() // each scenario has its own repositories
					root := t.TempDir()
					origin := filepath.Join(root, "origin")
					git(t, root, "init", "-q", "--bare", "-b", "main", origin)
					base := filepath.Join(root, "base")
					git(t, root, "clone", "-q", origin, base)
					if err := os.WriteFile(filepath.Join(base, ".gitattributes"), []byte(".flow/memory/*.md merge=union\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					baseLessons := []Entry{
						{Issue: "The cache key ignores the tenant id", Fix: fixes[0], Context: contexts[0]},
						{Issue: "Errors from Close are dropped on the write path", Fix: fixes[1]},
					}
					record(t, Open(filepath.Join(base, ".flow", "memory")), day.AddDate(0, 0, -7), "fn-1.1", baseLessons...)
					git(t, base, "add", "-A")
					git(t, base, "commit", "-qm", "base")
					git(t, base, "push", "-q", "origin", "main")

					type want struct{ issue, fix, context string }
					var wants []want
					sightings := map[string]int{}
					for c := range clones {
						dir := filepath.Join(root, fmt.Sprint("clone", c))
						git(t, root, "clone", "-q", origin, dir)
						s := Open(filepath.Join(dir, ".flow", "memory"))
						adds := 1 + r.IntN(5)
						for i := range adds {
							l := Entry{
								Issue:   fmt.Sprintf("Clone %d's lesson %d: the %s handler trusts the %s header", c, i, []string{"upload", "login", "export"}[r.IntN(3)], []string{"Host", "Origin", "Referer"}[r.IntN(3)]),
								Fix:     fixes[r.IntN(len(fixes))],
								Context: contexts[r.IntN(len(contexts))],
							}
							wants = append(wants, want{l.Issue, l.Fix, l.Context})
							record(t, s, day, "fn-1.1", l)
							if r.IntN(2) == 0 {
								b := baseLessons[r.IntN(len(baseLessons))]
								record(t, s, day, "fn-1.1", Entry{Issue: b.Issue})
								sightings[b.Issue]++
							}
						}
						git(t, dir, "add", "-A")
						git(t, dir, "commit", "-qm", fmt.Sprint("clone ", c))
					}
					// Each clone in turn takes what is upstream and pushes.
					for c := range clones {
						dir := filepath.Join(root, fmt.Sprint("clone", c))
						flag := "--rebase"
						if mode == "merge" {
							flag = "--no-rebase"
						}
						git(t, dir, "pull", "-q", flag, "origin", "main")
						git(t, dir, "push", "-q", "origin", "main")
					}
					final := filepath.Join(root, "final")
					git(t, root, "clone", "-q", origin, final)
					raw, err := os.ReadFile(filepath.Join(final, ".flow", "memory", "pitfalls.md"))
					if err != nil {
						t.Fatal(err)
					}
					d, err := Parse(Pitfall, raw)
					if err != nil {
						t.Fatal(err)
					}
					if len(d.Damaged) > 0 || d.Incomplete != 0 {
						t.Errorf("damaged entries %+v, incomplete %d", d.Damaged, d.Incomplete)
					}
					entries := d.Folded()
					if len(entries) != len(wants)+len(baseLessons) {
						t.Errorf("%d entries after the merges, want %d", len(entries), len(wants)+len(baseLessons))
					}
					for _, w := range wants {
						i := slices.IndexFunc(entries, func(e Entry) bool { return e.Issue == w.issue })
						if i < 0 {
							t.Errorf("lesson lost: %q", w.issue)
							continue
						}
						if e := entries[i]; e.Fix != w.fix || e.Context != w.context || e.Seen != 1 {
							t.Errorf("lesson %q came back as fix %q, context %q, seen %d; want %q, %q, 1", w.issue, e.Fix, e.Context, e.Seen, w.fix, w.context)
						}
					}
					for _, b := range baseLessons {
						i := slices.IndexFunc(entries, func(e Entry) bool { return e.Issue == b.Issue })
						if i < 0 {
							t.Errorf("base lesson lost: %q", b.Issue)
							continue
						}
						// Identical sightings (same day and task) on two
						// sides may merge into one line: at least one, at
						// most all, count.
						if got := entries[i].Seen; got < 1+min(sightings[b.Issue], 1) || got > 1+sightings[b.Issue] {
							t.Errorf("base lesson %q seen %d times after %d sightings", b.Issue, got, sightings[b.Issue])
						}
					}
					if t.Failed() {
						t.Logf("merged file:\n%s", raw)
					}
				})
			}
		}
	}
	if n != 20 {
		t.Errorf("ran %d scenarios", n)
	}
}

func record(t *testing.T, s *Store, day time.Time, task string, lessons ...Entry) {
	t.Helper()
	for i := range lessons {
		lessons[i].Task, lessons[i].Source, lessons[i].Category, lessons[i].Tasks = task, "impl-review", "api", []string{task}
	}
	if _, err := s.Record(context.Background(), Pitfall, lessons, day); err != nil {
		t.Fatal(err)
	}
}

// TestFoldStatus: two metadata lines of one lesson that disagree (two
// branches rewrote it both ways; git's union merge kept both) fold to one
// status whichever comes first and whatever their dates, and a retire
// wins over keeping the lesson.
func TestFoldStatus(t *testing.T) {
	type rec struct {
		status Status
		into   string
		last   string
	}
	recs := []rec{
		{Active, "", "2026-01-01"}, {Active, "", "2026-02-01"}, {Pending, "", "2026-03-01"},
		{Archived, "", "2026-01-01"}, {Archived, "p-b", "2026-01-01"}, {Archived, "p-a", "2026-02-01"},
	}
	for _, a := range recs {
		for _, b := range recs {
			ea := Entry{ID: "p-x", Seen: 1, LastSeen: a.last, Status: a.status, MergedInto: a.into}
			eb := Entry{ID: "p-x", Seen: 1, LastSeen: b.last, Status: b.status, MergedInto: b.into}
			ab, ba := fold(ea, eb), fold(eb, ea)
			if ab.Status != ba.Status || ab.MergedInto != ba.MergedInto || ab.LastSeen != ba.LastSeen {
				t.Errorf("%v then %v: %s %q %s; the other way %s %q %s", a, b, ab.Status, ab.MergedInto, ab.LastSeen, ba.Status, ba.MergedInto, ba.LastSeen)
			}
			if (a.status == Archived || b.status == Archived) != (ab.Status == Archived) {
				t.Errorf("%v and %v fold to %s: a retire wins", a, b, ab.Status)
			}
			if ab.Status == Pending && (a.status == Active || b.status == Active) {
				t.Errorf("%v and %v fold to pending: approving wins over waiting", a, b)
			}
		}
	}
}

// TestFoldIntoOwn: two teammates who both merged one entry into the same
// survivor recorded what it held of its own, each as their clone saw it:
// the fold keeps all of it, either way round, and only a record of the
// merge that wins speaks for the survivor.
func TestFoldIntoOwn(t *testing.T) {
	line := func(into, own string) Entry {
		l := "<!-- flowmem: id=p-x seen=1 last=2026-03-01 status=archived merged-into=" + into + " into-own=" + own + " -->"
		m, _, ok := parseMeta(l)
		if !ok {
			t.Fatalf("parseMeta(%q) failed", l)
		}
		return m
	}
	alice := line("p-a", "2026-02-01/2026-03-01/fn-1")
	bob := line("p-a", "2026-01-15/2026-02-20/fn-2,fn-1")
	for _, got := range []Entry{fold(alice, bob), fold(bob, alice)} {
		if got.MergedInto != "p-a" || got.IntoOwn != "2026-01-15/2026-03-01/fn-1,fn-2" && got.IntoOwn != "2026-01-15/2026-03-01/fn-2,fn-1" {
			t.Errorf("fold = %q %q, want p-a 2026-01-15/2026-03-01/ fn-1 and fn-2", got.MergedInto, got.IntoOwn)
		}
	}
	// Of two survivors the smaller id wins; the other's record goes.
	if got := fold(line("p-b", "2026-01-01/2026-01-01/fn-9"), alice); got.MergedInto != "p-a" || got.IntoOwn != alice.IntoOwn {
		t.Errorf("fold with a merge into p-b = %q %q, want alice's", got.MergedInto, got.IntoOwn)
	}
	// Restored on one side (active, no merged-into) and merged on the
	// other: the merge wins and keeps its record.
	restored := Entry{ID: "p-x", Seen: 1, Status: Active}
	if got := fold(restored, alice); got.IntoOwn != alice.IntoOwn {
		t.Errorf("fold with a restored copy = %q, want %q", got.IntoOwn, alice.IntoOwn)
	}
	// Normalize keeps a record only beside merged-into, cleaned.
	e := Entry{Kind: Pitfall, Issue: "x", MergedInto: "p-a", Status: Archived, IntoOwn: "2026-01-01/not-a-date/fn-1"}
	if e.Normalize(); e.IntoOwn != "" {
		t.Errorf("a bad date kept: %q", e.IntoOwn)
	}
	e = Entry{Kind: Pitfall, Issue: "x", Status: Active, IntoOwn: "2026-01-01/2026-01-02/fn-1"}
	if e.Normalize(); e.IntoOwn != "" {
		t.Errorf("kept without merged-into: %q", e.IntoOwn)
	}
	e = Entry{Kind: Pitfall, Issue: "x", MergedInto: "p-a", Status: Archived, IntoOwn: "//fn 1,,fn/2,fn 1"}
	if e.Normalize(); e.IntoOwn != "//fn-1,fn/2" {
		t.Errorf("cleaned = %q, want //fn-1,fn/2", e.IntoOwn)
	}
}

// TestFoldCountsIndependentCaptures: the metadata lines a union merge
// leaves of one lesson add up only when they name disjoint captures (n=).
// Two clones that captured it each count once; a copy both inherited and
// both rewrote (the same capture), a copy of a merged pair beside one of
// its halves, and any line without n= (written before captures were
// named) count as the larger, never one capture twice.
func TestFoldCountsIndependentCaptures(t *testing.T) {
	meta := func(seen int, tasks, n string) string {
		l := fmt.Sprintf("<!-- flowmem: id=p-0a0a0a0a0a0a seen=%d last=2026-03-02 tasks=%s status=active", seen, tasks)
		if n != "" {
			l += " n=" + n
		}
		return l + " -->\n"
	}
	cases := []struct {
		name   string
		metas  []string
		seen   int
		copies string
	}{
		{"two captures", []string{meta(1, "fn-3.1", "1111aaaa"), meta(1, "fn-3.1", "2222bbbb")}, 2, "1111aaaa,2222bbbb"},
		{"three captures", []string{meta(1, "fn-3.1", "1111aaaa"), meta(1, "fn-3.1", "2222bbbb"), meta(1, "fn-3.2", "3333cccc")}, 3, "1111aaaa,2222bbbb,3333cccc"},
		{"one capture rewritten on both sides", []string{meta(1, "fn-3.1", "1111aaaa"), meta(1, "fn-3.1", "1111aaaa")}, 1, "1111aaaa"},
		{"a merged pair and one of its halves", []string{meta(2, "fn-3.1", "1111aaaa,2222bbbb"), meta(1, "fn-3.1", "2222bbbb")}, 2, "1111aaaa,2222bbbb"},
		{"a merged pair and a third capture", []string{meta(2, "fn-3.1", "1111aaaa,2222bbbb"), meta(1, "fn-3.1", "3333cccc")}, 3, "1111aaaa,2222bbbb,3333cccc"},
		{"old lines", []string{meta(1, "fn-3.1", ""), meta(1, "fn-3.1", "")}, 1, ""},
		{"old line first", []string{meta(2, "fn-3.1", ""), meta(1, "fn-3.1", "1111aaaa"), meta(1, "fn-3.1", "2222bbbb")}, 2, ""},
		{"old line last", []string{meta(1, "fn-3.1", "1111aaaa"), meta(1, "fn-3.1", "2222bbbb"), meta(2, "fn-3.1", "")}, 2, ""},
		{"tasks still count", []string{meta(1, "fn-3.1", ""), meta(1, "fn-3.2", "")}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// One segment (git's zealous merge keeps the shared heading
			// and Issue once) and one copy each (a merge that kept
			// the blocks whole) must read the same.
			one := "## 2026-03-02 fn-3.1 impl-review [api] <!-- p-0a0a0a0a0a0a -->\n" + strings.Join(c.metas, "") + "**Issue**: Temp files outlive a failed upload\n"
			var apart strings.Builder
			for _, m := range c.metas {
				apart.WriteString("\n## 2026-03-02 fn-3.1 impl-review [api] <!-- p-0a0a0a0a0a0a -->\n" + m + "**Issue**: Temp files outlive a failed upload\n")
			}
			for layout, raw := range map[string]string{"one segment": one, "copies": apart.String()} {
				d, err := Parse(Pitfall, []byte(Header(Pitfall)+"\n"+raw))
				if err != nil {
					t.Fatal(err)
				}
				got := d.Folded()
				if len(got) != 1 || got[0].Seen != c.seen || got[0].Copies != c.copies {
					t.Errorf("%s: %+v; want one entry seen %d, copies %q", layout, got, c.seen, c.copies)
				}
			}
		})
	}
}

// TestFoldGave: two teammates who both merged X into W each wrote what X
// gave W; the records fold to the larger, as W's own records do, and a
// record that names another survivor (or none) gives nothing.
func TestFoldGave(t *testing.T) {
	a := Entry{ID: "p-x", Seen: 2, Status: Archived, MergedInto: "p-w", IntoOwn: "2026-01-01/2026-01-02/fn-1", Gave: 2}
	b := Entry{ID: "p-x", Seen: 3, Status: Archived, MergedInto: "p-w", IntoOwn: "2026-01-01/2026-01-02/fn-1", Gave: 3}
	if got := fold(a, b); got.Gave != 3 {
		t.Errorf("fold of gave=2 and gave=3: %d, want 3", got.Gave)
	}
	c := Entry{ID: "p-x", Seen: 1, Status: Active}
	if got := fold(c, a); got.Gave != 2 || got.MergedInto != "p-w" {
		t.Errorf("fold of an active record and a merge: gave %d into %q, want 2 into p-w", got.Gave, got.MergedInto)
	}
	d := Entry{ID: "p-x", Seen: 1, Status: Archived, MergedInto: "p-v", Gave: 1}
	if got := fold(a, d); got.MergedInto != "p-v" || got.Gave != 1 {
		t.Errorf("fold of merges into two survivors: gave %d into %q, want 1 into p-v (the smaller id)", got.Gave, got.MergedInto)
	}
	e := a
	e.Normalize()
	e.Kind = Pitfall
	if r := Render(&e); !strings.Contains(r, " into-own=2026-01-01/2026-01-02/fn-1 gave=2 status=archived") {
		t.Errorf("render: %s", r)
	}
	e.MergedInto = ""
	e.Normalize()
	if e.Gave != 0 {
		t.Errorf("Normalize kept gave=%d without merged-into", e.Gave)
	}
}

// TestFoldFirstDate: Alice and Bob each captured one new lesson, Bob on
// an earlier day; git's union merge puts the puller's copy first. The
// fold took the first copy's date and task, so Alice's clone said first
// seen 2026-11-29 from fn-3.1 and Bob's 2026-03-01 from fn-3.2. Either
// order reads the earlier, with the task that saw it then.
func TestFoldFirstDate(t *testing.T) {
	alice := "## 2026-11-29 fn-3.1 impl-review [api] <!-- p-7e9b2245b7b3 -->\n" +
		"<!-- flowmem: id=p-7e9b2245b7b3 fp=276ef973ba22 seen=1 last=2026-11-29 tasks=fn-3.1 status=active n=e4d87333 -->\n"
	bob := "## 2026-03-01 fn-3.2 plan-review [api] <!-- p-7e9b2245b7b3 -->\n" +
		"<!-- flowmem: id=p-7e9b2245b7b3 fp=276ef973ba22 seen=1 last=2026-03-01 tasks=fn-3.2 status=active n=e265bd06 -->\n"
	text := "**Issue**: Temp files are left behind on a failed upload\n"
	for _, raw := range []string{alice + bob + text, bob + alice + text, alice + text + "\n" + bob + text, bob + text + "\n" + alice + text} {
		d, err := Parse(Pitfall, []byte(Header(Pitfall)+"\n"+raw))
		if err != nil {
			t.Fatal(err)
		}
		f := d.Folded()
		if len(f) != 1 || f[0].Date != "2026-03-01" || f[0].Task != "fn-3.2" || f[0].Source != "plan-review" || f[0].LastSeen != "2026-11-29" || f[0].Seen != 2 {
			t.Errorf("folded %+v; want one entry first seen 2026-03-01 by fn-3.2 (plan-review), last 2026-11-29, seen 2, from:\n%s", f, raw)
		}
	}
}

// TestFoldTook: Alice merged X (2) into W and Bob merged Y (2) into W, W
// holding 2 of its own; git's union merge keeps both rewritten metadata
// lines of W, which the fold read by the larger count (4). With took= on
// each, it counts W's own once and what both merges took in (6); records
// that agree, or one without took= (no merge, an older build), fold by
// the larger count as before.
func TestFoldTook(t *testing.T) {
	alice := Entry{ID: "p-w", Seen: 4, Status: Active, Took: "p-x:2"}
	bob := Entry{ID: "p-w", Seen: 4, Status: Active, Took: "p-y:2"}
	for _, pair := range [][2]Entry{{alice, bob}, {bob, alice}} {
		if got := fold(pair[0], pair[1]); got.Seen != 6 || len(ParseTook(got.Took)) != 2 || ParseTook(got.Took).Sum() != 4 {
			t.Errorf("fold(%+v, %+v): seen %d took %q, want seen 6 took p-x:2 and p-y:2", pair[0], pair[1], got.Seen, got.Took)
		}
	}
	// Both merged X, one of them Y too: X counts once.
	both := Entry{ID: "p-w", Seen: 6, Status: Active, Took: "p-x:2,p-y:2"}
	if got := fold(alice, both); got.Seen != 6 {
		t.Errorf("fold of took=p-x:2 and took=p-x:2,p-y:2: seen %d, want 6", got.Seen)
	}
	// A record without took= (Carol archived W before either merge
	// reached her, or an older build rewrote it): the larger count.
	for _, plain := range []Entry{{ID: "p-w", Seen: 2, Status: Active}, {ID: "p-w", Seen: 5, Status: Active}} {
		got := fold(plain, alice)
		if want := max(plain.Seen, alice.Seen); got.Seen != want || got.Took != "p-x:2" {
			t.Errorf("fold of seen=%d and seen=4 took=p-x:2: seen %d took %q, want %d and p-x:2", plain.Seen, got.Seen, got.Took, want)
		}
	}
	// Alice's line, Bob's and a third three ways round: 6 whatever the order.
	carol := Entry{ID: "p-w", Seen: 2, Status: Active}
	if got := fold(fold(carol, alice), bob); got.Seen != 6 {
		t.Errorf("fold of three records: seen %d, want 6", got.Seen)
	}
	// From the file: W's two metadata lines and its sighting line.
	raw := Header(Pitfall) + "\n## 2026-11-29 manual [pitfall] <!-- p-w -->\n" +
		"<!-- flowmem: id=p-w seen=3 last=2026-11-29 took=p-x:2 status=active -->\n" +
		"<!-- flowmem: id=p-w seen=3 last=2026-11-29 took=p-y:2 status=active -->\n" +
		"<!-- flowmem: seen id=p-w last=2026-11-29 n=0badf00d -->\n" +
		"**Issue**: Log lines print the raw request body\n"
	d, err := Parse(Pitfall, []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if f := d.Folded(); len(f) != 1 || f[0].Seen != 6 {
		t.Errorf("folded %+v; want one entry seen 6", f)
	}
	e := Entry{ID: "p-w", Kind: Pitfall, Issue: "x", Seen: 6, Took: "p-x:2, p-y:0,bad,p-z:3"}
	e.Normalize()
	if e.Took != "p-x:2,p-z:3" || !strings.Contains(Render(&e), " took=p-x:2,p-z:3 status=active") {
		t.Errorf("normalized took %q, render %s", e.Took, Render(&e))
	}
}
