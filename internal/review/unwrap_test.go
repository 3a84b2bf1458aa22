package review

import (
	"strings"
	"testing"
)

func TestUnwrap(t *testing.T) {
	review := "### FINDING [BLOCKER] x\n\nbody\n\n<verdict>NEEDS_WORK</verdict>"
	codex := `{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"thinking"}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"draft"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":` + quote(review) + `}}
{"type":"turn.completed","usage":{"input_tokens":1}}
VERDICT=NEEDS_WORK
`
	tests := []struct {
		name string
		raw  string
		want Unwrapped
	}{
		{"plain text", "just text\nVERDICT: SHIP", Unwrapped{Text: "just text\nVERDICT: SHIP"}},
		{"codex stream with trailer", codex, Unwrapped{Text: review, Verdict: "NEEDS_WORK"}},
		{"old codex msg events", `{"id":"0","msg":{"type":"agent_message","message":"old form"}}` + "\n", Unwrapped{Text: "old form"}},
		{"receipt", `{"type":"impl_review","id":"fn-17-axl.8","mode":"codex","verdict":"NEEDS_WORK","review":"the review"}`,
			Unwrapped{Text: "the review", Verdict: "NEEDS_WORK", Task: "fn-17-axl.8"}},
		{"claude json", `{"type":"result","subtype":"success","is_error":false,"result":"claude said"}`, Unwrapped{Text: "claude said"}},
		{"claude stream-json", `{"type":"system","subtype":"init"}
{"type":"assistant","message":{"content":[{"type":"text","text":"partial"}]}}
{"type":"result","result":"final answer"}`, Unwrapped{Text: "final answer"}},
		{"stream without result uses last assistant text", `{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"tool_use"}]}}
{"type":"assistant","message":{"content":[{"type":"text","text":"b"}]}}`, Unwrapped{Text: "b"}},
		{"receipt holding a stream", `{"id":"fn-2.1","review":` + quote(codex) + `}`,
			Unwrapped{Text: review, Verdict: "NEEDS_WORK", Task: "fn-2.1"}},
		{"json without review field is text", `{"a":1}`, Unwrapped{Text: `{"a":1}`}},
		{"trailer alone", "findings here\nVERDICT=SHIP\n", Unwrapped{Text: "findings here\n", Verdict: "SHIP"}},
		{"trailer with unknown word stays", "x\nVERDICT=MAYBE\n", Unwrapped{Text: "x\nVERDICT=MAYBE\n"}},
		{"broken json lines are text", "{not json\n{nor this", Unwrapped{Text: "{not json\n{nor this"}},
		{"log lines before a stream", "Starting review of fn-4-ab.2 (codex)\nmodel: x\n" + codex, Unwrapped{Text: review, Verdict: "NEEDS_WORK", Task: "fn-4-ab.2"}},
		{"a review quoting a json line stays", "## Findings\n\n1. The log line\n{\"level\":\"info\"}\nleaks the token.\n", Unwrapped{Text: "## Findings\n\n1. The log line\n{\"level\":\"info\"}\nleaks the token.\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unwrap(tt.raw); got != tt.want {
				t.Errorf("Unwrap =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestUnwrapThenAnalyze: the wrapped review yields the same findings as the
// bare one, which is the point of unwrapping.
func TestUnwrapThenAnalyze(t *testing.T) {
	review := "## Issues\n\n1. `rows.Close()` is never called in `store.List`; add `defer rows.Close()` after the error check.\n\n<verdict>NEEDS_WORK</verdict>"
	stream := `{"type":"item.completed","item":{"type":"agent_message","text":` + quote(review) + "}}\nVERDICT=NEEDS_WORK\n"
	bare := Analyze(review)
	got := Analyze(Unwrap(stream).Text)
	if len(bare.Findings) == 0 || len(got.Findings) != len(bare.Findings) || got.Verdict != bare.Verdict {
		t.Fatalf("bare %d findings (%s), unwrapped %d (%s)", len(bare.Findings), bare.Verdict, len(got.Findings), got.Verdict)
	}
	if n := len(Analyze(stream).Findings); n != 0 && strings.Contains(Analyze(stream).Findings[0].Problem, `"type"`) {
		t.Errorf("the raw stream should not be read as findings: %+v", Analyze(stream).Findings)
	}
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
