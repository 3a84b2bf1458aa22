package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestUnionMergeForgetBothSides: a forget's mark on each branch. Two
// teammates who forget the same lesson write the same mark, which git's
// union merge takes once; forgets of two different lessons keep both
// marks; a forget on one side and a sighting of that lesson on the other
// (Bob saw it again before he pulled) leave it forgotten, and no reader
// counts a mark as a recurrence of the lesson that is left.
func TestUnionMergeForgetBothSides(t *testing.T) {
	t.Parallel()
	keptW := wantEntry{text: edgeW, seen: 2, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2"}}
	keptX := wantEntry{text: edgeX, seen: 1, status: mdstore.Active, tasks: []string{"fn-1.1"}}
	gone := wantEntry{gone: true}
	cases := []struct {
		name       string
		alice, bob func(x, w string) []string
		want       func(x, w string) map[string]wantEntry
	}{
		{"same-lesson",
			func(x, _ string) []string { return []string{"forget", x} },
			func(x, _ string) []string { return []string{"forget", x} },
			func(x, w string) map[string]wantEntry { return map[string]wantEntry{x: gone, w: keptW} }},
		{"two-lessons",
			func(x, _ string) []string { return []string{"forget", x} },
			func(_, w string) []string { return []string{"forget", w} },
			func(x, w string) map[string]wantEntry { return map[string]wantEntry{x: gone, w: gone} }},
		{"forget-W-vs-sighting-W",
			func(_, w string) []string { return []string{"forget", w} },
			func(string, string) []string { return []string{"add", "--type", "pitfall", edgeW, "--task", "fn-9.1"} },
			func(x, w string) map[string]wantEntry { return map[string]wantEntry{x: keptX, w: gone} }},
		{"forget-X-vs-sighting-X",
			func(x, _ string) []string { return []string{"forget", x} },
			func(string, string) []string { return []string{"add", "--type", "pitfall", edgeX, "--task", "fn-9.1"} },
			func(x, w string) map[string]wantEntry { return map[string]wantEntry{x: gone, w: keptW} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pullWays(t, func(t *testing.T, alicePulls bool, how string) {
				r := newTeamRepo(t, mdstore.Active)
				alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
				mustFlowmem(t, plain(), alice, append([]string{"memory"}, c.alice(r.x, r.w)...)...)
				gitIn(t, alice, "commit", "-qam", "alice")
				mustFlowmem(t, plain(), bobDir, append([]string{"memory"}, c.bob(r.x, r.w)...)...)
				gitIn(t, bobDir, "commit", "-qam", "bob")
				first, second := alice, bobDir
				if alicePulls {
					first, second = bobDir, alice
				}
				join(t, first, second, how)
				checkReaders(t, second, c.want(r.x, r.w))
				if t.Failed() {
					raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
					t.Logf("pitfalls.md after the pull:\n%s", raw)
				}
			})
		})
	}
}
