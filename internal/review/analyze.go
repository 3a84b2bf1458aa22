package review

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Analysis is everything flowmem learns from one review text.
type Analysis struct {
	Verdict   Verdict
	Findings  []Finding
	Decisions []Decision // one per finding, same order
	// Inferred says the review wrote no verdict and Verdict was read from
	// its findings' severities.
	Inferred bool
}

// blocking reports whether findings ask for changes without a verdict: one
// is ranked critical or major; or most of several are not ranked at all (a
// reviewer that lists problems without ranking them wants them fixed; one
// that ranks them all nits does not); or several are ranked minor or not
// at all and the reviewer does not say that none of them blocks.
func blocking(fs []Finding, text string) bool {
	unranked, minor, nits := 0, 0, 0
	for _, f := range fs {
		switch r := severityRank(f.Severity); {
		case r >= severityRank(SevMajor):
			return true
		case r == severityRank(SevMinor):
			minor++
		case r == 0:
			unranked++
		default:
			nits++
		}
	}
	if unranked >= 2 && unranked > minor+nits {
		return true
	}
	asking := unranked + minor
	return minor > 0 && asking >= 2 && !saysNoneBlocks(text)
}

// saysNoneBlocks reports whether the reviewer states that nothing blocks
// or that it found no issues ("nothing here blocks", "non-blocking",
// "no issues worth raising").
func saysNoneBlocks(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || r == '\'')
	})
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case strings.HasPrefix(w, "block"):
		case w == "issues" || w == "problems" || w == "findings":
		default:
			continue
		}
		if negatedBefore(words, i) {
			return true
		}
	}
	return false
}

// Kept returns the decisions that passed the learnable filter.
func (a Analysis) Kept() []Decision {
	var out []Decision
	for _, d := range a.Decisions {
		if d.Keep {
			out = append(out, d)
		}
	}
	return out
}

// AnalyzeWith parses the verdict, extracts findings and classifies each
// with options o. Findings are extracted whatever the verdict so --explain
// can show them; callers record only when Verdict.Actionable().
func AnalyzeWith(text string, o Options) Analysis {
	a := Analysis{Verdict: ParseVerdict(text), Findings: Extract(text)}
	if o.InferVerdict && a.Verdict == None && blocking(a.Findings, text) {
		// Reviewers such as Codex's review mode write no overall verdict,
		// only ranked findings; a critical or major one asks for changes.
		a.Verdict, a.Inferred = NeedsWork, true
	}
	a.Decisions = make([]Decision, len(a.Findings))
	for i, f := range a.Findings {
		a.Decisions[i] = ClassifyWith(f, o)
	}
	fallback(a.Decisions)
	repeats(a.Decisions)
	return a
}

// Thresholds of repeats: how many content words, and what share of the
// shorter finding's, a kept finding must share with an earlier kept one
// to be its repeat.
const (
	repeatWords = 3
	repeatShare = 0.6
)

// repeats drops a kept finding that restates an earlier kept one of the
// same review: a closing list of next steps or a summary table names the
// findings already given, and one lesson recorded twice is a false keep
// the second time. Words are compared, not sentences, because the repeat
// is a shorter wording ("Pass the pool into the worker" after the
// paragraph that said why).
func repeats(ds []Decision) {
	var earlier [][]string
	for i, d := range ds {
		if !d.Keep {
			continue
		}
		w := contentWords(d.Finding.Problem + " " + d.Finding.Fix)
		if n := repeatOf(w, earlier); n >= 0 {
			ds[i].Keep = false
			ds[i].Reason = fmt.Sprintf("repeats an earlier finding (%d shared words)", n)
			continue
		}
		earlier = append(earlier, w)
	}
}

// repeatOf returns how many words w shares with the first of earlier it
// repeats, or -1. Word lists are sorted, so sharing is one merge.
func repeatOf(w []string, earlier [][]string) int {
	for _, e := range earlier {
		shared := 0
		for i, j := 0, 0; i < len(w) && j < len(e); {
			switch {
			case w[i] < e[j]:
				i++
			case w[i] > e[j]:
				j++
			default:
				shared++
				i++
				j++
			}
		}
		if shared >= repeatWords && float64(shared) >= repeatShare*float64(min(len(w), len(e))) {
			return shared
		}
	}
	return -1
}

// contentWords are the distinct lower-case words of s longer than three
// letters, sorted: short words are the grammar every finding shares.
func contentWords(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	})
	out := words[:0]
	for _, w := range words {
		if utf8.RuneCountInString(w) > 3 {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fallbackKeep is how many findings fallback keeps at most. On the sets
// first seen in round 6, keeping three recovered 11 lessons for 8 false
// keeps; one recovered 3 (for 7), all of them 14 (for 19). Over every
// labelled set in round 20 the second and third kept 23 lessons for 88
// keeps (the first 21 for 65): past the first, a review whose findings
// all fail the filter mostly holds narrative that names code, so one it is.
const fallbackKeep = 1

// fallback keeps something of a review whose findings the filter dropped
// every one of, because a review that asks for changes always teaches
// something. The candidates are the findings dropped only for stating no
// fix that name code, the defect in named code implying its fix (ranked
// ones at or above the minimum severity are kept by the filter itself).
// The first fallbackKeep of them, in review order, are kept.
func fallback(ds []Decision) {
	for _, d := range ds {
		if d.Keep {
			return
		}
	}
	n := 0
	for i, d := range ds {
		if n < fallbackKeep && d.Reason == reasonNoFix && hasCode(d.Finding.Problem) {
			ds[i].Keep = true
			ds[i].Reason = fmt.Sprintf("reusable %s lesson: names %s; no other finding of this review is one, and a defect in named code implies its fix", d.Category, anchorOf(d.Finding))
			n++
		}
	}
}
