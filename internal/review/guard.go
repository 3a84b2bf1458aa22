package review

import "strings"

// maxBrackets bounds how many '[' one block of a review may hold before
// they stop being read as link labels. goldmark's link parser costs the
// square of a block's size when a block holds many of them: it looks for
// the end of each link destination through the rest of the block, and
// reads each label back across every line before it, so 40,000 "[a](" took
// 6 s and 160,000 lines of "[a](b" 15 s, past the hook's deadline. Real
// reviews hold a few links a paragraph; a block over the bound is a dump,
// and its brackets are escaped, which reads as the same text.
const maxBrackets = 100

// unlink returns text with '[' escaped in every blank-line-separated block
// that holds more than maxBrackets of them, and text itself when none does.
func unlink(text string) string {
	if strings.Count(text, "[") <= maxBrackets {
		return text
	}
	blocks := strings.Split(text, "\n\n")
	for i, b := range blocks {
		if strings.Count(b, "[") > maxBrackets {
			blocks[i] = strings.ReplaceAll(strings.ReplaceAll(b, `\[`, "["), "[", `\[`)
		}
	}
	return strings.Join(blocks, "\n\n")
}
