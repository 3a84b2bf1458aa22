package review

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Field names the label machine fills; fieldIgnored is a table column
// that is none of them.
const (
	fieldSeverity = "severity"
	fieldLocation = "location"
	fieldProblem  = "problem"
	fieldFix      = "fix"
	fieldEvidence = "evidence"
	fieldIgnored  = "ignored"
)

// labelLine recognises a field line: `**Label**: value`, `**Label:**
// value`, `**Label: value**` or plain `Label: value`, where the label is a
// few words that name a finding field (see labelField). Any other "Word:"
// opening is prose.
func labelLine(line string) (field, value string, ok bool) {
	s := line
	bold := false
	if strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__") {
		bold = true
		s = s[2:]
	}
	s = strings.TrimLeft(s, " ")
	if r, _ := utf8.DecodeRuneInString(s); len(s) < 3 || !isASCIILetter(s[0]) && !cjk(r) {
		return "", "", false
	}
	var label string
	if len(s) > 9 && (strings.EqualFold(s[:9], "file:line") || strings.EqualFold(s[:9], "file/line")) {
		label, s = "file", s[9:]
		if !strings.HasPrefix(strings.TrimLeft(s, "*_ "), ":") {
			return "", "", false
		}
		s = strings.TrimLeft(s, "*_ ")[1:]
	} else {
		i := strings.IndexByte(s, ':')
		if i <= 0 || i > 48 {
			return "", "", false
		}
		label, s = s[:i], s[i+1:]
	}
	closed := false
	if bold && (strings.HasSuffix(label, "**") || strings.HasSuffix(label, "__")) {
		label, closed = label[:len(label)-2], true
	}
	if bold && (strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__")) {
		s, closed = s[2:], true
	}
	label = strings.TrimSpace(label)
	if bold && !closed && strings.Contains(label, "**") {
		return "", "", false
	}
	if strings.ContainsAny(label, "`*[]()0123456789") || len(strings.Fields(label)) > 4 {
		return "", "", false
	}
	field = labelField(label)
	if field == "" {
		return "", "", false
	}
	value = strings.TrimSpace(s)
	if bold && !closed {
		value = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(value, "**"), "__"))
	}
	return field, value, true
}

// inlineLabel is a field label inside a line, after the end of the
// sentence before it: ". File: ", "; Suggested fix: ". Compiled when a
// review is first read, not at every command's start.
var inlineLabel = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[.;]\s+((?:[A-Za-z]+ ){0,2}[A-Za-z]+):\s`)
})

// inlineFields splits the value of a field line that carries further
// fields on the same line ("Severity: High. File: `a.go:3`. Description:
// … Suggested fix: …") into one field each; a label that names no field
// ("Snippet:") stays in the text of the field before it.
func inlineFields(field, value string) [][2]string {
	out := [][2]string{}
	rest := value
	for {
		loc := inlineLabel().FindStringSubmatchIndex(rest)
		for loc != nil && labelField(rest[loc[2]:loc[3]]) == "" {
			next := inlineLabel().FindStringSubmatchIndex(rest[loc[1]:])
			if next == nil {
				loc = nil
				break
			}
			for i := range next {
				next[i] += loc[1]
			}
			loc = next
		}
		if loc == nil {
			return append(out, [2]string{field, strings.TrimSpace(rest)})
		}
		out = append(out, [2]string{field, strings.TrimSpace(rest[:loc[0]+1])})
		field, rest = labelField(rest[loc[2]:loc[3]]), rest[loc[1]:]
	}
}

// Label vocabulary: the names reviewers give the parts of a finding. A
// small general vocabulary of review templates, matched as word stems so
// "Suggested fix direction", "Recommended change" and "Why it matters"
// need no entry of their own.
var labelStems = []struct{ field, stems string }{
	{fieldSeverity, "priority sev"},
	{fieldFix, "fix suggest recommend"},
	{fieldLocation, "location file"},
	{fieldEvidence, "why impact"},
	{fieldProblem, problemStems},
}

const problemStems = "problem issue finding concern bug observation description"

// cjkLabels are the same field names as Chinese, Japanese and Korean
// reviewers write them, matched anywhere in the label ("修复建议" holds
// 修复, "fix"): these languages write compounds without spaces.
var cjkLabels = []struct{ field, words string }{
	{fieldSeverity, "严重 级别 等级 优先级 重要度 優先度 심각 우선순위"},
	{fieldFix, "建议 修复 修正 解决 方案 推奨 対策 対応 권장 수정 해결 제안"},
	{fieldLocation, "位置 文件 ファイル 箇所 위치 파일"},
	{fieldEvidence, "影响 影響 原因 理由 验证 영향 원인"},
	{fieldProblem, "问题 問題 描述 现象 現象 문제 설명"},
}

// cjk reports whether r is a Chinese, Japanese or Korean letter.
func cjk(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// labelField maps a label to the field it fills, or "" when the words are
// not a field name.
func labelField(label string) string {
	l := strings.ToLower(strings.TrimSpace(label))
	if l == "" {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(l); cjk(r) {
		if utf8.RuneCountInString(l) > 8 {
			// A sentence ending in a colon, not a label.
			return ""
		}
		for _, c := range cjkLabels {
			for _, w := range strings.Fields(c.words) {
				if strings.Contains(l, w) {
					return c.field
				}
			}
		}
		return ""
	}
	words := strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		for _, stem := range strings.Fields(problemStems) {
			if len(w) > len(stem) && strings.HasPrefix(w, stem) && strings.HasSuffix(w, "s") {
				// "Issues found:", "Summary of open issues:": a list
				// of findings follows, not a field.
				return ""
			}
		}
	}
	for _, ls := range labelStems {
		for _, stem := range strings.Fields(ls.stems) {
			for _, w := range words {
				if strings.HasPrefix(w, stem) {
					return ls.field
				}
			}
		}
	}
	return ""
}

// headingField is the field a sub-heading inside a finding introduces
// ("### Fix", "### Why it breaks"); other sub-headings hold evidence.
func headingField(title string) string {
	t := strings.Trim(clean(strings.ReplaceAll(title, "`", "")), " #:*")
	_, _, rest, _ := titleMarker(t)
	if rest != "" {
		t = rest
	}
	if f := labelField(t); f != "" && f != fieldSeverity {
		return f
	}
	return fieldEvidence
}

