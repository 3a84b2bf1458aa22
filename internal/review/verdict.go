package review

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
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
// quote earlier rounds before their own answer. Without a tag it reads
// verdict lines, strongest form first, the last of that form winning:
//  1. a verdict key: `VERDICT: X`, `**Verdict:** X`, `Overall verdict: X.`,
//     `SOL_VERDICT: X`, `… verdict=X`, `"verdict": "x"`, or a `## Verdict`
//     heading (or bold line) followed by `**X**`;
//  2. a decision key: `Recommendation:`, `Decision:`, `Status:`,
//     `Assessment:`, `Conclusion:`, `Overall:`, `Sign-off:` (with up to
//     two words before it, "Final recommendation:");
//  3. a line that is only a verdict phrase: `**REQUEST CHANGES**`, `## ❌ Not
//     ready`, `LGTM`, or a heading that ends in one (`# Pass 2 — Not
//     ready`).
//
// X is flow-next's words or another reviewer's (see verdictPhrases), so a
// sub-item's `**Verdict**: CORRECT` is ignored; an approval that carries a
// request ("Approve, with changes requested below") is the request, and so
// is a verdict graded like a finding (`Verdict: MAJOR`). A keyed-only
// approval ("Status: ready") does not overturn a distinctive request of
// the same form: a wrong SHIP records nothing and says nothing, a wrong or
// missing request at least nudges the model.
// Lines in fenced code count like any other. Forms, keys and phrases
// whose deletion changed no verdict of any labelled review (round 10) are
// gone, except those whose deletion would turn a request into an approval
// ("Not approved", "Don't merge", "conditionally approved, pending …",
// "[x] Needs work" under an unticked "[ ] Ship", "Approve once CI is
// green"). Round 18 deleted those that changed at most one verdict;
// round 19 brought back, in general form, those that keep a request from
// reading as an approval or as none, and a title's call: over every
// labelled set three more verdicts read right, none fewer. Grades
// ("Overall: 4/10") stay unread: no labelled review fails on a score,
// and one that passes must not read as SHIP.
// One pass over the lines: the cost is linear in the text.
func ParseVerdict(text string) Verdict {
	text = foldWidth(text)
	if v := lastTagVerdict(text); v != None {
		return v
	}
	if v := jsonVerdict(text); v != None {
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

// Strength of a verdict line's form; a stronger form anywhere beats a
// weaker one.
const (
	formNone = iota
	formAlone
	formDecision
	formVerdict
)

func lastLineVerdict(text string) Verdict {
	found, form := None, formNone
	distinct := false   // found was said in words that are a call on their own
	pending := formNone // a "## Verdict" title waits for its word on the next line
	take := func(v Verdict, f int, d bool) {
		// "Status: ready for the next pass" after "Status: changes
		// requested": a keyed-only approval after a distinctive request
		// of the same form says what comes next, not a new call. Reading
		// it as SHIP would record nothing of the request.
		if f == form && v == Ship && !d && distinct && found.Actionable() {
			return
		}
		found, form, distinct = v, f, d
	}
	fenced := false // inside a fenced code block: "# Tests: pass" is a shell comment there
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
		}
		plain := plainLine(trimmed)
		if rest, ticked, ok := checkbox(plain); ok {
			// "[ ] Ship it" over "[x] Needs work": a verdict chosen by
			// ticking one of the options; an option left unticked is no
			// call, and a "## Verdict" title still waits for its word.
			if !ticked {
				continue
			}
			plain = rest
		}
		if pending != formNone {
			f := pending
			pending = formNone
			value := stripSymbols(plain)
			if v, n, alone := verdictPhraseAt(value); v != None && f >= form {
				v = conditional(v, value[n:])
				take(v, f, alone || v != Ship)
				continue
			}
		}
		if f := titleForm(plain); f != formNone {
			// "## Verdict" or a bold "**Recommendation**" line: the word
			// is on the next non-blank line.
			pending = f
			continue
		}
		v, f, d := lineVerdict(plain)
		if v == None && !fenced && strings.HasPrefix(trimmed, "#") {
			v, f, d = titleTail(plain), formAlone, true
		}
		if v != None && f >= form {
			take(v, f, d)
		}
	}
	return found
}

