package curate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

var day = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestFind(t *testing.T) {
	entries := []mdstore.Entry{{ID: "p-abc123"}, {ID: "p-abd456"}, {ID: "p-abc"}}
	tests := []struct {
		id, want, err string
	}{
		{"p-abc123", "p-abc123", ""},
		{"p-abd", "p-abd456", ""},
		{"p-abc", "p-abc", ""}, // an exact id wins over the longer ids it starts
		{"p-ab", "", "ambiguous: it starts 3 ids"},
		{"p-x", "", "no such entry"},
		// Ids are lower-case hex; one copied from a page that capitalised
		// it still names the entry.
		{"P-ABD", "p-abd456", ""},
		{"p-ABC", "p-abc", ""},
		{" ", "", "empty id"},
	}
	for _, tt := range tests {
		got, err := Find(entries, tt.id)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Find(%q) err = %v, want %q", tt.id, err, tt.err)
			}
			continue
		}
		if err != nil || got.ID != tt.want {
			t.Errorf("Find(%q) = %s, %v; want %s", tt.id, got.ID, err, tt.want)
		}
	}
	if _, err := Find(entries, "p-zz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v is not ErrNotFound", err)
	}
}

func record(t *testing.T, s *mdstore.Store, when time.Time, task string, issues ...string) []string {
	t.Helper()
	var lessons []mdstore.Entry
	for _, x := range issues {
		lessons = append(lessons, mdstore.Entry{Issue: x, Task: task, Tasks: []string{task}})
	}
	out, err := s.Record(context.Background(), mdstore.Pitfall, lessons, when)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range out {
		ids = append(ids, o.ID)
	}
	return ids
}

func load(t *testing.T, s *mdstore.Store) map[string]mdstore.Entry {
	t.Helper()
	entries, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]mdstore.Entry{}
	for _, e := range entries {
		m[e.ID] = e
	}
	return m
}

func TestMerge(t *testing.T) {
	s := mdstore.Open(t.TempDir())
	a := record(t, s, day, "fn-1", "io.ReadAll on stdin hangs the hook")[0]
	record(t, s, day.AddDate(0, 0, 2), "fn-3", "io.ReadAll on stdin hangs the hook")
	b := record(t, s, day.AddDate(0, 0, -5), "fn-2", "the hook hangs reading stdin to EOF")[0]
	c := record(t, s, day, "fn-9", "an unrelated lesson")[0]
	m, err := Merge(context.Background(), s, []string{a, b[:6]}, "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Into.ID != a || len(m.Merged) != 1 || m.Merged[0].ID != b {
		t.Fatalf("Merge = %+v", m)
	}
	got := load(t, s)
	sv := got[a]
	// fn-3 is named by the sighting line the merge keeps, read after the
	// metadata line.
	if sv.Seen != 3 || sv.Date != "2026-02-24" || sv.LastSeen != "2026-03-03" || strings.Join(sv.Tasks, ",") != "fn-1,fn-2,fn-3" || sv.Status != mdstore.Active {
		t.Errorf("survivor = %+v", sv)
	}
	if sv.Issue != "io.ReadAll on stdin hangs the hook" {
		t.Errorf("survivor's text changed: %q", sv.Issue)
	}
	if o := got[b]; o.Status != mdstore.Archived || o.MergedInto != a {
		t.Errorf("merged entry = %+v", o)
	}
	if got[c].Status != mdstore.Active || got[c].Seen != 1 {
		t.Errorf("bystander changed: %+v", got[c])
	}
	if _, err := Merge(context.Background(), s, []string{a, b}, ""); err == nil {
		t.Error("merging an archived entry succeeded")
	}
	if _, err := Merge(context.Background(), s, []string{a}, ""); err == nil {
		t.Error("merging one entry succeeded")
	}
}

// TestMergeIntoNamedOtherwise: --into may name a survivor among the ids by
// another spelling (a prefix, the whole id, capitals); it is one entry,
// not one named twice.
func TestMergeIntoNamedOtherwise(t *testing.T) {
	for _, spell := range []func(string) string{
		func(id string) string { return id[:6] },
		func(id string) string { return strings.ToUpper(id) },
	} {
		s := mdstore.Open(t.TempDir())
		a := record(t, s, day, "fn-1", "io.ReadAll on stdin hangs the hook")[0]
		b := record(t, s, day, "fn-2", "the hook hangs reading stdin to EOF")[0]
		m, err := Merge(context.Background(), s, []string{a, b}, spell(b))
		if err != nil {
			t.Fatalf("merge %s %s --into %s: %v", a, b, spell(b), err)
		}
		if m.Into.ID != b || len(m.Merged) != 1 || m.Merged[0].ID != a {
			t.Errorf("Merge = %+v, want %s into %s", m, a, b)
		}
	}
}

