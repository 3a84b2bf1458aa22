package install

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/flowmem/flowmem/internal/jsonedit"
)

// Hook is the handler flowmem registers and the events it listens to.
type Hook struct {
	Events  []string // e.g. PostToolUse, PostToolUseFailure
	Matcher string   // e.g. "Bash|Agent"
	Command string   // shell command that runs `flowmem hook`
	Timeout int      // seconds
}

// SyntaxError is a settings file that is not valid JSON, or whose hooks
// section has a shape flowmem cannot safely edit. Nothing is written.
type SyntaxError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s (fix the file by hand; flowmem left it untouched)", cmp.Or(e.Path, "settings"), e.Line, e.Col, e.Msg)
}

// errShape reports a hooks section whose types are not what Claude Code
// expects; flowmem refuses rather than guess.
func shapeError(d *jsonedit.Doc, n *jsonedit.Node, msg string) error {
	line, col := jsonedit.Position(d.Src, n.Start)
	return &SyntaxError{Line: line, Col: col, Msg: msg}
}

func parseSettings(src []byte) (*jsonedit.Doc, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	d, err := jsonedit.Parse(src)
	if pe, ok := errors.AsType[*jsonedit.ParseError](err); ok {
		return nil, &SyntaxError{Line: pe.Line, Col: pe.Col, Msg: "invalid JSON: " + pe.Msg}
	} else if err != nil {
		return nil, err
	}
	if d.Root.Kind != jsonedit.Object {
		return nil, shapeError(d, d.Root, "settings must be a JSON object, found "+d.Root.Kind.String())
	}
	return d, nil
}

// handler is the part of a hook handler flowmem looks at.
type handler struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout"`
}

func decodeHandler(d *jsonedit.Doc, n *jsonedit.Node) (handler, bool) {
	var h handler
	if n.Kind != jsonedit.Object || d.Decode(n, &h) != nil {
		return handler{}, false
	}
	return h, h.Type == "command" || h.Type == ""
}

func stringValue(d *jsonedit.Doc, n *jsonedit.Node) string {
	var s string
	if n == nil || n.Kind != jsonedit.String || d.Decode(n, &s) != nil {
		return ""
	}
	return s
}

// Merge returns src with h added under every event in h.Events, leaving
// everything else byte for byte as it was. An event that already holds
// exactly this handler is left alone, so running it twice adds nothing; a
// flowmem handler that differs (an old binary path, another timeout) is
// replaced. An empty src is an empty settings object.
func Merge(src []byte, h Hook, isOurs func(string) bool) ([]byte, error) {
	for _, event := range h.Events {
		var err error
		if src, err = edit(src, func(d *jsonedit.Doc) ([]byte, bool, error) { return mergeEvent(d, event, h, isOurs) }); err != nil {
			return nil, err
		}
	}
	return src, nil
}

func (h Hook) group() jsonedit.Obj {
	var g jsonedit.Obj
	if h.Matcher != "" { // SessionStart's hook runs for every source
		g = append(g, jsonedit.KV{Key: "matcher", Value: h.Matcher})
	}
	return append(g, jsonedit.KV{Key: "hooks", Value: []any{jsonedit.Obj{
		{Key: "type", Value: "command"},
		{Key: "command", Value: h.Command},
		{Key: "timeout", Value: h.Timeout},
	}}})
}

// edit applies step to src, parsed afresh before each step, until step
// says there is no more to do: a step makes at most one change, since a
// change moves the byte ranges of what follows it.
func edit(src []byte, step func(d *jsonedit.Doc) (out []byte, more bool, err error)) ([]byte, error) {
	for more := true; more; {
		d, err := parseSettings(src)
		if err != nil {
			return nil, err
		}
		if src, more, err = step(d); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// mergeEvent makes one edit towards h being registered for event and says
// whether more are needed.
func mergeEvent(d *jsonedit.Doc, event string, h Hook, isOurs func(string) bool) ([]byte, bool, error) {
	hooks := d.Root.Get("hooks")
	if hooks == nil {
		return d.AddMember(d.Root, "hooks", jsonedit.Obj{{Key: event, Value: []any{h.group()}}}), false, nil
	}
	if hooks.Kind != jsonedit.Object {
		return nil, false, shapeError(d, hooks, `"hooks" must be an object, found `+hooks.Kind.String())
	}
	groups := hooks.Get(event)
	if groups == nil {
		return d.AddMember(hooks, event, []any{h.group()}), false, nil
	}
	if groups.Kind != jsonedit.Array {
		return nil, false, shapeError(d, groups, fmt.Sprintf("%q must be an array, found %s", event, groups.Kind))
	}
	// Stale flowmem handlers (an old binary path, another matcher or
	// timeout) go first, one per pass; then ours is either there or added.
	found := false
	for gi, g := range groups.Elems {
		exactGroup := g.Kind == jsonedit.Object && stringValue(d, g.Get("matcher")) == h.Matcher
		hs := handlersOf(g)
		for hi, hn := range hs {
			hd, ok := decodeHandler(d, hn)
			if !ok || !(isOurs(hd.Command) || hd.Command == h.Command) {
				continue
			}
			if exactGroup && hd.Command == h.Command && hd.Timeout != nil && *hd.Timeout == float64(h.Timeout) && !found {
				found = true
				continue
			}
			if len(hs) == 1 {
				return d.Remove(groups, gi), true, nil
			}
			return d.Remove(g.Get("hooks"), hi), true, nil
		}
	}
	if found {
		return d.Src, false, nil
	}
	return d.AppendElem(groups, h.group()), false, nil
}

func handlersOf(g *jsonedit.Node) []*jsonedit.Node {
	if g.Kind != jsonedit.Object {
		return nil
	}
	if hs := g.Get("hooks"); hs != nil && hs.Kind == jsonedit.Array {
		return hs.Elems
	}
	return nil
}

// Unmerge returns src without the handlers isOurs recognises, in any event.
// A group, event list or hooks object left empty by the removal goes too, so
// uninstalling what Merge added restores the original bytes. An empty src
// stays empty.
func Unmerge(src []byte, isOurs func(string) bool) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, nil
	}
	return edit(src, func(d *jsonedit.Doc) ([]byte, bool, error) {
		out, more := unmergeOne(d, isOurs)
		return out, more, nil
	})
}

