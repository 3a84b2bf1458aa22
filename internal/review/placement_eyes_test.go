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