// TestMergeRacesCaptures: a merge racing 16 concurrent hook captures loses
// none of them and neither part of the merge.
func TestMergeRacesCaptures(t *testing.T) {
	s := mdstore.Open(t.TempDir())
	ids := record(t, s, day, "fn-1", "first wording of the lesson", "second wording of the lesson")
	var wg sync.WaitGroup
	errs := make(chan error, 17)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A repeat of the merged lesson now and then, a new one otherwise.
			issue := fmt.Sprintf("captured lesson %d", i)
			if i%4 == 0 {
				issue = "second wording of the lesson"
			}
			_, err := mdstore.Open(s.Dir).Record(context.Background(), mdstore.Pitfall,
				[]mdstore.Entry{{Issue: issue, Task: fmt.Sprintf("fn-%d", i+10)}}, day)
			errs <- err
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err := Merge(context.Background(), mdstore.Open(s.Dir), ids, "")
		errs <- err
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := load(t, s)
	if len(got) != 2+12 {
		t.Errorf("got %d entries, want the 2 merged and 12 new captures", len(got))
	}
	for i := range 16 {
		if i%4 == 0 {
			continue
		}
		found := false
		for _, e := range got {
			found = found || e.Issue == fmt.Sprintf("captured lesson %d", i)
		}
		if !found {
			t.Errorf("capture %d was lost", i)
		}
	}
	if got[ids[1]].Status != mdstore.Archived || got[ids[1]].MergedInto != ids[0] {
		t.Errorf("merge lost: %+v", got[ids[1]])
	}
	// Every sighting is counted once: on the survivor when the merge came
	// after it, on the archived entry when it came later.
	if total := got[ids[0]].Seen + got[ids[1]].Seen - 1; total < 2+4-1 || got[ids[0]].Seen < 2 {
		t.Errorf("seen counts: survivor %d, merged %d", got[ids[0]].Seen, got[ids[1]].Seen)
	}
}

func TestApplyChecksEveryEntryFirst(t *testing.T) {
	s := mdstore.Open(t.TempDir())
	ids := record(t, s, day, "fn-1", "lesson one", "lesson two")
	if _, err := Apply(context.Background(), s, Archive, []mdstore.Entry{{ID: ids[1], Kind: mdstore.Pitfall, Status: mdstore.Active}}); err != nil {
		t.Fatal(err)
	}
	// Rejecting an active lesson is refused (it was never waiting for
	// approval), so the archived one beside it is not touched either.
	entries, err := Lookup(s, ids)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(context.Background(), s, Reject, entries); err == nil || !strings.Contains(err.Error(), "is active, not pending approval") {
		t.Fatalf("rejecting an active entry: %v", err)
	}
	if _, err := Apply(context.Background(), s, Restore, []mdstore.Entry{entries[1], {ID: ids[0], Kind: mdstore.Pitfall, Status: mdstore.Pending}}); err == nil {
		t.Fatal("restoring a pending entry succeeded")
	}
	if got := load(t, s); got[ids[0]].Status != mdstore.Active || got[ids[1]].Status != mdstore.Archived {
		t.Errorf("a failed action changed the entries: %+v", got)
	}
}