// lineVerdict reads one plain line in the forms ParseVerdict lists, and
// whether its call was said in words that are a call on their own.
func lineVerdict(plain string) (Verdict, int, bool) {
	if v, d := keyedVerdict(plain); v != None {
		return v, formVerdict, d
	}
	if v, d := decisionVerdict(plain); v != None {
		return v, formDecision, d
	}
	if s := stripSymbols(plain); s != "" {
		if v, n, alone := verdictPhraseAt(s); v != None && alone {
			if n == len(s) {
				return v, formAlone, true
			}
			// "APPROVED, REQUIRED EDITS BELOW": a short line that opens
			// with an approval and goes on to ask for changes.
			if c := conditional(v, s[n:]); c != v && len(strings.Fields(s)) <= 8 {
				return c, formAlone, true
			}
		}
	}
	return None, formNone, false
}

// titleTail reads a heading whose last part is a call ("# Pass 2 review —
// Changes requested"), the place a reviewer puts a verdict in a title.
func titleTail(plain string) Verdict {
	i := -1
	for _, sep := range []string{": ", " — ", " – ", " - "} {
		if j := strings.LastIndex(plain, sep); j >= 0 && j+len(sep) > i {
			i = j + len(sep)
		}
	}
	if i < 0 {
		return None
	}
	s := stripSymbols(plain[i:])
	if v, n, alone := verdictPhraseAt(s); alone && n == len(s) {
		return v
	}
	return None
}

// decisionKeys name the slot where reviewers that do not say "verdict" put
// their overall call.
var decisionKeys = []string{"recommendation", "decision", "status", "assessment", "conclusion", "overall", "sign-off"}

// decisionVerdict reads "Recommendation: Request changes", "Final
// decision: APPROVE", "Review status — BLOCKED".
func decisionVerdict(plain string) (Verdict, bool) {
	i := decisionKeyEnd(plain)
	if i <= 0 {
		return None, false
	}
	_, size := utf8.DecodeRuneInString(plain[i:])
	// The call may follow a qualifier: "Status: Pre-release fixes
	// required", "Recommendation: ✅ Approve".
	value := stripSymbols(plain[i+size:])
	for w := 0; w < 3 && value != ""; w++ {
		if v, n, alone := verdictPhraseAt(value); v != None {
			v = conditional(v, value[n:])
			return v, alone || v != Ship
		}
		j := strings.IndexByte(value, ' ')
		if j < 0 || strings.EqualFold(value[:j], "not") || strings.EqualFold(value[:j], "no") {
			// "Status: not merge-ready": a negated word is no call.
			break
		}
		value = strings.TrimLeft(value[j:], " ")
	}
	return None, false
}

// decisionKeyEnd returns where the decision key that opens plain ends
// ("Final recommendation: …"), or -1.
func decisionKeyEnd(plain string) int {
	i := strings.IndexAny(plain, ":=—")
	if i <= 0 {
		return -1
	}
	key := strings.Fields(asciiLower(plain[:i]))
	if len(key) == 0 || len(key) > 3 {
		return -1
	}
	if !slices.Contains(decisionKeys, key[len(key)-1]) {
		return -1
	}
	return i
}