// markerExcluded are severity words that open ordinary sentences and log
// lines ("Error: cannot find module") too often to count as a marker.
var markerExcluded = map[string]bool{"error": true, "warning": true, "warn": true, "info": true, "important": true, "informational": true}

// severityMarker recognises a finding that opens with its severity:
// "**[P1]** …", "[High] …", "P0: …", "**Blocking — title.** …",
// "**BLOCKER**: …". It returns the normalized severity and the text after
// the marker.
func severityMarker(t string) (sev, rest string) {
	// Emoji severities ("🔴 **Critical** — …") lead with symbols.
	s := strings.TrimLeftFunc(t, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '*' || r == '[' || r == '(' || r == '`')
	})
	bold := strings.HasPrefix(s, "**")
	if bold {
		s = s[2:]
	}
	// "`[P1]`": a bracketed tag written as code is the same tag.
	code := strings.HasPrefix(s, "`[") || strings.HasPrefix(s, "`(")
	if code {
		s = s[1:]
	}
	bracket := byte(0)
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "(") || strings.HasPrefix(s, "`") {
		// "[High]", "(P1)", or a code span: "`high` — …".
		bracket = s[0]
		s = s[1:]
	}
	end := 0
	for end < len(s) {
		if isASCIILetter(s[end]) || isDigit(s[end]) || s[end] == '-' || s[end] == '_' {
			end++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[end:])
		if !cjk(r) {
			break
		}
		end += size
	}
	word := strings.ToLower(s[:end])
	if word == "" || markerExcluded[word] && bracket != '[' {
		// In brackets ("[WARNING] W-3: …") the word is a tag, whatever
		// it opens elsewhere.
		return "", t
	}
	sev = normalizeSeverity(word)
	if sev == "" {
		return "", t
	}
	after := s[end:]
	valid := false
	if bracket != 0 {
		closer := map[byte]byte{'[': ']', '(': ')', '`': '`'}[bracket]
		if !strings.HasPrefix(after, string(closer)) {
			return "", t
		}
		after, valid = after[1:], true
		if code {
			if !strings.HasPrefix(after, "`") {
				return "", t
			}
			after = after[1:]
		}
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

// headingKind is what a heading says about the section under it.
type headingKind struct {
	severity  string // "## Major", "## Critical Issues (High Priority)"
	findings  bool   // announces findings: "## Findings", "## Security Issues", "## Blockers"
	container bool   // a heading over findings, not a finding itself
	skip      bool   // summary, strengths, verification: never findings
	done      bool   // strengths or fixed bugs: never findings, even under a findings heading
	fixes     bool   // recommendations, next steps, required changes: fixes for the findings
	fixList   bool   // names fixes: fixes for the findings when no sub-section is under it
}

// Heading vocabulary: the general names of review report sections.
var (
	findingsWords = []string{"issue", "finding", "problem", "concern", "bug", "risk", "must-fix", "should-fix",
		// The same words in Chinese, Japanese and Korean reviews.
		"问题", "問題", "문제", "发现", "指摘", "缺陷", "风险", "이슈"}
	skipWords = []string{"summary", "passed", "assessment", "总结", "汇总", "概述", "摘要", "概要", "まとめ", "요약"}
	// doneWords name sections of what is right or already fixed: never
	// findings, even under a findings heading ("## Key Findings" over
	// "### ✅ Positive Implementations") or naming bugs ("## Bugs Fixed").
	doneWords = []string{"strength", "positive", "working well", "fixed", "优点", "亮点", "已修复", "良い点", "장점"}
	fixWords  = []string{"recommend", "required change", "required action", "improv", "instruction"}
)

func classifyHeading(title string) headingKind {
	var k headingKind
	if title == "" {
		return k
	}
	sev, ref, rest, marked := titleMarker(title)
	t := strings.ToLower(strings.Trim(clean(strings.ReplaceAll(title, "`", "")), " #:*"))
	if rest != "" {
		t = strings.ToLower(strings.Trim(clean(strings.ReplaceAll(rest, "`", "")), " #:*"))
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') })
	short := len(words) <= 6
	if short {
		// A numbered topic of several words ("3. Cache Layer Gaps") is
		// one finding about that topic, as "2. Request Context
		// Propagation" is below; "2. Issues Found" names a section.
		topic := marked && isDigits(ref) && len(words) > 3
		for _, w := range findingsWords {
			if hasTerm(t, w) && !topic {
				k.findings = true
			}
		}
		if !k.findings && len(words) > 0 && words[0] == "next" {
			k.fixes = true
			return k
		}
		if !k.findings && hasTerm(t, "fixes") {
			// "## Top 3 fixes": a list of fixes when nothing is under it;
			// over sub-sections ("## Prioritized fixes" over "### Must
			// fix") it is a container of findings.
			k.fixList = true
		}
		for _, w := range fixWords {
			// "Findings & Recommendations" holds findings.
			if hasTerm(t, w) && !k.findings {
				k.fixes = true
				return k
			}
		}
		for _, w := range words {
			if s := normalizeSeverity(w); s != "" && !markerExcluded[w] {
				k.severity = s
				break
			}
		}
		if sev != "" && k.severity == "" && len(words) <= 2 {
			k.severity = sev
		}
		if len(words) > 0 && normalizeSeverity(words[0]) != "" && (!markerExcluded[words[0]] || len(words) <= 2) {
			// "## Major", "### Important": a severity heading over findings.
			k.findings = true
			if k.severity == "" {
				k.severity = normalizeSeverity(words[0])
			}
		}
		for _, w := range doneWords {
			if topic {
				// "1.3 `Pool` leaks a handle [FIXED]": a numbered
				// finding with its status, not a section of fixed
				// bugs.
				break
			}
			if hasTerm(t, w) && !hasTerm(t, "not") && !hasTerm(t, "un") && !hasTerm(t, "must") && !hasTerm(t, "should") {
				k.skip, k.done = true, true
				return k
			}
		}
		k.container = k.findings
		if !k.findings {
			for _, w := range skipWords {
				if hasTerm(t, w) {
					k.skip = true
				}
			}
		}
	}
	return k
}

// hasTerm reports whether title t holds term w at word starts: "issue"
// matches "Issues found" but "nit" does not match "monitor".
func hasTerm(t, w string) bool {
	for off := 0; ; {
		i := strings.Index(t[off:], w)
		if i < 0 {
			return false
		}
		i += off
		if i == 0 || !isWordByte(t[i-1]) {
			return true
		}
		off = i + 1
	}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && s[i] != '.' {
			return false
		}
	}
	return s != ""
}

// severityEmoji are the coloured markers review tools put before a finding.
var severityEmoji = map[rune]string{'🔴': SevCritical, '🛑': SevCritical, '🚨': SevCritical, '❗': SevMajor, '🟠': SevMajor,
	'🟡': SevMinor, '⚠': SevMinor, '🔵': SevNit, '⚪': SevNit, '💡': SevNit, '🧹': SevNit}

// findingIDRe reads a finding's id: "Finding 3", "Gap 2", "#3", "C1", "H-2", "2.1",
// an outline number with a letter ("1A.", "2b)": a separator must follow,
// so "3D rendering" is a title), or a tracker-style id of upper-case parts ending in a number after a
// hyphen ("SEC-12", "API-R2-003"), whose parts are no words of the title
// (a round or requirement number in it names nothing).
var findingIDRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?i:finding|issue|problem|bug|concern|blocker|risk|item|comment|gap|问题|問題|문제|缺陷|指摘|이슈)\s*#?\s*(\d+[a-z]?)|#(\d+)|([A-Z]{1,2}-?\d+(?:\.\d+)*|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)|(\d{1,3}(?:\.\d{1,3})*|\d{1,3}[A-Za-z]))\s*(?:[:.)—–]|\s-\s|\s|$)`)
})

