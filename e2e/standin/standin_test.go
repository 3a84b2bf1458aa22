package standin

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) (string, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.Header.Get("content-type"), string(b)
}

func TestScriptedConversation(t *testing.T) {
	srv, err := Start(
		Conversation{Name: "sub", Match: SystemContains("MARKER"), Steps: []Reply{Text("sub answer")}},
		Conversation{Name: "main", Steps: []Reply{Bash("./review"), Text("final")}},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	// Step 0 of main: a tool call, streamed as SSE in the documented order.
	ct, body := post(t, srv.URL+"/v1/messages?beta=true",
		`{"model":"m","stream":true,"system":[{"type":"text","text":"sys"}],"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"Bash"}]}`)
	if ct != "text/event-stream" {
		t.Errorf("content-type %q", ct)
	}
	var events []string
	var input string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, name)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, "input_json_delta") {
			var ev struct {
				Delta struct {
					PartialJSON string `json:"partial_json"`
				} `json:"delta"`
			}
			json.Unmarshal([]byte(data), &ev)
			input = ev.Delta.PartialJSON
		}
	}
	want := "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"
	if strings.Join(events, " ") != want {
		t.Errorf("events %v", events)
	}
	if !strings.Contains(input, `"command":"./review"`) || !strings.Contains(body, `"stop_reason":"tool_use"`) {
		t.Errorf("tool call not scripted: %s", body)
	}

	// Step 1 (one assistant message in the request), not streamed.
	_, body = post(t, srv.URL+"/v1/messages",
		`{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"OUT"},{"type":"text","text":"extra"}]}]}`)
	if !strings.Contains(body, `"text":"final"`) || !strings.Contains(body, `"stop_reason":"end_turn"`) {
		t.Errorf("step 1: %s", body)
	}
	// A subagent, by system prompt; past its steps it says Done.
	_, body = post(t, srv.URL+"/v1/messages", `{"model":"h","system":"x MARKER y","messages":[{"role":"user","content":"q"}]}`)
	if !strings.Contains(body, "sub answer") {
		t.Errorf("subagent: %s", body)
	}
	_, body = post(t, srv.URL+"/v1/messages", `{"model":"h","system":"MARKER","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}`)
	if !strings.Contains(body, Done) {
		t.Errorf("past the script: %s", body)
	}
	if _, body = post(t, srv.URL+"/v1/messages/count_tokens?beta=true", `{}`); body != `{"input_tokens":10}` {
		t.Errorf("count_tokens: %s", body)
	}

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("recorded %d requests, want 4", len(reqs))
	}
	if r := reqs[1]; r.Conversation != "main" || r.Step != 1 || r.LastToolResult() != "OUT" || r.System != "" {
		t.Errorf("request 1 recorded as %+v", r)
	}
	if r := reqs[0]; r.System != "sys" || len(r.Tools) != 1 || r.Tools[0] != "Bash" || !r.Stream {
		t.Errorf("request 0 recorded as %+v", r)
	}
	if got := srv.ConversationRequests("sub"); len(got) != 2 {
		t.Errorf("sub requests: %d", len(got))
	}
}
