package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
)

// TestModelAddWaitsForApproval: with capture.approval on, a lesson the
// model adds through memory add (as the hook's note asks it to) waits for
// approval like the hook's own captures; one a person adds is active at
// once. Claude Code sets CLAUDECODE=1 for every command its Bash tool runs.
func TestModelAddWaitsForApproval(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(env map[string]string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"flowmem"}, args...), IO{
			Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] },
			Getwd: func() (string, error) { return dir, nil }, Exe: os.Executable,
		})
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, code, errb.String())
		}
		return code, out.String()
	}
	model := map[string]string{"CLAUDECODE": "1"}
	run(nil, "init", "--enable")
	status := func(env map[string]string, text string) string {
		_, out := run(env, "memory", "add", "--type", "pitfall", text, "--json")
		var r struct {
			Entry struct {
				Status string `json:"status"`
			} `json:"entry"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return r.Entry.Status
	}
	if got := status(model, "retries of the billing webhook need jitter"); got != "active" {
		t.Errorf("approval off, model's add: %s, want active", got)
	}
	run(nil, "config", "set", "capture.approval", "true")
	if got := status(model, "sqlc skips views unless schema.sql declares them"); got != "pending" {
		t.Errorf("approval on, model's add: %s, want pending", got)
	}
	if got := status(nil, "the cron spec runs in UTC, not local time"); got != "active" {
		t.Errorf("approval on, a person's add: %s, want active", got)
	}
}
