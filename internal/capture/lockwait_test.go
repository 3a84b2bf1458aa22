package capture

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestLargeReviewLocksAfterAnalysis: a review too large to mask and analyse
// in moments (here a persisted output padded past overlapMax) is masked and
// analysed before the memory is locked, so other hooks do not wait on it.
// The memory is free while the hook is between the two, and the review's
// lessons are recorded all the same.
func TestLargeReviewLocksAfterAnalysis(t *testing.T) {
	dir := newProject(t, true)
	if res, err := handle(t, dir, fixture(t, "bash_review")); err != nil || !res.Recorded() {
		t.Fatalf("first capture: %+v %v", res, err)
	}
	full, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "reviews", "impl-review-fn-1.2.md"))
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("ok  \tgithub.com/example/pkg\t0.123s\n", overlapMax/30)
	saved := filepath.Join(t.TempDir(), "toolu_01Large.txt")
	if err := os.WriteFile(saved, append([]byte(pad), full...), 0o644); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(fixture(t, "bash_persisted_preview"), &m); err != nil {
		t.Fatal(err)
	}
	m["tool_response"].(map[string]any)["persistedOutputPath"] = saved
	payload, _ := json.Marshal(m)

	var lockErr error
	calls := 0
	old := analysed
	t.Cleanup(func() { analysed = old })
	analysed = func() {
		calls++
		other := mdstore.Open(filepath.Join(dir, ".flow", "memory"))
		other.LockTimeout = 50 * time.Millisecond
		h, err := other.Hold(context.Background(), mdstore.Pitfall)
		if err == nil {
			h.Close()
		}
		lockErr = err
	}
	res, err := handle(t, dir, payload)
	if err != nil || len(res.Outcomes) == 0 {
		t.Fatalf("large review: %+v %v", res, err)
	}
	if calls != 1 {
		t.Fatalf("analysed ran %d times, want once", calls)
	}
	if lockErr != nil {
		t.Errorf("memory locked while the large review was masked and analysed: %v", lockErr)
	}
}
