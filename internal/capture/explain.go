package capture

import (
	"cmp"
	"fmt"
	"io"
	"strings"
)

// WriteExplain writes the report behind `flowmem capture --explain`: the
// verdict and task, then every finding with KEEP or DROP, the reason and
// the category, as Explain found them.
func WriteExplain(w io.Writer, r *Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict: %s\n", cmp.Or(string(r.Verdict), "none found"))
	if !r.Verdict.Actionable() {
		b.WriteString("nothing is recorded unless the verdict is NEEDS_WORK or MAJOR_RETHINK\n")
	}
	if r.Task != "" {
		fmt.Fprintf(&b, "task: %s\n", r.Task)
	}
	fmt.Fprintf(&b, "findings: %d (keep %d, drop %d)\n", r.Findings, r.Kept, r.Findings-r.Kept)
	if r.Capped > 0 {
		fmt.Fprintf(&b, "%d more kept %s left out: one review records at most %d, the most severe\n", r.Capped, plural(r.Capped, "finding", "findings"), MaxLessons)
	}
	for i, d := range r.Analysis.Decisions {
		f := d.Finding
		mark := "DROP"
		if d.Keep {
			mark = "KEEP"
		}
		fmt.Fprintf(&b, "\n%d. %s [%s] %s\n", i+1, mark, cmp.Or(f.Severity, "unranked"), f.Problem)
		if f.Location != "" {
			fmt.Fprintf(&b, "   location: %s\n", f.Location)
		}
		if f.Fix != "" {
			fmt.Fprintf(&b, "   fix:      %s\n", f.Fix)
		}
		fmt.Fprintf(&b, "   reason:   %s\n", d.Reason)
		fmt.Fprintf(&b, "   category: %s\n", d.Category)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write review explanation: %w", err)
	}
	return nil
}

// ExplainJSON is the shape of `flowmem capture --explain --json`.
type ExplainJSON struct {
	Verdict  string        `json:"verdict"`
	Task     string        `json:"task"`
	Findings []FindingJSON `json:"findings"`
}

// FindingJSON is one finding of ExplainJSON.
type FindingJSON struct {
	Keep     bool   `json:"keep"`
	Reason   string `json:"reason"`
	Severity string `json:"severity"`
	Category string `json:"category"`
	Issue    string `json:"issue"`
	Fix      string `json:"fix"`
	Context  string `json:"context"`
}

// JSON is the report as `flowmem capture --explain --json` prints it.
func (r *Result) JSON() ExplainJSON {
	out := ExplainJSON{Verdict: string(r.Verdict), Task: r.Task, Findings: []FindingJSON{}}
	for _, d := range r.Analysis.Decisions {
		f := d.Finding
		out.Findings = append(out.Findings, FindingJSON{
			Keep: d.Keep, Reason: d.Reason, Severity: f.Severity, Category: d.Category,
			Issue: f.Problem, Fix: f.Fix, Context: findingContext(f),
		})
	}
	return out
}