// An entry already as the action would leave it is left alone and
// returned; the others change. A forgotten id is told apart from one that
// never was.
func TestApplyLeavesWhatIsDoneAlready(t *testing.T) {
	s := mdstore.Open(t.TempDir())
	ids := record(t, s, day, "fn-1", "lesson one", "lesson two", "lesson three")
	ctx := context.Background()
	one, err := Lookup(s, ids[1:2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, s, Archive, one); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(s.Path(mdstore.Pitfall))
	if err != nil {
		t.Fatal(err)
	}
	both, err := Lookup(s, ids[1:])
	if err != nil {
		t.Fatal(err)
	}
	already, err := Apply(ctx, s, Archive, both[:1])
	if err != nil || len(already) != 1 || already[0].ID != ids[1] {
		t.Fatalf("archiving an archived entry: already %v, err %v", already, err)
	}
	if after, _ := os.ReadFile(s.Path(mdstore.Pitfall)); string(after) != string(before) {
		t.Error("archiving an archived entry rewrote the file")
	}
	already, err = Apply(ctx, s, Archive, both)
	if err != nil || len(already) != 1 || already[0].ID != ids[1] {
		t.Fatalf("archiving one archived, one active: already %v, err %v", already, err)
	}
	if got := load(t, s)[ids[2]].Status; got != mdstore.Archived {
		t.Errorf("the active entry beside an archived one is %s", got)
	}
	if already, err = Apply(ctx, s, Restore, both); err != nil || len(already) != 0 {
		t.Fatalf("restore: already %v, err %v", already, err)
	}
	if already, err = Apply(ctx, s, Restore, both[:1]); err != nil || len(already) != 1 {
		t.Fatalf("restoring an active entry: already %v, err %v", already, err)
	}

	first, err := Lookup(s, ids[:1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, s, Forget, first); err != nil {
		t.Fatal(err)
	}
	entries, gone, err := LookupGone(s, []string{ids[0][:8], ids[2]})
	if err != nil || len(entries) != 1 || len(gone) != 1 || gone[0].ID != ids[0] || gone[0].Kind != mdstore.Pitfall {
		t.Fatalf("LookupGone: entries %v, gone %v, err %v", entries, gone, err)
	}
	if _, err := Lookup(s, ids[:1]); err == nil || !strings.Contains(err.Error(), ids[0]+" was forgotten") {
		t.Errorf("Lookup of a forgotten id: %v", err)
	}
	if _, _, err := LookupGone(s, []string{"p-0000"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("an id that never was: %v", err)
	}
}

func TestGroups(t *testing.T) {
	entries := []mdstore.Entry{
		{Kind: mdstore.Pitfall, ID: "p-1", Issue: "The hook reads stdin with io.ReadAll and hangs when stdin stays open", Fix: "decode one JSON object"},
		{Kind: mdstore.Pitfall, ID: "p-2", Issue: "io.ReadAll on stdin hangs the hook because Claude Code leaves stdin open", Fix: "decode one JSON object with json.Decoder"},
		{Kind: mdstore.Pitfall, ID: "p-3", Issue: "Tests create temp files with os.MkdirTemp and never remove them", Fix: "use t.TempDir()"},
		{Kind: mdstore.Convention, ID: "c-1", Body: "The hook reads stdin with io.ReadAll and hangs when stdin stays open"},
		{Kind: mdstore.Pitfall, ID: "p-4", Issue: "The hook reads stdin with io.ReadAll and hangs when stdin stays open", Status: mdstore.Archived},
	}
	for i := range entries {
		if entries[i].Status == "" {
			entries[i].Status = mdstore.Active
		}
	}
	groups := Groups(entries, DefaultThreshold, 0)
	if len(groups) != 1 || len(groups[0].Entries) != 2 || groups[0].Entries[0].ID != "p-1" || groups[0].Entries[1].ID != "p-2" {
		t.Fatalf("Groups = %+v, want p-1 with p-2 only (other kinds and archived entries apart)", groups)
	}
	if s := groups[0].Score; s < DefaultThreshold || s > 1 {
		t.Errorf("score %v out of range", s)
	}
	if g := Groups(entries, 0.99, 0); len(g) != 0 {
		t.Errorf("at threshold 0.99: %+v", g)
	}
}

// A review that repeats a merged wording counts for the survivor.
func TestRepeatOfMergedEntryCountsForSurvivor(t *testing.T) {
	s := mdstore.Open(t.TempDir())
	ids := record(t, s, day, "fn-1", "first wording of the lesson", "second wording of the lesson")
	if _, err := Merge(context.Background(), s, ids, ""); err != nil {
		t.Fatal(err)
	}
	out, err := s.Record(context.Background(), mdstore.Pitfall, []mdstore.Entry{{Issue: "second wording of the lesson", Task: "fn-7", Tasks: []string{"fn-7"}}}, day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if out[0].New || out[0].ID != ids[0] || out[0].Seen != 3 {
		t.Errorf("outcome = %+v, want a sighting of survivor %s, seen 3", out[0], ids[0])
	}
	got := load(t, s)
	if got[ids[0]].Seen != 3 || got[ids[0]].LastSeen != "2026-03-02" || got[ids[1]].Seen != 1 {
		t.Errorf("survivor %+v, merged %+v", got[ids[0]], got[ids[1]])
	}
}

// Restoring a merged entry takes its sightings back from the survivor.
func TestRestoreUndoesMergeCount(t *testing.T) {
	s := mdstore.Open(t.TempDir())
	ids := record(t, s, day, "fn-1", "first wording of the lesson", "second wording of the lesson")
	record(t, s, day, "fn-2", "second wording of the lesson")
	if _, err := Merge(context.Background(), s, ids, ""); err != nil {
		t.Fatal(err)
	}
	if got := load(t, s)[ids[0]].Seen; got != 3 {
		t.Fatalf("survivor seen %d after the merge, want 3", got)
	}
	entries, err := Lookup(s, ids[1:])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(context.Background(), s, Restore, entries); err != nil {
		t.Fatal(err)
	}
	got := load(t, s)
	if got[ids[0]].Seen != 1 || got[ids[1]].Seen != 2 || got[ids[1]].Status != mdstore.Active || got[ids[1]].MergedInto != "" {
		t.Errorf("after restore: survivor %+v, restored %+v", got[ids[0]], got[ids[1]])
	}
}

// Restoring a merged entry takes back the tasks and dates it brought the
// survivor, whichever of two merged entries comes back first; a repeat
// counted for the survivor after the merge stays its own.
func TestRestoreUndoesMergeTasksAndDates(t *testing.T) {
	ctx := context.Background()
	for _, order := range [][]int{{1, 2}, {2, 1}} {
		s := mdstore.Open(t.TempDir())
		a := record(t, s, day, "fn-1", "first wording of the lesson")[0]
		b := record(t, s, day.AddDate(0, 0, -20), "fn-2", "second wording of the lesson")[0]
		record(t, s, day.AddDate(0, 0, 30), "fn-3", "second wording of the lesson")
		c := record(t, s, day.AddDate(0, 0, -10), "fn-4", "third wording of the lesson")[0]
		before := load(t, s)[a]
		ids := []string{a, b, c}
		if _, err := Merge(ctx, s, []string{a, b}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := Merge(ctx, s, []string{a, c}, ""); err != nil {
			t.Fatal(err)
		}
		if got := load(t, s)[a]; got.Seen != 4 || got.Date != "2026-02-09" || got.LastSeen != "2026-03-31" || len(got.Tasks) != 4 {
			t.Fatalf("after the merges: %+v", got)
		}
		// A review repeats the first wording (a sighting of the survivor).
		if _, err := s.Record(ctx, mdstore.Pitfall, []mdstore.Entry{{Issue: "first wording of the lesson", Task: "fn-7", Tasks: []string{"fn-7"}}}, day.AddDate(0, 0, 1)); err != nil {
			t.Fatal(err)
		}
		for _, i := range order {
			entries, err := Lookup(s, ids[i:i+1])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Apply(ctx, s, Restore, entries); err != nil {
				t.Fatal(err)
			}
		}
		got := load(t, s)
		sv := got[a]
		if sv.Seen != before.Seen+1 || sv.Date != before.Date || sv.LastSeen != "2026-03-02" || !slices.Equal(sv.Tasks, []string{"fn-1", "fn-7"}) {
			t.Errorf("restored %v: survivor %+v, want as before (%+v) with the repeat on 2026-03-02 for fn-7", order, sv, before)
		}
		if got[b].Seen != 2 || got[b].Date != "2026-02-09" || got[b].IntoOwn != "" || !slices.Equal(got[b].Tasks, []string{"fn-2", "fn-3"}) {
			t.Errorf("restored %v: %+v", order, got[b])
		}
	}
}

// Near proposes entries beside a group: never its own members, one entry
// for another whole group, nothing below the floor.
func TestNear(t *testing.T) {
	e := func(id, issue, fix string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Fix: fix, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "The hook reads stdin with io.ReadAll and hangs when stdin stays open", "decode one JSON object"),
		e("p-1", "io.ReadAll on stdin hangs the hook because Claude Code leaves stdin open", "decode one JSON object"),
		e("p-2", "The hook blocks reading stdin until EOF", "decode the first JSON value and return"),
		e("p-3", "The hook blocks reading stdin until EOF arrives", "decode the first JSON value and return"),
		e("p-4", "The hook reads its config file twice", "cache the parsed config"),
		e("p-5", "Tests keep scratch directories around", "use t.TempDir()"),
	}
	x := NewIndex(entries)
	groupOf := map[int]int{0: 0, 1: 0, 2: 1, 3: 1}
	near := x.Near([]int{0, 1}, groupOf, 3, 0)
	var got []string
	for _, p := range near {
		got = append(got, entries[p.J].ID)
	}
	// p-2 and p-3 are one group: only the nearer stands for it; p-5 shares
	// no word with any entry.
	if len(got) != 2 || (got[0] != "p-2" && got[0] != "p-3") || got[1] != "p-4" {
		t.Errorf("Near = %v, want one of p-2/p-3, then p-4", got)
	}
	if near[0].Score <= near[1].Score {
		t.Errorf("Near scores %v not best first", near)
	}
	if high := x.Near([]int{0, 1}, groupOf, 3, near[0].Score+0.01); len(high) != 0 {
		t.Errorf("Near above the floor = %v, want none", high)
	}
}

// An entry takes on its nearest neighbour's words: two wordings that
// share no word become alike through a third that shares words with both,
// while an entry that shares no word with any other stays unlike all.
func TestFeedback(t *testing.T) {
	e := func(id, issue, fix string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Fix: fix, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "The worker holds a mutex across an await point", "release the lock before awaiting"),
		e("p-1", "A lock guard lives across the await in the worker", "drop the guard before awaiting"),
		e("p-2", "The guard survives the suspension, so other tasks stall", "drop the guard first"),
		e("p-3", "Templates escape nothing; admin pages render raw input", "escape output"),
	}
	for i := range 8 {
		entries = append(entries, e(fmt.Sprintf("p-x%d", i), fmt.Sprintf("filler%d words%d here%d", i, i, i), ""))
	}
	x := NewIndex(entries)
	if s := x.Similarity(0, 2); s <= 0 {
		t.Errorf("p-0 and p-2 share no word but both share words with p-1: likeness %.3f, want above 0", s)
	}
	if s := x.Similarity(0, 3); s != 0 {
		t.Errorf("p-3 shares no word with any entry: likeness to p-0 %.3f, want 0", s)
	}
}

// An entry joins a group when it is alike enough to the members on
// average, though less to one of them; a pair under the threshold starts
// none.
func TestClustersAverage(t *testing.T) {
	e := func(id, issue string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "alpha bravo charlie delta echo"),
		e("p-1", "alpha bravo charlie delta foxtrot"),
		e("p-2", "alpha bravo charlie foxtrot golf"),
		e("p-3", "kilo lima mike november"),
		e("p-4", "kilo lima oscar papa"),
	}
	for i := range 12 {
		// Unrelated entries, so that every word above is rare.
		entries = append(entries, e(fmt.Sprintf("p-x%d", i), fmt.Sprintf("filler%d words%d here%d", i, i, i)))
	}
	x := NewIndex(entries)
	s := func(i, j int) float64 { return x.Similarity(i, j) }
	th := (s(0, 2) + s(1, 2)) / 2 // p-2 is this alike to p-0 and p-1 on average
	if s(0, 2) >= th || s(0, 1) < th || s(3, 4) >= th {
		t.Fatalf("fixture: %.3f %.3f %.3f %.3f, threshold %.3f", s(0, 1), s(0, 2), s(1, 2), s(3, 4), th)
	}
	groups, scores := x.Clusters(th)
	if len(groups) != 1 || !slices.Equal(slices.Sorted(slices.Values(groups[0])), []int{0, 1, 2}) {
		t.Errorf("groups %v at %.3f, want p-0, p-1, p-2 only (p-2 alike enough on average; p-3 and p-4 too little)", groups, th)
	}
	if len(scores) == 1 && scores[0] != s(0, 2) {
		t.Errorf("score %.3f, want the least likeness of two members %.3f", scores[0], s(0, 2))
	}
}

// A word of a code name counts less than a word of prose: a lesson is
// nearer a rewording that shares two of its prose words than another
// lesson about the same function, which shares the function's name.
func TestNamesCountLess(t *testing.T) {
	e := func(id, issue string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "parseConfig panics on empty input"),
		e("p-1", "parseConfig ignores unknown keys"),
		e("p-2", "panics on empty strings during loader startup"),
	}
	for i := range 12 {
		entries = append(entries, e(fmt.Sprintf("p-x%d", i), fmt.Sprintf("filler%d words%d here%d", i, i, i)))
	}
	x := NewIndex(entries)
	if n, r := x.Similarity(0, 1), x.Similarity(0, 2); r <= n {
		t.Errorf("likeness to the rewording %.3f, to the lesson about the same function %.3f: want the rewording nearer", r, n)
	}
}

// An entry near a group that is in a group of its own stands for that
// group, so it comes with the group's other members.
func TestGroupsNearWith(t *testing.T) {
	e := func(id, issue, fix string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Fix: fix, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "The hook reads stdin with io.ReadAll and hangs when stdin stays open", "decode one JSON object"),
		e("p-1", "io.ReadAll on stdin hangs the hook because Claude Code leaves stdin open", "decode one JSON object"),
		e("p-2", "The hook blocks reading stdin until EOF", "decode the first JSON value and return"),
		e("p-3", "The hook blocks reading stdin until EOF arrives", "decode the first JSON value and return"),
		e("p-4", "Tests keep scratch directories around", "use t.TempDir()"),
	}
	groups := Groups(entries, DefaultThreshold, 0)
	if len(groups) != 2 {
		t.Fatalf("Groups = %+v, want p-0 with p-1 and p-2 with p-3", groups)
	}
	for _, g := range groups {
		if len(g.Near) != 1 || len(g.Near[0].With) != 1 {
			t.Fatalf("near %+v: want the other group's nearer member with its partner", g.Near)
		}
		pair := []string{g.Near[0].ID, g.Near[0].With[0].ID}
		slices.Sort(pair)
		for _, m := range g.Entries {
			if slices.Contains(pair, m.ID) {
				t.Errorf("group %+v: near %v holds its own member", g.Entries, pair)
			}
		}
		if pair[0]+pair[1] != "p-0p-1" && pair[0]+pair[1] != "p-2p-3" {
			t.Errorf("near %v, want the other group", pair)
		}
	}
}

