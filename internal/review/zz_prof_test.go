package review

import (
	"strings"
	"testing"
)

func TestZZDeep(t *testing.T) {
	n := 20000
	rev := "<verdict>NEEDS_WORK</verdict>\n<findings>" + strings.Repeat("[", n) + strings.Repeat("]", n) + "</findings>\n"
	AnalyzeWith(rev, Options{})
	codex := `{"type":"item.completed","item":{"type":"agent_message","text":"x","extra":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}}\nVERDICT=NEEDS_WORK\n"
	u := Unwrap(codex)
	AnalyzeWith(u.Text, Options{})
}