// titleMarker reads the markers a reviewer puts before a finding's title:
// a severity emoji, an id ("Finding 3", "#3", "C1.", "2.1."), a severity
// ("[BLOCKER]", "**P1**", "High:") in any order, and a severity tag after
// the title ("… (blocking)", "… [P1]"). It returns the severity, the id and
// the title that remains; marked is false when there was no marker at all.
func titleMarker(t string) (sev, ref, title string, marked bool) {
	s := strings.TrimSpace(t)
	for range 4 {
		before := s
		s = strings.TrimLeft(s, " ")
		if ms, rest := severityMarker(s); ms != "" {
			if sev == "" {
				sev = ms
			}
			s, marked = rest, true
			continue
		}
		s = strings.TrimLeft(s, "*_ ")
		if r, size := utf8.DecodeRuneInString(s); size > 0 {
			if es, ok := severityEmoji[r]; ok {
				if sev == "" {
					sev = es
				}
				marked = true
				s = strings.TrimLeftFunc(s[size:], func(r rune) bool {
					return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '*' || r == '[' || r == '(' || r == '`')
				})
				continue
			}
		}
		if ms, rest := severityMarker(s); ms != "" {
			if sev == "" {
				sev = ms
			}
			s, marked = rest, true
			continue
		}
		if ref == "" && !marked {
			// "FINDING [BLOCKER] title", "Issue: title": the word alone,
			// before a bracketed severity or a separator.
			if w := leadingFindingWord(s); w > 0 {
				s, marked = strings.TrimLeft(s[w:], " :—–-"), true
				continue
			}
		}
		if ref == "" && strings.HasPrefix(s, "[") {
			// "[SEC-2] Token logged": a tracker id in brackets, as a
			// severity is bracketed ("[BLOCKER]").
			if j := strings.IndexByte(s, ']'); j > 1 {
				if m := findingIDRe().FindStringSubmatch(s[1:j]); m != nil && m[3] != "" && len(m[0]) == j-1 {
					ref, marked = m[3], true
					s = strings.TrimLeft(s[j+1:], " —–-:")
					continue
				}
			}
		}
		if ref == "" {
			if m := findingIDRe().FindStringSubmatchIndex(s); m != nil {
				for g := 1; g <= 4; g++ {
					if m[2*g] >= 0 {
						ref = s[m[2*g]:m[2*g+1]]
					}
				}
				id := s[:m[1]]
				// A bare word like "A1" needs a separator after it; a
				// plain number must be "2." or "2)" as markdown writes.
				if (m[6] >= 0 || m[8] >= 0) && !strings.ContainsAny(id, ".:)—–-") {
					ref = ""
				} else {
					s, marked = strings.TrimSpace(s[m[1]:]), true
					s = strings.TrimLeft(s, "—–-: ")
					continue
				}
			}
		}
		if s == before {
			break
		}
	}
	if ts := trailingSeverity(s); ts != "" {
		if sev == "" {
			sev = ts
		}
		marked = true
	}
	return sev, ref, strings.TrimSpace(s), marked
}

