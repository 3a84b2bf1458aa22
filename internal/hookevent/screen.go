package hookevent

import (
	"bytes"
	"slices"
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
	if slices.ContainsFunc([]string{".flow/memory", `.flow\memory`, "pitfalls.md", "conventions.md", "decisions.md", "flowctl memory"}, func(s string) bool { return strings.Contains(lc, s) }) {
		return true
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

// VerdictHint is the cheap test every payload gets: could the text hold a
// verdict at all? It accepts a superset of what the review reader
// (review.ParseVerdict, review.Unwrap) acts on, SHIP reviews included (the
// reviews log records them), by looking for the three slots a verdict can
// sit in, in any case:
//   - a verdict key, tag, heading, receipt field or VERDICT= trailer: the
//     word "verdict";
//   - a decision key, "Recommendation:", "Status —", "Outcome =";
//   - a line that is only a verdict phrase: the phrases reviewers use for
//     their overall call on their own (verdictPhrases).
//
// It works on the raw JSON of the payload too, where these words appear
// unescaped, and it is linear: each byte is looked at a bounded number of
// times, so a 10 MB payload costs milliseconds.
func VerdictHint[T string | []byte](text T) bool {
	if containsFold(text, "verdict") {
		return true
	}
	// One pass over the words: a word is compared with the keys and
	// phrases only when one starts with its first two letters and has its
	// length, so the cost stays a few instructions a byte however many
	// phrases there are.
	starts, isWord := &hintStarts, &wordByte
	for i := 0; i < len(text); {
		if !isWord[text[i]] {
			i++
			continue
		}
		start := i
		if start > 0 && text[start-1] == '\\' {
			// The letter of an escape in raw JSON (\nLGTM) is not part of
			// the word.
			start++
		}
		for i < len(text) && isWord[text[i]] {
			i++
		}
		n := i - start
		if n <= 0 || n > 15 {
			continue
		}
		second := byte(0)
		if n > 1 {
			second = text[start+1]
		}
		if starts[(text[start]|0x20)&0x1f][(second|0x20)&0x1f]&(1<<n) != 0 && wordHint(text[start:i], text[i:]) {
			return true
		}
	}
	return false
}

// hintStarts[first][second] has bit n set when a decision key or verdict
// phrase starts with a word of n letters beginning with those two letters
// (second 0 for one-letter words); most words are passed over on this one
// look.
var hintStarts = func() (t [32][32]uint16) {
	add := func(w string) {
		second := byte(0)
		if len(w) > 1 {
			second = w[1]
		}
		t[w[0]&0x1f][(second|0x20)&0x1f] |= 1 << len(w)
	}
	for _, k := range decisionKeys {
		add(k)
	}
	for _, p := range verdictPhrases {
		add(p[0])
	}
	return t
}()

// wordByte marks the bytes of words: ASCII letters, digits and "_".
var wordByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isWordByte(byte(c))
	}
	return t
}()

// wordHint: the word w, followed by rest, starts a decision key or a
// verdict phrase.
func wordHint[T string | []byte](w, rest T) bool {
	c := w[0] | 0x20
	for _, k := range decisionKeys {
		if k[0] == c && equalFoldASCII(w, k) && keySep(rest) {
			return true
		}
	}
	for _, p := range verdictPhrases {
		if p[0][0] != c || !equalFoldASCII(w, p[0]) {
			continue
		}
		ok := true
		for _, next := range p[1:] {
			if len(rest) < 1+len(next) || (rest[0] != ' ' && rest[0] != '_' && rest[0] != '-') || !equalFoldASCII(rest[1:1+len(next)], next) {
				ok = false
				break
			}
			rest = rest[1+len(next):]
		}
		if ok && (len(rest) == 0 || !isWordByte(rest[0])) {
			return true
		}
	}
	return false
}

// decisionKeys are where reviewers that never say "verdict" put their
// overall call ("Recommendation: request changes", "Final decision:
// APPROVE").
var decisionKeys = []string{"recommendation", "decision", "status", "assessment", "conclusion", "outcome"}

