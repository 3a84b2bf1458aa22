package hookevent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkScreen10MB: decode and screen a non-review Bash event carrying
// 10 MB of prose, the size issue 18 bounds at 50 ms.
func BenchmarkScreen10MB(b *testing.B) {
	out := strings.Repeat("the quick brown fox jumps over the lazy dog, then naps.\n", 10<<20/56)
	raw, err := json.Marshal(map[string]any{
		"hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input":    map[string]string{"command": "cat notes.txt"},
		"tool_response": map[string]any{"stdout": out, "stderr": ""},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		p, err := Decode(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		if _, skip := Screen(p); skip == "" {
			b.Fatal("prose passed the screen")
		}
	}
}
