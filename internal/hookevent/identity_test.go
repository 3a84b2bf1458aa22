package hookevent

import (
	"strconv"
	"strings"
	"testing"
)

func identity(t *testing.T, payload string) string {
	t.Helper()
	p, err := Decode(strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	return p.Identity()
}

// TestIdentity: every hook process that receives one tool call names it
// the same; another call, or the same command with other output in a
// client that sends no call id, is named differently.
func TestIdentity(t *testing.T) {
	if got := identity(t, string(fixture(t, "bash_review"))); got != "toolu_01Review" {
		t.Errorf("bash_review: %q, want its tool_use_id", got)
	}
	if got := identity(t, string(fixture(t, "bash_review_failure"))); got != "toolu_01Fail" {
		t.Errorf("bash_review_failure: %q, want its tool_use_id", got)
	}
	// Mid-2025 Claude Code sent no tool_use_id: the session and the output.
	old := string(fixture(t, "bash_mid2025"))
	a, b := identity(t, old), identity(t, old)
	if !strings.HasPrefix(a, "h-") || a != b {
		t.Errorf("no call id: %q and %q, want one hash", a, b)
	}
	other := strings.Replace(old, `"stdout": "`, `"stdout": "x`, 1)
	if other == old {
		t.Fatal("fixture has no stdout to change")
	}
	if c := identity(t, other); c == a || !strings.HasPrefix(c, "h-") {
		t.Errorf("other output: %q, same as %q", c, a)
	}
	if got := identity(t, `{"session_id":"s","error":"Exit code 1\nA"}`); got == identity(t, `{"session_id":"s","error":"Exit code 1\nB"}`) {
		t.Errorf("failures with other text share %q", got)
	}
	// Nothing names the call: each run counts.
	if got := identity(t, `{"tool_name":"Bash","tool_response":{"stdout":"x"}}`); got != "" {
		t.Errorf("no ids: %q, want none", got)
	}
	// An id that is not a plain token is hashed, not stored as sent.
	for _, id := range []string{"toolu 01\"x", strings.Repeat("a", 41), "é"} {
		got := identity(t, `{"tool_use_id":`+strconv.Quote(id)+`}`)
		if !strings.HasPrefix(got, "h-") || len(got) != 18 {
			t.Errorf("id %q: %q, want a hash", id, got)
		}
	}
}
