//go:build quality

package review

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Built only with the quality tag: the real-review quality harness
// (quality_test.go) and the capture package's second-look simulator
// (internal/capture/modelsim_quality_test.go) find review files, trace a
// lesson back to its finding's whole text and match label anchors the same
// way, with these helpers.

// ExtractWhole splits text into findings and returns each one's whole text.
func ExtractWhole(text string) ([]Finding, []string) { return extract(text, true) }

// NormalizeSeverity maps a written severity to its canonical name, or "".
func NormalizeSeverity(s string) string { return normalizeSeverity(s) }

var matchDecor = strings.NewReplacer("`", "", "*", "", "_", " ", "#", "", "’", "'", "‘", "'", "“", "\"", "”", "\"", "\\", "")

// NormMatch folds case, whitespace and markdown marks, so an anchor copied
// from the raw review matches the finding text extraction produced.
func NormMatch(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(matchDecor.Replace(foldWidth(s)))), " ")
}

// AnchorIn reports whether a label's anchor occurs in a finding's text.
// An anchor copied from a table row ("| JWT in localStorage | High |")
// matches when each of its cells does, the severity cell aside (severity
// is normalised, not kept as written).
func AnchorIn(anchor, text string) bool {
	if !strings.Contains(anchor, "|") {
		return strings.Contains(text, NormMatch(anchor)) || titleIn(anchor, text)
	}
	n := 0
	for _, cell := range strings.Split(anchor, "|") {
		c := NormMatch(cell)
		if c == "" || normalizeSeverity(c) != "" {
			continue
		}
		if !strings.Contains(text, c) {
			return false
		}
		n++
	}
	return n > 0
}

// ReviewFile is the review text next to a labels file: same slug, any
// extension but the labels'.
func ReviewFile(labels string) (string, error) {
	slug := strings.TrimSuffix(strings.TrimSuffix(labels, ".labels.json"), ".labels2.json")
	matches, err := filepath.Glob(slug + ".*")
	if err != nil {
		return "", err
	}
	for _, m := range matches {
		if !strings.Contains(filepath.Base(m)[len(filepath.Base(slug)):], ".labels") {
			return m, nil
		}
	}
	return "", fmt.Errorf("no review text for %s", labels)
}

// titleIn matches an anchor copied from a finding's title line, whose
// first words are often the reviewer's id or marker ("Issue 1:", "[P1]",
// "B1", "C-03 —", "2.") that extraction keeps apart from the finding's
// text: the anchor matches without up to four leading words when what is
// left is still distinctive (two words and 12 bytes or more).
func titleIn(anchor, text string) bool {
	words := strings.Fields(NormMatch(anchor))
	for k := 1; k <= 4 && len(words)-k >= 2; k++ {
		rest := strings.Join(words[k:], " ")
		if len(rest) >= 12 && strings.Contains(text, rest) {
			return true
		}
	}
	return false
}