// A neighbour with near copies of its own ranks below a less alike one
// that is near to little else: the copies are near to everything on their
// topic, and would fill every neighbour list on it.
func TestCrowdedRanksLower(t *testing.T) {
	e := func(id, issue string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "alpha bravo charlie delta"),
		e("p-1", "alpha bravo echo foxtrot"),
		e("p-2", "alpha bravo echo foxtrot golf"),
		e("p-3", "alpha bravo echo foxtrot hotel"),
		e("p-4", "charlie kilo lima mike"),
	}
	for i := range 12 {
		entries = append(entries, e(fmt.Sprintf("p-x%d", i), fmt.Sprintf("filler%d words%d here%d", i, i, i)))
	}
	x := NewIndex(entries)
	if c, s := x.Similarity(0, 1), x.Similarity(0, 4); c <= s {
		t.Fatalf("fixture: likeness to the crowded p-1 %.3f, to the lone p-4 %.3f: want p-1 more alike", c, s)
	}
	if nb := x.Neighbours(0, 1, rescore); len(nb) != 1 || nb[0].J != 4 {
		t.Errorf("nearest of p-0 = %v, want p-4 (p-1 is crowded by its copies)", nb)
	}
	if nb := x.Near([]int{0}, nil, 1, 0); len(nb) != 1 || nb[0].J != 4 {
		t.Errorf("Near p-0 = %v, want p-4", nb)
	}
}

