// Package standin is a scripted stand-in for the Anthropic Messages API, so
// the real Claude Code client can run end-to-end tests offline. It listens
// on loopback, answers each conversation from a list of steps (the step is
// the number of assistant messages already in the request, so one scripted
// conversation walks through its list as the client sends tool results
// back), and records every request so tests can assert on what the model
// was shown.
package standin

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ToolUse is one tool call in a scripted assistant message.
type ToolUse struct {
	Name  string
	Input any // marshalled to JSON
}

// Reply is one scripted assistant message: optional text, then tool calls.
// A reply without tool calls ends the turn.
type Reply struct {
	Text     string
	ToolUses []ToolUse
}

// Bash is a reply that runs one shell command.
func Bash(command string) Reply {
	return Reply{ToolUses: []ToolUse{{Name: "Bash", Input: map[string]any{"command": command, "description": "run " + command}}}}
}

// Text is a reply that ends the turn with text.
func Text(s string) Reply { return Reply{Text: s} }

// Conversation is the script of one conversation: the main session or a
// subagent, told apart by Match.
type Conversation struct {
	Name string
	// Match picks the requests of this conversation; nil matches any.
	Match func(*Request) bool
	// Steps are the replies; step i answers a request that already holds i
	// assistant messages. Past the end, the conversation ends with Done.
	Steps []Reply
	// Step, when set, overrides Steps and computes the reply itself.
	Step func(r *Request, step int) Reply
}

// Done is the text a conversation ends with once its steps run out.
const Done = "(stand-in: script finished)"

// Request is one recorded API request.
type Request struct {
	Path         string
	Body         []byte
	Model        string    `json:"model"`
	Stream       bool      `json:"stream"`
	System       string    `json:"-"`
	Messages     []Message `json:"-"`
	Tools        []string  `json:"-"`
	Conversation string    // name of the conversation that answered it, or ""
	Step         int
}

// Message is one message of a request, its content flattened to text.
type Message struct {
	Role        string
	Text        string   // text, tool_use input and tool_result content, joined
	ToolResults []string // the content of each tool_result block
}

// Assistants counts the assistant messages: the script step.
func (r *Request) Assistants() int {
	n := 0
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			n++
		}
	}
	return n
}

// LastToolResult is the content of the last tool_result in the request:
// what the tool the model called last returned (the client may add other
// text blocks after it).
func (r *Request) LastToolResult() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if tr := r.Messages[i].ToolResults; len(tr) > 0 {
			return tr[len(tr)-1]
		}
	}
	return ""
}

// AllText is the system prompt and every message, for searching.
func (r *Request) AllText() string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, m := range r.Messages {
		b.WriteString("\n")
		b.WriteString(m.Text)
	}
	return b.String()
}

// Server is a running stand-in.
type Server struct {
	URL   string
	convs []Conversation
	srv   *http.Server
	ln    net.Listener

	mu       sync.Mutex
	requests []*Request
}

// replies numbers the replies of every server in the process: message and
// tool_use ids are unique, as the real API's are (flowmem's hook tells two
// tool calls apart by tool_use_id, so two sessions must not share one).
var replies atomic.Int64

// Start listens on 127.0.0.1 on a free port and serves the conversations.
func Start(convs ...Conversation) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), convs: convs, ln: ln}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // returns ErrServerClosed on Close
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Requests returns the message requests received so far.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// ConversationRequests returns the requests one conversation answered.
func (s *Server) ConversationRequests(name string) []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Conversation == name {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	body, err := io.ReadAll(io.LimitReader(hr.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if hr.Method != http.MethodPost || !strings.HasPrefix(hr.URL.Path, "/v1/messages") {
		w.Header().Set("content-type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	if strings.HasPrefix(hr.URL.Path, "/v1/messages/count_tokens") {
		w.Header().Set("content-type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	}
	req, err := decode(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Path = hr.URL.RequestURI()
	reply := s.answer(req)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	id := int(replies.Add(1))
	if req.Stream {
		writeSSE(w, req.Model, id, reply)
	} else {
		writeJSON(w, req.Model, id, reply)
	}
}

func (s *Server) answer(req *Request) Reply {
	step := req.Assistants()
	req.Step = step
	for _, c := range s.convs {
		if c.Match != nil && !c.Match(req) {
			continue
		}
		req.Conversation = c.Name
		if c.Step != nil {
			return c.Step(req, step)
		}
		if step < len(c.Steps) {
			return c.Steps[step]
		}
		return Text(Done)
	}
	return Text(Done)
}

// SystemContains matches requests whose system prompt contains marker, such
// as a line of a subagent's markdown body.
func SystemContains(marker string) func(*Request) bool {
	return func(r *Request) bool { return strings.Contains(r.System, marker) }
}

// Not negates a matcher.
func Not(f func(*Request) bool) func(*Request) bool {
	return func(r *Request) bool { return !f(r) }
}

type wireRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

func decode(body []byte) (*Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("decode request: %w", err)
	}
	r := &Request{Body: body, Model: w.Model, Stream: w.Stream, System: flatten(w.System)}
	for _, m := range w.Messages {
		r.Messages = append(r.Messages, Message{Role: m.Role, Text: flatten(m.Content), ToolResults: toolResults(m.Content)})
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	return r, nil
}

// flatten turns a string or a list of content blocks into text.
func flatten(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Name    string          `json:"name"`
		Input   json.RawMessage `json:"input"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_use":
			parts = append(parts, "[tool_use "+b.Name+"] "+string(b.Input))
		case "tool_result":
			parts = append(parts, "[tool_result] "+flatten(b.Content))
		default:
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

func toolResults(raw json.RawMessage) []string {
	var blocks []struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_result" {
			out = append(out, flatten(b.Content))
		}
	}
	return out
}

func writeSSE(w http.ResponseWriter, model string, id int, r Reply) {
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	fl, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if fl != nil {
			fl.Flush()
		}
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", id), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
	idx := 0
	if r.Text != "" || len(r.ToolUses) == 0 {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
			"delta": map[string]any{"type": "text_delta", "text": r.Text}})
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	for i, tu := range r.ToolUses {
		input, _ := json.Marshal(tu.Input)
		event("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", id, i), "name": tu.Name, "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	stop := "end_turn"
	if len(r.ToolUses) > 0 {
		stop = "tool_use"
	}
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

func writeJSON(w http.ResponseWriter, model string, id int, r Reply) {
	var content []any
	if r.Text != "" || len(r.ToolUses) == 0 {
		content = append(content, map[string]any{"type": "text", "text": r.Text})
	}
	for i, tu := range r.ToolUses {
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", id, i), "name": tu.Name, "input": tu.Input})
	}
	stop := "end_turn"
	if len(r.ToolUses) > 0 {
		stop = "tool_use"
	}
	w.Header().Set("content-type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprintf("msg_%d", id), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 20},
	})
}
