package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestUnionMergeRestoreAfterRepeats: Alice merges X into W (which already
// holds Y, merged into it before), while Bob, who has not pulled, sees X
// again twice. After the union merge Bob's two sightings count for X,
// never for W; restoring X then took X's whole count (3) off W, two of
// which W never held: W read 2, not its 3.
func TestUnionMergeRestoreAfterRepeats(t *testing.T) {
	t.Parallel()
	pullWays(t, func(t *testing.T, alicePulls bool, how string) {
		r := newTeamRepo(t, mdstore.Active)
		carol := r.clone(t, "carol")
		mustFlowmem(t, plain(), carol, "memory", "add", "--type", "pitfall", edgeY, "--task", "fn-3.1")
		y := mdstoreID(t, carol, edgeY)
		mustFlowmem(t, plain(), carol, "memory", "merge", r.w, y, "--into", r.w)
		gitIn(t, carol, "commit", "-qam", "carol merges Y into W")
		gitIn(t, carol, "push", "-q", "origin", "main")
		alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
		mustFlowmem(t, plain(), alice, "memory", "merge", r.w, r.x, "--into", r.w)
		gitIn(t, alice, "commit", "-qam", "alice merges X into W")
		for _, task := range []string{"fn-9.1", "fn-9.2"} {
			mustFlowmem(t, plain(), bobDir, "memory", "add", "--type", "pitfall", edgeX, "--task", task)
		}
		gitIn(t, bobDir, "commit", "-qam", "bob sees X twice")
		first, second := alice, bobDir
		if alicePulls {
			first, second = bobDir, alice
		}
		join(t, first, second, how)
		wTasks := []string{"fn-2.1", "fn-2.2", "fn-3.1"}
		wantY := wantEntry{text: edgeY, seen: 1, status: mdstore.Archived, tasks: []string{"fn-3.1"}, mergedInto: r.w}
		checkReaders(t, second, map[string]wantEntry{
			r.w: {text: edgeW, seen: 4, status: mdstore.Active, tasks: append([]string{"fn-1.1"}, wTasks...)},
			r.x: {text: edgeX, seen: 3, status: mdstore.Archived, tasks: []string{"fn-1.1", "fn-9.1", "fn-9.2"}, mergedInto: r.w},
			y:   wantY,
		})
		mustFlowmem(t, plain(), second, "memory", "restore", r.x)
		checkReaders(t, second, map[string]wantEntry{
			r.w: {text: edgeW, seen: 3, status: mdstore.Active, tasks: wTasks},
			r.x: {text: edgeX, seen: 3, status: mdstore.Active, tasks: []string{"fn-1.1", "fn-9.1", "fn-9.2"}},
			y:   wantY,
		})
		if t.Failed() {
			raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
			t.Logf("pitfalls.md:\n%s", raw)
		}
	})
}
