package hookevent

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeFixtures(t *testing.T) {
	tests := []struct {
		name      string
		event     string
		tool      Tool
		command   string
		subagent  string
		agentType string
		text      string // substring of Text()
		persisted bool
	}{
		{name: "bash_nonreview", event: "PostToolUse", tool: ToolShell, command: "ls -la src", text: "main.go"},
		{name: "bash_review", event: "PostToolUse", tool: ToolShell, command: "flowctl codex impl-review fn-1.2 --receipt /tmp/fn-1.2-receipt.json", text: "<verdict>NEEDS_WORK</verdict>"},
		{name: "bash_review_failure", event: "PostToolUseFailure", tool: ToolShell, command: "./scripts/impl-review fn-1.2", text: "Reviewing the diff"},
		{name: "scout_readback", event: "PostToolUse", tool: ToolShell, command: "cat .flow/memory/pitfalls.md", agentType: "memory-scout", text: "**Issue**"},
		{name: "agent_reviewer", event: "PostToolUse", tool: ToolAgent, subagent: "code-reviewer", text: "docker exec --user agent"},
		{name: "agent_scout_result", event: "PostToolUse", tool: ToolAgent, subagent: "memory-scout", text: "## Relevant Memory"},
		{name: "task_reviewer_legacy", event: "PostToolUse", tool: ToolAgent, subagent: "plan-reviewer", text: "NEEDS_WORK"},
		{name: "bash_mid2025", event: "PostToolUse", tool: ToolShell, command: "flowctl rp chat-send --message-file /tmp/review-prompt.md", text: "Chat Send"},
		{name: "codex_string_response", event: "PostToolUse", tool: ToolShell, command: "flowctl copilot impl-review fn-1.2", text: "<verdict>NEEDS_WORK</verdict>"},
		{name: "session_start", event: "SessionStart", tool: ToolOther},
		{name: "bash_persisted_preview", event: "PostToolUse", tool: ToolShell, command: "flowctl codex impl-review fn-1.2", text: "output truncated", persisted: true},
		{name: "invalid_utf8", event: "PostToolUse", tool: ToolShell, command: "flowctl codex impl-review fn-1.2 --receipt /tmp/fn-1.2-receipt.json", text: "\uFFFD"},
		// Fields of the wrong type are skipped; the rest still decodes.
		{name: "wrong_types", event: "PostToolUse", tool: ToolShell},
		// One object is read; what follows it is never looked at.
		{name: "trailing_garbage", event: "PostToolUse", tool: ToolShell, command: "ls", text: "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(bytes.NewReader(fixture(t, tt.name)))
			if err != nil {
				t.Fatal(err)
			}
			if p.Event() != tt.event {
				t.Errorf("event %q, want %q", p.Event(), tt.event)
			}
			if k := KindOf(p.ToolName); k != tt.tool {
				t.Errorf("tool kind %v, want %v", k, tt.tool)
			}
			if p.Command() != tt.command {
				t.Errorf("command %q, want %q", p.Command(), tt.command)
			}
			if p.SubagentType() != tt.subagent {
				t.Errorf("subagent %q, want %q", p.SubagentType(), tt.subagent)
			}
			if p.AgentType != tt.agentType {
				t.Errorf("agent_type %q, want %q", p.AgentType, tt.agentType)
			}
			if !strings.Contains(p.Text(), tt.text) {
				t.Errorf("text does not contain %q:\n%s", tt.text, p.Text())
			}
			if (p.PersistedOutputPath() != "") != tt.persisted {
				t.Errorf("persistedOutputPath %q", p.PersistedOutputPath())
			}
		})
	}
}

