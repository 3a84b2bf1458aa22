package review

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Field names the label machine fills. Problem labels carry a suffix so a
// "Title" followed by a "Description" is read as one problem, not two
// findings.
const (
	fieldSeverity = "severity"
	fieldLocation = "location"
	fieldProblem  = "problem"
	fieldTitle    = "problem-title"
	fieldDesc     = "problem-desc"
	fieldFix      = "fix"
	fieldEvidence = "evidence"
	fieldIgnored  = "ignored"
)

// labels are the bold or plain line labels reviewers use, longest first so
// "file:line" wins over "file". Ignored labels still mark a line as
// metadata, which keeps "**Confidence:** 90" or "**Verdict:** NEEDS_WORK"
// from becoming part of a problem.
var labels = []struct{ name, field string }{
	{"suggested fix", fieldFix}, {"proposed fix", fieldFix}, {"recommended fix", fieldFix},
	{"file:line", fieldLocation}, {"file/line", fieldLocation}, {"file(s)", fieldLocation},
	{"recommendation", fieldFix}, {"classification", fieldIgnored}, {"reproduction", fieldEvidence},
	{"description", fieldDesc}, {"remediation", fieldFix}, {"disposition", fieldIgnored},
	{"review mode", fieldIgnored}, {"confidence", fieldIgnored}, {"suggestion", fieldFix},
	{"resolution", fieldFix}, {"rationale", fieldEvidence}, {"location", fieldLocation},
	{"severity", fieldSeverity}, {"priority", fieldSeverity}, {"evidence", fieldEvidence},
	{"solution", fieldFix}, {"category", fieldIgnored}, {"reviewer", fieldIgnored}, {"reviewed", fieldIgnored},
	{"problem", fieldProblem}, {"finding", fieldProblem}, {"concern", fieldProblem},
	{"verdict", fieldIgnored}, {"details", fieldEvidence}, {"impact", fieldEvidence},
	{"status", fieldIgnored}, {"effort", fieldIgnored}, {"files", fieldLocation},
	{"where", fieldLocation}, {"lines", fieldLocation}, {"issue", fieldProblem},
	{"title", fieldTitle}, {"stage", fieldIgnored}, {"model", fieldIgnored},
	{"file", fieldLocation}, {"line", fieldLocation}, {"path", fieldLocation},
	{"type", fieldIgnored}, {"task", fieldIgnored}, {"why", fieldEvidence},
	{"bug", fieldProblem}, {"sev", fieldSeverity}, {"fix", fieldFix},
}

// labelLine recognises `**Label**: value`, `**Label:** value`,
// `**Label: value**` and plain `Label: value` at the start of a line.
func labelLine(line string) (field, value string, ok bool) {
	s := line
	bold := false
	if strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__") {
		bold = true
		s = s[2:]
	}
	s = strings.TrimLeft(s, " ")
	if len(s) < 3 || !isASCIILetter(s[0]) {
		return "", "", false
	}
	for _, l := range labels {
		if len(s) < len(l.name) || !strings.EqualFold(s[:len(l.name)], l.name) {
			continue
		}
		rest := strings.TrimLeft(s[len(l.name):], " ")
		closed := false
		switch {
		case bold && (strings.HasPrefix(rest, ":**") || strings.HasPrefix(rest, ":__")):
			rest, closed = rest[3:], true
		case bold && (strings.HasPrefix(rest, "**:") || strings.HasPrefix(rest, "__:")):
			rest, closed = rest[3:], true
		case strings.HasPrefix(rest, ":"):
			rest = rest[1:]
		default:
			continue
		}
		value = strings.TrimSpace(rest)
		if bold && !closed {
			value = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(value, "**"), "__"))
		}
		return l.field, value, true
	}
	return "", "", false
}

// markerExcluded are severity words that open ordinary sentences and log
// lines ("Error: cannot find module") too often to count as a marker.
var markerExcluded = map[string]bool{"error": true, "warning": true, "warn": true, "info": true, "optional": true, "important": true, "informational": true}