// verdictPhrases are the general words of a review's outcome that the
// review reader takes as a verdict on a line of their own, first word
// first; phrases that are verdicts only after a key need no entry, the key
// passes them. "ship" covers "ship it", "approve" "not approved".
var verdictPhrases = [][]string{
	{"rethink"}, {"start", "over"}, {"needs", "work"},
	{"request", "changes"}, {"requesting", "changes"}, {"requested", "changes"}, {"requires", "changes"},
	{"changes", "requested"}, {"changes", "required"}, {"changes", "needed"},
	{"not", "ready"}, {"not", "merge"}, {"t", "merge"}, // don't merge
	{"ship"}, {"lgtm"}, {"approve"}, {"approved"},
}

// keySep: after a key come only markdown decoration and then ":", "=" or
// an em dash.
func keySep[T string | []byte](rest T) bool {
	i := 0
	for i < len(rest) && i < 8 && (rest[i] == '*' || rest[i] == '`' || rest[i] == '_' || rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	if i < len(rest) && (rest[i] == ':' || rest[i] == '=') {
		return true
	}
	return i+3 <= len(rest) && rest[i] == 0xE2 && rest[i+1] == 0x80 && rest[i+2] == 0x94
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// containsFold reports whether s contains word (lower-case ASCII) in any
// case. Candidates are found by searching for the word's first letter in
// each case; each search resumes where it stopped instead of starting over
// at every candidate, which is what keeps a long text of one case linear.
func containsFold[T string | []byte](s T, word string) bool {
	lo, up := word[0], word[0]-('a'-'A')
	nextLo, nextUp := -1, -1 // next position of lo and of up at or after off; -1: not searched yet
	for off := 0; off+len(word) <= len(s); {
		if nextLo != len(s) && nextLo < off {
			nextLo = indexByteFrom(s, lo, off)
		}
		if nextUp != len(s) && nextUp < off {
			nextUp = indexByteFrom(s, up, off)
		}
		i := min(nextLo, nextUp)
		if i+len(word) > len(s) {
			return false
		}
		if equalFoldASCII(s[i:i+len(word)], word) {
			return true
		}
		off = i + 1
	}
	return false
}

// indexByteFrom is the index of c in s at or after off, or len(s).
func indexByteFrom[T string | []byte](s T, c byte, off int) int {
	var i int
	switch v := any(s[off:]).(type) {
	case string:
		i = strings.IndexByte(v, c)
	case []byte:
		i = bytes.IndexByte(v, c)
	}
	if i < 0 {
		return len(s)
	}
	return off + i
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

// Candidate is what Screen passes on: an event that may hold a review.
type Candidate struct {
	Tool Tool
	// Text is everything the tool printed (Payload.Text).
	Text string
	// Persisted: the payload holds only a preview of a Bash command's
	// output; the whole of it is in the file at PersistedOutputPath, which
	// may hold the verdict the preview lacks.
	Persisted bool
	// Named: the command or subagent names a review (NamesReview), so it
	// goes on without a verdict word in its output.
	Named bool
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
	// A call that names a review goes on whatever it printed: some
	// reviewers write ranked findings and no verdict, and the review reader
	// decides. Any other call goes on only with a verdict in its output;
	// the verdict words appear unescaped in the raw JSON, so most events are
	// turned away here without decoding their output.
	switch c.Tool {
	case ToolShell:
		c.Named = NamesReview(c.Tool, p.Command(), "")
	case ToolAgent:
		// SubagentType may decode tool_response; shells never need it.
		c.Named = NamesReview(c.Tool, "", p.SubagentType())
	}
	named := c.Named
	if !named && !VerdictHint([]byte(p.ToolResponse)) && !VerdictHint([]byte(p.Error)) &&
		!bytes.Contains(p.ToolResponse, []byte(`"persistedOutputPath"`)) {
		return c, "no verdict in the output"
	}
	c.Text = p.Text()
	c.Persisted = c.Tool == ToolShell && p.PersistedOutputPath() != ""
	if !named && !c.Persisted && !VerdictHint(c.Text) {
		return c, "no verdict in the output"
	}
	return c, ""
}

// NamesReview: the command or subagent type says "review" (or flow-next's
// chat-send, or an auditor). Every default review pattern and reviewer
// glob needs one of these words, so this cheap test passes a superset of
// what the project's settings recognise; the settings decide the rest.
func NamesReview(t Tool, command, subagentType string) bool {
	switch t {
	case ToolShell:
		return containsFold(command, "review") || containsFold(command, "chat-send")
	case ToolAgent:
		return containsFold(subagentType, "review") || containsFold(subagentType, "audit")
	}
	return false
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
