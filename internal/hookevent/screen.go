package hookevent

import (
	"bytes"
	"strings"
)

// Tool is what the hook does with a tool's events.
type Tool int

const (
	ToolOther Tool = iota
	ToolShell
	ToolAgent
)

// KindOf maps a tool name to what the hook does with it. Claude Code's
// shell tool is Bash and its subagent tool Agent (Task before 2.1.63);
// Codex CLI reports its shell as Bash too, Factory Droid as Execute.
func KindOf(name string) Tool {
	switch name {
	case "Bash", "Execute", "Shell", "shell", "local_shell", "exec_command", "run_shell_command":
		return ToolShell
	case "Agent", "Task":
		return ToolAgent
	}
	return ToolOther
}

// IsScout: the memory-scout subagent (also as a plugin agent,
// "flowmem:memory-scout"). Its tool calls print memory entries, which may
// quote verdicts; learning from them would feed memory back into itself.
func IsScout(agentType string) bool {
	return agentType != "" && strings.Contains(strings.ToLower(agentType), "memory-scout")
}

// IsReadBack reports whether a shell command reads flowmem's memory (or
// flow-next's) rather than running a review: anything that names the
// memory folder or files, or runs flowmem or `flowctl memory`.
func IsReadBack(command string) bool {
	if command == "" {
		return false
	}
	lc := strings.ToLower(command)
	for _, s := range []string{".flow/memory", `.flow\memory`, "pitfalls.md", "conventions.md", "decisions.md", "flowctl memory"} {
		if strings.Contains(lc, s) {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(lc, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == ';' || r == '|' || r == '&' || r == '(' || r == ')' || r == '"' || r == '\'' || r == '`' || r == '$' || r == '{' || r == '}'
	}) {
		if i := strings.LastIndexAny(w, `/\`); i >= 0 {
			w = w[i+1:]
		}
		if w == "flowmem" || w == "flowmem.exe" {
			return true
		}
	}
	return false
}

// VerdictHint is the cheap test every payload gets: could the text hold an
// actionable verdict word (NEEDS_WORK, "needs work", MAJOR_RETHINK) at all?
// It accepts a superset of what review.ParseVerdict acts on. It works on
// the raw JSON of the payload too, where these words appear unescaped.
func VerdictHint[T string | []byte](text T) bool {
	return indexFold(text, "needs", func(rest T) bool {
		if len(rest) < 5 || (rest[0] != '_' && rest[0] != ' ' && rest[0] != '-') {
			return false
		}
		return equalFoldASCII(rest[1:5], "work")
	}) || indexFold(text, "rethink", nil)
}

// indexFold reports whether s contains word (lower-case ASCII) in any case,
// followed by text that then satisfies (nil: anything). It searches for the
// word's first byte in both cases, which is fast even on a large payload.
func indexFold[T string | []byte](s T, word string, then func(rest T) bool) bool {
	lo, up := word[0], word[0]-('a'-'A')
	for off := 0; off+len(word) <= len(s); {
		i := indexEither(s[off:], lo, up)
		if i < 0 {
			return false
		}
		i += off
		if i+len(word) <= len(s) && equalFoldASCII(s[i:i+len(word)], word) && (then == nil || then(s[i+len(word):])) {
			return true
		}
		off = i + 1
	}
	return false
}

func equalFoldASCII[T string | []byte](s T, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

func indexEither[T string | []byte](s T, a, b byte) int {
	var i, j int
	switch v := any(s).(type) {
	case string:
		i, j = strings.IndexByte(v, a), strings.IndexByte(v, b)
	case []byte:
		i, j = bytes.IndexByte(v, a), bytes.IndexByte(v, b)
	}
	switch {
	case i < 0:
		return j
	case j < 0:
		return i
	}
	return min(i, j)
}

// Candidate is what Screen passes on: an event that may hold a review.
type Candidate struct {
	Tool Tool
	// Text is everything the tool printed (Payload.Text).
	Text string
	// Persisted: the payload holds only a preview of a Bash command's
	// output; the whole of it is in the file at PersistedOutputPath, which
	// may hold the verdict the preview lacks.
	Persisted bool
}

// Screen is the decision every tool call gets, made from the decoded
// payload alone — no file is read and no configuration loaded: it returns
// why the event cannot be a review, or "" and what to look at further.
// It passes a superset of reviews; the configured review patterns and the
// verdict parser decide the rest.
func Screen(p *Payload) (Candidate, string) {
	var c Candidate
	switch ev := p.Event(); ev {
	case "PostToolUse", "PostToolUseFailure":
	default:
		return c, "event " + ev + " is not handled"
	}
	if IsScout(p.AgentType) {
		return c, "memory-scout reads memory; it is never a review"
	}
	c.Tool = KindOf(p.ToolName)
	switch c.Tool {
	case ToolShell:
		if IsReadBack(p.Command()) {
			return c, "command reads memory back"
		}
	case ToolAgent:
		if IsScout(p.SubagentType()) {
			return c, "memory-scout reads memory; it is never a review"
		}
	default:
		return c, "tool " + p.ToolName + " is not a review tool"
	}
	// The verdict words appear unescaped in the raw JSON, so most events
	// are turned away here without decoding their output.
	if !VerdictHint([]byte(p.ToolResponse)) && !VerdictHint([]byte(p.Error)) &&
		!bytes.Contains(p.ToolResponse, []byte(`"persistedOutputPath"`)) {
		return c, "no verdict in the output"
	}
	c.Text = p.Text()
	c.Persisted = c.Tool == ToolShell && p.PersistedOutputPath() != ""
	if !c.Persisted && !VerdictHint(c.Text) {
		return c, "no verdict in the output"
	}
	return c, ""
}

// Disabled reports whether FLOWMEM_DISABLE's value turns the hook off:
// anything but empty, 0, false, no or off. Both hook binaries read it.
func Disabled(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}