// Two wordings of one lesson that share few words start a group at the
// default threshold when each is the other's nearest; asked for a
// stricter threshold, curate proposes only pairs at least that alike.
func TestGroupsEachOthersNearest(t *testing.T) {
	entries := []mdstore.Entry{
		{Kind: mdstore.Pitfall, ID: "p-1", Issue: "The retry loop sleeps a fixed second between attempts, so a flaky upstream gets hammered by every worker at once", Fix: "back off exponentially with jitter"},
		{Kind: mdstore.Pitfall, ID: "p-2", Issue: "Retries fire in lockstep across workers because the delay never grows", Fix: "use exponential backoff with random jitter"},
		{Kind: mdstore.Pitfall, ID: "p-3", Issue: "Tests create temp files with os.MkdirTemp and never remove them", Fix: "use t.TempDir()"},
		{Kind: mdstore.Pitfall, ID: "p-4", Issue: "The migration renames a column the running release still reads", Fix: "add the new column, backfill, then drop the old one a release later"},
	}
	for i := range entries {
		entries[i].Status = mdstore.Active
	}
	x := NewIndex(entries)
	s := x.Similarity(0, 1)
	if s >= DefaultThreshold || s < mutualFloor*DefaultThreshold {
		t.Fatalf("similarity %.3f: the case needs a pair below the threshold and above %.2f of it", s, mutualFloor)
	}
	groups := Groups(entries, DefaultThreshold, 0)
	if len(groups) != 1 || len(groups[0].Entries) != 2 || groups[0].Entries[0].ID != "p-1" || groups[0].Entries[1].ID != "p-2" {
		t.Fatalf("Groups = %+v, want p-1 with p-2: each is the other's nearest", groups)
	}
	if g := Groups(entries, 0.6, 0); len(g) != 0 {
		t.Errorf("above the default threshold: %+v, want none", g)
	}
}

