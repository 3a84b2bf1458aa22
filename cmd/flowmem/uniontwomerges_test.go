package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestUnionMergeTwoMergesOneSurvivor: Alice merges X into W while Bob
// merges Y into W, on lessons added by hand (no tasks to tell the counts
// apart). Each side's metadata line of W held W's own count plus what its
// merge took in; the union merge kept both and the fold took the larger:
// W read 4, not 6, and restoring X then left it 2, not 4.
func TestUnionMergeTwoMergesOneSurvivor(t *testing.T) {
	t.Parallel()
	pullWays(t, func(t *testing.T, alicePulls bool, how string) {
		r := newTeamRepo(t, mdstore.Active)
		base := r.clone(t, "base2")
		const (
			edgeW = "Log lines print the raw request body"
			edgeX = "The retry loop never checks the context"
			edgeY = "Config reload races the request handler"
		)
		for _, text := range []string{edgeW, edgeW, edgeX, edgeX, edgeY, edgeY} {
			mustFlowmem(t, plain(), base, "memory", "add", "--type", "pitfall", text)
		}
		gitIn(t, base, "commit", "-qam", "three lessons by hand")
		gitIn(t, base, "push", "-q", "origin", "main")
		w, x, y := mdstoreID(t, base, edgeW), mdstoreID(t, base, edgeX), mdstoreID(t, base, edgeY)
		alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
		mustFlowmem(t, plain(), alice, "memory", "merge", w, x, "--into", w)
		gitIn(t, alice, "commit", "-qam", "alice merges X into W")
		mustFlowmem(t, plain(), bobDir, "memory", "merge", w, y, "--into", w)
		gitIn(t, bobDir, "commit", "-qam", "bob merges Y into W")
		keptW := wantEntry{text: "Retries hammer the upstream without backoff", seen: 2, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2"}}
		keptX := wantEntry{text: "The cache key ignores the tenant id", seen: 1, status: mdstore.Active, tasks: []string{"fn-1.1"}}
		first, second := alice, bobDir
		if alicePulls {
			first, second = bobDir, alice
		}
		join(t, first, second, how)
		checkReaders(t, second, map[string]wantEntry{
			r.w: keptW, r.x: keptX,
			w: {text: edgeW, seen: 6, status: mdstore.Active},
			x: {text: edgeX, seen: 2, status: mdstore.Archived, mergedInto: w},
			y: {text: edgeY, seen: 2, status: mdstore.Archived, mergedInto: w},
		})
		mustFlowmem(t, plain(), second, "memory", "restore", x)
		checkReaders(t, second, map[string]wantEntry{
			r.w: keptW, r.x: keptX,
			w: {text: edgeW, seen: 4, status: mdstore.Active},
			x: {text: edgeX, seen: 2, status: mdstore.Active},
			y: {text: edgeY, seen: 2, status: mdstore.Archived, mergedInto: w},
		})
		mustFlowmem(t, plain(), second, "memory", "restore", y)
		checkReaders(t, second, map[string]wantEntry{
			r.w: keptW, r.x: keptX,
			w: {text: edgeW, seen: 2, status: mdstore.Active},
			x: {text: edgeX, seen: 2, status: mdstore.Active},
			y: {text: edgeY, seen: 2, status: mdstore.Active},
		})
		if t.Failed() {
			raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
			t.Logf("conventions.md:\n%s", raw)
		}
	})
}
