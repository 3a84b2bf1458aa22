package review

import (
	"strings"
	"testing"
)

// TestExtractVerdictLineIsNoFindingText: the verdict a review ends with
// (a <verdict> tag or any verdict line SPEC §4 names) closes the last
// finding; it is not more of that finding's text, or every lesson captured
// from such a review is stored with "NEEDS_WORK" in its issue or fix.
func TestExtractVerdictLineIsNoFindingText(t *testing.T) {
	shapes := map[string]string{
		"list":     "## Findings\n\n1. **[High]** `Pool.Get` hands out closed handles. Check `conn.closed` first.\n2. **[High]** `retry` sleeps past `ctx.Done()`. Select on the context instead.\n",
		"headings": "## Review\n\n### FINDING [MAJOR] Closed handles\n\n`Pool.Get` hands out closed handles. Check `conn.closed` first.\n\n### FINDING [MAJOR] Cancellation\n\n`retry` sleeps past `ctx.Done()`. Select on the context instead.\n",
		"fields":   "## Issues\n\n**Severity**: High\n**File:Line**: `db/pool.go:40`\n**Problem**: `Pool.Get` hands out closed handles.\n**Fix**: Check `conn.closed` first.\n\n**Severity**: High\n**File:Line**: `retry.go:12`\n**Problem**: `retry` sleeps past `ctx.Done()`.\n**Fix**: Select on the context instead.\n",
	}
	lines := []string{
		"<verdict>NEEDS_WORK</verdict>",
		"VERDICT: NEEDS_WORK",
		"**Verdict:** NEEDS_WORK",
		"**Verdict**: NEEDS_WORK - the pool still leaks",
		"Overall verdict: NEEDS_WORK.",
		"SOL_VERDICT: NEEDS_WORK",
		"Verdict: REQUEST CHANGES",
		"Verdict: rethink the storage layer",
	}
	for shape, body := range shapes {
		for _, line := range lines {
			t.Run(shape+"/"+line, func(t *testing.T) {
				fs := Extract(body + "\n" + line + "\n")
				if len(fs) != 2 {
					t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
				}
				for _, f := range fs {
					for _, s := range []string{f.Problem, f.Fix, f.Evidence, f.Location} {
						if l := strings.ToLower(s); strings.Contains(l, "verdict") || strings.Contains(l, "needs_work") || strings.Contains(l, "request changes") || strings.Contains(l, "rethink") {
							t.Errorf("the verdict is in a finding: %+v", f)
						}
					}
				}
			})
		}
	}
}
