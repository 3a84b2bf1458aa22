//go:build quality

package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Field placement. Precision and recall match a label's anchor anywhere in
// a finding's text, so they cannot see WHERE the text landed: round 10
// glued the review's verdict onto the last finding's fix, stored a whole
// bold-label item (title first) as the fix, and stopped linking a later
// recommendation to the finding it names, and every figure held. A lesson
// is stored as issue and fix; these measures look at the fields. Each is
// counted over the change-requesting reviews (by their label), on every
// extracted finding whether the filter keeps it or not, so they measure
// extraction alone:
//
//	(a) problem: a learnable label's anchor lies in its finding's Location
//	    or Problem, not only in its Fix or Evidence;
//	(b) verdict: no field of a finding holds a line the verdict reader takes
//	    for the review's verdict, or a <verdict> tag;
//	(c) glued: no finding is the only home of the anchors of two or more
//	    labels the annotator kept apart (one of them is lost, and the
//	    lesson mixes two);
//	(d) fix: a learnable label's finding has a Fix (the rubric's learnable
//	    carries or clearly implies one; with fix_anchor labels, the label
//	    says the review gives one);
//	(e) fix anchor: the label's fix_anchor (a verbatim piece of the
//	    reviewer's remedy for that finding) lies inside the finding's Fix.
type placement struct {
	anchored, inProblem int // (a)
	findings, verdictIn int // (b)
	glued, gluedLost    int // (c)
	withFix             int // (d) of anchored
	remedies, remedyFix int // (d) with fix_anchor: labels whose review gives a remedy; of them with a Fix
	fixIn               int // (e) of remedies
	cases               []string
}

func (p *placement) add(q placement) {
	p.anchored += q.anchored
	p.inProblem += q.inProblem
	p.findings += q.findings
	p.verdictIn += q.verdictIn
	p.glued += q.glued
	p.gluedLost += q.gluedLost
	p.withFix += q.withFix
	p.remedies += q.remedies
	p.remedyFix += q.remedyFix
	p.fixIn += q.fixIn
	p.cases = append(p.cases, q.cases...)
}

func (p *placement) String() string {
	s := fmt.Sprintf("place: problem %.3f (%d/%d) verdict-in %d/%d glued %d (lost %d) fix %.3f (%d/%d)",
		ratio(p.inProblem, p.anchored), p.inProblem, p.anchored, p.verdictIn, p.findings, p.glued, p.gluedLost,
		ratio(p.withFix, p.anchored), p.withFix, p.anchored)
	if p.remedies > 0 {
		s += fmt.Sprintf(" remedy-fix %.3f (%d/%d) fix-anchor %.3f (%d/%d)",
			ratio(p.remedyFix, p.remedies), p.remedyFix, p.remedies, ratio(p.fixIn, p.remedies), p.fixIn, p.remedies)
	}
	return s
}

// placeGates are a pool's placement gates: the least share of learnable
// anchors in Location or Problem and of their findings with a Fix, the
// most findings holding a verdict and labels lost to glued findings.
type placeGates struct {
	problem, fix         float64
	verdictIn, gluedLost int
}

// Placement gates per pool, at the figures on main less a margin (shares)
// or at them (counts): round 11's first measure (place11, on 4bd6282) read
// OLD-DEV problem 0.935 (375/401), verdict-in 4/1073, glued 30 (lost 57),
// fix 0.688 (276/401); BLIND6-11 0.896 (388/433), 0/996, 42 (115), 0.564
// (244/433); NEW-DEV 0.870 (308/354), 0/1079, 39 (85), 0.449 (159/354);
// BLIND6-16 0.884 (696/787), 0/2075, 81 (200), 0.512 (403/787). After
// place11's landings (a heading over bold-titled items groups findings):
// OLD-DEV glued lost 56, BLIND6-11 109, NEW-DEV 58, BLIND6-16 167; fix
// NEW-DEV 0.477 (169/354), BLIND6-16 0.536 (422/787); verdict-in 0.
// NEWER-DEV (blind17+18, pooled in round 12 at d21b181): problem 0.906
// (96/106), verdict-in 0/357, glued 13 (lost 34), fix 0.585 (62/106),
// fix-anchor 0.480 (48/100).
var (
	gatePlaceOld    = placeGates{problem: 0.92, fix: 0.67, verdictIn: 0, gluedLost: 56}
	gatePlaceFresh  = placeGates{problem: 0.88, fix: 0.55, verdictIn: 0, gluedLost: 109}
	gatePlaceNew    = placeGates{problem: 0.85, fix: 0.45, verdictIn: 0, gluedLost: 58}
	gatePlaceBlind  = placeGates{problem: 0.87, fix: 0.51, verdictIn: 0, gluedLost: 167}
	gatePlaceNewest = placeGates{problem: 0.87, fix: 0.55, verdictIn: 0, gluedLost: 34}
)

