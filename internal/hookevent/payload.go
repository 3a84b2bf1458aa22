// Package hookevent reads the events Claude Code (and Codex CLI) send to a
// hook on stdin and makes the payload-only part of the capture decision:
// could this tool call be a review at all? It is kept free of markdown,
// store and CLI dependencies because it runs on every tool call of the
// agent, in the small flowmem-hook process as well as in flowmem hook, and
// package initialisation is most of a short-lived Go process's cost.
package hookevent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxPayload bounds how much of stdin the hook reads. Claude Code moves tool
// output over ~30k characters to a file (persistedOutputPath) and truncates
// failure text to 10,000 characters, so real payloads are small; anything
// larger is not worth the memory and is dropped (fail open).
const MaxPayload = 16 << 20

// ErrTooLarge means the payload did not fit in MaxPayload bytes.
var ErrTooLarge = errors.New("hook payload larger than the limit")

// Payload is one hook event as Claude Code (or Codex CLI, which sends the same
// shape) writes it on stdin. Every field is optional. Fields whose shape
// varies between tools and clients stay raw and are read by the accessor
// methods, so an unexpected shape in one field never loses the others.
type Payload struct {
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	// Error is PostToolUseFailure's text: "Exit code N\n" plus the command's
	// interleaved output.
	Error     json.RawMessage `json:"error"`
	AgentType string          `json:"agent_type"`

	raw      []byte
	input    toolInput
	response *toolResponse // decoded on first use: most events never need it
}

// Raw is the event's JSON object as it was read.
func (p *Payload) Raw() []byte { return p.raw }

// toolInput holds the tool_input keys of Bash and Agent/Task.
type toolInput struct {
	Command      string `json:"command"`
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

// toolResponse holds the tool_response keys of Bash (stdout, stderr,
// persistedOutputPath), Agent/Task (content blocks, agentType) and the
// loosely specified shapes of other clients (output, result, text).
type toolResponse struct {
	text                string          // tool_response was a plain string (Codex)
	Stdout              string          `json:"stdout"`
	Stderr              string          `json:"stderr"`
	PersistedOutputPath string          `json:"persistedOutputPath"`
	Output              string          `json:"output"`
	Result              string          `json:"result"`
	Text                string          `json:"text"`
	AgentType           string          `json:"agentType"`
	Content             json.RawMessage `json:"content"`
}

// Decode reads exactly one JSON object from r and returns as soon as it is
// complete: it never waits for EOF, because some Claude Code versions leave
// the hook's stdin open (bound the wait with Until). At most MaxPayload
// bytes are read.
func Decode(r io.Reader) (*Payload, error) {
	return decode(r, MaxPayload)
}

func decode(r io.Reader, limit int64) (*Payload, error) {
	obj, err := readObject(r, limit)
	if err != nil {
		return nil, fmt.Errorf("decode hook payload: %w", err)
	}
	p := Payload{raw: obj}
	err = members(obj, func(key string, val []byte) error {
		var dst *string
		// Keys match without regard to case, as encoding/json matches them.
		switch strings.ToLower(key) {
		case "cwd":
			dst = &p.Cwd
		case "hook_event_name":
			dst = &p.HookEventName
		case "tool_name":
			dst = &p.ToolName
		case "agent_type":
			dst = &p.AgentType
		case "tool_input":
			return decodeField(val, &p.input)
		case "tool_response":
			p.ToolResponse = val
		case "error":
			p.Error = val
		}
		if dst != nil {
			return decodeField(val, dst)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("decode hook payload: %w", err)
	}
	return &p, nil
}

// decodeField decodes one small member. A value of an unexpected type is
// skipped, so one odd field never loses the others; broken JSON is an
// error.
func decodeField(val []byte, dst any) error {
	err := json.Unmarshal(val, dst)
	var te *json.UnmarshalTypeError
	if err == nil || errors.As(err, &te) {
		return nil
	}
	return err
}

// resp decodes tool_response on first use.
func (p *Payload) resp() *toolResponse {
	if p.response == nil {
		r := decodeResponse(p.ToolResponse)
		p.response = &r
	}
	return p.response
}

func decodeResponse(raw json.RawMessage) toolResponse {
	var r toolResponse
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return r
	}
	switch raw[0] {
	case '"':
		_ = json.Unmarshal(raw, &r.text)
	case '{':
		_ = json.Unmarshal(raw, &r)
	case '[':
		// A bare list of content blocks.
		r.Content = raw
	}
	return r
}

// Event is the hook event name; an absent name means PostToolUse, the event
// Codex and older clients send the same payload for.
func (p *Payload) Event() string {
	if p.HookEventName == "" {
		return "PostToolUse"
	}
	return p.HookEventName
}

// Command is the Bash command, if any.
func (p *Payload) Command() string { return p.input.Command }

// SubagentType is the Agent/Task tool's subagent_type (or the result's
// agentType when the input lacks it).
func (p *Payload) SubagentType() string {
	if p.input.SubagentType != "" {
		return p.input.SubagentType
	}
	return p.resp().AgentType
}

// Stderr is a Bash command's stderr.
func (p *Payload) Stderr() string { return p.resp().Stderr }

// Description is the tool_input description (Bash and Agent).
func (p *Payload) Description() string { return p.input.Description }

// Prompt is the Agent/Task prompt.
func (p *Payload) Prompt() string { return p.input.Prompt }

// PersistedOutputPath is where Claude Code saved the full output of a Bash
// command whose stdout in the payload is only a preview.
func (p *Payload) PersistedOutputPath() string { return p.resp().PersistedOutputPath }

// ErrorText is PostToolUseFailure's error text; a non-string error is
// rendered as its JSON.
func (p *Payload) ErrorText() string {
	raw := bytes.TrimSpace(p.Error)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// Text is everything the tool printed, as one string: the failure text,
// a Bash command's stdout and stderr, or a subagent's final answer.
func (p *Payload) Text() string {
	var parts []string
	add := func(s string) {
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
	}
	add(withoutExitLine(p.ErrorText()))
	r := p.resp()
	add(r.text)
	add(r.Stdout)
	add(r.Stderr)
	add(r.Output)
	add(r.Result)
	add(r.Text)
	for _, t := range contentTexts(r.Content) {
		add(t)
	}
	s := strings.Join(parts, "\n")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// withoutExitLine drops the "Exit code N" line Claude Code puts before a
// failed command's output, so that output reads as the command printed it
// (a Codex event stream must start with its first event to be unwrapped).
func withoutExitLine(s string) string {
	rest, ok := strings.CutPrefix(s, "Exit code ")
	if !ok {
		return s
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || (i < len(rest) && rest[i] != '\n') {
		return s
	}
	if i < len(rest) {
		i++
	}
	return rest[i:]
}

// contentTexts reads Messages-API style content: a string, or a list of
// blocks of which the text blocks count.
func contentTexts(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []string{s}
		}
		return nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if raw[0] != '[' || json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "" || b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}