// conditional reads an approval that carries a request for changes
// ("Approve, with changes requested below", "Approve once the fixes
// required below land"): the request is the call. A negated request
// ("approve, no changes needed") is none.
func conditional(v Verdict, rest string) Verdict {
	if v != Ship {
		return v
	}
	words := strings.Fields(rest)
	if len(words) > 1 && conditions[strings.ToLower(strings.Trim(words[0], ",;:()"))] {
		// "Merge after the cache is wired", "Approve once CI is green":
		// an approval that waits on a change asks for it.
		return NeedsWork
	}
	for i := 0; i < len(words) && i < 12; i++ {
		if i > 0 {
			switch strings.ToLower(strings.Trim(words[i-1], ",.;:()")) {
			case "no", "not", "without", "nor":
				continue
			}
		}
		if nv, _, alone := verdictPhraseAt(stripSymbols(strings.Join(words[i:], " "))); nv == NeedsWork && alone {
			return NeedsWork
		}
		if i+1 < len(words) && strings.EqualFold(words[i], "required") && !negatedBefore(words, i) {
			// "Approve, required follow-ups below": whatever the
			// noun, something must change first; "no changes
			// required for merge" asks for nothing.
			return NeedsWork
		}
	}
	return v
}

// negatedBefore reports whether one of the three words before words[i]
// negates it ("no further changes required", "nothing here blocks").
func negatedBefore(words []string, i int) bool {
	for _, w := range words[max(0, i-3):i] {
		switch strings.ToLower(strings.Trim(w, ",.;:()")) {
		case "no", "not", "non", "none", "nothing", "neither", "nor", "without", "isn't", "aren't":
			return true
		}
	}
	return false
}

// conditions are the conjunctions that make an approval wait on something.
var conditions = wordSet("after once pending until provided when if")

// stripSymbols drops the emoji, quotes and punctuation reviewers put around
// a verdict ("✅ **APPROVE**", "❌ Request changes.", `"needs_work"`).
func stripSymbols(s string) string {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !isWord(r) })
	return strings.TrimRightFunc(s, func(r rune) bool { return !isWord(r) })
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

// titleForm tells a line that is only a verdict or decision title ("##
// Verdict", "**Final recommendation:**") and the form its answer takes.
func titleForm(plain string) int {
	words := strings.Fields(strings.ToLower(strings.TrimRight(stripSymbols(plain), ": ")))
	if len(words) == 0 || len(words) > 3 {
		return formNone
	}
	switch last := words[len(words)-1]; {
	case last == "verdict":
		return formVerdict
	case slices.Contains(decisionKeys, last):
		return formDecision
	}
	return formNone
}

// keyedVerdict finds `verdict: WORD` or `verdict=WORD` anywhere in a line.
// The key may be prefixed by words ("Overall verdict") or by a tag
// (SOL_VERDICT).
func keyedVerdict(plain string) (Verdict, bool) {
	lower := asciiLower(plain)
	found, distinct := None, false
	for off := 0; ; {
		i := strings.Index(lower[off:], "verdict")
		if i < 0 {
			return found, distinct
		}
		i += off
		off = i + len("verdict")
		if !verdictKeyPrefixOK(plain, i) {
			continue
		}
		rest := strings.TrimLeft(plain[off:], " \t\"'")
		sep := keySeparator(rest)
		if sep == 0 {
			continue
		}
		value := stripSymbols(rest[sep:])
		if v, n, alone := verdictPhraseAt(value); v != None {
			found = conditional(v, value[n:])
			distinct = alone || found != Ship
		} else if w := strings.Fields(value); len(w) == 1 && severityRank(normalizeSeverity(w[0])) >= severityRank(SevMajor) {
			// "Verdict: MAJOR": the whole change graded like a finding.
			found, distinct = NeedsWork, true
		}
	}
}

// keySeparator returns the length of the separator that opens rest
// after a verdict key — ":" or "=" — or 0.
func keySeparator(rest string) int {
	if strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "=") {
		return 1
	}
	return 0
}

// verdictKeyPrefixOK: "verdict" at i is a key of its own or the last part
// of one (SOL_VERDICT), not the end of a word.
func verdictKeyPrefixOK(plain string, i int) bool {
	return i == 0 || !isASCIILetter(plain[i-1]) && !isDigit(plain[i-1])
}

