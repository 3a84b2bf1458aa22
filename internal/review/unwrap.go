package review

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// Unwrapped is the review a person would read inside whatever carried it,
// with what the wrapper itself said about it.
type Unwrapped struct {
	Text    string // the review text ("" only when raw was empty)
	Verdict string // the wrapper's verdict (receipt "verdict", VERDICT=X trailer), normalised; "" if none
	Task    string // task id the wrapper names (receipt "id"), "" if none
}

// maxUnwrapDepth bounds how many wrappers are peeled: a receipt may hold a
// stream, never more in practice, and a bound keeps hostile input linear.
const maxUnwrapDepth = 3

// Unwrap returns the review text inside the wrappers review tools print:
//   - a Codex `exec --json` event stream (JSON lines): the last agent
//     message's text; older Codex builds wrote {"msg":{"type":"agent_message","message":…}};
//   - `claude -p --output-format json` (one object) or `stream-json` (JSON
//     lines): the "result" field, else the last assistant text;
//   - a flow-next receipt: the review in "review", the verdict in
//     "verdict", the task in "id";
//   - `VERDICT=X` lines that flowctl prints after the stream.
//
// Anything else comes back unchanged. It never fails: text it cannot read
// as a wrapper is the review.
func Unwrap(raw string) Unwrapped {
	var u Unwrapped
	text := raw
	for range maxUnwrapDepth {
		inner, v, task, ok := unwrapOnce(text)
		if v != "" && u.Verdict == "" {
			u.Verdict = v
		}
		if task != "" && u.Task == "" {
			u.Task = task
		}
		if !ok {
			break
		}
		text = inner
	}
	u.Text = text
	return u
}

// unwrapOnce peels one layer. ok is false when text was not wrapped (a
// VERDICT= trailer alone still reports its verdict with ok true, as its
// removal changed the text).
func unwrapOnce(text string) (inner, verdict, task string, ok bool) {
	body, trailer := splitTrailer(text)
	if trailer != "" {
		verdict = trailer
	}
	t := strings.TrimSpace(body)
	if strings.HasPrefix(t, "{") {
		if in, v, tk, found := fromJSONObject(t); found {
			if verdict == "" {
				verdict = v
			}
			return in, verdict, tk, true
		}
		if in, found := fromEventStream(t); found {
			return in, verdict, "", true
		}
	} else if i := strings.Index(t, "\n{"); i >= 0 {
		// A wrapper's log lines before the stream ("Running codex
		// review for fn-3.1 …"): the stream is still the review, and
		// the log may name the task.
		if in, found := fromEventStream(t[i+1:]); found {
			return in, verdict, TaskIDRe().FindString(t[:i]), true
		}
	}
	return body, verdict, "", trailer != ""
}

// splitTrailer removes lines of the form VERDICT=X (flowctl's
// machine-readable verdict) and returns the last one's verdict.
func splitTrailer(text string) (string, string) {
	if !strings.Contains(text, "VERDICT=") && !strings.Contains(text, "verdict=") {
		return text, ""
	}
	var b strings.Builder
	verdict := ""
	removed := false
	for line := range strings.Lines(text) {
		l := strings.TrimSpace(line)
		if len(l) > len("verdict=") && strings.EqualFold(l[:len("verdict=")], "verdict=") {
			if v, n := verdictWordAt(l[len("verdict="):]); v != None && n == len(l)-len("verdict=") {
				verdict = string(v)
				removed = true
				continue
			}
		}
		b.WriteString(line)
	}
	if !removed {
		return text, ""
	}
	return b.String(), verdict
}

// fromJSONObject reads a single JSON object: a flow-next receipt or a
// `claude -p --output-format json` result.
func fromJSONObject(t string) (inner, verdict, task string, ok bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &obj) != nil {
		return "", "", "", false
	}
	text := ""
	for _, k := range []string{"review", "result"} {
		if s := jsonString(obj[k]); strings.TrimSpace(s) != "" {
			text = s
			break
		}
	}
	if text == "" {
		return "", "", "", false
	}
	if v, n := verdictWordAt(jsonString(obj["verdict"])); v != None && n > 0 {
		verdict = string(v)
	}
	for _, k := range []string{"id", "task", "task_id"} {
		if id := TaskIDRe().FindString(jsonString(obj[k])); id != "" {
			task = id
			break
		}
	}
	return text, verdict, task, true
}

// streamEvent covers the event shapes that carry a reviewer's message:
// Codex `exec --json` (item.completed with an agent_message item; older
// builds: msg), and Claude's stream-json (result, or assistant content).
type streamEvent struct {
	Type string `json:"type"`
	Item *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Msg *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"msg"`
	Result  *string `json:"result"`
	Message *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"message"`
}

// fromEventStream reads JSON lines and returns the final result, else the
// last agent or assistant message. Lines that are not JSON (progress
// output mixed into the stream) are skipped.
func fromEventStream(t string) (string, bool) {
	last, result := "", ""
	for line := range strings.Lines(t) {
		l := strings.TrimSpace(line)
		if !strings.HasPrefix(l, "{") {
			continue
		}
		var ev streamEvent
		if json.Unmarshal([]byte(l), &ev) != nil {
			continue
		}
		switch {
		case ev.Item != nil && (ev.Item.Type == "agent_message" || ev.Item.Type == "assistant_message") && ev.Item.Text != "":
			last = ev.Item.Text
		case ev.Msg != nil && ev.Msg.Type == "agent_message" && ev.Msg.Message != "":
			last = ev.Msg.Message
		case ev.Type == "result" && ev.Result != nil && *ev.Result != "":
			result = *ev.Result
		case ev.Type == "assistant" && ev.Message != nil:
			var parts []string
			for _, c := range ev.Message.Content {
				if c.Type == "text" && c.Text != "" {
					parts = append(parts, c.Text)
				}
			}
			if len(parts) > 0 {
				last = strings.Join(parts, "\n\n")
			}
		}
	}
	if result != "" {
		return result, true
	}
	return last, last != ""
}

func jsonString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// TaskIDRe matches flow-next task and epic ids: fn-1, fn-1.2, fn-17-axl.8.
var TaskIDRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bfn-\d+(?:-[a-z0-9]+)*(?:\.\d+)?\b`)
})
