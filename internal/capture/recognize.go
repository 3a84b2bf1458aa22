package capture

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

type toolKind int

const (
	toolOther toolKind = iota
	toolShell
	toolAgent
)

// toolKindOf maps a tool name to what the hook does with it. Claude Code's
// shell tool is Bash and its subagent tool Agent (Task before 2.1.63);
// Codex CLI reports its shell as Bash too, Factory Droid as Execute.
func toolKindOf(name string) toolKind {
	switch name {
	case "Bash", "Execute", "Shell", "shell", "local_shell", "exec_command", "run_shell_command":
		return toolShell
	case "Agent", "Task":
		return toolAgent
	}
	return toolOther
}

// isScout: the memory-scout subagent (also as a plugin agent,
// "flowmem:memory-scout"). Its tool calls print memory entries, which may
// quote verdicts; learning from them would feed memory back into itself.
func isScout(agentType string) bool {
	return agentType != "" && strings.Contains(strings.ToLower(agentType), "memory-scout")
}

// isReadBack reports whether a shell command reads flowmem's memory (or
// flow-next's) rather than running a review: anything that names the
// memory folder or files, or runs flowmem or `flowctl memory`.
func isReadBack(command string) bool {
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

// verdictHint is the cheap test every payload gets: could the text hold an
// actionable verdict word (NEEDS_WORK, "needs work", MAJOR_RETHINK) at all?
// It accepts a superset of what review.ParseVerdict acts on. It works on
// the raw JSON of the payload too, where these words appear unescaped.
func verdictHint[T string | []byte](text T) bool {
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

// flow-next task ids: fn-1.2, fn-17-axl.8, fn-29-fv0.6,
// fn-112-native-pdfjs-document-renderer.2, and epic ids without a task.
var taskIDRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bfn-\d+(?:-[a-z0-9]+)*(?:\.\d+)?\b`)
})

// taskID picks the task a review is about: from the review command (or the
// subagent's description and prompt), else from the review text, else the
// FLOW_TASK_ID environment variable. A task id (with ".N") beats an epic id
// from the same source.
func taskID(env string, command, description, prompt, text string) string {
	for _, src := range []string{command, description, prompt, text} {
		if id := findTaskID(src); id != "" {
			return id
		}
	}
	return strings.TrimSpace(env)
}

func findTaskID(s string) string {
	if !strings.Contains(s, "fn-") {
		return ""
	}
	ids := taskIDRe().FindAllString(s, 50)
	for _, id := range ids {
		if strings.Contains(id, ".") {
			return id
		}
	}
	if len(ids) > 0 {
		return ids[0]
	}
	return ""
}

var reviewKindRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(impl|plan|completion)-review\b`)
})

// kindFromCommand names the review a command ran: flowctl's impl-review,
// plan-review or completion-review, or plain "review" (chat-send and other
// wrappers do not say).
func kindFromCommand(command string) string {
	if m := reviewKindRe().FindStringSubmatch(command); m != nil {
		return m[1] + "-review"
	}
	return "review"
}

// kindFromAgent names a reviewer subagent's review from its type and
// description.
func kindFromAgent(subagentType, description string) string {
	s := strings.ToLower(subagentType + " " + description)
	switch {
	case strings.Contains(s, "impl"):
		return "impl-review"
	case strings.Contains(s, "plan"):
		return "plan-review"
	case strings.Contains(s, "completion"):
		return "completion-review"
	}
	return "review"
}
