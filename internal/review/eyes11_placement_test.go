package review

import (
	"strings"
	"testing"
)

// REGRESSION in 72ae2d8: a JSON review's "findings" array of one loses to
// a longer array of file summaries (file + description read as a place
// and a problem): 4bd6282 kept the finding, main keeps the two summaries.
func TestJSONFindingsBeatFileSummaries(t *testing.T) {
	review := `{"verdict": "needs_work",
 "findings": [{"title": "Cache key ignores the tenant", "severity": "high", "file": "cache/key.go", "line": 12, "suggestion": "Include the tenant id in the key."}],
 "files_reviewed": [
   {"file": "cache/key.go", "description": "Builds cache keys from the user name."},
   {"file": "cache/lru.go", "description": "Adds an LRU with a fixed size."}
 ]}`
	fs := Extract(review)
	if len(fs) == 0 || !strings.Contains(fs[0].Problem, "ignores the tenant") {
		t.Fatalf("findings = %+v, want the cache key finding", fs)
	}
	for _, f := range fs {
		if strings.Contains(f.Problem, "Adds an LRU") {
			t.Errorf("a file summary became a finding: %+v", f)
		}
	}
}

// REGRESSION in cc21649 (older with a colon): a bold title closed by a
// period whose words include a label stem ("**File handle leak.** …",
// "file" is a location label) is the problem's title, not a Location
// field: main puts the problem sentence in Location and keeps only the
// heading as the problem.
func TestBoldTitleWithLabelWordIsNoField(t *testing.T) {
	review := "## Findings\n\n### 1. Config loader leaks descriptors\n\n" +
		"**File handle leak.** `loadAll` opens every config file and never closes them, so a long run hits the descriptor limit.\n\n" +
		"**Fix.** Close each file right after reading it.\n"
	fs := Extract(review)
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Problem, "never closes them") {
		t.Errorf("problem = %q, want the leak sentence (location %q)", fs[0].Problem, fs[0].Location)
	}
	if strings.Contains(fs[0].Location, "never closes") {
		t.Errorf("location = %q holds the problem", fs[0].Location)
	}
	if !strings.Contains(fs[0].Fix, "Close each file") {
		t.Errorf("fix = %q", fs[0].Fix)
	}
}

// A sentence that opens with a label of the reviewer's naming and goes on
// with a noun that is also a verb ("Root cause: Map iteration order …")
// states the problem; only the order after it is the fix.
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

// A list item of field lines whose problem is unlabelled prose ("1.
// **Severity:** High / **File:** … / the problem / the order") reads its
// fields as fields and its prose as the problem and the fix.
func TestListItemFieldLinesWithPlainProblem(t *testing.T) {
	review := "## Issues\n\n" +
		"1. **Severity:** High\n   **File:** `internal/pool/pool.go:40`\n" +
		"   The worker pool leaks goroutines when `Stop` returns before the jobs drain.\n" +
		"   Close the jobs channel in `Stop` and wait on the group.\n\n" +
		"2. **Severity:** Medium\n   **File:** `api/upload.go:12`\n" +
		"   The upload handler reads the whole body into memory.\n" +
		"   Wrap the body in a size-limited reader.\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	for i, want := range []struct{ sev, loc, problem, fix string }{
		{SevMajor, "internal/pool/pool.go:40", "worker pool leaks", "Close the jobs channel"},
		{SevMinor, "api/upload.go:12", "reads the whole body", "size-limited reader"},
	} {
		f := fs[i]
		if f.Severity != want.sev {
			t.Errorf("finding %d severity = %q, want %q", i+1, f.Severity, want.sev)
		}
		if !strings.Contains(f.Location, want.loc) {
			t.Errorf("finding %d location = %q, want %q", i+1, f.Location, want.loc)
		}
		if !strings.Contains(f.Problem, want.problem) || strings.Contains(f.Problem, "Severity") || strings.Contains(f.Problem, "File:") {
			t.Errorf("finding %d problem = %q, want %q and no field labels", i+1, f.Problem, want.problem)
		}
		if !strings.Contains(f.Fix, want.fix) {
			t.Errorf("finding %d fix = %q, want %q", i+1, f.Fix, want.fix)
		}
	}
}