func (g placeGates) check(t *testing.T, pool string, p placement) {
	t.Helper()
	if r := ratio(p.inProblem, p.anchored); r < g.problem {
		t.Errorf("%s: learnable anchors in Location/Problem %.3f, below its gate %.2f", pool, r, g.problem)
	}
	if r := ratio(p.withFix, p.anchored); r < g.fix {
		t.Errorf("%s: learnable findings with a Fix %.3f, below its gate %.2f", pool, r, g.fix)
	}
	if p.verdictIn > g.verdictIn {
		t.Errorf("%s: %d findings hold the review's verdict (gate %d)", pool, p.verdictIn, g.verdictIn)
	}
	if p.gluedLost > g.gluedLost {
		t.Errorf("%s: %d labels lost in glued findings (gate %d)", pool, p.gluedLost, g.gluedLost)
	}
}

// fieldsOf are a finding's whole fields (before the cut to MaxFieldLen),
// normalised as anchors are: location, problem, fix, evidence.
func fieldsOf(whole string) [4]string {
	var f [4]string
	for i, part := range strings.SplitN(whole, "\x00", 4) {
		f[i] = NormMatch(part)
	}
	return f
}

const (
	fLocation = iota
	fProblem
	fFix
	fEvidence
)

// review adds one change-requesting review's placement figures.
func (p *placement) review(t *testing.T, name, text string, l realLabels, a Analysis) {
	t.Helper()
	_, whole := extract(text, true)
	fields := make([][4]string, len(whole))
	joined := make([]string, len(whole))
	for i, w := range whole {
		fields[i] = fieldsOf(w)
		joined[i] = NormMatch(w)
	}
	note := func(kind, detail string) { p.cases = append(p.cases, kind+" "+name+": "+detail) }

	// (b) The review's verdict lines and tags, as the verdict reader sees
	// them.
	var verdicts []string
	for _, line := range strings.Split(text, "\n") {
		if isVerdictLine(line) {
			if v := NormMatch(line); len(v) >= 6 {
				verdicts = append(verdicts, v)
			}
		}
	}
	for _, m := range verdictTag().FindAllString(text, -1) {
		verdicts = append(verdicts, NormMatch(m))
	}
	for i, f := range fields {
		p.findings++
		for _, v := range verdicts {
			if k := fieldHolding(f, v); k >= 0 {
				p.verdictIn++
				note("VERDICT-IN", fmt.Sprintf("finding %d %s holds %q", i+1, fieldName(k), clip(v)))
				break
			}
		}
	}

	// (c) Findings that are the only home of two or more labels' anchors.
	homes := make([][]int, len(l.Findings)) // label -> findings holding its anchor
	for j, lb := range l.Findings {
		for i := range joined {
			if AnchorIn(lb.Anchor, joined[i]) {
				homes[j] = append(homes[j], i)
			}
		}
	}
	for i := range joined {
		var only []int
		seen := map[string]bool{}
		for j, h := range homes {
			if len(h) == 1 && h[0] == i && !seen[NormMatch(l.Findings[j].Anchor)] {
				seen[NormMatch(l.Findings[j].Anchor)] = true
				only = append(only, l.Findings[j].N)
			}
		}
		if len(only) >= 2 {
			p.glued++
			p.gluedLost += len(only) - 1
			note("GLUED", fmt.Sprintf("finding %d holds labels %v: %q", i+1, only, clip(fields[i][fProblem])))
		}
	}

	// (a), (d), (e) per learnable label: its finding is the first whose
	// Location or Problem holds the anchor, else the first holding it.
	for j, lb := range l.Findings {
		if !lb.Learnable || len(homes[j]) == 0 {
			continue
		}
		home := -1
		for _, i := range homes[j] {
			if AnchorIn(lb.Anchor, fields[i][fLocation]) || AnchorIn(lb.Anchor, fields[i][fProblem]) {
				home = i
				break
			}
		}
		p.anchored++
		if home >= 0 {
			p.inProblem++
		} else {
			home = homes[j][0]
			k := anchorField(fields[home], lb.Anchor)
			note("NOT-IN-PROBLEM", fmt.Sprintf("#%d %q only in %s; problem %q", lb.N, clip(lb.Anchor), fieldName(k), clip(fields[home][fProblem])))
		}
		f := fields[home]
		if f[fFix] != "" {
			p.withFix++
		}
		if lb.FixAnchor == nil || *lb.FixAnchor == "" {
			continue
		}
		p.remedies++
		if f[fFix] != "" {
			p.remedyFix++
		} else {
			note("NO-FIX", fmt.Sprintf("#%d remedy %q; problem %q", lb.N, clip(*lb.FixAnchor), clip(f[fProblem])))
		}
		if AnchorIn(*lb.FixAnchor, f[fFix]) {
			p.fixIn++
			continue
		}
		where := "nowhere in the finding"
		if k := anchorField(f, *lb.FixAnchor); k >= 0 {
			where = "in its " + fieldName(k)
		}
		note("FIX-ANCHOR", fmt.Sprintf("#%d remedy %q %s; fix %q", lb.N, clip(*lb.FixAnchor), where, clip(f[fFix])))
	}
}

