package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// reviewPayload is a PostToolUse event of a NEEDS_WORK impl-review whose
// one finding is made unique by n.
func reviewPayload(t *testing.T, n int) []byte {
	t.Helper()
	review := fmt.Sprintf("Reviewing fn-%d.1.\n\n**Issues**\n\n1. **Severity: Major**\n   **File:Line:** `internal/store/writer%d.go:41`\n"+
		"   **Problem:** The ledger%d file is rewritten in place with `os.WriteFile`, so a crash mid-write leaves a truncated `ledger%d.json`.\n"+
		"   **Suggestion:** Write ledger%d to a temp file in the same directory, `fsync` it, then rename it over the original.\n\n<verdict>NEEDS_WORK</verdict>\n", n, n, n, n, n)
	b, err := json.Marshal(map[string]any{
		"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input":    map[string]any{"command": fmt.Sprintf("flowctl codex impl-review fn-%d.1", n)},
		"tool_response": map[string]any{"stdout": review, "stderr": ""},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCurationRacesHookCaptures: a merge, an archive and a forget, each a
// rewrite of pitfalls.md, racing 16 hook processes that capture reviews
// into it, lose no capture and keep their own changes.
func TestCurationRacesHookCaptures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustFlowmem(t, raced(), dir, "init", "--enable")
	var ids []string
	for _, text := range []string{"first wording of the retry lesson", "second wording of the retry lesson", "a lesson to archive", "a lesson to forget"} {
		var out struct {
			Entry struct{ ID string } `json:"entry"`
		}
		if err := json.Unmarshal([]byte(mustFlowmem(t, raced(), dir, "memory", "add", "--json", "--type", "pitfall", text)), &out); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, out.Entry.ID)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 20)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, stderr := run(t, raced(), dir, reviewPayload(t, i), "hook"); code != 0 || stderr != "" {
				errs <- fmt.Sprintf("hook %d: exit %d: %s", i, code, stderr)
			}
		}()
	}
	for _, args := range [][]string{
		{"memory", "merge", ids[0], ids[1]},
		{"memory", "archive", ids[2]},
		{"memory", "forget", ids[3]},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, stderr := run(t, raced(), dir, nil, args...); code != 0 {
				errs <- fmt.Sprintf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	entries, err := mdstore.Open(dir + "/.flow/memory").Load(mdstore.Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]mdstore.Entry{}
	captured := 0
	for _, e := range entries {
		byID[e.ID] = e
		if strings.Contains(e.Issue, "is rewritten in place") {
			captured++
		}
	}
	if captured != 16 {
		t.Errorf("%d of 16 captured lessons in memory", captured)
	}
	if e := byID[ids[1]]; e.Status != mdstore.Archived || e.MergedInto != ids[0] {
		t.Errorf("merge lost: %+v", e)
	}
	if byID[ids[2]].Status != mdstore.Archived {
		t.Errorf("archive lost: %+v", byID[ids[2]])
	}
	if _, ok := byID[ids[3]]; ok {
		t.Errorf("forget lost")
	}
	if len(entries) != 16+3 {
		t.Errorf("got %d entries, want 19", len(entries))
	}
}
