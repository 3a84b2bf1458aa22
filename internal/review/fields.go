package review

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MaxFieldLen bounds every Finding field in bytes. A store writes each field
// as one markdown line; a reviewer's essay-length paragraph is cut at a word
// boundary rather than flooding memory.
const MaxFieldLen = 500

// Normalized severities, most severe first.
const (
	SevCritical = "critical"
	SevMajor    = "major"
	SevMinor    = "minor"
	SevNit      = "nit"
)

// severityRank orders severities for the MinSeverity gate; unknown ("") is
// not ranked.
func severityRank(s string) int {
	switch s {
	case SevCritical:
		return 4
	case SevMajor:
		return 3
	case SevMinor:
		return 2
	case SevNit:
		return 1
	}
	return 0
}

var severityWords = map[string]string{
	"p0": SevCritical, "critical": SevCritical, "blocker": SevCritical, "blocking": SevCritical,
	"severe": SevCritical, "must-fix": SevCritical,
	"p1": SevMajor, "high": SevMajor, "major": SevMajor, "important": SevMajor, "should-fix": SevMajor,
	"p2": SevMinor, "medium": SevMinor, "minor": SevMinor, "concern": SevMinor,
	"p3": SevNit, "low": SevNit, "nit": SevNit, "info": SevNit, "optional": SevNit,
	// The same levels in Chinese, Japanese and Korean reviews.
	"严重": SevCritical, "致命": SevCritical, "阻塞": SevCritical, "重大": SevCritical, "致命的": SevCritical, "심각": SevCritical, "치명적": SevCritical,
	"高": SevMajor, "高危": SevMajor, "重要": SevMajor, "높음": SevMajor,
	"中": SevMinor, "中危": SevMinor, "中等": SevMinor, "轻微": SevMinor, "軽微": SevMinor, "중간": SevMinor, "보통": SevMinor,
	"低": SevNit, "低危": SevNit, "낮음": SevNit,
}

// Replacers are immutable and safe for concurrent use; building one costs
// more than using it, so each is built once.
var severityDecor = strings.NewReplacer("*", "", "`", "", "[", "", "]", "", "(", "", ")", "")

// normalizeSeverity maps a reviewer's severity text ("Major", "P1 (high)",
// "BLOCKER", "Should fix") to a normalized level, or "" when it is not one.
// Only the leading word (or two, for "should fix") decides, so trailing
// commentary does not change the level.
func normalizeSeverity(s string) string {
	s = strings.ToLower(strings.TrimSpace(severityDecor.Replace(s)))
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(s, "_", "-")
	end := strings.IndexFunc(s, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') })
	if end < 0 {
		end = len(s)
	}
	w := strings.Trim(s[:end], "-")
	if sev, ok := severityWords[w]; ok {
		return sev
	}
	return ""
}

// clean turns reviewer text into one bounded line: bold markers gone,
// every kind of whitespace (including U+2028 and NEL, which some editors
// treat as line breaks) collapsed to one space, control characters dropped,
// invalid UTF-8 replaced, and the result cut at a word boundary.
func clean(s string) string { return truncate(flatten(s), MaxFieldLen) }

// flatten is clean without the cut.
func flatten(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	// Only "**": "__" is also bold, but it is far more often part of a
	// name (__init__.py, __html) that must survive.
	s = strings.ReplaceAll(s, "**", "")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r), r == '\u200b', r == '\ufeff':
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// truncate cuts s to at most max bytes at a word boundary, marking the cut
// with an ellipsis that counts towards the limit.
func truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ell = "…"
	limit := max - len(ell)
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(s[:cut], ' '); i > limit/2 {
		cut = i
	}
	return strings.TrimRight(s[:cut], " ,;:") + ell
}

// flatLocation also drops code-span backticks: a location is a reference,
// and a store or a human greps for the bare path.
func flatLocation(s string) string { return flatten(strings.ReplaceAll(s, "`", "")) }

var pathLineRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("[A-Za-z0-9_./~-]*[A-Za-z0-9_-]\\.[A-Za-z][A-Za-z0-9]{0,7}:\\d+(?:-\\d+)?")
})

// codeFileRe matches a code span that names a file: `cache.go`, `src/a.ts`.
var codeFileRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`((?:[\\w.@~-]+/)*[\\w@~-][\\w.@~-]*\\.[a-z][a-z0-9]{0,5})`")
})

// guessLocation finds a file reference in free text: the first `path:line`,
// else the first code span that names a file.
func guessLocation(text string) string {
	for _, ix := range pathLineRe().FindAllStringIndex(text, 8) {
		// "postgres://u@db.internal:5432/app" names a host and port, not
		// a file and line.
		if i := ix[0]; i > 0 && (text[i-1] == '@' || strings.HasSuffix(text[:i], "//")) || strings.HasPrefix(text[ix[0]:], "//") {
			continue
		}
		return text[ix[0]:ix[1]]
	}
	if m := codeFileRe().FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}