// verdictPhrases are the words reviewers use for their overall call, as
// SPEC §4 maps them; a general vocabulary of review outcomes, not phrases
// from any corpus. Longer phrases come first so "not ready" is not read as
// "ready". alone marks phrases distinctive enough to be a verdict on a line
// of their own ("**REQUEST CHANGES**"); the others ("ready", "blocked")
// count only after a verdict or decision key.
var verdictPhrases = []struct {
	v     Verdict
	words []string
	alone bool
}{
	{MajorRethink, []string{"major", "rethink"}, true},
	{MajorRethink, []string{"needs", "rethink"}, true},
	{MajorRethink, []string{"rethink"}, true},
	{MajorRethink, []string{"start", "over"}, true},
	{NeedsWork, []string{"needs", "work"}, true},
	{NeedsWork, []string{"request", "changes"}, true},
	{NeedsWork, []string{"requested", "changes"}, true},
	{NeedsWork, []string{"changes", "requested"}, true},
	{NeedsWork, []string{"changes", "needed"}, true},
	{NeedsWork, []string{"fixes", "required"}, true},
	{NeedsWork, []string{"not", "ready"}, true},
	{NeedsWork, []string{"not", "approved"}, true},
	{NeedsWork, []string{"conditional", "approval"}, true}, // approval once changes land
	{NeedsWork, []string{"conditionally", "approved"}, true},
	{NeedsWork, []string{"conditional", "approve"}, true},
	{NeedsWork, []string{"conditionally", "approve"}, true},
	{NeedsWork, []string{"required", "changes"}, true}, // "approve with required changes"
	{NeedsWork, []string{"required", "fixes"}, true},
	{NeedsWork, []string{"do", "not", "merge"}, true},
	{NeedsWork, []string{"don't", "merge"}, true},
	{NeedsWork, []string{"needs", ""}, false}, // needs fixes, needs changes, needs revision
	{NeedsWork, []string{"blocked"}, false},
	{NeedsWork, []string{"reject"}, false},
	{NeedsWork, []string{"rejected"}, false},
	{NeedsWork, []string{"revise"}, false},
	{NeedsWork, []string{"fail"}, false}, // a QA gate: "Gate: FAIL"
	{Ship, []string{"ship", "it"}, true},
	{Ship, []string{"ship"}, true},
	{Ship, []string{"lgtm"}, true},
	{Ship, []string{"approve"}, true},
	{Ship, []string{"approved"}, true},
	{Ship, []string{"ready"}, false},
	{Ship, []string{"merge"}, false},
	{Ship, []string{"pass"}, false},
}

// verdictWordAt matches a verdict phrase at the start of s and returns it
// with the number of bytes consumed.
func verdictWordAt(s string) (Verdict, int) {
	v, n, _ := verdictPhraseAt(s)
	return v, n
}

// verdictPhraseAt matches a verdict phrase at the start of s. Words may be
// separated by spaces, "_" or "-" (NEEDS_WORK, needs-work) and the phrase
// must end at a non-word character, so "SHIPPED" or "SHIP_IT" do not count.
// An empty word matches any single word ("needs fixes").
func verdictPhraseAt(s string) (Verdict, int, bool) {
	for _, p := range verdictPhrases {
		n, ok := 0, true
		for i, w := range p.words {
			if i > 0 {
				if n >= len(s) || (s[n] != '_' && s[n] != ' ' && s[n] != '-') {
					ok = false
					break
				}
				n++
			}
			if w == "" {
				m := 0
				for n+m < len(s) && isASCIILetter(s[n+m]) {
					m++
				}
				// NEEDS_HUMAN is flow-next's "a person must decide", not a
				// request for changes.
				if m == 0 || strings.EqualFold(s[n:n+m], "human") {
					ok = false
					break
				}
				n += m
				continue
			}
			m := matchFoldPrefix(s[n:], w)
			if m == 0 {
				ok = false
				break
			}
			n += m
		}
		if !ok || (n < len(s) && (isASCIILetter(s[n]) || isDigit(s[n]) || s[n] == '_')) {
			continue
		}
		return p.v, n, p.alone
	}
	return None, 0, false
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
