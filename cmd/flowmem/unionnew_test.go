package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestUnionMergeSameNewLesson: Alice and Bob each capture the same NEW
// lesson Y on the same day for the same task. Their two entries were byte
// for byte the same, and git's union merge takes an addition both sides
// made once: the merged memory said Y seen once, not twice. Two
// independent sightings must count twice, while a copy both sides
// inherited (W and X, in the base) still counts once, however the pulls go.
func TestUnionMergeSameNewLesson(t *testing.T) {
	t.Parallel()
	const edgeY = "Temp files are left behind on a failed upload"
	keptW := wantEntry{text: edgeW, seen: 2, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2"}}
	keptX := wantEntry{text: edgeX, seen: 1, status: mdstore.Active, tasks: []string{"fn-1.1"}}
	y := func(seen int) wantEntry {
		return wantEntry{text: edgeY, seen: seen, status: mdstore.Active, tasks: []string{"fn-3.1"}}
	}
	show := func(t *testing.T, dir string) {
		if t.Failed() {
			raw, _ := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
			t.Logf("pitfalls.md in %s:\n%s", filepath.Base(dir), raw)
		}
	}
	pullWays(t, func(t *testing.T, alicePulls bool, how string) {
		r := newTeamRepo(t, mdstore.Active)
		alice, bobDir, carol := r.clone(t, "alice"), r.clone(t, "bob"), r.clone(t, "carol")
		for _, dir := range []string{alice, bobDir, carol} {
			mustFlowmem(t, plain(), dir, "memory", "add", "--type", "pitfall", edgeY, "--task", "fn-3.1")
			gitIn(t, dir, "commit", "-qam", "Y")
		}
		first, second := alice, bobDir
		if alicePulls {
			first, second = bobDir, alice
		}
		join(t, first, second, how)
		checkReaders(t, second, map[string]wantEntry{r.w: keptW, r.x: keptX, "": y(2)})
		show(t, second)
		// A rewrite of the folded lesson (archive, then restore) keeps it
		// two sightings, not one and not more.
		for _, cmd := range []string{"archive", "restore"} {
			mustFlowmem(t, plain(), second, "memory", cmd, mdstoreID(t, second, edgeY))
		}
		gitIn(t, second, "commit", "-q", "--allow-empty", "-am", "archive and restore Y")
		checkReaders(t, second, map[string]wantEntry{r.w: keptW, r.x: keptX, "": y(2)})
		// Carol's copy is a third sighting; the merged pair, which
		// reaches her as one side, counts as the two it is.
		join(t, second, carol, how)
		checkReaders(t, carol, map[string]wantEntry{r.w: keptW, r.x: keptX, "": y(3)})
		show(t, carol)
		// first pulls what already holds its own copy: nothing is new.
		join(t, carol, first, how)
		checkReaders(t, first, map[string]wantEntry{r.w: keptW, r.x: keptX, "": y(3)})
		show(t, first)
	})
}

// mdstoreID is the id of the entry whose lesson is text in dir's memory.
func mdstoreID(t *testing.T, dir, text string) string {
	t.Helper()
	d, err := mdstore.Open(filepath.Join(dir, ".flow", "memory")).ReadDoc(mdstore.Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range d.Folded() {
		if e.Text() == text {
			return e.ID
		}
	}
	t.Fatalf("no entry %q in %s", text, dir)
	return ""
}