// checkboxRest is s after a leading task checkbox ("[ ]", "[x]", "☐",
// "☑"), or s.
func checkboxRest(s string) string {
	if rest, _, ok := checkbox(s); ok {
		return rest
	}
	return s
}

// checkbox reads a task checkbox that opens s: the text after it, and
// whether it is ticked.
func checkbox(s string) (rest string, ticked, ok bool) {
	for _, box := range []string{"[ ]", "[x]", "[X]", "☐", "☑", "☒"} {
		if r, found := strings.CutPrefix(s, box); found && (r == "" || r[0] == ' ') {
			return strings.TrimLeft(r, " "), box != "[ ]" && box != "☐", true
		}
	}
	return s, false, false
}

// leadingFindingWord returns the length of a leading "Finding" (or Issue,
// Problem, Bug, Concern, Defect, Regression, Vulnerability) that is
// followed by "[" or ":", else 0.
func leadingFindingWord(s string) int {
	for _, w := range []string{"finding", "issue", "problem", "bug", "concern", "defect", "regression", "vulnerability", "问题", "問題", "문제", "缺陷", "指摘"} {
		if len(s) > len(w)+1 && strings.EqualFold(s[:len(w)], w) {
			r := strings.TrimLeft(s[len(w):], " ")
			if strings.HasPrefix(r, "[") || strings.HasPrefix(r, ":") {
				return len(w)
			}
		}
	}
	return 0
}

