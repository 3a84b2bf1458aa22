package hookevent

import (
	"bytes"
	"strings"
	"testing"
)

func TestIsReadBack(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		{"cat .flow/memory/pitfalls.md", true},
		{"head -50 .flow/memory/conventions.md", true},
		{"grep -n docker .flow/memory/*.md", true},
		{"rg -i retry pitfalls.md decisions.md", true},
		{`flowmem memory read --relevant "fn-1.2: retries"`, true},
		{`"$CLAUDE_PROJECT_DIR"/.claude/bin/flowmem memory list --json`, true},
		{"./bin/flowmem.exe memory search x", true},
		{"flowctl memory read --type pitfalls", true},
		{"cd sub && flowmem memory read", true},
		{"flowctl codex impl-review fn-1.2", false},
		{"ls /opt/flowmem-tools", false},
		{"go test ./internal/flowmemory/...", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsReadBack(tt.command); got != tt.want {
			t.Errorf("IsReadBack(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

func TestVerdictHint(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"<verdict>NEEDS_WORK</verdict>", true},
		{"**Verdict:** needs work", true},
		{"VERDICT: Needs-Work", true},
		{"Overall verdict: MAJOR_RETHINK.", true},
		{"This needs more work", false},
		// SHIP passes too: the reviews log records approving reviews.
		{"<verdict>SHIP</verdict>", true},
		{`{"verdict":"approve"}`, true},
		{"Needs Work", true},
		{"n N needs work", true},
		{"nnnnnnnnnnNNNNNNNN", false},
		{"**REQUEST CHANGES**", true},
		{`{"stdout":"x\nLGTM\n"}`, true},
		{"Recommendation: approve", true},
		{"**Status** — blocked", true},
		// Words inside other words and keys without a separator are not
		// verdicts: the ordinary output of git, builds and JSON APIs.
		{"the relationship between ownership and shipping", false},
		{"On branch main\nChanges not staged for commit:", false},
		{`{"status": "completed", "decision_id": 3}`, false},
		{"needs_wor", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := VerdictHint(tt.text); got != tt.want {
			t.Errorf("VerdictHint(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestScreenFixtures: the payload-only decision on every recorded payload
// shape. What passes here is only a candidate; capture decides the rest.
func TestScreenFixtures(t *testing.T) {
	tests := []struct {
		name string
		skip string // "" means passed on
		tool Tool
	}{
		{"bash_nonreview", "no verdict in the output", ToolShell},
		{"bash_review", "", ToolShell},
		{"bash_review_failure", "", ToolShell},
		{"scout_readback", "memory-scout reads memory; it is never a review", ToolOther},
		{"agent_reviewer", "", ToolAgent},
		{"agent_scout_result", "memory-scout reads memory; it is never a review", ToolAgent},
		{"task_reviewer_legacy", "", ToolAgent},
		{"codex_string_response", "", ToolShell},
		{"session_start", "event SessionStart is not handled", ToolOther},
		{"bash_persisted_preview", "", ToolShell},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(bytes.NewReader(fixture(t, tt.name)))
			if err != nil {
				t.Fatal(err)
			}
			c, skip := Screen(p)
			if skip != tt.skip {
				t.Fatalf("skip = %q, want %q", skip, tt.skip)
			}
			if c.Tool != tt.tool {
				t.Errorf("tool = %v, want %v", c.Tool, tt.tool)
			}
			if skip == "" && !c.Persisted && !VerdictHint(c.Text) {
				t.Errorf("passed on without a verdict word in %q", c.Text)
			}
		})
	}
}

func TestScreenReadBackAndOtherTools(t *testing.T) {
	for _, tt := range []struct{ payload, skip string }{
		{`{"tool_name":"Bash","tool_input":{"command":"cat .flow/memory/pitfalls.md"},"tool_response":{"stdout":"<verdict>NEEDS_WORK</verdict>"}}`, "command reads memory back"},
		{`{"tool_name":"Read","tool_input":{"file_path":"r.md"},"tool_response":"<verdict>NEEDS_WORK</verdict>"}`, "tool Read is not a review tool"},
		{`{"tool_name":"Bash","agent_type":"flowmem:memory-scout","tool_input":{"command":"grep -r x ."},"tool_response":{"stdout":"NEEDS_WORK"}}`, "memory-scout reads memory; it is never a review"},
		// The verdict is only in the command, not in what it printed.
		{`{"tool_name":"Bash","tool_input":{"command":"echo NEEDS_WORK >/dev/null"},"tool_response":{"stdout":""}}`, "no verdict in the output"},
		{`{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"flowctl codex impl-review fn-1.2"},"error":"Exit code 3\n<verdict>NEEDS_WORK</verdict>"}`, ""},
	} {
		p, err := Decode(strings.NewReader(tt.payload))
		if err != nil {
			t.Fatal(err)
		}
		if _, skip := Screen(p); skip != tt.skip {
			t.Errorf("%s: skip = %q, want %q", tt.payload, skip, tt.skip)
		}
	}
}

func TestDisabled(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, " false ": false, "No": false, "off": false, "1": true, "true": true, "yes": true} {
		if got := Disabled(v); got != want {
			t.Errorf("Disabled(%q) = %v, want %v", v, got, want)
		}
	}
}

// BenchmarkVerdictHintProse is the quadratic case of old: megabytes of
// lower-case prose with no upper-case N made every candidate rescan the
// rest of the text.
func BenchmarkVerdictHintProse(b *testing.B) {
	text := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog, then naps. ", 10<<20/56))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if VerdictHint(text) {
			b.Fatal("hint in prose")
		}
	}
}

// TestScreenLeavesOutputUndecoded: an ordinary Bash call is turned away on
// the raw bytes; its tool_response is never decoded (most of a hook's
// work on the common path would be that decode).
func TestScreenLeavesOutputUndecoded(t *testing.T) {
	p, err := Decode(bytes.NewReader(fixture(t, "bash_nonreview")))
	if err != nil {
		t.Fatal(err)
	}
	if _, skip := Screen(p); skip == "" {
		t.Fatal("passed")
	}
	if p.response != nil {
		t.Error("Screen decoded tool_response of an ordinary Bash call")
	}
}