// severityMarker recognises a finding that opens with its severity:
// "**[P1]** …", "[High] …", "P0: …", "**Blocking — title.** …",
// "**BLOCKER**: …". It returns the normalized severity and the text after
// the marker.
func severityMarker(t string) (sev, rest string) {
	// Emoji severities ("🔴 **Critical** — …") lead with symbols.
	s := strings.TrimLeftFunc(t, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '*' || r == '[' || r == '(')
	})
	bold := strings.HasPrefix(s, "**")
	if bold {
		s = s[2:]
	}
	bracket := byte(0)
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "(") {
		bracket = s[0]
		s = s[1:]
	}
	end := 0
	for end < len(s) && (isASCIILetter(s[end]) || isDigit(s[end]) || s[end] == '-' || s[end] == '_') {
		end++
	}
	word := strings.ToLower(s[:end])
	two := ""
	if i := strings.IndexByte(s[end:], ' '); i == 0 && end < len(s) {
		// "should fix", "must fix", "non blocking"
		j := end + 1
		for j < len(s) && isASCIILetter(s[j]) {
			j++
		}
		two = strings.ToLower(s[:j])
		if two == "should fix" || two == "must fix" || two == "non blocking" {
			word, end = two, j
		}
	}
	if word == "" || markerExcluded[word] {
		return "", t
	}
	sev = normalizeSeverity(word)
	if sev == "" || normalizeSeverity(strings.Fields(word)[0]) == "" && !strings.Contains(word, " ") {
		return "", t
	}
	after := s[end:]
	valid := false
	if bracket != 0 {
		closer := map[byte]byte{'[': ']', '(': ')'}[bracket]
		if !strings.HasPrefix(after, string(closer)) {
			return "", t
		}
		after, valid = after[1:], true
	}
	if bold && strings.HasPrefix(after, "**") {
		after, valid = after[2:], true
		bold = false
	}
	trimmed := strings.TrimLeft(after, " ")
	for _, d := range []string{":", "—", "–", "- ", "|"} {
		if strings.HasPrefix(trimmed, d) {
			trimmed, valid = trimmed[len(d):], true
			break
		}
	}
	if !valid {
		return "", t
	}
	rest = strings.TrimSpace(trimmed)
	if bold {
		// "**Blocking — title.** body": the title stays, its closing
		// bold marker is removed by clean().
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "**"))
	}
	return sev, rest
}

var findingsWords = []string{
	"issue", "finding", "problem", "concern", "blocker", "required change", "requested change",
	"changes requested", "must fix", "should fix", "bugs", "defect", "risks", "regression", "comments",
	"suggestions",
}

// kindWords name a kind of review comment in bold-only title paragraphs
// ("**⚠️ Potential issue**", "**🧹 Nitpick**", "**🛠️ Refactor
// suggestion**") that precede the comment's own paragraph.
var kindWords = []string{"issue", "bug", "problem", "concern", "suggestion", "nitpick", "refactor", "risk", "warning"}

var skipWords = []string{
	"summary", "positive", "strength", "what's good", "what works", "verified", "evidence", "command",
	"notes", "next step", "context", "background", "overview", "verdict", "tests run", "testing done",
	"praise", "question", "scope", "files reviewed", "comparison", "what changed", "checks",
}

func classifyHeading(t string, level int) section {
	lower := strings.ToLower(strings.Trim(clean(strings.ReplaceAll(t, "`", "")), " #:"))
	sec := section{level: level}
	words := strings.FieldsFunc(lower, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') })
	if len(words) > 0 && len(words) <= 6 && !markerExcluded[words[0]] {
		sec.severity = normalizeSeverity(words[0])
	}
	if sec.severity == "" && len(words) > 1 && len(words) <= 6 {
		for _, w := range []string{"should fix", "must fix", "non blocking"} {
			if strings.HasPrefix(lower, w) {
				sec.severity = normalizeSeverity(w)
			}
		}
	}
	sec.findings = sec.severity != ""
	for _, w := range findingsWords {
		if strings.Contains(lower, w) {
			sec.findings = true
		}
	}
	if sec.findings && sec.severity == "" && len(words) <= 6 {
		// "Suggestions (non-blocking)", "Issues — major"
		for _, w := range words[1:] {
			if s := normalizeSeverity(w); s != "" && !markerExcluded[w] {
				sec.severity = s
				break
			}
		}
	}
	if !sec.findings {
		for _, w := range skipWords {
			if strings.Contains(lower, w) {
				sec.skip = true
			}
		}
	}
	return sec
}

// kindTitle tells a bold title naming one comment ("**🧹 Nitpick**") from
// an announcement of a list ("**Issues**", "Issues found:").
func kindTitle(body string) bool {
	if !strings.HasPrefix(body, "**") || !strings.HasSuffix(body, "**") || strings.HasSuffix(body, ":**") {
		return false
	}
	lower := strings.ToLower(body)
	for _, w := range []string{"issues", "findings", "problems", "concerns", "comments", "bugs", "risks", "blockers", "changes", "suggestions"} {
		if strings.Contains(lower, w) {
			return false
		}
	}
	return true
}

var numberedTitleRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\*\*\s*(finding|issue|problem|bug|blocker|concern|risk)\s*#?\s*\d+\s*[:.)—–-]`)
})