// trailingSeverity finds a bracketed severity in a title's first line:
// "**Races on reload (blocking):**", "Stale cache [P1]".
func trailingSeverity(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '(' && s[i] != '[' {
			continue
		}
		closer := byte(')')
		if s[i] == '[' {
			closer = ']'
		}
		j := strings.IndexByte(s[i+1:], closer)
		if j <= 0 || j > 24 {
			continue
		}
		w := strings.ToLower(strings.TrimSpace(s[i+1 : i+1+j]))
		if markerExcluded[w] {
			continue
		}
		if sv := normalizeSeverity(w); sv != "" && len(strings.Fields(w)) <= 2 {
			return sv
		}
	}
	return ""
}

// leadInParagraph recognises "**Issues**", "Issues found:", "**Critical
// issues:**".
func leadInParagraph(body string) (sev string, ok bool) {
	plain := strings.TrimSpace(strings.ReplaceAll(body, "**", ""))
	bold := strings.HasPrefix(body, "**") && strings.HasSuffix(body, "**")
	if !strings.HasSuffix(plain, ":") && !bold || len(plain) > 60 {
		return "", false
	}
	lower := strings.ToLower(stripSymbols(plain))
	words := strings.Fields(lower)
	announced := false
	for _, w := range findingsWords {
		if hasTerm(lower, w) {
			announced = true
		}
	}
	for _, w := range words {
		if s := normalizeSeverity(w); s != "" && !markerExcluded[strings.Trim(w, ":")] {
			sev = s
			break
		}
	}
	if !announced && !(sev != "" && len(words) <= 3) {
		return "", false
	}
	return sev, true
}