// Each other's nearest is by rank: p-0 is most alike to p-1, one of three
// near copies that form a group of their own, and nearest by rank to the
// lone p-4, whose nearest it is too; the two start a group.
func TestGroupsEachOthersNearestByRank(t *testing.T) {
	e := func(id, issue string) mdstore.Entry {
		return mdstore.Entry{Kind: mdstore.Pitfall, ID: id, Issue: issue, Status: mdstore.Active}
	}
	entries := []mdstore.Entry{
		e("p-0", "alpha bravo charlie delta"),
		e("p-1", "alpha bravo echo foxtrot"),
		e("p-2", "alpha bravo echo foxtrot golf"),
		e("p-3", "alpha bravo echo foxtrot hotel"),
		e("p-4", "charlie kilo lima mike"),
	}
	for i := range 12 {
		entries = append(entries, e(fmt.Sprintf("p-x%d", i), fmt.Sprintf("filler%d words%d here%d", i, i, i)))
	}
	x := NewIndex(entries)
	if c, s := x.Similarity(0, 1), x.Similarity(0, 4); c <= s || s >= DefaultThreshold || s < mutualFloor*DefaultThreshold {
		t.Fatalf("fixture: likeness to the crowded p-1 %.3f, to the lone p-4 %.3f: want p-1 more alike, p-4 below the threshold and above %.2f of it", c, s, mutualFloor)
	}
	var ids []string
	for _, g := range Groups(entries, DefaultThreshold, 0) {
		if slices.ContainsFunc(g.Entries, func(m Member) bool { return m.ID == "p-0" }) {
			for _, m := range g.Entries {
				ids = append(ids, m.ID)
			}
		}
	}
	if !slices.Equal(ids, []string{"p-0", "p-4"}) {
		t.Errorf("p-0's group = %v, want [p-0 p-4]: each is the other's nearest by rank", ids)
	}
}