// numberedTitle recognises a paragraph or item that opens with a numbered
// bold title, "**Concern 1: the backfill runs in one transaction.** …",
// and returns the severity its word implies ("Blocker" is critical) and the
// text after the number.
func numberedTitle(t string) (sev, rest string, ok bool) {
	m := numberedTitleRe().FindStringSubmatchIndex(t)
	if m == nil {
		return "", "", false
	}
	word := strings.ToLower(t[m[2]:m[3]])
	if word == "blocker" {
		sev = SevCritical
	}
	return sev, strings.TrimSpace(t[m[1]:]), true
}

var numberedFindingRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:finding|issue|problem|bug|blocker|concern)\s*#?\s*\d+[.:)]?$`)
})
var numberedHeadingRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{1,3}[.)]\s+(.+)$`) })

// titledHeading recognises headings that are findings themselves:
// "FINDING 1 — BLOCKER — title", "Issue 2: title", "[P1] title",
// "Critical: title", "3. title".
func titledHeading(t string) (sev, title string, ok bool) {
	t = strings.TrimSpace(strings.ReplaceAll(t, "**", ""))
	parts := splitDashes(t)
	if len(parts) > 1 && numberedFindingRe().MatchString(parts[0]) {
		rest := parts[1:]
		if s := normalizeSeverity(rest[0]); s != "" && len(strings.Fields(rest[0])) <= 2 {
			sev, rest = s, rest[1:]
		}
		title = strings.Join(rest, " — ")
		return sev, title, title != ""
	}
	if s, rest := severityMarker(t); s != "" && rest != "" {
		return s, rest, true
	}
	if m := numberedHeadingRe().FindStringSubmatch(t); m != nil {
		if s, rest := severityMarker(m[1]); s != "" && rest != "" {
			return s, rest, true
		}
		return "", m[1], true
	}
	return "", "", false
}

var dashSplitter = strings.NewReplacer(" — ", "\x00", " – ", "\x00", " - ", "\x00", "—", "\x00", ": ", "\x00")

func splitDashes(t string) []string {
	var out []string
	for _, p := range strings.Split(dashSplitter.Replace(t), "\x00") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// leadInParagraph recognises "**Issues**", "Issues found:", "**Critical
// issues:**" (also as the tail of a narrative paragraph, as cursor writes
// "…systemic.Issues found:").
func leadInParagraph(body string) (string, bool) {
	plain := strings.TrimSpace(strings.ReplaceAll(body, "**", ""))
	tail := plain
	if strings.HasSuffix(plain, ":") {
		if i := strings.LastIndexAny(plain[:len(plain)-1], ".!?"); i >= 0 {
			tail = strings.TrimSpace(plain[i+1:])
		}
	} else if !(strings.HasPrefix(body, "**") && strings.HasSuffix(body, "**")) {
		return "", false
	}
	if len(tail) > 60 {
		return "", false
	}
	lower := strings.ToLower(tail)
	announced := false
	for _, w := range findingsWords {
		if strings.Contains(lower, w) {
			announced = true
		}
	}
	if strings.HasPrefix(body, "**") && strings.HasSuffix(body, "**") {
		for _, w := range kindWords {
			if strings.Contains(lower, w) {
				announced = true
			}
		}
	}
	if !announced {
		return "", false
	}
	sev := ""
	for _, w := range strings.Fields(lower) {
		if s := normalizeSeverity(w); s != "" && !markerExcluded[strings.Trim(w, ":")] {
			sev = s
			break
		}
	}
	return sev, true
}

var inlineFixLabels = []string{
	"Suggested fix:", "Recommendation:", "Suggestion:", "Remediation:", "Solution:", "Fix:", "Fixes:", " → ",
}

// splitFix separates a prose finding into problem and fix: at an inline
// "Fix:" label if there is one, else prescriptive sentences ("Use …",
// "… must …") are the fix.
func splitFix(t string) (problem, fix string) {
	t = strings.TrimSpace(strings.ReplaceAll(t, "**", ""))
	for _, l := range inlineFixLabels {
		if i := strings.Index(t, l); i >= 0 && (i == 0 || l[0] == ' ' || t[i-1] == ' ' || t[i-1] == '.') {
			return strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+len(l):])
		}
	}
	sents := sentences(t)
	var p, f []string
	for _, s := range sents {
		if prescriptive(s) {
			f = append(f, s)
		} else {
			p = append(p, s)
		}
	}
	if len(p) == 0 {
		return t, t
	}
	return strings.Join(p, " "), strings.Join(f, " ")
}

// sentences splits at ". ", "! ", "? " followed by a capital, digit, quote
// or code span, never inside a code span (file names, json.Marshal).
func sentences(t string) []string {
	var out []string
	inCode := false
	start := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '`' {
			inCode = !inCode
			continue
		}
		if inCode || (c != '.' && c != '!' && c != '?' && c != ';') || i+2 >= len(t) || t[i+1] != ' ' {
			continue
		}
		n := t[i+2]
		if c == ';' || (n >= 'A' && n <= 'Z') || n == '`' || n == '"' || n == '\'' || n == '(' || isDigit(n) || n >= 0x80 {
			out = append(out, strings.TrimSpace(t[start:i+1]))
			start = i + 2
		}
	}
	if s := strings.TrimSpace(t[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// imperativeVerbs open a sentence that tells the author what to do
// ("Use …", "Release the lock …"); read-only after package init.
var imperativeVerbs = wordSet(`use add set pass call check wrap move replace remove return keep create build
		declare load register read write make switch pin restrict validate sanitize resolve reject parse
		truncate compare define specify describe limit guard defer run ack encode serialize store initialize
		fetch cache rename update change fix bump prefer avoid don't never always do ensure delete drop split
		put mark rewrite regenerate key filter escape close stop restore revert lock select consider try
		include exclude document treat point apply handle enforce require emit log raise throw catch await
		abort cancel import export extract inline convert normalize quote bound cap sort dedupe merge
		configure enable disable install upgrade downgrade delegate thread propagate hoist memoize debounce
		batch stream retry give let sync flush commit rollback roll wait signal poll test assert verify mock
		stub scope tighten gate skip allow deny strip trim reorder order prefix align record derive lazily
		generate decode rotate clear reset persist guarantee assign name spell delete release acquire
		allow-list allowlist serve drain backfill map collapse copy introduce provide reuse share swap wire
		expose hide inject bind attach detach unsubscribe subscribe disconnect connect dispose free accept
		throttle paginate migrate port join precompute compute invalidate evict expire schedule queue
		enqueue spawn clamp unquote format deserialize marshal unmarshal freeze clone protect preserve
		restructure instantiate open shut hash salt sign verify limit unwrap propagate bubble`)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

var modalLex = lex(`\bshould\b`, `\bmust\b`, `\bneeds to\b`, `\bneed to\b`, `\bhas to\b`, `\bhave to\b`,
	`\binstead\b`, `\bmake sure\b`, `\bought to\b`)

func prescriptive(s string) bool {
	w := strings.Fields(strings.TrimLeft(s, "*_`\"'( "))
	if len(w) > 0 {
		first := strings.ToLower(strings.Trim(w[0], ",:;`*"))
		if imperativeVerbs[first] {
			return true
		}
	}
	return modalLex.has(asciiLower(s))
}

var findingsBlockRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<findings>(.*?)</findings>`) })

// extractJSON reads `<findings>[{…}]</findings>` blocks, tolerating a code
// fence inside the tags and an object wrapper {"findings": […]}.
func extractJSON(text string) []Finding {
	if !containsFold(text, "<findings>") {
		return nil
	}
	var out []Finding
	for _, m := range findingsBlockRe().FindAllStringSubmatch(text, -1) {
		body := strings.TrimSpace(m[1])
		body = strings.TrimPrefix(body, "```json")
		body = strings.TrimPrefix(body, "```")
		body = strings.TrimSuffix(strings.TrimSpace(body), "```")
		var items []map[string]any
		if err := json.Unmarshal([]byte(body), &items); err != nil {
			var wrap struct {
				Findings []map[string]any `json:"findings"`
			}
			if json.Unmarshal([]byte(body), &wrap) != nil {
				continue
			}
			items = wrap.Findings
		}
		for _, it := range items {
			if f, ok := jsonFinding(it); ok {
				out = append(out, f)
			}
		}
	}
	return dedupe(out)
}

