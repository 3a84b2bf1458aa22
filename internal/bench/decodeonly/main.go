// Command decodeonly is the yardstick for the hook's fast path: a minimal Go
// program that decodes one Claude Code hook payload from stdin and exits.
package main

import (
	"encoding/json"
	"os"
)

type payload struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	Error         string          `json:"error"`
}

func main() {
	var p payload
	_ = json.NewDecoder(os.Stdin).Decode(&p)
}