// TestRestoreChain: C merged into B, then B into A. Restoring C gave its
// count back to B only, so A still counted C's sightings beside the
// restored C (C first, then B: A read 5, not 2); restoring both in one
// call wrote B's state from before C's restore. Every order, one call or
// two, leaves each entry as it was.
func TestRestoreChain(t *testing.T) {
	ctx := context.Background()
	for _, order := range [][]int{{2, 1}, {1, 2}, {0}} {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			s := mdstore.Open(t.TempDir())
			a := record(t, s, day, "fn-1", "first wording of the lesson")[0]
			record(t, s, day.AddDate(0, 0, 1), "fn-2", "first wording of the lesson")
			b := record(t, s, day.AddDate(0, 0, -5), "fn-3", "second wording of the lesson")[0]
			c := record(t, s, day.AddDate(0, 0, -9), "fn-4", "third wording of the lesson")[0]
			record(t, s, day.AddDate(0, 0, 3), "fn-5", "third wording of the lesson")
			record(t, s, day.AddDate(0, 0, 4), "fn-6", "third wording of the lesson")
			before := load(t, s)
			if _, err := Merge(ctx, s, []string{b, c}, ""); err != nil {
				t.Fatal(err)
			}
			if _, err := Merge(ctx, s, []string{a, b}, ""); err != nil {
				t.Fatal(err)
			}
			if got := load(t, s)[a]; got.Seen != 6 || len(got.Tasks) != 6 {
				t.Fatalf("after the merges: %+v", got)
			}
			ids := []string{a, b, c}
			steps := [][]string{}
			if order[0] == 0 {
				steps = append(steps, []string{c, b})
			} else {
				for _, i := range order {
					steps = append(steps, ids[i:i+1])
				}
			}
			for _, step := range steps {
				entries, err := Lookup(s, step)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Apply(ctx, s, Restore, entries); err != nil {
					t.Fatal(err)
				}
				if order[0] == 2 && step[0] == c {
					// A took B's 4 (C's 3 in them); C's part is gone.
					if got := load(t, s); got[a].Took != b+":1" || got[b].Took != "" {
						t.Errorf("after restoring C: a took %q, b took %q; want %s:1 and none", got[a].Took, got[b].Took, b)
					}
				}
			}
			got := load(t, s)
			for _, id := range ids {
				w, g := before[id], got[id]
				if g.Took != "" {
					t.Errorf("%s after restoring %v still took %q", id, steps, g.Took)
				}
				if g.Status != mdstore.Active || g.Seen != w.Seen || g.Date != w.Date || g.LastSeen != w.LastSeen || !slices.Equal(g.Tasks, w.Tasks) {
					t.Errorf("%s after restoring %v: %s seen %d %s..%s %v; want active seen %d %s..%s %v", id, steps, g.Status, g.Seen, g.Date, g.LastSeen, g.Tasks, w.Seen, w.Date, w.LastSeen, w.Tasks)
				}
			}
		})
	}
}

