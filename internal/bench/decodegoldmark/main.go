// Command decodegoldmark is the decode-only program with goldmark's parser
// linked in but never called: the start-up floor of any single flowmem
// binary, since internal/review reads review text with goldmark and Go
// initialises every linked package before main. make bench puts it beside
// the hook's rows; it is why the hook keeps its small front end.
package main

import (
	"encoding/json"
	"os"

	_ "github.com/yuin/goldmark/parser"
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
