package review

import "strings"

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
// is ranked critical or major, or most of several are not ranked at all (a
// reviewer that lists problems without ranking them wants them fixed; one
// that ranks them all minor or below does not).
func blocking(fs []Finding) bool {
	ranked, unranked := 0, 0
	for _, f := range fs {
		if severityRank(f.Severity) >= severityRank(SevMajor) {
			return true
		}
		if f.Severity == "" {
			unranked++
		} else {
			ranked++
		}
	}
	return unranked >= 2 && unranked > ranked
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

// Analyze parses the verdict, extracts findings and classifies each with
// DefaultOptions.
func Analyze(text string) Analysis { return AnalyzeWith(text, DefaultOptions()) }

// AnalyzeWith is Analyze with explicit filter options. Findings are
// extracted whatever the verdict so --explain can show them; callers record
// only when Verdict.Actionable().
func AnalyzeWith(text string, o Options) Analysis {
	a := Analysis{Verdict: ParseVerdict(text), Findings: Extract(text)}
	if o.InferVerdict && a.Verdict == None && blocking(a.Findings) {
		// Reviewers such as Codex's review mode write no overall verdict,
		// only ranked findings; a critical or major one asks for changes.
		a.Verdict, a.Inferred = NeedsWork, true
	}
	if o.InferVerdict && a.Verdict == None && len(a.Findings) == 0 && saysNone(text) {
		// "No findings." under every severity: the review passes.
		a.Verdict, a.Inferred = Ship, true
	}
	a.Decisions = make([]Decision, len(a.Findings))
	for i, f := range a.Findings {
		a.Decisions[i] = ClassifyWith(f, o)
	}
	return a
}

// saysNone reports whether a line of text states that the reviewer found
// nothing ("No findings.", "None found.").
func saysNone(text string) bool {
	for line := range strings.Lines(text) {
		if noneClaim(plainLine(strings.TrimSpace(line))) {
			return true
		}
	}
	return false
}
