package review

import (
	"strings"
	"testing"
)

// A numbered bold title whose paragraph goes on with the body and field
// lines ("**2. Title** — `place`" then prose, then "**Fix:** …" on the
// next lines of the same paragraph) is one finding: its fix field is its
// fix. The fix line used to open a field block of its own that the title
// then threw away.
func TestTitledParagraphKeepsItsFieldLines(t *testing.T) {
	review := "## Findings\n\n" +
		"**1. Upload size never checked** — `api/upload.go:40`, `api/limits.go:12`, `cmd/server/main.go:88`, `internal/httpx/body.go:7`\n" +
		"The handler reads the whole body into memory before looking at its length.\n" +
		"**Fix:** wrap the body in `http.MaxBytesReader` before reading it.\n\n" +
		"**2. Retry budget shared across tenants.** One noisy tenant drains it for everyone.\n" +
		"**Suggested fix:** keep one budget per tenant key.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	for i, want := range []struct{ problem, fix string }{
		{"reads the whole body into memory", "http.MaxBytesReader"},
		{"One noisy tenant drains it", "one budget per tenant key"},
	} {
		if !strings.Contains(fs[i].Problem, want.problem) || strings.Contains(fs[i].Problem, want.fix) {
			t.Errorf("finding %d problem = %q, want %q and not the fix", i+1, fs[i].Problem, want.problem)
		}
		if !strings.Contains(fs[i].Fix, want.fix) {
			t.Errorf("finding %d fix = %q, want %q", i+1, fs[i].Fix, want.fix)
		}
	}
}

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

// A heading that states the verdict ("## Verdict: NOT READY") is no
// finding, whatever section it closes: stored, the lesson was the verdict.
func TestVerdictHeadingIsNoFinding(t *testing.T) {
	review := "## Findings\n\n### 1. Tokens logged at debug level\n`auth.Login` logs the bearer token. Redact it before logging.\n\n" +
		"### Verdict: NOT READY\n\nOne finding blocks the merge: the token leak above.\n"
	fs := Extract(review)
	for _, f := range fs {
		if strings.Contains(strings.ToLower(f.Problem+" "+f.Fix+" "+f.Evidence), "not ready") {
			t.Errorf("a finding holds the verdict: %+v", f)
		}
	}
	if len(fs) != 1 {
		t.Errorf("got %d findings, want 1: %+v", len(fs), fs)
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

// A heading over nothing but bold-titled items ("### Storage" over "-
// **Unbounded cache**: …") groups findings: each item is one, not one
// finding whose body glues them together. Bold leads that recur in every
// sibling section ("- **Cause**: …", "- **Remedy**: …") are a template's
// fields in any language: such a section stays one finding.
func TestHeadingOverBoldItemsGroupsFindings(t *testing.T) {
	review := "## Findings\n\n### Storage\n\n" +
		"- **Unbounded cache**: `lru.New(0)` in `cache/cache.go` never evicts. Pass a size.\n" +
		"- **Lost writes**: `db.Save` ignores the error from `tx.Commit`. Return it.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Problem, "never evicts") || strings.Contains(fs[0].Problem+fs[0].Fix, "tx.Commit") {
		t.Errorf("finding 1 = %+v", fs[0])
	}
	template := "## Findings\n\n" +
		"### Cache never evicts\n\n- **Cause**: `lru.New(0)` in `cache/cache.go`.\n- **Remedy**: pass a size.\n\n" +
		"### Commit error dropped\n\n- **Cause**: `db.Save` ignores `tx.Commit`.\n- **Remedy**: return it.\n"
	if fs := Extract(template); len(fs) != 2 {
		t.Errorf("template sections: got %d findings, want 2: %+v", len(fs), fs)
	}
}

// "**Fix.** …" names its field as "**Fix:** …" does: the text after it,
// and the paragraphs that continue it past a code block, are the fix.
func TestBoldLabelClosedByAPeriod(t *testing.T) {
	review := "## Findings\n\n### 1. Fonts never registered\n\nThe app falls back to the default face everywhere.\n\n" +
		"**Fix.** In `ui/setup.rs` the families go in before the first frame:\n\n```rust\nfonts.insert(\"sans\");\n```\n\n" +
		"Ship the font files under `assets/`.\n"
	fs := Extract(review)
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "the families go in") || !strings.Contains(fs[0].Fix, "Ship the font files") {
		t.Errorf("fix = %q", fs[0].Fix)
	}
	if strings.Contains(fs[0].Problem, "families go in") {
		t.Errorf("problem = %q holds the fix", fs[0].Problem)
	}
	if _, _, ok := labelLine("**Fixing this is hard.** The cache …"); ok {
		t.Error("a bold sentence is no label")
	}
}

func TestStatusClosedByAPeriodIsNoField(t *testing.T) {
	if _, _, ok := labelLine("**Verified.** The pool hands one map to every worker."); ok {
		t.Error("a status word before the problem's prose is no field label")
	}
}

// A fix label with nothing after it ("**Fix:**") over a code block: the
// code is the fix, the only remedy the reviewer wrote.
func TestFixLabelOverCodeBlock(t *testing.T) {
	for name, review := range map[string]string{
		"heading finding": "## Findings\n\n### 1. Handle leaks on error\n\n`open` returns early without closing the file.\n\n**Suggested fix:**\n```go\ndefer f.Close()\n```\n",
		"field block":     "**Severity:** High\n**Problem:** `open` returns early without closing the file.\n**Fix:**\n\n```go\ndefer f.Close()\n```\n\nVERDICT: NEEDS_WORK\n",
	} {
		fs := Extract(review)
		if len(fs) != 1 || !strings.Contains(fs[0].Fix, "defer f.Close()") {
			t.Errorf("%s: got %+v, want the code as the fix", name, fs)
		}
	}
}