var inlineFixLabels = []string{
	"Suggested fix:", "Recommendation:", "Suggestion:", "Fix:",
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
// ("Use …", "Release the lock …"). Built when a review is first read, not
// at start: every command would pay for it.
var imperativeVerbs = sync.OnceValue(func() map[string]bool {
	return wordSet(`use add set pass call check wrap move replace remove return keep create build declare load
		register read write make switch pin restrict validate sanitize resolve reject parse truncate
		compare define specify describe limit guard defer run encode serialize store initialize fetch
		cache rename update change fix bump prefer avoid don't never always do ensure delete drop split
		put mark rewrite regenerate filter escape close stop restore revert lock select consider try
		include exclude apply handle enforce require emit log raise throw catch await abort cancel
		import export extract inline convert normalize quote bound cap sort dedupe merge configure
		enable disable install upgrade downgrade delegate propagate batch stream retry sync flush commit
		rollback roll wait poll assert verify tighten allow deny strip trim reorder derive generate
		decode rotate clear reset persist guarantee assign release acquire allow-list allowlist serve
		drain map collapse copy introduce provide reuse share swap wire expose hide inject bind attach
		detach unsubscribe subscribe disconnect connect dispose free accept throttle paginate migrate
		join compute invalidate evict expire schedule queue enqueue spawn clamp format deserialize
		marshal unmarshal freeze clone protect preserve restructure instantiate open hash sign unwrap`)
})

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// modals make a sentence prescriptive wherever they stand ("the handler
// should close the body", "use X instead", "fixed by using X").
var modals = []string{" should ", " must ", " instead"}

func prescriptive(s string) bool {
	t := strings.TrimLeft(s, "*_\"'( ")
	if opensWithOrder(t) {
		return true
	}
	if rest, ok := afterLabel(t); ok && opensWithOrder(rest) && !statementLabel(t[:strings.IndexByte(t, ':')]) {
		// "Next step: Close the channel": the order after a label of the
		// reviewer's naming. After a label that names the problem or its
		// cause, a noun that is also a verb opens a statement ("Root
		// cause: Map iteration order decides …").
		return true
	}
	l := " " + asciiLower(s) + " "
	for _, m := range modals {
		if strings.Contains(l, m) {
			return true
		}
	}
	return false
}

// opensWithOrder reports whether t opens with an imperative verb. A
// sentence that opens with a code span opens with a name ("`Load` loops
// forever"), not an order.
func opensWithOrder(t string) bool {
	w := strings.Fields(t)
	if len(w) > 1 && strings.EqualFold(strings.Trim(w[0], ","), "please") {
		// A polite order is an order ("Please add …").
		w = w[1:]
	}
	return len(w) > 0 && !strings.HasPrefix(t, "`") && imperativeVerbs()[strings.ToLower(strings.Trim(w[0], ",:;`*"))]
}

// statementLabel reports whether a label names what is wrong rather than
// what to do: a problem, evidence, place or severity field, or a cause.
func statementLabel(label string) bool {
	switch labelField(label) {
	case fieldProblem, fieldEvidence, fieldLocation, fieldSeverity:
		return true
	}
	return strings.Contains(strings.ToLower(label), "cause")
}

// afterLabel returns what follows a short label opening t ("Action: …",
// "Next step: …": one to three words of letters before a colon).
func afterLabel(t string) (string, bool) {
	i := strings.IndexByte(t, ':')
	if i <= 0 || i > 24 || i+1 >= len(t) || t[i+1] != ' ' {
		return "", false
	}
	label := t[:i]
	if n := len(strings.Fields(label)); n == 0 || n > 3 {
		return "", false
	}
	for _, r := range label {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' {
			return "", false
		}
	}
	return strings.TrimLeft(t[i+1:], " *_"), true
}

var findingsBlockRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<findings>(.*?)</findings>`) })

// extractJSON reads findings a reviewer wrote as JSON: `<findings>[{…}]</findings>`
// blocks (a code fence inside the tags and an object wrapper {"findings":
// […]} tolerated), or a review that is itself a JSON document with a
// "findings" array (Codex's review output), text after it ignored.
func extractJSON(text string) []Finding {
	var out []Finding
	if containsFold(text, "<findings>") {
		for _, m := range findingsBlockRe().FindAllStringSubmatch(text, -1) {
			body := strings.TrimSpace(m[1])
			body = strings.TrimPrefix(body, "```json")
			body = strings.TrimPrefix(body, "```")
			body = strings.TrimSuffix(strings.TrimSpace(body), "```")
			out = append(out, jsonFindings(body)...)
		}
	}
	if len(out) == 0 {
		if t, ok := jsonDoc(text); ok {
			out = jsonFindings(t)
		}
	}
	return out
}

// jsonDoc returns the JSON a review consists of: the text itself when it
// opens with { or [, or the body of a fenced block it opens with.
func jsonDoc(text string) (string, bool) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") {
		nl := strings.IndexByte(t, '\n')
		if nl < 0 {
			return "", false
		}
		t = strings.TrimSpace(t[nl+1:])
		if end := strings.Index(t, "\n```"); end >= 0 {
			t = t[:end]
		}
	}
	return t, strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// jsonFindings decodes the first JSON value of body: an array of findings,
