package review

import "strings"

// foldWidth reads full-width forms as the ASCII a review's structure is
// written in. Chinese, Japanese and Korean reviewers type their headings,
// field labels and severity tags with full-width punctuation ("问题 1（严重）：…",
// "修复建议：…"), which no rule that looks for "(", ":" or "[" would see, so
// such a review gave no finding at all. The fold covers the full-width
// block (U+FF01–U+FF5E), the ideographic space and the lenticular and
// tortoise-shell brackets reviewers put severities in ("【P0】"). The
// stored lesson keeps the reviewer's words with ASCII punctuation, as
// mixed Chinese and code text is commonly written. (Invalid UTF-8 after
// the first wide character becomes U+FFFD, as clean() makes it anyway.)
func foldWidth(s string) string {
	i := strings.IndexFunc(s, wide)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r == '（':
			// A full-width mark carries its own spacing; its ASCII
			// form needs the space ("问题 1（严重）：标题" reads as
			// "问题 1 (严重): 标题", as "Issue 1 (major): title" does;
			// so do the brackets below).
			b.WriteString(" (")
		case r == '）' || r == '：' || r == '，' || r == '；':
			b.WriteByte(byte(r - 0xFF01 + '!'))
			b.WriteByte(' ')
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteByte(byte(r - 0xFF01 + '!'))
		case r == 0x3000:
			b.WriteByte(' ')
		case r == 0x3010 || r == 0x3014:
			b.WriteString(" [")
		case r == 0x3011 || r == 0x3015:
			b.WriteString("] ")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func wide(r rune) bool {
	return r >= 0xFF01 && r <= 0xFF5E || r == 0x3000 || r >= 0x3010 && r <= 0x3011 || r >= 0x3014 && r <= 0x3015
}