// fieldHolding is the first field holding s (normalised), or -1.
func fieldHolding(f [4]string, s string) int {
	for k, v := range f {
		if s != "" && strings.Contains(v, s) {
			return k
		}
	}
	return -1
}

// anchorField is the first field an anchor matches, or -1.
func anchorField(f [4]string, anchor string) int {
	for k, v := range f {
		if AnchorIn(anchor, v) {
			return k
		}
	}
	return -1
}

func fieldName(k int) string {
	switch k {
	case fLocation:
		return "location"
	case fProblem:
		return "problem"
	case fFix:
		return "fix"
	case fEvidence:
		return "evidence"
	}
	return "no single field"
}

// TestQualityPlacement lists the failing cases of every placement measure
// for the splits named in FLOWMEM_QUALITY_CAUSES (folder names,
// comma-separated; skipped without it), FLOWMEM_QUALITY_PLACEMENT naming
// one kind (VERDICT-IN, GLUED, NOT-IN-PROBLEM, NO-FIX, FIX-ANCHOR) to list
// only that. Rules are chosen from the classes, not from single cases.
func TestQualityPlacement(t *testing.T) {
	dirs := os.Getenv("FLOWMEM_QUALITY_CAUSES")
	if dirs == "" {
		t.Skip("FLOWMEM_QUALITY_CAUSES names the splits to list")
	}
	kind := os.Getenv("FLOWMEM_QUALITY_PLACEMENT")
	for _, d := range strings.Split(dirs, ",") {
		if d == "blind17" || d == "blind18" {
			t.Fatal(d + " is scored once by the coordinator, never explained")
		}
		s := scoreSplit(t, filepath.Join("..", "..", "testdata", "review", "real", d), false)
		t.Logf("%s %s", d, s.place.String())
		for _, c := range s.place.cases {
			if kind == "" || strings.HasPrefix(c, kind+" ") {
				t.Logf("  %s/%s", d, c)
			}
		}
	}
}
