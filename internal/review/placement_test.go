package review

import (
	"strings"
	"testing"
)

// "**Next step:** Wrap …": an order after a label of the reviewer's own
// naming is the finding's fix, as the order alone would be.
func TestLabelledOrderIsTheFix(t *testing.T) {
	review := "## Findings\n\n### 1. Pool never drained on shutdown\n" +
		"`worker.Pool` keeps its goroutines after `Stop` returns, so tests leak them.\n" +
		"**Next step:** Close the jobs channel in `Stop` and wait on the group.\n"
	fs := Extract(review)
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "Close the jobs channel") {
		t.Errorf("fix = %q, want the labelled order", fs[0].Fix)
	}
	if strings.Contains(fs[0].Problem, "Close the jobs channel") {
		t.Errorf("problem = %q holds the fix", fs[0].Problem)
	}
}

// A label that is itself an order word keeps its sentence an order: "Fix
// applied: re-check the size after reading" stays the fix.
func TestOrderLabelStaysAnOrder(t *testing.T) {
	if !prescriptive("Fix applied: re-check the length after reading.") {
		t.Error("a sentence opening with an order word is an order, label or not")
	}
	if prescriptive("Observed: the length grows after reading.") {
		t.Error("a label over a statement is no order")
	}
}

// A JSON review's findings are the array whose items look like findings
// (objects with a title or problem and a severity, place or fix), whatever
// the reviewer named it; an array of praise or plain strings is not.
func TestJSONFindingsUnderAnyKey(t *testing.T) {
	review := `{"verdict": "needs_work", "summary": "Two problems.",
"strengths": [{"title": "Clear package layout"}],
"problems": [
  {"title": "Cache never expires", "severity": "high", "file": "cache/lru.go", "line": 40, "suggestion": "Evict entries older than the TTL."},
  {"title": "Retry loop spins", "severity": "medium", "file": "net/retry.go", "suggestion": "Back off exponentially."}
],
"notes": ["ran go vet"]}`
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if fs[0].Location != "cache/lru.go:40" || fs[0].Fix != "Evict entries older than the TTL." || fs[0].Severity != SevMajor {
		t.Errorf("first finding = %+v", fs[0])
	}
	nested := `{"review": {"verdict": "changes requested", "items": [{"issue": "Token logged", "path": "auth/log.go", "fix": "Redact it."}]}}`
	if fs := Extract(nested); len(fs) != 1 || fs[0].Fix != "Redact it." {
		t.Errorf("nested array: got %+v", fs)
	}
}

// A recommendation that names its finding by the words of the finding's
// bold title is that finding's fix (SPEC §4), and only that finding's.
func TestRecommendationLinkedByBoldTitle(t *testing.T) {
	review := "## Issues\n\n" +
		"- **Stale sessions after logout (blocking):** the map in `session/store.go` keeps entries after sign-out.\n" +
		"- **Unbounded upload buffer:** `api/upload.go` reads the whole body into memory.\n\n" +
		"## Recommendations\n\n" +
		"1. **Unbounded upload buffer** — wrap the body in `http.MaxBytesReader`.\n" +
		"2. Stale sessions: evict them when the user signs out.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "evict them") || strings.Contains(fs[0].Fix, "MaxBytesReader") {
		t.Errorf("finding 1 fix = %q", fs[0].Fix)
	}
	if !strings.Contains(fs[1].Fix, "MaxBytesReader") || strings.Contains(fs[1].Fix, "evict") {
		t.Errorf("finding 2 fix = %q", fs[1].Fix)
	}
}

// Findings written as plain numbered items have no title apart from their
// first sentence: a recommendation naming that sentence's words links to
// it.
func TestRecommendationLinkedByLeadSentence(t *testing.T) {
	review := "## Issues\n\n" +
		"1. Stale sessions survive logout. The map in `session/store.go` keeps entries after sign-out, so a reused browser resumes them.\n" +
		"2. Upload buffer is unbounded. `api/upload.go` reads the whole body into memory before checking it.\n\n" +
		"## Recommendations\n\n" +
		"- Upload buffer: cap it with a reader limit.\n" +
		"- Stale sessions: evict them when the user signs out.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "evict them") || strings.Contains(fs[0].Fix, "reader limit") {
		t.Errorf("finding 1 fix = %q", fs[0].Fix)
	}
	if !strings.Contains(fs[1].Fix, "reader limit") || strings.Contains(fs[1].Fix, "evict") {
		t.Errorf("finding 2 fix = %q", fs[1].Fix)
	}
}

func TestStatusClosedByAPeriodIsNoField(t *testing.T) {
	if _, _, ok := labelLine("**Verified.** The pool hands one map to every worker."); ok {
		t.Error("a status word before the problem's prose is no field label")
	}
}

// A polite order is an order: "Please add …" is the fix; "Please" alone
// or before a statement is not.
func TestPoliteOrder(t *testing.T) {
	if !prescriptive("Please add a changeSet entry for the new migration.") {
		t.Error("please + an order word is an order")
	}
	if prescriptive("Please note the cache is shared.") {
		t.Error("please + a word that gives no order is no order")
	}
}