func jsonFinding(it map[string]any) (Finding, bool) {
	get := func(keys ...string) string {
		for _, k := range keys {
			for ik, v := range it {
				if !strings.EqualFold(ik, k) || v == nil {
					continue
				}
				switch v := v.(type) {
				case string:
					if v != "" {
						return v
					}
				case float64, bool:
					return fmt.Sprint(v)
				default:
					if b, err := json.Marshal(v); err == nil {
						return string(b)
					}
				}
			}
		}
		return ""
	}
	loc := get("location", "file", "path", "filename")
	if line := get("line", "lines", "line_number"); line != "" && loc != "" && !strings.Contains(loc, ":") {
		loc += ":" + line
	}
	problem := get("problem", "issue", "finding", "message", "summary", "title", "description")
	if title, desc := get("title"), get("description"); title != "" && desc != "" && problem == title {
		problem = title + " — " + desc
	}
	f := Finding{
		Severity: normalizeSeverity(get("severity", "priority", "level", "sev")),
		Location: cleanLocation(loc),
		Problem:  clean(problem),
		Fix:      clean(get("suggestion", "fix", "recommendation", "remediation", "solution", "suggested_fix")),
		Evidence: clean(get("evidence", "rationale", "why", "details", "impact")),
	}
	return f, f.Problem != ""
}