// unmergeOne removes one of our handlers, and says whether it did.
func unmergeOne(d *jsonedit.Doc, isOurs func(string) bool) ([]byte, bool) {
	hooks := d.Root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonedit.Object {
		return d.Src, false
	}
	for ei, m := range hooks.Members {
		groups := m.Value
		if groups.Kind != jsonedit.Array {
			continue
		}
		for gi, g := range groups.Elems {
			hs := handlersOf(g)
			for hi, hn := range hs {
				hd, ok := decodeHandler(d, hn)
				if !ok || !isOurs(hd.Command) {
					continue
				}
				switch {
				case len(hs) > 1:
					return d.Remove(g.Get("hooks"), hi), true
				case len(groups.Elems) > 1:
					return d.Remove(groups, gi), true
				case len(hooks.Members) > 1:
					return d.Remove(hooks, ei), true
				default:
					return d.RemoveKey(d.Root, "hooks"), true
				}
			}
		}
	}
	return d.Src, false
}

// Installed lists the flowmem hook commands registered per event in src.
func Installed(src []byte, isOurs func(string) bool) (map[string][]string, error) {
	out := map[string][]string{}
	if len(bytes.TrimSpace(src)) == 0 {
		return out, nil
	}
	d, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	hooks := d.Root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonedit.Object {
		return out, nil
	}
	for _, m := range hooks.Members {
		if m.Value.Kind != jsonedit.Array {
			continue
		}
		for _, g := range m.Value.Elems {
			for _, hn := range handlersOf(g) {
				if hd, ok := decodeHandler(d, hn); ok && isOurs(hd.Command) {
					out[m.Key] = append(out[m.Key], hd.Command)
				}
			}
		}
	}
	return out, nil
}

// IsFlowmemCommand reports whether a hook command runs flowmem's hook: its
// last words are a program named flowmem (any directory, quoted or not,
// .exe allowed) and the word hook, or a program named flowmem-hook;
// either optionally followed by flags. This is how uninstall and doctor
// find flowmem's handlers without a marker field, which the settings
// schema does not allow.
func IsFlowmemCommand(cmd string) bool { return HookProgram(cmd) != "" }

// HookProgram returns the program a flowmem hook command runs (flowmem
// before "hook", or flowmem-hook), unquoted, or "" when cmd is not one.
func HookProgram(cmd string) string {
	words := withoutFlags(cmd)
	if len(words) == 0 {
		return ""
	}
	last := words[len(words)-1]
	if programIs(last, FrontName) {
		return last
	}
	if len(words) < 2 || last != "hook" || !programIs(words[len(words)-2], "flowmem") {
		return ""
	}
	return words[len(words)-2]
}

// withoutFlags is the words of cmd's last command up to its trailing
// flags.
func withoutFlags(cmd string) []string {
	words := shellWords(cmd)
	for len(words) > 0 && strings.HasPrefix(words[len(words)-1], "-") {
		words = words[:len(words)-1]
	}
	return words
}

