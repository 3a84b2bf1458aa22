package review

import (
	"strings"
	"testing"
)

func TestLabelledStatementIsNoFix(t *testing.T) {
	review := "## Findings\n\n### 2. Ledger totals drift\n" +
		"Root cause: Map iteration order decides which rounding runs first in `sumLedger`.\n" +
		"Sort the keys before summing.\n"
	fs := Extract(review)
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(fs), fs)
	}
	if strings.Contains(fs[0].Fix, "iteration order") {
		t.Errorf("fix = %q holds the problem", fs[0].Fix)
	}
	if !strings.Contains(fs[0].Problem, "iteration order") {
		t.Errorf("problem = %q, want the root cause", fs[0].Problem)
	}
	if !strings.Contains(fs[0].Fix, "Sort the keys") {
		t.Errorf("fix = %q, want the order", fs[0].Fix)
	}
}
func TestOrderAfterFieldLineIsTheFix(t *testing.T) {
	review := "## Findings\n\n### 1. Session cache grows without bound\n" +
		"Impact: entries for logged-out users are never dropped, so memory climbs until the pod restarts.\n" +
		"Evict entries when the session ends.\n"
	fs := Extract(review)
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "Evict entries") {
		t.Errorf("fix = %q, want the order (evidence %q)", fs[0].Fix, fs[0].Evidence)
	}
	if strings.Contains(fs[0].Evidence, "Evict entries") {
		t.Errorf("evidence = %q holds the fix", fs[0].Evidence)
	}
}

// A pull-request bot's comments copied under headings that name only a
// place ("### File: `x` (Line 12) — bot") are findings, each with its place.
func TestPlaceHeadingsAreComments(t *testing.T) {
	review := "# Bot comments\n\n## Raw feedback\n\n" +
		"### File: `api/session.go` (Line 12) — reviewbot\n\n" +
		"`renew` reads the expiry without the lock, so two renewals can both extend a revoked session. Acquire the lock before reading `expiresAt`.\n\n" +
		"### File: `web/form.tsx` (Line 40) — reviewbot\n\n" +
		"The submit handler posts twice when the button is double-clicked. Disable the button while the request is pending.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Location, "api/session.go") || !strings.Contains(fs[0].Problem, "without the lock") || !strings.Contains(fs[0].Fix, "Acquire the lock") {
		t.Errorf("finding 1 = %+v", fs[0])
	}
	if !strings.Contains(fs[1].Location, "web/form.tsx") {
		t.Errorf("finding 2 = %+v", fs[1])
	}
}