// Restoring the first entry of a long merge chain (f into e, e into d, …
// b into a) takes its count back from every survivor up the chain, the
// last one too: the walk is not cut short after a few hops.
func TestRestoreLongChain(t *testing.T) {
	ctx := context.Background()
	s := mdstore.Open(t.TempDir())
	var ids []string
	for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"} {
		ids = append(ids, record(t, s, day, "fn-1", "the "+w+" cache is never invalidated after a config reload")[0])
	}
	for i := len(ids) - 2; i >= 0; i-- {
		if _, err := Merge(ctx, s, []string{ids[i], ids[i+1]}, ""); err != nil {
			t.Fatal(err)
		}
	}
	if got := load(t, s)[ids[0]].Seen; got != len(ids) {
		t.Fatalf("head seen %d after the merges, want %d", got, len(ids))
	}
	last := ids[len(ids)-1]
	entries, err := Lookup(s, []string{last})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, s, Restore, entries); err != nil {
		t.Fatal(err)
	}
	got := load(t, s)
	for i, id := range ids[:len(ids)-1] {
		if want := len(ids) - 1 - i; got[id].Seen != want {
			t.Errorf("survivor %d (%s) seen %d after restoring %s, want %d", i, id, got[id].Seen, last, want)
		}
	}
	if g := got[last]; g.Status != mdstore.Active || g.Seen != 1 {
		t.Errorf("restored %+v", g)
	}
}

// A review that repeats the first wording of a long merge chain counts
// for the chain's head, however many merges lie between.
func TestRepeatAtEndOfLongChainCountsForHead(t *testing.T) {
	ctx := context.Background()
	s := mdstore.Open(t.TempDir())
	var ids []string
	for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"} {
		ids = append(ids, record(t, s, day, "fn-1", "the "+w+" cache is never invalidated after a config reload")[0])
	}
	for i := len(ids) - 2; i >= 0; i-- {
		if _, err := Merge(ctx, s, []string{ids[i], ids[i+1]}, ""); err != nil {
			t.Fatal(err)
		}
	}
	out, err := s.Record(ctx, mdstore.Pitfall, []mdstore.Entry{{Issue: "the foxtrot cache is never invalidated after a config reload", Task: "fn-9", Tasks: []string{"fn-9"}}}, day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if out[0].New || out[0].ID != ids[0] || out[0].Seen != len(ids)+1 {
		t.Errorf("outcome = %+v, want a sighting of head %s, seen %d", out[0], ids[0], len(ids)+1)
	}
}