func programIs(word, name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(word, `\`, "/")))
	return base == name || base == name+".exe"
}

// shellWords splits a command line roughly as sh would: whitespace and ;&|
// separate words, single and double quotes group, backslash escapes. It
// only needs to be good enough to find the last words of a command.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				break
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s) && strings.IndexByte(" \t'\"\\;&|", s[i+1]) >= 0:
			// An escaped separator or quote; other backslashes stay, so
			// Windows paths written by hand still read as paths.
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		case c == ';' || c == '&' || c == '|':
			flush()
			words = words[:0] // a new command starts: only the last one counts
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return words
}

// ShellQuote quotes p for sh -c when it holds anything but safe characters.
func ShellQuote(p string) string {
	safe := p != ""
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./+:@%,=", r)) {
			safe = false
			break
		}
	}
	if safe {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// RunsBinary reports whether cmd ends in "<program> hook" where program is
// the file exe, under any name or path. It recognises flowmem's handlers
// when the binary is not named flowmem (a renamed or test build).
func RunsBinary(cmd, exe string) bool {
	if exe == "" {
		return false
	}
	words := shellWords(cmd)
	if len(words) < 2 || words[len(words)-1] != "hook" {
		return false
	}
	return SameFile(words[len(words)-2], exe)
}

// AddAllow returns src with rule in permissions.allow, adding the list (and
// the permissions object) when missing. A rule already there changes
// nothing.
func AddAllow(src []byte, rule string) ([]byte, error) {
	d, err := parseSettings(src)
	if err != nil {
		return nil, err
	}
	perms := d.Root.Get("permissions")
	if perms == nil {
		return d.AddMember(d.Root, "permissions", jsonedit.Obj{{Key: "allow", Value: []any{rule}}}), nil
	}
	if perms.Kind != jsonedit.Object {
		return nil, shapeError(d, perms, `"permissions" must be an object, found `+perms.Kind.String())
	}
	allow := perms.Get("allow")
	if allow == nil {
		return d.AddMember(perms, "allow", []any{rule}), nil
	}
	if allow.Kind != jsonedit.Array {
		return nil, shapeError(d, allow, `"allow" must be an array, found `+allow.Kind.String())
	}
	for _, e := range allow.Elems {
		if stringValue(d, e) == rule {
			return src, nil
		}
	}
	return d.AppendElem(allow, rule), nil
}

// RemoveAllow returns src without rule in permissions.allow; a list or
// permissions object left empty by that goes too, so removing what AddAllow
// added restores the original bytes.
func RemoveAllow(src []byte, rule string) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, nil
	}
	return edit(src, func(d *jsonedit.Doc) ([]byte, bool, error) {
		perms := d.Root.Get("permissions")
		allow := perms.Get("allow")
		if allow == nil || allow.Kind != jsonedit.Array {
			return d.Src, false, nil
		}
		switch i := slices.IndexFunc(allow.Elems, func(e *jsonedit.Node) bool { return stringValue(d, e) == rule }); {
		case i < 0:
			return d.Src, false, nil
		case len(allow.Elems) > 1:
			return d.Remove(allow, i), true, nil
		case len(perms.Members) > 1:
			return d.RemoveKey(perms, "allow"), true, nil
		}
		return d.RemoveKey(d.Root, "permissions"), true, nil
	})
}

// LeaveKey is the settings key that names the allow rules a file held
// before flowmem was first installed there: they are the user's (the
// scout's rule added by hand, say), so uninstall leaves them. Install
// writes it then, an empty list when there were none, and uninstall
// removes it: while it is there, flowmem's own rules are in the file.
const LeaveKey = "flowmemLeavesAllow"

// leftRules are the rules src's LeaveKey names; marked says the key is
// there (a list, maybe empty).
func leftRules(src []byte) (rules []string, marked bool) {
	var s map[string]any
	if json.Unmarshal(src, &s) != nil {
		return nil, false
	}
	list, marked := s[LeaveKey].([]any)
	for _, v := range list {
		if r, ok := v.(string); ok {
			rules = append(rules, r)
		}
	}
	return rules, marked
}

// setLeftRules returns src with LeaveKey naming rules (an empty list when
// rules is empty but not nil), or without it when rules is nil.
func setLeftRules(src []byte, rules []string) ([]byte, error) {
	return edit(src, func(d *jsonedit.Doc) ([]byte, bool, error) {
		if d.Root.Get(LeaveKey) != nil {
			return d.RemoveKey(d.Root, LeaveKey), rules != nil, nil
		}
		if rules == nil {
			return d.Src, false, nil
		}
		list := make([]any, 0, len(rules))
		for _, r := range rules {
			list = append(list, r)
		}
		return d.AddMember(d.Root, LeaveKey, list), false, nil
	})
}

// HasAllow reports whether src's permissions.allow holds rule.
func HasAllow(src []byte, rule string) bool {
	var s struct {
		Permissions struct {
			Allow []any `json:"allow"`
		} `json:"permissions"`
	}
	if json.Unmarshal(src, &s) != nil {
		return false
	}
	return slices.Contains(s.Permissions.Allow, any(rule))
}

// IsPrimeCommand reports whether cmd runs flowmem's SessionStart prime: its
// last words are a program named flowmem, then "memory prime", then flags.
func IsPrimeCommand(cmd string) bool {
	words := withoutFlags(cmd)
	n := len(words)
	return n >= 3 && words[n-1] == "prime" && words[n-2] == "memory" && programIs(words[n-3], "flowmem")
}
