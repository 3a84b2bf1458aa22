package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestUnionMergeOppositeMerges: Alice merges X into W while Bob merges W
// into X. git's union merge keeps both sides' metadata lines, a retire
// wins on each entry, and each ends archived into the other: the lesson
// reached no prompt, and doctor said every entry was whole. doctor must
// name the pair and the command that keeps the lesson, and that command
// leaves one survivor that counts both.
func TestUnionMergeOppositeMerges(t *testing.T) {
	t.Parallel()
	pullWays(t, func(t *testing.T, alicePulls bool, how string) {
		r := newTeamRepo(t, mdstore.Active)
		alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
		mustFlowmem(t, plain(), alice, "memory", "merge", r.w, r.x, "--into", r.w)
		gitIn(t, alice, "commit", "-qam", "alice merges X into W")
		mustFlowmem(t, plain(), bobDir, "memory", "merge", r.x, r.w, "--into", r.x)
		gitIn(t, bobDir, "commit", "-qam", "bob merges W into X")
		first, second := alice, bobDir
		if alicePulls {
			first, second = bobDir, alice
		}
		join(t, first, second, how)
		out, _ := flowmem(t, plain(), second, "doctor")
		keep := min(r.w, r.x)
		other := max(r.w, r.x)
		if !strings.Contains(out, "merged into each other") {
			t.Fatalf("doctor does not name the pair merged into each other:\n%s", out)
		}
		m := regexp.MustCompile(`flowmem memory restore (\S+)`).FindStringSubmatch(out)
		if m == nil || m[1] != keep {
			t.Fatalf("doctor's fix does not restore %s:\n%s", keep, out)
		}
		mustFlowmem(t, plain(), second, "memory", "restore", m[1])
		want := map[string]wantEntry{
			keep:  {seen: 3, status: mdstore.Active, tasks: []string{"fn-1.1", "fn-2.1", "fn-2.2"}},
			other: {seen: 1, status: mdstore.Archived, tasks: []string{"fn-1.1"}, mergedInto: keep},
		}
		if other == r.w {
			want[other] = wantEntry{seen: 2, status: mdstore.Archived, tasks: []string{"fn-2.1", "fn-2.2"}, mergedInto: keep}
		}
		for id, w := range want {
			w.text = edgeX
			if id == r.w {
				w.text = edgeW
			}
			want[id] = w
		}
		checkReaders(t, second, want)
		if out, _ := flowmem(t, plain(), second, "doctor"); strings.Contains(out, "merged into each other") {
			t.Errorf("doctor after the fix:\n%s", out)
		}
		if t.Failed() {
			raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
			t.Logf("pitfalls.md:\n%s", raw)
		}
	})
}