// or an object holding one under any key (nested objects up to two levels
// down). The array chosen is the one with most items shaped as findings:
// objects with a problem and a severity, place or fix. Reviewers name it
// "findings", "issues", "problems" or anything else; praise is titles
// alone, notes are strings.
func jsonFindings(body string) []Finding {
	var v any
	if json.NewDecoder(strings.NewReader(body)).Decode(&v) != nil {
		return nil
	}
	if items, ok := v.([]any); ok {
		return jsonItems(items, false)
	}
	var best []Finding
	named := false
	var walk func(o map[string]any, depth int)
	walk = func(o map[string]any, depth int) {
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a tie goes the same way every run
		for _, k := range keys {
			switch x := o[k].(type) {
			case []any:
				fs := jsonItems(x, true)
				if strings.EqualFold(k, "findings") && len(fs) > 0 {
					// The name the reviewer gave them wins.
					best = append(fs[:len(fs):len(fs)], nil...)
					named = true
				} else if !named && len(fs) > len(best) {
					best = fs
				}
			case map[string]any:
				if depth < 2 {
					walk(x, depth+1)
				}
			}
		}
	}
	if o, ok := v.(map[string]any); ok {
		walk(o, 0)
	}
	return best
}

// jsonItems are the findings of an array's object items; shaped asks
// that an item carry a severity, place or fix besides its problem.
func jsonItems(items []any, shaped bool) []Finding {
	var out []Finding
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			if f, ok := jsonFinding(m); ok && (!shaped || f.Severity != "" || f.Fix != "") {
				out = append(out, f)
			}
		}
	}
	return out
}

// jsonVerdict reads the overall verdict of a review written as one JSON
// document: its top-level "verdict", "decision" or Codex's
// "overall_correctness" ("patch is incorrect" asks for changes).
func jsonVerdict(text string) Verdict {
	t, ok := jsonDoc(text)
	if !ok || !strings.HasPrefix(t, "{") {
		return None
	}
	var doc map[string]any
	if json.NewDecoder(strings.NewReader(t)).Decode(&doc) != nil {
		return None
	}
	for k, x := range doc {
		s, _ := x.(string)
		k = strings.ToLower(k)
		if b, ok := x.(bool); ok && (strings.Contains(k, "pass") || strings.Contains(k, "approv")) {
			// "passesQualityGate": true, "approved": false — the
			// verdict as a yes or no.
			if b {
				return Ship
			}
			return NeedsWork
		}
		s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.ToLower(s), "patch is ")))
		switch {
		case k != "verdict" && k != "decision" && k != "overall_correctness" && k != "status" && k != "recommendation":
			continue
		case s == "incorrect":
			return NeedsWork
		case s == "correct":
			return Ship
		}
		if v, _ := verdictWordAt(s); v != None {
			return v
		}
	}
	return None
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
					if t := jsonProse(v); t != "" {
						return t
					}
				}
			}
		}
		return ""
	}
	loc := get("location", "file", "path", "filename")
	if line := get("line", "lines", "line_number", "line_start"); line != "" && loc != "" && !strings.Contains(loc, ":") {
		loc += ":" + line
	}
	problem := get("problem", "issue", "finding", "message", "description")
	if title := get("title", "summary"); problem == "" {
		problem = title
	} else if title != "" && !strings.Contains(problem, title) {
		// A finding's title leads its problem, as a heading leads the
		// paragraphs under it: the title is often the lesson in a
		// line ("title": "Sound dies after an interruption", "problem":
		// the evidence).
		problem = strings.TrimRight(title, ".:;— ") + " — " + problem
	}
	f := Finding{
		Severity: jsonSeverity(get("severity", "priority", "level", "sev")),
		Location: truncate(flatLocation(loc), MaxFieldLen),
		Problem:  clean(problem),
		Fix: clean(get("suggestion", "fix", "recommendation", "remediation", "solution", "suggested_fix", "required_fix",
			"recommended_fix", "proposed_fix")),
		Evidence: clean(get("evidence", "rationale", "why", "details", "detail", "impact")),
	}
	return f, f.Problem != ""
}

// jsonSeverity is normalizeSeverity for a findings document a tool wrote:
// there findings are also ranked by diagnostic level, as linters,
// compilers and SARIF rank theirs ("error", "warning", "note").
func jsonSeverity(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return SevMajor
	case "warning":
		return SevMinor
	case "note":
		return SevNit
	}
	return normalizeSeverity(s)
}

// jsonProse turns a nested JSON value into the text it carries, never its
// JSON syntax (a lesson's fix must read as words, not '{"diff":null}'): an
// object's members as "key: value", an array's items joined.
func jsonProse(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64, bool:
		return fmt.Sprint(v)
	case []any:
		var parts []string
		for _, it := range v {
			if t := jsonProse(it); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "; ")
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			if t := jsonProse(v[k]); t != "" {
				parts = append(parts, k+": "+t)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}
