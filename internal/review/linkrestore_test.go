package review

import (
	"strings"
	"testing"
)

// A recommendation that names its finding by the reviewer's id is that
// finding's fix (SPEC §4: "a later section … that names the finding; link
// the two"), whatever words it uses.
func TestRecommendationLinkedByID(t *testing.T) {
	review := "## Findings\n\n### C1. Session cache outlives logout\nThe map in `session/store.go` keeps entries after sign-out.\n\n" +
		"### C2. Poller spins on errors\n`feed.Poll` is called again at once when it fails.\n\n" +
		"## Recommendations\n\n- C1: drop entries on sign-out and bound their age.\n- C2: wait longer after each failure.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	for i, want := range []string{"drop entries on sign-out", "wait longer after each failure"} {
		if !strings.Contains(fs[i].Fix, want) {
			t.Errorf("finding %d fix = %q, want it to hold %q", i+1, fs[i].Fix, want)
		}
	}
}

// "- **Title (blocking):** body. Fix sentence." — the bold part is the
// title, so the body's own fix sentence is the fix and the title is never
// read as one.
func TestBoldLabelBulletKeepsItsFix(t *testing.T) {
	review := "## Issues found\n\n- **Session cache outlives logout (blocking):** the map in `session/store.go` keeps entries after sign-out; drop them on sign-out.\n" +
		"- **Retry loop has no backoff:** `client.Do` is retried in a tight loop. Use exponential backoff.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	f := fs[1]
	if !strings.Contains(f.Fix, "exponential backoff") || strings.Contains(f.Fix, "Retry loop") {
		t.Errorf("fix = %q, want the body's fix sentence alone", f.Fix)
	}
	if !strings.Contains(f.Problem, "Retry loop has no backoff") {
		t.Errorf("problem = %q, want the bold title in it", f.Problem)
	}
}
