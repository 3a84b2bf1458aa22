package review

import (
	"strings"
	"testing"
)

// A later section named as fixes, whose rows name the findings above it,
// gives those findings their fix (SPEC §4: a fix linked from a later
// recommendations section); it is not a finding of its own.
func TestLaterFixesTableGivesFindingsTheirFix(t *testing.T) {
	review := "## Issues\n\n" +
		"**[Q-1] Import job never honours `max_rows`**\n" +
		"`importer/run.py` reads the whole upload; the `max_rows` setting is shown in the form but never checked.\n\n" +
		"**[Q-2] Worker pool missing from the compose file**\n" +
		"`worker.py` must run beside the web app, but `compose.yaml` starts only `web`.\n\n" +
		"## Top 2 fixes\n\n" +
		"| # | Change | File |\n|---|---|---|\n" +
		"| 1 | Stop reading at `max_rows` in the import loop | `importer/run.py` |\n" +
		"| 2 | Add a `worker` service to `compose.yaml` | `compose.yaml` |\n"
	fs := Extract(review)
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(fs), fs)
	}
	if !strings.Contains(fs[0].Fix, "Stop reading at") {
		t.Errorf("first fix = %q, want the first row", fs[0].Fix)
	}
	if !strings.Contains(fs[1].Fix, "worker") || strings.Contains(fs[1].Fix, "Stop reading") {
		t.Errorf("second fix = %q, want the second row only", fs[1].Fix)
	}
}

// A section named as fixes whose items mostly name no finding above it
// lists new problems written as fixes, not remedies of those findings: an
// item that happens to share a file with an earlier finding is not that
// finding's fix.
func TestFixesOfOtherProblemsAreNoLinkedFix(t *testing.T) {
	review := "## Bugs\n\n" +
		"* **Shared client**: `client/fetch.go` builds a new HTTP client per call, so keep-alive never applies.\n\n" +
		"## Fixes needed\n\n" +
		"* **Retry uploads**: `sync/push.go` gives up after one timeout; retry with backoff.\n" +
		"* **Close bodies**: in `client/fetch.go` the error path returns before closing the response body.\n" +
		"* **Bound the queue**: `jobs/queue.go` accepts work without limit; cap it at the worker count.\n"
	for _, f := range Extract(review) {
		if strings.Contains(f.Problem, "keep-alive") && strings.Contains(f.Fix, "error path") {
			t.Errorf("fix = %q: another problem's item became this finding's fix", f.Fix)
		}
	}
}
