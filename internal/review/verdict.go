package review

import (
	"regexp"
	"strings"
	"sync"
)

// Verdict is a reviewer's overall judgement.
type Verdict string

// Known verdicts. None means the text carries no recognisable verdict, which
// callers must treat as "not a review" rather than as a pass.
const (
	None         Verdict = ""
	Ship         Verdict = "SHIP"
	NeedsWork    Verdict = "NEEDS_WORK"
	MajorRethink Verdict = "MAJOR_RETHINK"
)

// Actionable reports whether the verdict asks for changes, the only case in
// which findings are worth capturing.
func (v Verdict) Actionable() bool { return v == NeedsWork || v == MajorRethink }

var verdictTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)<verdict>\s*([a-z_ -]{1,40}?)\s*</verdict>`) })

// ParseVerdict finds the verdict in a review text. The last
// <verdict>…</verdict> tag with a known word wins, because reviewers often
// restate the protocol ("end with <verdict>SHIP|NEEDS_WORK</verdict>") or
// quote earlier rounds before their own answer. Without a tag it falls back
// to verdict lines (`VERDICT: X`, `**Verdict:** X`, `Overall verdict: X.`,
// `SOL_VERDICT: X`, `… — verdict=X`, a `## Verdict` heading followed by
// `**X**`), again the last one. Only SHIP, NEEDS_WORK and MAJOR_RETHINK
// count, so a sub-item's `**Verdict**: CORRECT` is ignored. Lowercase
// snake_case keys such as `flowctl_verdict:` or `true_verdict:` are metadata
// written about a review, not by the reviewer, and are ignored too.
func ParseVerdict(text string) Verdict {
	if v := lastTagVerdict(text); v != None {
		return v
	}
	return lastLineVerdict(text)
}

func lastTagVerdict(text string) Verdict {
	// Cheap pre-check: most hook payloads are not reviews at all.
	if !containsFold(text, "<verdict>") {
		return None
	}
	found := None
	for _, m := range verdictTag().FindAllStringSubmatch(text, -1) {
		if v, n := verdictWordAt(m[1]); v != None && n == len(m[1]) {
			found = v
		}
	}
	return found
}

func lastLineVerdict(text string) Verdict {
	if !containsFold(text, "verdict") {
		return None
	}
	found := None
	inFence := false
	fence := ""
	headingPending := false
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		if f := fenceMarker(trimmed); f != "" {
			switch {
			case !inFence:
				inFence, fence = true, f
			case strings.HasPrefix(trimmed, fence):
				inFence = false
			}
			continue
		}
		if inFence || trimmed == "" {
			continue
		}
		plain := plainLine(trimmed)
		if headingPending {
			headingPending = false
			if v, _ := verdictWordAt(plain); v != None {
				found = v
				continue
			}
		}
		if isVerdictTitle(plain) {
			// "## Verdict" or a bold "**Verdict**" line: the word is on
			// the next non-blank line.
			headingPending = true
			continue
		}
		if v := keyedVerdict(plain); v != None {
			found = v
		}
	}
	return found
}

// fenceMarker returns the fence run that opens or closes a fenced code block
// on this line, or "".
func fenceMarker(trimmed string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, c) {
			n := 0
			for n < len(trimmed) && trimmed[n] == c[0] {
				n++
			}
			return trimmed[:n]
		}
	}
	return ""
}

var verdictDecor = strings.NewReplacer("*", "", "`", "")

// plainLine drops the markdown decoration reviewers put around verdicts
// (block quotes, list markers, heading hashes, bold and code markers) so one
// matcher covers every form.
func plainLine(s string) string {
	for {
		t := strings.TrimLeft(s, " \t>#")
		switch {
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "+ "), strings.HasPrefix(t, "* "):
			t = t[2:]
		default:
			if i := orderedMarker(t); i > 0 {
				t = t[i:]
			}
		}
		if t == s {
			break
		}
		s = t
	}
	s = verdictDecor.Replace(s)
	return strings.TrimSpace(s)
}

// orderedMarker returns the length of a leading "12. " or "3) " marker.
func orderedMarker(s string) int {
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(s) || (s[i] != '.' && s[i] != ')') || s[i+1] != ' ' {
		return 0
	}
	return i + 2
}

func isVerdictTitle(plain string) bool {
	p := strings.ToLower(strings.TrimRight(plain, ": "))
	switch p {
	case "verdict", "final verdict", "overall verdict", "review verdict":
		return true
	}
	return false
}

// keyedVerdict finds `verdict: WORD` or `verdict=WORD` anywhere in a line.
// The key may be prefixed by words ("Overall verdict") or by an upper-case
// reviewer tag (SOL_VERDICT) but not by a lowercase identifier
// (flowctl_verdict), which is how corpus and tool metadata spell it.
func keyedVerdict(plain string) Verdict {
	lower := asciiLower(plain)
	found := None
	for off := 0; ; {
		i := strings.Index(lower[off:], "verdict")
		if i < 0 {
			return found
		}
		i += off
		off = i + len("verdict")
		if !verdictKeyPrefixOK(plain, i) {
			continue
		}
		rest := strings.TrimLeft(plain[off:], " \t")
		if rest == "" || (rest[0] != ':' && rest[0] != '=') {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if v, _ := verdictWordAt(rest); v != None {
			found = v
		}
	}
}

func verdictKeyPrefixOK(plain string, i int) bool {
	if i == 0 {
		return true
	}
	prev := plain[i-1]
	switch {
	case prev == '_':
		j := i - 1
		for j > 0 && (isASCIILetter(plain[j-1]) || isDigit(plain[j-1]) || plain[j-1] == '_') {
			j--
		}
		prefix := plain[j : i-1]
		if prefix == "" {
			return false
		}
		return strings.ToUpper(prefix) == prefix && plain[i:i+7] == "VERDICT"
	case isASCIILetter(prev) || isDigit(prev):
		return false
	}
	return true
}

// verdictWordAt matches a known verdict word at the start of s and returns
// it with the number of bytes consumed. The word must end at a non-word
// character so "SHIPPED" or "SHIP_IT" do not count.
func verdictWordAt(s string) (Verdict, int) {
	words := []struct {
		v     Verdict
		parts [2]string
	}{
		{NeedsWork, [2]string{"needs", "work"}},
		{MajorRethink, [2]string{"major", "rethink"}},
		{Ship, [2]string{"ship", ""}},
	}
	for _, w := range words {
		n := matchFoldPrefix(s, w.parts[0])
		if n == 0 {
			continue
		}
		if w.parts[1] != "" {
			if n >= len(s) || (s[n] != '_' && s[n] != ' ' && s[n] != '-') {
				continue
			}
			m := matchFoldPrefix(s[n+1:], w.parts[1])
			if m == 0 {
				continue
			}
			n += 1 + m
		}
		if n < len(s) && (isASCIILetter(s[n]) || isDigit(s[n]) || s[n] == '_') {
			continue
		}
		return w.v, n
	}
	return None, 0
}

func matchFoldPrefix(s, word string) int {
	if len(s) < len(word) || !strings.EqualFold(s[:len(word)], word) {
		return 0
	}
	return len(word)
}

func containsFold(s, sub string) bool {
	// ASCII-only substring search without allocating a lowered copy of a
	// possibly large payload.
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }

// asciiLower lowercases ASCII letters only, so byte offsets found in the
// result are valid in the input (strings.ToLower may change the length of
// invalid UTF-8 or of some runes).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