func TestTextWithoutExitLine(t *testing.T) {
	for in, want := range map[string]string{
		"Exit code 3\n{\"type\":\"x\"}": `{"type":"x"}`,
		"Exit code 1":                   "",
		"Exit code 12x\nrest":           "Exit code 12x\nrest",
		"Exit codes differ\n":           "Exit codes differ\n",
		"output":                        "output",
	} {
		if got := withoutExitLine(in); got != want {
			t.Errorf("withoutExitLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"malformed", fixture(t, "malformed"), "invalid character"},
		{"truncated", fixture(t, "truncated"), "unexpected EOF"},
		{"not an object", fixture(t, "not_object"), "not a JSON object"},
		{"null", []byte("null\n"), "not a JSON object (null)"},
		// A word is not the literal its first letter begins.
		{"a word", []byte("not json\n"), "invalid character 'o' in literal null (expecting 'u')"},
		{"a word like true", []byte("trie"), "invalid character 'i' in literal true (expecting 'u')"},
		{"empty", nil, "empty input"},
		{"only spaces", []byte("  \n"), "empty input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDecodeTooLarge(t *testing.T) {
	big := `{"tool_name":"Bash","tool_response":{"stdout":"` + strings.Repeat("x", 4096) + `"}}`
	_, err := decode(strings.NewReader(big), 1024)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if _, err := decode(strings.NewReader(big), int64(len(big))); err != nil {
		t.Fatalf("a payload of exactly the limit: %v", err)
	}
}

// TestDecodeStdinLeftOpen: the object arrives on a pipe that is never
// closed. Decode must return once the object is complete.
func TestDecodeStdinLeftOpen(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go func() {
		// Written in pieces, as a pipe delivers it.
		b := fixture(t, "bash_review")
		_, _ = w.Write(b[:100])
		_, _ = w.Write(b[100:])
	}()
	done := make(chan error, 1)
	go func() {
		p, err := Decode(r)
		if err == nil && p.Command() == "" {
			err = errors.New("no command decoded")
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		// A deadlock guard, not a timing assertion: Decode blocked on a
		// pipe that will never reach EOF.
		t.Fatal("Decode waited for EOF on an open pipe")
	}
}

// TestDecodeUntilGivesUp: a client that writes half an event and keeps
// the pipe open gets the hook's deadline, not a hang.
func TestDecodeUntilGivesUp(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.Write([]byte(`{"tool_name": "Ba`)); err != nil {
		t.Fatal(err)
	}
	_, err = Decode(Until(r, time.Now().Add(50*time.Millisecond)))
	if !errors.Is(err, ErrDeadline) {
		t.Fatalf("err = %v, want ErrDeadline", err)
	}
}

// TestDecodeUntilReadsPipe: with a deadline, a complete event on a pipe
// that stays open decodes as before.
func TestDecodeUntilReadsPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.Write([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)); err != nil {
		t.Fatal(err)
	}
	p, err := Decode(Until(r, time.Now().Add(time.Minute)))
	if err != nil || p.Command() != "ls" {
		t.Fatalf("p = %+v, err = %v", p, err)
	}
}

func FuzzDecode(f *testing.F) {
	entries, err := os.ReadDir(filepath.Join("..", "..", "testdata", "capture", "payloads"))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"tool_response":[{"type":"text","text":"x"}],"error":{"a":1}}`))
	f.Add([]byte(`{"tool_response":{"content":"plain"},"tool_input":"str"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decode(bytes.NewReader(b), 1<<20)
		sameAsEncodingJSON(t, b, p, err)
		if err != nil {
			return
		}
		// Every accessor must cope with whatever decoded.
		_ = p.Event()
		_ = p.Command()
		_ = p.SubagentType()
		_ = p.Description()
		_ = p.Prompt()
		_ = p.PersistedOutputPath()
		_ = p.ErrorText()
		text := p.Text()
		_ = VerdictHint(text)
		_ = IsReadBack(p.Command())
		_, _ = Screen(p)
	})
}

// sameAsEncodingJSON: on a valid JSON object, the hand-written framing
// and splitting must agree with encoding/json on every member the hook
// reads.
func sameAsEncodingJSON(t *testing.T, b []byte, p *Payload, err error) {
	t.Helper()
	// JSON's whitespace is these four bytes only; bytes.TrimSpace would
	// also strip \v and U+0085, which JSON rejects.
	trimmed := bytes.Trim(b, " \t\r\n")
	if !json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' {
		return
	}
	if err != nil {
		t.Fatalf("valid object %q: %v", b, err)
	}
	var want struct {
		Cwd           string          `json:"cwd"`
		HookEventName string          `json:"hook_event_name"`
		ToolName      string          `json:"tool_name"`
		ToolResponse  json.RawMessage `json:"tool_response"`
		Error         json.RawMessage `json:"error"`
		AgentType     string          `json:"agent_type"`
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(trimmed, &want); err != nil && !errors.As(err, &te) {
		t.Fatalf("encoding/json: %v", err)
	}
	if te != nil {
		// encoding/json stops filling a field at a type error; compare
		// only what both must have.
		return
	}
	got := []string{p.Cwd, p.HookEventName, p.ToolName, string(p.ToolResponse), string(p.Error), p.AgentType}
	exp := []string{want.Cwd, want.HookEventName, want.ToolName, string(want.ToolResponse), string(want.Error), want.AgentType}
	for i := range got {
		if got[i] != exp[i] {
			t.Fatalf("member %d of %q: got %q, encoding/json %q", i, b, got[i], exp[i])
		}
	}
}
