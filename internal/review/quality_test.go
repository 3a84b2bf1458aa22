//go:build quality

package review

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Real-review quality harness (`make quality`). It scores the whole capture
// path a review takes in the hook — Unwrap → verdict → Extract → keep — on
// real reviews harvested from public repositories and labelled with
// shared/LABELING.md (testdata/review/real, layout in its SOURCES.md).
//
// Options are review.DefaultOptions (minimum severity "minor");
// FLOWMEM_QUALITY_MIN_SEVERITY=major scores with another minimum, as a
// project's capture.min_severity would.
//
// The round-3 blind split (testdata/review/real/blind/: sources that
// appear nowhere else in the corpus, chosen when they were harvested,
// before any rule was written) was scored once, at the end of round 3, on
// 98f4ce1: precision 0.688 (53/77), recall 0.616 (53/86), category
// accuracy 0.208 (11/53), verdict accuracy 0.826 (19/23), 4
// change-requesting reviews with learnable findings yielding none. From
// round 4 on it is development data ("dev-r3"), read and fixed against
// like dev; its gates stay as regression guards.
//
// The round-4 blind split (testdata/review/real/blind2/) was scored once,
// at 7a330fd; from then on it is development data too ("dev-r4"), scored
// and listed like the others.

type realLabels struct {
	Source struct {
		Repo, Path, Reviewer, Kind string
	} `json:"source"`
	Split    string `json:"split"`
	Verdict  string `json:"verdict"`
	Task     string `json:"task"`
	Findings []struct {
		N         int    `json:"n"`
		Anchor    string `json:"anchor"`
		Severity  string `json:"severity"`
		Summary   string `json:"summary"`
		Learnable bool   `json:"learnable"`
		Category  string `json:"category"`
		Reason    string `json:"reason"`
		// FixAnchor is a verbatim substring of the reviewer's remedy for
		// this finding, "" when the review gives none; nil where the
		// labels predate the field.
		FixAnchor *string `json:"fix_anchor"`
	} `json:"findings"`
}

// score is one split's figures.
type score struct {
	reviews, verdictOK  int
	labels, learnable   int
	kept, tp, fp, catOK int
	zeroYield           []string          // reviews with learnable labels and no kept finding
	shipLearnable       int               // learnable findings of approving reviews, never recorded (SPEC §4)
	confusion           map[[2]string]int // (label, kept) category of each match
	detail              []string
	causes              []cause // why each miss was missed and each false keep kept
	records             []record
	place               placement
}

// record is one extracted finding of a change-requesting review and what
// its label says of it, for the feature diagnostic (TestQualityFeatures).
type record struct {
	Review                            string  `json:"review"`
	Index                             int     `json:"index"`
	Count                             int     `json:"count"`
	Status                            string  `json:"status"` // tp, fp-no, fp-nolabel, fp-dup, miss, drop-no, drop-nolabel
	Reason                            string  `json:"reason"`
	Finding                           Finding `json:"finding"`
	Category                          string  `json:"category"`
	Whole                             string  `json:"whole"`
	CodeP, CodeF, NameP, NameF, NameL bool
	Title                             string
}

// cause is one miss or false keep and its class: a miss's verdict was
// misread, or its finding was not extracted, or extracted and dropped; a
// false keep was labelled not learnable, or matches no label (an
// extraction artefact).
type cause struct {
	review, class, reason string
	detail                string // the label's summary or the kept problem
	zeroYield             bool
}

func (s *score) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s *score) recall() float64    { return ratio(s.tp, s.learnable) }
func (s *score) catAcc() float64    { return ratio(s.catOK, s.tp) }
func (s *score) verdictAcc() float64 {
	return ratio(s.verdictOK, s.reviews)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// wholeTexts are the texts an anchor is looked up in, one per finding of
// a: all the text the finding was built from, before its fields were cut
// to MaxFieldLen. A label anchored past the cut names a finding that was
// found; scoring it "not extracted" measured the store's bound, not
// extraction.
func wholeTexts(t *testing.T, text string, a Analysis) []string {
	t.Helper()
	_, whole := extract(text, true)
	if len(whole) != len(a.Findings) {
		t.Fatalf("extract gave %d texts for %d findings", len(whole), len(a.Findings))
	}
	out := make([]string, len(whole))
	for i, w := range whole {
		out[i] = NormMatch(w)
	}
	return out
}

// scoreSplit runs every labelled review of one split through the capture
// path and scores it. detail adds one line per miss and false keep.
func scoreSplit(t *testing.T, dir string, detail bool) *score {
	return scoreLabels(t, dir, "*.labels.json", detail)
}

// scoreLabels scores the reviews of dir against the label files matching
// pattern: the first annotator's (*.labels.json) or the second's
// (*.labels2.json).
func scoreLabels(t *testing.T, dir, pattern string, detail bool) *score {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	s := &score{}
	for _, lf := range files {
		b, err := os.ReadFile(lf)
		if err != nil {
			t.Fatalf("read labels: %v", err)
		}
		var l realLabels
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatalf("parse %s: %v", lf, err)
		}
		rf, err := ReviewFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(rf)
		if err != nil {
			t.Fatalf("read review: %v", err)
		}
		name := filepath.Base(rf)
		u := Unwrap(string(raw))
		opts := DefaultOptions()
		if m := os.Getenv("FLOWMEM_QUALITY_MIN_SEVERITY"); m != "" {
			opts.MinSeverity = m
		}
		a := AnalyzeWith(u.Text, opts)
		verdict := a.Verdict
		if verdict == None {
			verdict = Verdict(u.Verdict)
		}
		s.reviews++
		if string(verdict) == l.Verdict {
			s.verdictOK++
		} else if detail {
			s.detail = append(s.detail, fmt.Sprintf("VERDICT %s: got %q want %q", name, verdict, l.Verdict))
		}
		texts := wholeTexts(t, u.Text, a)
		if Verdict(l.Verdict).Actionable() {
			s.place.review(t, name, u.Text, l, a)
		}
		var kept []Decision
		var keptText []string
		if verdict.Actionable() {
			for i, d := range a.Decisions {
				if d.Keep {
					kept = append(kept, d)
					keptText = append(keptText, texts[i])
				}
			}
		}
		s.kept += len(kept)
		used := make([]bool, len(kept))
		learnable := 0
		for _, lb := range l.Findings {
			s.labels++
			if !lb.Learnable {
				continue
			}
			if !Verdict(l.Verdict).Actionable() {
				// The hook records only change-requesting reviews, so a
				// lesson in an approving review is out of scope for
				// recall; it is counted apart.
				s.shipLearnable++
				continue
			}
			learnable++
			s.learnable++
			anchor := lb.Anchor
			hit := -1
			for i := range kept {
				if !used[i] && AnchorIn(anchor, keptText[i]) {
					hit = i
					break
				}
			}
			if hit < 0 {
				class, reason := missCause(a, texts, anchor, verdict)
				s.causes = append(s.causes, cause{review: name, class: class, reason: reason, detail: fmt.Sprintf("#%d %s", lb.N, lb.Summary)})
				if detail {
					s.detail = append(s.detail, fmt.Sprintf("MISS %s #%d %q: %s", name, lb.N, lb.Anchor, whyMissed(a, texts, anchor)))
				}
				continue
			}
			used[hit] = true
			s.tp++
			if s.confusion == nil {
				s.confusion = map[[2]string]int{}
			}
			s.confusion[[2]string{lb.Category, kept[hit].Category}]++
			if kept[hit].Category == lb.Category {
				s.catOK++
			} else if detail {
				s.detail = append(s.detail, fmt.Sprintf("CATEGORY %s #%d: got %s want %s (%s)", name, lb.N, kept[hit].Category, lb.Category, lb.Summary))
			}
		}
		for i, d := range kept {
			if used[i] {
				continue
			}
			s.fp++
			class := "false keep: labelled not learnable"
			if strings.HasSuffix(labelFor(l, keptText[i]), "matches no label") {
				class = "false keep: matches no label"
			}
			s.causes = append(s.causes, cause{review: name, class: class, reason: reasonClass(d.Reason), detail: clip(d.Finding.Problem)})
			if detail {
				s.detail = append(s.detail, fmt.Sprintf("FALSE KEEP %s: %q (%s)%s", name, clip(d.Finding.Problem), d.Reason, labelFor(l, keptText[i])))
			}
		}
		if verdict.Actionable() {
			k := 0
			for i, d := range a.Decisions {
				r := record{Review: filepath.Base(dir) + "/" + name, Index: i, Count: len(a.Decisions), Reason: d.Reason, Finding: d.Finding, Category: d.Category, Whole: texts[i],
					CodeP: hasCode(d.Finding.Problem), CodeF: hasCode(d.Finding.Fix), NameP: hasAnchor(d.Finding.Problem), NameF: hasAnchor(d.Finding.Fix), NameL: hasAnchor(d.Finding.Location), Title: firstSentence(d.Finding.Problem)}
				if d.Keep {
					lab := labelFor(l, keptText[k])
					switch {
					case used[k]:
						r.Status = "tp"
					case strings.HasSuffix(lab, "matches no label"):
						r.Status = "fp-nolabel"
					case strings.Contains(lab, "learnable=true"):
						r.Status = "fp-dup"
					default:
						r.Status = "fp-no"
					}
					k++
				} else {
					r.Status = "drop-nolabel"
					for _, lb := range l.Findings {
						if AnchorIn(lb.Anchor, texts[i]) {
							r.Status = "drop-no"
							if lb.Learnable {
								r.Status = "miss"
							}
							break
						}
					}
				}
				s.records = append(s.records, r)
			}
		}
		if learnable > 0 && len(kept) == 0 {
			s.zeroYield = append(s.zeroYield, name)
			for i := range s.causes {
				if s.causes[i].review == name {
					s.causes[i].zeroYield = true
				}
			}
		}
	}
	return s
}

// whyMissed says whether a learnable label was never extracted or
// extracted and dropped (and why).
func whyMissed(a Analysis, texts []string, anchor string) string {
	for i, d := range a.Decisions {
		if AnchorIn(anchor, texts[i]) {
			if d.Keep {
				return "kept but the verdict was not actionable"
			}
			return "dropped: " + d.Reason
		}
	}
	return fmt.Sprintf("not extracted (%d findings extracted)", len(a.Findings))
}

// missCause classes a learnable label that no kept finding matched.
func missCause(a Analysis, texts []string, anchor string, v Verdict) (class, reason string) {
	for i, d := range a.Decisions {
		if AnchorIn(anchor, texts[i]) {
			switch {
			case !v.Actionable():
				return "miss: verdict misread", string(v)
			case d.Keep:
				return "miss: kept twice over", d.Reason
			}
			return "miss: dropped", reasonClass(d.Reason)
		}
	}
	if !v.Actionable() {
		return "miss: verdict misread, not extracted", string(v)
	}
	return "miss: not extracted", ""
}

// reasonClass is a decision's reason without the words it quotes.
func reasonClass(r string) string {
	if i := strings.IndexAny(r, "(\":"); i > 0 {
		r = r[:i]
	}
	return strings.TrimSpace(r)
}

func labelFor(l realLabels, txt string) string {
	for _, lb := range l.Findings {
		if AnchorIn(lb.Anchor, txt) {
			return fmt.Sprintf(" — label #%d learnable=%v: %s", lb.N, lb.Learnable, lb.Reason)
		}
	}
	return " — matches no label"
}

func clip(s string) string {
	if len(s) > 90 {
		return s[:90] + "…"
	}
	return s
}

// Gates on the dev split, set to figures that hold on main less a small
// margin (dev is what rules are developed against, so these guard against
// regressions; the issue-14 targets apply to the blind split). At the end
// of round 4: precision 0.753 (113/150), recall 0.689 (113/164), category
// accuracy 0.655 (74/113), verdict accuracy 0.935 (43/46), 1 zero-yield
// review. Round 5 (r5-review7, e3d5225): precision 0.772 (115/149); at
// 8228af7 precision 0.784 (116/148), recall 0.707 (116/164); at 1bf3e40
// (a conceded "correct, but …" is a preference) precision 0.795 (116/146).
// Round 6 (r6-review9, 34773d1): precision 0.791 (117/148), recall 0.713
// (117/164), category 0.667 (78/117; a named language or framework leans
// framework).
//
// Round 7 (r7-review10) measured every rule on all nine splits with
// blind-r5b/r6/r6b pooled as the generalization check (TestQualitySummary)
// and deleted the keep/drop rules whose removal cost that pool nothing and
// the old splits less than a finding, or that helped only the old splits
// while costing the pool; it added a fallback for reviews that keep
// nothing, read per-finding Recommendation/Verdict fields and conditional
// approvals as no call, let a ranked finding naming code imply its fix,
// and read four more finding shapes. blind-r5b/r6/r6b pooled went from
// precision 0.557 (93/167), recall 0.467 (93/199), F1 0.508, 12
// zero-yield reviews to 0.595 (144/242), 0.724, 0.653, 2 zero-yield; the
// old splits pooled from 0.703 (359/511), 0.718 (359/500), F1 0.710 to
// 0.621 (391/630), 0.782, F1 0.692 — the deleted rules had been tuned on
// them (dev alone: precision 0.791 → 0.681, recall 0.713 → 0.793). The
// gates of every split were re-set to those figures less a margin.
// Round 8 (r8-review11) looked at the structure of the false keeps of
// blind-r5b/r6/r6b/r7 pooled (TestQualitySummary's BLIND6789; the per-
// finding records FLOWMEM_QUALITY_DUMP writes) beside the true keeps and
// added four drops the rubric names: a title asking for tests, a title
// whose subject is the change's own docs, a title calling code dead or
// unused, and a short finding (under thinLen bytes) that names no code in
// its problem or place; extraction reads a numbered title with a status
// tag ("[FIXED]") as a finding, a whole bold line over a "Files:" line as
// an item's title, and "Required actions" as fixes. blind-r5b/r6/r6b/r7
// pooled went from precision 0.578 (189/327), recall 0.670 (189/282), F1
// 0.621 to 0.623 (187/300), 0.663, 0.643; the old splits pooled from 0.621
// (391/630), 0.782, F1 0.692 to 0.643 (387/602), 0.774, 0.702; blind-r7
// alone from 0.529 (45/85), 0.542 to 0.554 (46/83), 0.554. Gates re-set
// to the new figures less about 0.03.
// Round 9 (r9-review13) pooled blind-r5b..r8b as BLIND6-11 and counted
// the verdicts misread on all twelve splits (TestQualityVerdicts): 18
// learnable findings lost in 7 change-requesting reviews, 20 findings kept
// from 9 approving ones; none of the classes (a fix report, a high score,
// a round log, another language, no verdict word) recurs often enough for
// a rule. Extraction now keeps a numbered list of bold titles whole when a
// title uses a field's word, reads a lead-in sentence after a bold title as
// prose, reads "Gap 2:" as a finding's number, and cuts pathological
// nesting; a title opening with a requirement id is a one-off. BLIND6-11
// went from precision 0.637 (310/487), recall 0.647, F1 0.642, 6
// zero-yield to 0.639 (317/496), 0.662, 0.650, 5; the old splits pooled
// from 0.644 (393/610), 0.786, F1 0.708 to 0.645 (393/609), 0.786, 0.709.
// Round 9b (r9-review14): blind12+13, scored blind at the end of round 9,
// became NEW-DEV (44 reviews, 151 learnable) — eleven rules kept for raising
// F1 on the older pools had left them exactly where round 8's rules did. A
// rule now stays only if removing it costs F1 on NEW-DEV or BLIND6-11:
// the concession and size-smell drops, the prose fallback and
// markedChildren went. NEW-DEV went from precision 0.492 (95/193), recall
// 0.629, F1 0.552 to 0.497 (97/195), 0.642, 0.561; BLIND6-11 from 0.639
// (317/496), 0.662, 0.650 to 0.637 (320/502), 0.668, 0.652; the old splits
// they were written against from 0.645 (393/609), 0.786, 0.709 to 0.629
// (394/626), 0.788, 0.700. Gates of the moved splits re-set to the figure
// less about 0.03.
// Round 10 (r10-rslimA, extraction): BLIND6-14 (blind6..14, 189 reviews,
// every split scored blind once) judged every extraction unit — shapes,
// special cases, word-list entries — by ablation; a unit went when its
// removal cost BLIND6-14 at most 0.003 F1 and 0.01 precision, recall or
// category, whatever OLD-DEV did. Twelve BLIND-neutral units stay because
// a finding's text or fields go wrong without them in shapes SPEC §4
// names. Extraction's files went from 3,671 to 2,679 lines; with
// r10-rslimB's classify deletions BLIND6-14 went from precision 0.581
// (456/785), recall 0.656, F1 0.616 to 0.579 (466/805), 0.671, 0.621; the
// old splits pooled from 0.626 (394/629), 0.788, 0.698 to 0.549 (329/599),
// 0.658, 0.599. Gates of the moved splits re-set to the figure less about
// 0.03 at each landing.
const (
	gateDevPrecision = 0.65 // was 0.64 — round 10 (r10-rslimA): 0.682 (120/176)
	gateDevRecall    = 0.69 // was 0.70 — round 10 (r10-rslimA): 0.726 (119/164)
	gateDevCategory  = 0.49 // was 0.50 — round 18 (ablate18: word-list entries that did not pay deleted): 0.492 (61/124); was 0.49 — round 15 (capturecat15: a fix that names another file points to how the project does it): 0.504 (64/127)
	gateDevVerdict   = 0.88 // was 0.90 — round 10 (r10-rslimA): 0.913 (42/46)
	gateDevZeroYield = 2    // was 1 — round 10 (r10-rslimA): 2
)

// Gates on the dev-r3 split (round 3's blind set, development data since
// round 4), less the same margin. At the end of round 4: precision 0.688
// (64/93), recall 0.744 (64/86), category accuracy 0.625 (40/64), verdict
// accuracy 0.957 (22/23), no zero-yield review; its blind score is at the
// top of this file. At 1bf3e40 precision 0.727 (64/88). Round 6
// (r6-review9, 34773d1): precision 0.736 (64/87), category 0.609 (39/64).
const (
	gateBlindPrecision = 0.62 // was 0.64 — round 10 (r10-rslimA): 0.656 (63/96)
	gateBlindRecall    = 0.72 // was 0.70 — round 10 (r10-rslimB: unfinished and no-anchor drops deleted): 0.756 (65/86)
	gateBlindCategory  = 0.57 // was 0.55 — round 10 (r10-rslimA): 0.603 (38/63)
	gateBlindVerdict   = 0.91
	gateBlindZeroYield = 0
)

// Gates on the dev-r4 split (round 4's blind set, testdata/review/real/blind2/,
// development data from its one score on): at that score precision 0.378
// (14/37), recall 0.206 (14/68), category accuracy 0.286 (4/14), verdict
// accuracy 0.692 (18/26), 8 zero-yield reviews. Gated at the figures of
// the rules fixed against it since, less a margin. Round 5 (r5-review7,
// e3d5225): precision 0.675 (52/77). A numbered list resumed after
// unindented paragraphs (r5-review6): precision 0.640 (55/86; the six
// more false keeps are design findings of one review, correctly
// extracted, labelled not learnable), recall 0.809 (55/68), verdict 0.962
// (25/26), no zero-yield review. At 8228af7 (pagination is an API
// lesson; a stated rule is no style finding): precision 0.648 (57/88),
// recall 0.838 (57/68), category 0.474 (27/57); at 1bf3e40 precision
// 0.671 (57/85).
const (
	gateR4Precision = 0.32 // was 0.33 — round 10 (r10-rslimA): 0.356 (26/73)
	gateR4Recall    = 0.31 // was 0.35 — round 13 (extract14: a finding placed in a markdown document is about the document; blind2 holds a plan-and-PRD review): 0.338 (23/68), P 0.341 -> 0.365 (23/63); was 0.39 — round 10 (r10-rslimA): 0.382 (26/68)
	gateR4Category  = 0.20 // was 0.27 — round 10 (r10-rslimB: named-framework signal deleted): 0.231 (6/26)
	gateR4Verdict   = 0.81 // was 0.85 — round 10 (r10-rslimA): 0.846 (22/26)
	gateR4ZeroYield = 4    // was 3 — round 10 (r10-rslimA): 4
)

// Gates on the dev-r4b split (testdata/review/real/blind3/: 17 reviews
// from 13 sources, harvested after round 4's first blind score). It was
// blind until scored once by the coordinator at 31a0d3a: precision 0.600
// (27/45), recall 0.500 (27/54), category accuracy 0.593 (16/27), verdict
// accuracy 0.824 (14/17), 5 zero-yield reviews. From round 5 on it is
// development data (SOURCES.md); round 5's blind set is blind5.
// Round 5 (review6): tracker-style ids ("API-R2-003") read as ids and
// nested Recommendation fields no longer read as the verdict gave
// precision 0.611 (33/54), recall 0.611 (33/54), category 0.485 (16/33),
// verdict 0.882 (15/17), 3 zero-yield; the category gate is lowered with
// the found findings whose categories are wrong (a classification matter).
// Then conditional approvals ("approve, with changes requested below") read as
// requests, grades as verdicts: precision 0.614 (35/57), recall 0.648
// (35/54), category 0.486 (17/35), verdict 0.941 (16/17), 2 zero-yield.
// A numbered topic heading that uses a section word ("2. Context
// Population Design") is a finding: precision 0.627 (37/59), recall 0.685
// (37/54), 1 zero-yield. A label naming a list of findings ("**Summary
// of potential issues:**") announces it: verdict 1.000 (17/17).
// Round 6 (r6-review9, 34773d1): category 0.514 (19/37).
const (
	gateR4bPrecision = 0.52 // was 0.59 — round 10 (r10-rslimA): 0.557 (34/61)
	gateR4bRecall    = 0.58 // was 0.61 — round 12: 0.593 (32/54), orders in evidence fields became fixes (one glued review's implied fixes moved); was 0.72 — round 10 (r10-rslimA): 0.648 (35/54)
	gateR4bCategory  = 0.42 // was 0.48 — round 10 (r10-rslimA): 0.457 (16/35)
	gateR4bVerdict   = 0.94 // was 0.97 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.941 (16/17); was 0.91 — round 10 (r10-rslimA): 1.000 (17/17)
	gateR4bZeroYield = 1    // was 0 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 1; was 1 — round 10 (r10-rslimA): 0
)

// Gates on the dev-r4c split (testdata/review/real/blind4/: 16 reviews
// from 14 sources). It was blind until scored once by the coordinator at
// 3b3367b: precision 0.375 (18/48), recall 0.409 (18/44), category
// accuracy 0.278 (5/18), verdict accuracy 0.812 (13/16), 4 zero-yield
// reviews. Development data from round 5 on, like dev-r4b. Round 5: a
// finding that names a place and says nothing about it is no lesson,
// precision 0.429 (18/42) at r5-review7's first landing. Grades read
// as verdicts and empty severity groups as no findings (r5-review6):
// precision 0.556 (20/36), verdict 0.938 (15/16). Numbered titles whose
// bodies sit at the margin own those bodies (r5-review6): precision 0.659
// (27/41), recall 0.614 (27/44), 4 zero-yield; numbered headings beside an
// unnumbered summary are findings: precision 0.622 (28/45), recall 0.636
// (28/44), 3 zero-yield. Round 6 (r6-review9, 34773d1): category 0.357
// (10/28).
const (
	gateR4cPrecision = 0.37 // was 0.53 — round 10 (r10-rslimA): 0.403 (27/67)
	gateR4cRecall    = 0.58 // was 0.67 — round 10 (r10-rslimA): 0.614 (27/44)
	gateR4cCategory  = 0.23 // was 0.26 — round 11 (place11: a bold label closed by a period): 0.259 (7/27)
	gateR4cVerdict   = 0.78 // was 0.90 — round 10 (r10-rslimA): 0.812 (13/16)
	gateR4cZeroYield = 2    // was 3 — round 7 (r7-review10)
)

// Gates on the dev-r5 split (testdata/review/real/blind5/: 23 reviews
// from 16 sources, harvested before any round-5 rule was written). It was
// blind until scored once by the coordinator at 8f4da78: precision 0.524 (43/82), recall 0.512 (43/84),
// category accuracy 0.349 (15/43), verdict accuracy 0.739 (17/23), 4
// zero-yield reviews. Development data from then on (round 5's
// second blind set is blind6); gated at that score less a margin.
const (
	gateR5Precision = 0.46 // was 0.45 — round 10 (r10-rslimA): 0.496 (56/113)
	gateR5Recall    = 0.61 // was 0.69 — round 10 (r10-rslimA): 0.643 (54/84)
	gateR5Category  = 0.34 // was 0.37 — round 10 (r10-rslimA): 0.375 (21/56)
	gateR5Verdict   = 0.86 // was 0.88 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.870 (20/23); was 0.91 — round 10 (r10-rslimA): 0.913 (21/23)
	gateR5ZeroYield = 1    // was 0 — round 10 (r10-rslimA): 1
)

// Gates on the blind-r5b split (testdata/review/real/blind6/: 19 reviews
// from 10 sources new to the project, harvested after blind5's score and
// never opened by the rule writers), scored once by the coordinator at
// 44752fe: precision 0.554 (31/56), recall 0.660 (31/47), category
// accuracy 0.452 (14/31), verdict accuracy 0.789 (15/19), 2 zero-yield
// reviews. Gated at that score less a margin so a regression shows;
// whoever fixes a rule against it must say so in SOURCES.md, and from
// then on it is development data.
const (
	gateR5bPrecision = 0.56 // was 0.55 — round 10 (r10-rslimA): 0.591 (39/66)
	gateR5bRecall    = 0.80 // was 0.78 — round 8b (r8-review12)
	gateR5bCategory  = 0.50 // was 0.49 — round 8b (r8-review12)
	gateR5bVerdict   = 0.78 // was 0.73 — round 7 (r7-review10)
	gateR5bZeroYield = 1    // was 2 — round 7 (r7-review10)
)

// Gates on the blind-r6 split (testdata/review/real/blind7/: 21 reviews
// from 15 repositories new to the project, harvested at the start of round
// 6 before any round-6 rule was written, two annotators, kappa 0.75),
// scored once by the coordinator at 75b3e3f (the last round-6 rules):
// precision 0.544 (31/57), recall 0.365 (31/85), category accuracy 0.452
// (14/31), verdict accuracy 0.905 (19/21), 3 zero-yield reviews. Gated at
// that score less a margin; whoever fixes a rule against it must say so in
// SOURCES.md, and from then on it is development data.
const (
	gateR6Precision = 0.62 // was 0.63 — round 10 (r10-rslimA): 0.659 (60/91)
	gateR6Recall    = 0.67 // was 0.66 — round 10 (r10-rslimA): 0.706 (60/85)
	gateR6Category  = 0.45 // was 0.44 — round 10 (r10-rslimA): 0.483 (29/60)
	gateR6Verdict   = 0.90 // was 0.92 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.905 (19/21); was 0.85 — round 7 (r7-review10)
	gateR6ZeroYield = 1    // was 3 — round 7 (r7-review10)
)

// Gates on the blind-r6b split (testdata/review/real/blind8/: 20 reviews
// from 12 repositories new to the project, harvested after round 6's rules
// were frozen, two annotators, kappa 0.75), scored once by the coordinator
// at 4bd9440 (rules as at 78fbb96): precision 0.564 (31/55), recall 0.463
// (31/67), category accuracy 0.355 (11/31), verdict accuracy 0.850
// (17/20), 7 zero-yield reviews. Gated at that score less a margin;
// whoever fixes a rule against it must say so in SOURCES.md, and from then
// on it is development data.
const (
	gateR6bPrecision = 0.57 // was 0.58 — round 10 (r10-rslimA): 0.606 (43/71)
	gateR6bRecall    = 0.56 // was 0.61 — round 20 (precision20: fallback keeps one finding, not three): 0.567 (38/67); was 0.62 — round 10 (r10-rslimA): 0.642 (43/67)
	gateR6bCategory  = 0.46 // was 0.41 — round 15 (capturecat15: a capitals-named markdown file is a project guide): 0.467 (21/45)
	gateR6bVerdict   = 0.89 // was 0.92 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.900 (18/20); was 0.80 — round 7 (r7-review10)
	gateR6bZeroYield = 1    // was 0 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 1; was 7 — round 7 (r7-review10)
)

// Gates on the blind-r7 split (testdata/review/real/blind9/: 20 reviews
// from 18 repositories new to the project, harvested at the start of round
// 7 before any round-7 rule was written, two annotators, kappa 0.76),
// scored once by the coordinator at f87d253 (round 7's rules frozen):
// precision 0.529 (45/85), recall 0.542 (45/83), category accuracy 0.289
// (13/45), verdict accuracy 0.800 (16/20), 2 zero-yield reviews — with
// titleIn matching anchors copied from title lines; before it the same
// run read 0.106 / 0.108 (SOURCES.md). Gated at that score less a margin;
// whoever fixes a rule against it must say so in SOURCES.md, and from then
// on it is development data. Round 8 (r8-review11) does, pooling it with
// blind-r5b/r6/r6b as the generalization check.
const (
	gateR7Precision = 0.58 // was 0.60 — round 11 (place11: a labelled order is the fix): 0.607 (51/84)
	gateR7Recall    = 0.57 // was 0.53 — round 10 (r10-rslimA): 0.602 (50/83)
	gateR7Category  = 0.26 // was 0.27 — round 16 (cjk16: full-width forms read as ASCII and CJK words for the same roles; recall +28 learnable findings over the pools, with more findings kept in the reviews it now reads): 0.260 (13/50); was 0.17 — round 15 (capturecat15: a capitals-named markdown file is a project guide): 0.280 (14/50)
	gateR7Verdict   = 0.75
	gateR7ZeroYield = 2
)

// Gates on the blind-r8 split (testdata/review/real/blind10/: 24 reviews
// from 22 repositories new to the project, harvested at the start of round
// 8 before any round-8 rule landed, two annotators, kappa 0.75), scored
// once by the coordinator at ee01163 (round 8's rules frozen): precision
// 0.500 (57/114), recall 0.528 (57/108), category accuracy 0.439 (25/57),
// verdict accuracy 0.917 (22/24), no zero-yield review. Round 7's rules
// (d5d51d8) on the same set: 0.461 (59/128), 0.546, 0.458, 0.917, 0.
// Gated at the first score less a margin. Development data since round
// 8's second cycle (r8-review12 fixed rules against it: box-drawn tables,
// id-numbered sub-headings under a bare group heading, file:line places
// implying a fix, bracketed [WARNING]/[INFO]); its gates follow the
// figures on main less about 0.03: 0.598 (76/127), 0.704, 0.447.
const (
	gateR8Precision = 0.54 // was 0.55 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.542 (71/131); was 0.56 — round 21 (simplify21: titles calling code dead or unused and titles asking for tests no longer drop a finding): 0.552 (69/125); was 0.59 — round 10 (r10-rslimA): 0.598 (79/132)
	gateR8Recall    = 0.63 // was 0.64 — round 20 (precision20: fallback keeps one finding, not three): 0.639 (69/108); was 0.70 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.648 (70/108); was 0.71 — round 10 (r10-rslimA): 0.731 (79/108)
	gateR8Category  = 0.43 // was 0.45 — round 10 (r10-rslimA): 0.468 (37/79)
	gateR8Verdict   = 0.88
	gateR8ZeroYield = 0
)

// Gates on the blind-r8b split (testdata/review/real/blind11/: 20 reviews
// from 15 repositories new to the project, harvested in round 8's second
// cycle before review12 wrote a rule, two annotators, kappa 0.82), scored
// once by the coordinator at 0f9bc7c (review12 frozen): precision 0.708
// (46/65), recall 0.517 (46/89), category accuracy 0.413 (19/46), verdict
// accuracy 0.750 (15/20), 2 zero-yield reviews. Round 7's rules (d5d51d8)
// on the same set: 0.681 (47/69), 0.528, 0.383, 0.750, 2. Gated at the
// first score less a margin; a rule fixed against it makes it development
// data, and the commit must say so. Development data since round 9
// (r9-review13 fixed extraction against it: a numbered list of bold titles
// one of which uses a field's word, a lead-in sentence after a bold title);
// its gates follow the figures on main less about 0.03: 0.735 (50/68),
// 0.562, 0.400, 0.800, 1.
const (
	gateR8bPrecision = 0.66 // was 0.67 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.667 (58/87); was 0.73 — round 10 (r10-rslimA): 0.709 (56/79)
	gateR8bRecall    = 0.59 // was 0.54 — round 10 (r10-rslimA): 0.629 (56/89)
	gateR8bCategory  = 0.44 // was 0.45 — round 21 (simplify21: titles calling code dead or unused and titles asking for tests no longer drop a finding): 0.441 (26/59); was 0.46 — round 20 (precision20: a repeat of a kept finding is dropped): 0.456 (26/57); was 0.47 — round 18 (ablate18: word-list entries that did not pay deleted): 0.466 (27/58); was 0.30 — round 15 (capturecat15: a fix that names another file points to how the project does it): 0.474 (27/57)
	gateR8bVerdict   = 0.82 // was 0.77 — round 10 (r10-rslimA): 0.850 (17/20)
	gateR8bZeroYield = 1    // was 2 — round 9 (r9-review13)
)

// Gates on the blind-r9 split (testdata/review/real/blind12/: 21 reviews
// from 20 repositories new to the project, harvested at the start of round
// 9 before any round-9 rule landed, two annotators, kappa 0.77), scored
// once by the coordinator at a649d1e (review13 frozen): precision 0.545
// (48/88), recall 0.676 (48/71), category accuracy 0.375 (18/48), verdict
// accuracy 0.952 (20/21), no zero-yield review. Round 8's rules (cffd793)
// score exactly the same: no round-9 rule change moved a fresh review.
// Gated at the first score less a margin.
const (
	gateR9Precision = 0.54 // was 0.53 — round 10 (r10-rslimA): 0.576 (49/85)
	gateR9Recall    = 0.61 // was 0.63 — round 20 (precision20: a repeat of a kept finding is dropped): 0.620 (44/71); was 0.64 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.634 (45/71); was 0.66 — round 10 (r10-rslimA): 0.676 (48/71)
	gateR9Category  = 0.36 // was 0.35 — round 10 (r10-rslimA): 0.396 (19/48)
	gateR9Verdict   = 0.90
	gateR9ZeroYield = 0
)

// Gates on the blind-r9b split (testdata/review/real/blind13/: 23 reviews
// from 20 other new repositories, harvested in round 9 while review13
// worked and never opened by it, two annotators, kappa 0.78), scored once
// at a649d1e: precision 0.448
// (47/105), recall 0.588 (47/80), category accuracy 0.340 (16/47), verdict
// accuracy 0.870 (20/23), 2 zero-yield reviews; round 8's rules the same.
const (
	gateR9bPrecision = 0.46 // was 0.43 — round 10 (r10-rslimA): 0.490 (51/104)
	gateR9bRecall    = 0.62 // was 0.60 — round 10 (r10-rslimA): 0.650 (52/80)
	gateR9bCategory  = 0.40 // was 0.41 — round 16 (cjk16: full-width forms read as ASCII and CJK words for the same roles; recall +28 learnable findings over the pools, with more findings kept in the reviews it now reads): 0.400 (22/55, recall 50 -> 55); was 0.40 — round 10 (r10-rslimA): 0.442 (23/52)
	gateR9bVerdict   = 0.82
	gateR9bZeroYield = 2
)

// Gates on the blind-r9c split (testdata/review/real/blind14/: 21 reviews
// from 21 repositories new to the project, harvested in round 9's second
// cycle while review14 deleted rules against blind12/13 and never opened
// by it, two annotators, kappa 0.75), scored once at 9423d57 (review14
// frozen): precision 0.443 (39/88), recall 0.600 (39/65), category
// accuracy 0.282 (11/39), verdict accuracy 0.762 (16/21), 2 zero-yield
// reviews. Round 8's rules and review13's (cffd793, a649d1e): 0.462
// (36/78), 0.554, 0.306, 0.762, 2.
const (
	gateR9cPrecision = 0.38 // was 0.39 — round 10 (r10-rslimA): 0.419 (39/93)
	gateR9cRecall    = 0.57
	gateR9cCategory  = 0.25 // was 0.26 — round 16 (cjk16: full-width forms read as ASCII and CJK words for the same roles; recall +28 learnable findings over the pools, with more findings kept in the reviews it now reads): 0.250 (11/44, recall 42 -> 44); was 0.19 — round 15 (capturecat15: a capitals-named markdown file is a project guide): 0.262 (11/42)
	gateR9cVerdict   = 0.72
	gateR9cZeroYield = 2
)

// blind-r10 (blind15: 22 reviews from 21 repositories, 79 learnable in
// change-requesting reviews) and blind-r10b (blind16: 24 reviews from 24
// repositories, 116 learnable) were harvested at the start of round 10,
// before any round-10 rule change was scored on them, labelled twice
// (kappa 0.74 and 0.82), and scored once after the round's deletions froze
// (8957453; internal/review 5,391 -> 3,924 non-test lines). First scores:
// blind15 P 0.402 (33/82), R 0.418, category 0.455, verdict 0.818, zero 1;
// blind16 P 0.479 (69/144), R 0.595, category 0.333, verdict 0.917, zero 2.
// Round 9's rules (6b65cfc) on them: blind15 0.405 (32/79), 0.405, 0.469,
// 0.818, 1; blind16 0.482 (67/139), 0.578, 0.388, 0.917, 2. Development
// data from then on.
const (
	gateR10Precision  = 0.37
	gateR10Recall     = 0.38
	gateR10Category   = 0.34 // was 0.37 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.347 (17/49); was 0.41 — round 16 (cjk16: full-width forms read as ASCII and CJK words for the same roles; recall +28 learnable findings over the pools, with more findings kept in the reviews it now reads): 0.375 (18/48, recall 41 -> 48); was 0.38 — round 15 (capturecat15: a fix that names another file points to how the project does it): 0.415 (17/41)
	gateR10Verdict    = 0.79
	gateR10ZeroYield  = 1
	gateR10bPrecision = 0.45
	gateR10bRecall    = 0.56
	gateR10bCategory  = 0.30
	gateR10bVerdict   = 0.89
	gateR10bZeroYield = 2
)

// blind-r11 (blind17: 21 reviews from 19 repositories, 78 learnable in
// change-requesting reviews) and blind-r11b (blind18: 20 reviews from 16
// repositories, 47 learnable) were harvested at the start of round 11,
// before any round-11 rule change was scored on them, labelled twice
// (kappa 0.85 and 0.84), and scored once after the round's extraction and
// judgement work froze (2a66673). First scores: blind17 P 0.423 (41/97),
// R 0.526, category 0.366, verdict 0.857, zero 0; blind18 P 0.472 (25/53),
// R 0.532, category 0.400, verdict 0.900, zero 2. Round 10's rules
// (4bd6282) on them: blind17 0.427 (41/96), 0.526, 0.341, 0.857, 0;
// blind18 0.481 (25/52), 0.532, 0.440, 0.900, 2. Development data from
// then on.
const (
	gateR11Precision  = 0.39
	gateR11Recall     = 0.49
	gateR11Category   = 0.30 // was 0.33 — round 18 (ablate18: word-list entries that did not pay deleted): 0.310 (13/42)
	gateR11Verdict    = 0.82
	gateR11ZeroYield  = 0
	gateR11bPrecision = 0.44
	gateR11bRecall    = 0.50
	gateR11bCategory  = 0.36
	gateR11bVerdict   = 0.87
	gateR11bZeroYield = 2
)

// blind-r12 (blind19: 10 reviews from 7 repositories, 21 learnable of 133
// findings, one annotator; harvested in round 12 after an API outage cost
// the round an hour, so smaller than planned and without approving
// reviews) was scored once after the round's rule changes froze (86c7c67):
// P 0.224 (13/58), R 0.619 (13/21), category 0.154 (2/13), verdict 0.900,
// zero 0. Round 11's rules (c724764) on it: P 0.232 (13/56), the rest the
// same. Development data from then on. Round 17: outline ids with a
// letter ("### 1A.") split a numbered topic into its findings: R 13 -> 15
// of 21, P 0.228 -> 0.250, category 2/13 -> 2/15 (gate 0.15 -> 0.13).
const (
	gateR12Precision = 0.20
	gateR12Recall    = 0.57
	gateR12Category  = 0.13
	gateR12Verdict   = 0.89
	gateR12ZeroYield = 0
)

// blind-r12b (blind21: 14 reviews from 14 repositories, 11 asking for
// changes with 53 learnable findings, 3 approving; one annotator;
// harvested in round 12 after the outage) was scored once after the
// round's rule changes froze (6de40ea): P 0.545 (30/55), R 0.566 (30/53),
// category 0.267 (8/30), verdict 0.786, zero 2. Round 11's rules (c724764)
// on it: the same in every figure. Development data from then on.
const (
	gateR12bPrecision = 0.51
	gateR12bRecall    = 0.47 // was 0.50 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.472 (25/53); was 0.53 — round 13 (extract14: a finding placed in a markdown document is about the document): 0.528 (28/53), P 0.545 -> 0.583 (28/48)
	gateR12bCategory  = 0.32 // was 0.23 — round 15 (capturecat15: a capitals-named markdown file is a project guide): 0.321 (9/28)
	gateR12bVerdict   = 0.78
	gateR12bZeroYield = 4 // was 3 — round 18 (ablate18: word-list entries that did not pay deleted): 4; was 2 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 3
)

// blind-r12c (blind20: 9 reviews from 9 repositories, 48 learnable of 168
// findings, all asking for changes; one annotator; harvested in round 12
// after the outage) was scored once at the round's end (8767a2a): P 0.297
// (19/64), R 0.396 (19/48), category 0.632 (12/19), verdict 0.889, zero 1.
// Round 11's rules (c724764) on it: P 0.302 (19/63), the rest the same.
// Development data from then on.
const (
	gateR12cPrecision = 0.27
	gateR12cRecall    = 0.37
	gateR12cCategory  = 0.51 // was 0.53 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.517 (15/29); was 0.58 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.536 (15/28)
	gateR12cVerdict   = 0.88
	gateR12cZeroYield = 1
)

// blind-r13 (blind22: 17 reviews from 16 repositories, 14 asking for
// changes with 96 learnable findings, 3 approving; two annotators, who
// agree on learnable for 299 of 325 findings, kappa 0.815), harvested in
// round 13 before any rule of the round was written, was scored once at
// the round's end (3691705): P 0.500 (35/70), R 0.365 (35/96), category
// 0.371 (13/35), verdict 0.882, zero 3. Round 12's rules (c5eba89) on it:
// P 0.500 (36/72), R 0.375 (36/96), category 0.361 (13/36), the rest the
// same. Development data from then on. Round 14 (extract15): a checkbox
// before a heading's id and id- or severity-tagged items under a topic
// heading split what was one finding: P 0.509 (55/108), R 0.573 (55/96),
// category 0.382 (21/55); a verdict chosen by ticking one of its options:
// R 0.583 (56/96), verdict 0.941, zero 2; a cross-reference item among
// tagged ones: P 0.504 (58/115), R 0.604 (58/96), category 0.379; a JSON
// finding's "detail": P 0.513 (59/115), R 0.615 (59/96), category 0.390;
// a title ending in the call: P 0.522 (59/113), verdict 1.000; a table's
// Risk column as evidence: P 0.531 (60/113), R 0.625 (60/96), category
// 0.400; a numbered heading named by its kind of finding: P 0.535
// (61/114), R 0.635 (61/96), category 0.410, zero 1.
const (
	gateR13Precision = 0.49 // was 0.50 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.496 (60/121); was 0.51 — round 16 (cjk16: full-width forms read as ASCII and CJK words for the same roles; recall +28 learnable findings over the pools, with more findings kept in the reviews it now reads): 0.500 (61/122; two Chinese reviews now give 8 more findings, none learnable)
	gateR13Recall    = 0.60 // was 0.61 — round 20 (precision20: a minor one-line remark without a fix implies none): 0.604 (58/96); was 0.62 — round 20 (precision20: fallback keeps one finding, not three): 0.615 (59/96)
	gateR13Category  = 0.38 // was 0.39 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.390 (23/59)
	gateR13Verdict   = 0.88 // was 0.99 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.882 (15/17)
	gateR13ZeroYield = 2    // was 1 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 2
)

// blind-r13b (blind23: 18 reviews from 16 repositories, 13 asking for
// changes with 56 learnable findings, 5 approving; two annotators, 200 of
// 215 agree, kappa 0.831), harvested in round 13 like blind-r13, was
// scored once at the round's end (3691705): P 0.419 (26/62), R 0.464
// (26/56), category 0.231 (6/26), verdict 0.722, zero 3. Round 12's rules
// (c5eba89) on it: the same in every figure. Development data from then on.
// Round 14 (extract15): a tool's findings document ranked by diagnostic
// level ("error", "warning"): P 0.415 (27/65), R 0.482 (27/56), category
// 0.259, verdict 0.778, zero 2.
const (
	gateR13bPrecision = 0.39
	gateR13bRecall    = 0.46
	gateR13bCategory  = 0.25 // was 0.29 — round 18 (ablate18: rules that did not pay over every labelled set deleted): 0.257 (9/35); was 0.23 — round 15 (capturecat15: a fix that names another file points to how the project does it): 0.296 (8/27)
	gateR13bVerdict   = 0.77
	gateR13bZeroYield = 2
)

// blind-r14 (blind24: 18 reviews from 17 repositories, 61 learnable in
// change-requesting reviews; a2 55, kappa 0.731) and blind-r14b (blind25:
// 17 reviews from 16 repositories, 58 learnable; a2 60, kappa 0.855):
// round 14's blind sets, harvested before any of its rules, scored once
// at its end. Round 13's rules (a3ecdb1) and round 14's (eight layout and
// verdict rules written on blind22) score them the same: blind24 P 0.320
// (24/75), R 0.393 (24/61), category 0.458 (11/24), verdict 0.889, zero
// 1; blind25 P 0.450 (36/80), R 0.621 (36/58), category 0.250 (9/36),
// verdict 0.882, zero 2. Development data from then on.
const (
	gateR14Precision = 0.30
	gateR14Recall    = 0.37
	gateR14Category  = 0.43
	gateR14Verdict   = 0.88
	gateR14ZeroYield = 1
)

const (
	gateR14bPrecision = 0.43
	gateR14bRecall    = 0.60
	gateR14bCategory  = 0.23
	gateR14bVerdict   = 0.88
	gateR14bZeroYield = 2
)

// blind-r15 (blind26: 17 reviews from 17 repositories, 62 learnable in
// change-requesting reviews; a2 50, kappa 0.703): round 15's blind set,
// harvested before any of its rules, scored once at its end. Round 14's
// rules (56f68c7) and round 15's (two category signals) score it the same
// but for one false keep: P 0.328 (21/64; 21/65 with round 14's), R 0.339
// (21/62), category 0.238 (5/21), verdict 0.882, zero 1. Development
// data from then on. (Round 15's second set, blind27, was deleted: its
// nine reviews were copies of reviews already in dev/ and blind5..21.)
const (
	gateR15Precision = 0.32
	gateR15Recall    = 0.33
	gateR15Category  = 0.23
	gateR15Verdict   = 0.88
	gateR15ZeroYield = 1
)

// blind-r16 (blind31: 3 reviews from 3 repositories, 40 learnable of 84
// findings, harvested and labelled by the coordinator after round 16's
// rules had landed, one annotator): first score, once, at round 16's end —
// the same with round 15's code.
const (
	gateR16Precision = 0.66 // was 0.70 — round 21 (simplify21: titles calling code dead or unused and titles asking for tests no longer drop a finding): 0.667 (40/60); 0.702 (40/57)
	gateR16Recall    = 1.00 // 1.000 (40/40)
	gateR16Category  = 0.75 // 0.750 (30/40)
	gateR16Verdict   = 1.00 // 3/3
	gateR16ZeroYield = 0
)

// blind-r16b (blind30: 2 reviews from 2 repositories, harvested blind by
// harvest33 after round 16's rules had landed — one Chinese change request
// with 22 learnable findings, one approval): first score, once, at round
// 16's end; round 15's code: the same but category 0.238 (5/21).
const (
	gateR16bPrecision = 0.56 // 0.568 (21/37)
	gateR16bRecall    = 0.95 // 0.955 (21/22)
	gateR16bCategory  = 0.19 // 0.190 (4/21)
	gateR16bVerdict   = 1.00 // 2/2
	gateR16bZeroYield = 0
)

// blind-r17 (blind32: 15 reviews from 14 repositories, harvest34),
// blind-r17b (blind33: 15 from 14, harvest35) and blind-r17c (blind34: 10
// from 7, harvest36), round 17's blind sets: harvested while the round's
// two title rules (f866492, 8aa96a0) were written and after the capture
// code froze (blind34), never opened by a rule writer, scored once at the
// round's end. Round 16's code (336bc6a) gives the same figures on all
// three. Two annotators on blind32 (kappa 0.841) and blind33 (0.748).
const (
	gateR17Precision = 0.65 // 0.657 (44/67)
	gateR17Recall    = 0.61 // was 0.62 — round 20 (precision20: fallback keeps one finding, not three): 0.614 (43/70); 0.629 (44/70)
	gateR17Category  = 0.45 // was 0.47 — round 18 (ablate18: word-list entries that did not pay deleted): 0.455 (20/44); 0.477 (21/44)
	gateR17Verdict   = 0.86 // 13/15
	gateR17ZeroYield = 1
)

const (
	gateR17bPrecision = 0.60 // 0.607 (54/89)
	gateR17bRecall    = 0.56 // 0.562 (54/96)
	gateR17bCategory  = 0.35 // was 0.37 — round 21 (simplify21: with category21's df81707, docPlace's deletion keeps 5 more blind33 findings, mostly filed edge-case): 0.356 (21/59); was 0.38 — round 21 (category21: framework names, import, UI file): 0.370 (20/54); 0.389 (21/54)
	gateR17bVerdict   = 0.80 // 12/15
	gateR17bZeroYield = 1
)

const (
	gateR17cPrecision = 0.48 // 0.481 (25/52)
	gateR17cRecall    = 0.55 // 0.556 (25/45)
	gateR17cCategory  = 0.40 // was 0.44 — round 18 (ablate18: word-list entries that did not pay deleted): 0.400 (10/25); 0.440 (11/25)
	gateR17cVerdict   = 0.90 // 9/10
	gateR17cZeroYield = 1
)

// blind-r18 (blind35: 17 reviews from 17 repositories, harvest37) and
// blind-r18b (blind36: 15 from 12, harvest38), round 18's blind sets:
// harvested from repositories no earlier set used, checked byte for byte
// against their sources, never opened by a rule writer, scored once at the
// round's end. Round 17's code (f27a243) gives the same precision and
// recall on blind35 (category 0.588) and 43/77, 43/81, category 0.279 on
// blind36. Two annotators on each (kappa 0.720, 0.674).
const (
	gateR18Precision = 0.67 // 0.671 (51/76)
	gateR18Recall    = 0.55 // 0.554 (51/92)
	gateR18Category  = 0.60 // was 0.62 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.604 (32/53); 0.627 (32/51)
	gateR18Verdict   = 0.94 // 16/17
	gateR18ZeroYield = 0
)

const (
	gateR18bPrecision = 0.53 // was 0.55 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.536 (45/84); 0.553 (42/76)
	gateR18bRecall    = 0.51 // 0.519 (42/81)
	gateR18bCategory  = 0.22 // was 0.23 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.222 (10/45); 0.238 (10/42)
	gateR18bVerdict   = 0.86 // 13/15
	gateR18bZeroYield = 1
)

// blind-r19 (blind37: 13 reviews from 12 repositories, harvest39) and
// blind-r19b (blind38: 15 from 14, harvest40), round 19's blind sets:
// harvested from repositories no earlier set used, checked against their
// sources (20 byte for byte, 8 through the file index), never opened by a
// rule writer, scored once at the round's end. Round 18's code (6c29380)
// gives the same figures on both. Two annotators on each (kappa 0.841,
// 0.861).
const (
	gateR19Precision = 0.41 // 0.419 (39/93)
	gateR19Recall    = 0.72 // 0.722 (39/54)
	gateR19Category  = 0.30 // 0.308 (12/39)
	gateR19Verdict   = 0.84 // 11/13
	gateR19ZeroYield = 0
)

const (
	gateR19bPrecision = 0.38 // 0.385 (40/104)
	gateR19bRecall    = 0.67 // 0.678 (40/59)
	gateR19bCategory  = 0.29 // was 0.30 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.293 (12/41); 0.300 (12/40)
	gateR19bVerdict   = 0.86 // 13/15
	gateR19bZeroYield = 0
)

// blind-r20 (blind39: 22 reviews from 18 repositories, harvest41 and
// harvest43) and blind-r20b (blind40: 12 from 10, harvest42), round 20's
// blind sets: harvested from repositories no earlier set used, checked
// against their sources (33 byte for byte through git, 1 through the file
// index), never opened by a rule writer, scored once at the round's end.
// Two annotators on each (kappa 0.787, 0.795). Round 19's code (b413c45)
// gives blind39 P 0.451 (51/113) R 0.408 and blind40 the same figures:
// round 20's precision rules kept 14 fewer findings of blind39 and lost 5
// learnable ones. Round 21 moved the anchors of one review's 36 findings
// from its summary table to the sections the hook records (P 0.465 ->
// 0.687, R 0.368 -> 0.544); the 22 findings matched since then carry the
// rules' category, so category accuracy fell with no change of code.
const (
	gateR20Precision = 0.46 // 0.465 (46/99); 0.687 (68/99) since anchors21
	gateR20Recall    = 0.36 // 0.368 (46/125); 0.544 (68/125) since anchors21
	gateR20Category  = 0.45 // 0.456 (31/68); 0.500 (23/46) before anchors21
	gateR20Verdict   = 0.86 // 19/22
	gateR20ZeroYield = 3
)

const (
	gateR20bPrecision = 0.52 // was 0.53 — round 21 (simplify21: titles calling code dead or unused and titles asking for tests no longer drop a finding): 0.522 (24/46); 0.533 (24/45)
	gateR20bRecall    = 0.57 // 0.571 (24/42)
	gateR20bCategory  = 0.37 // was 0.41 — round 21 (simplify21: a place in a markdown document no longer drops a finding): 0.370 (10/27); 0.417 (10/24)
	gateR20bVerdict   = 0.75 // 9/12
	gateR20bZeroYield = 1
)

// blind-r21 (blind41: 14 reviews from 11 repositories, harvest44) and
// blind-r21b (blind42: 14 from 12, harvest45), round 21's blind sets:
// harvested from repositories no earlier set used, checked against their
// sources (28 byte for byte through git), never opened by a rule writer,
// scored once at the round's end. Two annotators on each (kappa 0.865,
// 0.754). Round 20's code (f44c377) gives blind41 P 0.557 (34/61) R 0.576
// cat 0.353 and blind42 P 0.590 (23/39) R 0.397 cat 0.522: round 21's
// deletions (simplify21) and category signals (category21) kept 12 more
// findings of blind42, 8 of them learnable.
const (
	gateR21Precision = 0.56 // 0.565 (35/62)
	gateR21Recall    = 0.59 // 0.593 (35/59)
	gateR21Category  = 0.37 // 0.371 (13/35)
	gateR21Verdict   = 0.85 // 12/14
	gateR21ZeroYield = 2
)

// blind-r22 (blind43: 14 reviews from 14 repositories, harvest46) and
// blind-r22b (blind44: 15 from 12, harvest47), round 22's blind sets:
// harvested from repositories no earlier set used, never opened by a rule
// writer, scored once at the round's end (kappa 0.780, 0.842). The rules
// did not change this round, so round 21's code (913d3ac) gives the same.
const (
	gateR22Precision  = 0.54 // 0.547 (58/106)
	gateR22Recall     = 0.71 // 0.716 (58/81)
	gateR22Category   = 0.43 // 0.431 (25/58)
	gateR22Verdict    = 0.92 // 13/14
	gateR22ZeroYield  = 0
	gateR22bPrecision = 0.40 // 0.410 (25/61)
	gateR22bRecall    = 0.42 // 0.424 (25/59)
	gateR22bCategory  = 0.40 // 0.400 (10/25)
	gateR22bVerdict   = 0.86 // 13/15
	gateR22bZeroYield = 2
)

// blind-r23 (blind45: 18 reviews from 12 repositories, harvest48) and
// blind-r23b (blind46: 19 from 18, harvest49), round 23's blind sets:
// harvested from repositories no earlier set used, never opened by a rule
// writer, scored once at the round's end (kappa 0.810, 0.760). Round 23's
// rule changes (PR web-page comments, a fenced review, two-sense stems,
// 'Please' + an order word) found nothing to change here: round 22's code
// (cd18c6a) gives the same figures.
const (
	gateR23Precision  = 0.48 // 0.480 (36/75)
	gateR23Recall     = 0.69 // 0.692 (36/52)
	gateR23Category   = 0.47 // 0.472 (17/36)
	gateR23Verdict    = 0.88 // 16/18
	gateR23ZeroYield  = 2
	gateR23bPrecision = 0.34 // 0.345 (41/119)
	gateR23bRecall    = 0.73 // 0.732 (41/56)
	gateR23bCategory  = 0.48 // 0.488 (20/41)
	gateR23bVerdict   = 0.84 // 16/19
	gateR23bZeroYield = 2
)

const (
	gateR21bPrecision = 0.61 // was 0.62 — round 23 (687fe93: 'Please' + an order word is a fix): 0.618 (34/55), recall 0.569 -> 0.586, F1 0.595 -> 0.601; 0.620 (31/50)
	gateR21bRecall    = 0.53 // 0.534 (31/58)
	gateR21bCategory  = 0.41 // 0.419 (13/31)
	gateR21bVerdict   = 0.64 // 9/14
	gateR21bZeroYield = 3
)

// gates are one split's minimum figures.
type gates struct {
	precision, recall, category, verdict float64
	zeroYield                            int
}

func TestQualityRealReviews(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "review", "real")
	detail := os.Getenv("FLOWMEM_QUALITY_DETAIL") == "1"
	splits := []struct {
		name, dir string
		gate      gates
	}{
		{"dev", "dev", gates{gateDevPrecision, gateDevRecall, gateDevCategory, gateDevVerdict, gateDevZeroYield}},
		{"dev-r3", "blind", gates{gateBlindPrecision, gateBlindRecall, gateBlindCategory, gateBlindVerdict, gateBlindZeroYield}},
		{"dev-r4", "blind2", gates{gateR4Precision, gateR4Recall, gateR4Category, gateR4Verdict, gateR4ZeroYield}},
		{"dev-r4b", "blind3", gates{gateR4bPrecision, gateR4bRecall, gateR4bCategory, gateR4bVerdict, gateR4bZeroYield}},
		{"dev-r4c", "blind4", gates{gateR4cPrecision, gateR4cRecall, gateR4cCategory, gateR4cVerdict, gateR4cZeroYield}},
		{"dev-r5", "blind5", gates{gateR5Precision, gateR5Recall, gateR5Category, gateR5Verdict, gateR5ZeroYield}},
		{"blind-r5b", "blind6", gates{gateR5bPrecision, gateR5bRecall, gateR5bCategory, gateR5bVerdict, gateR5bZeroYield}},
		{"blind-r6", "blind7", gates{gateR6Precision, gateR6Recall, gateR6Category, gateR6Verdict, gateR6ZeroYield}},
		{"blind-r6b", "blind8", gates{gateR6bPrecision, gateR6bRecall, gateR6bCategory, gateR6bVerdict, gateR6bZeroYield}},
		{"blind-r7", "blind9", gates{gateR7Precision, gateR7Recall, gateR7Category, gateR7Verdict, gateR7ZeroYield}},
		{"blind-r8", "blind10", gates{gateR8Precision, gateR8Recall, gateR8Category, gateR8Verdict, gateR8ZeroYield}},
		{"blind-r8b", "blind11", gates{gateR8bPrecision, gateR8bRecall, gateR8bCategory, gateR8bVerdict, gateR8bZeroYield}},
		{"blind-r9", "blind12", gates{gateR9Precision, gateR9Recall, gateR9Category, gateR9Verdict, gateR9ZeroYield}},
		{"blind-r9b", "blind13", gates{gateR9bPrecision, gateR9bRecall, gateR9bCategory, gateR9bVerdict, gateR9bZeroYield}},
		{"blind-r9c", "blind14", gates{gateR9cPrecision, gateR9cRecall, gateR9cCategory, gateR9cVerdict, gateR9cZeroYield}},
		{"blind-r10", "blind15", gates{gateR10Precision, gateR10Recall, gateR10Category, gateR10Verdict, gateR10ZeroYield}},
		{"blind-r10b", "blind16", gates{gateR10bPrecision, gateR10bRecall, gateR10bCategory, gateR10bVerdict, gateR10bZeroYield}},
		{"blind-r11", "blind17", gates{gateR11Precision, gateR11Recall, gateR11Category, gateR11Verdict, gateR11ZeroYield}},
		{"blind-r11b", "blind18", gates{gateR11bPrecision, gateR11bRecall, gateR11bCategory, gateR11bVerdict, gateR11bZeroYield}},
		{"blind-r12", "blind19", gates{gateR12Precision, gateR12Recall, gateR12Category, gateR12Verdict, gateR12ZeroYield}},
		{"blind-r12b", "blind21", gates{gateR12bPrecision, gateR12bRecall, gateR12bCategory, gateR12bVerdict, gateR12bZeroYield}},
		{"blind-r12c", "blind20", gates{gateR12cPrecision, gateR12cRecall, gateR12cCategory, gateR12cVerdict, gateR12cZeroYield}},
		{"blind-r13", "blind22", gates{gateR13Precision, gateR13Recall, gateR13Category, gateR13Verdict, gateR13ZeroYield}},
		{"blind-r13b", "blind23", gates{gateR13bPrecision, gateR13bRecall, gateR13bCategory, gateR13bVerdict, gateR13bZeroYield}},
		{"blind-r14", "blind24", gates{gateR14Precision, gateR14Recall, gateR14Category, gateR14Verdict, gateR14ZeroYield}},
		{"blind-r14b", "blind25", gates{gateR14bPrecision, gateR14bRecall, gateR14bCategory, gateR14bVerdict, gateR14bZeroYield}},
		{"blind-r15", "blind26", gates{gateR15Precision, gateR15Recall, gateR15Category, gateR15Verdict, gateR15ZeroYield}},
		{"blind-r16", "blind31", gates{gateR16Precision, gateR16Recall, gateR16Category, gateR16Verdict, gateR16ZeroYield}},
		{"blind-r16b", "blind30", gates{gateR16bPrecision, gateR16bRecall, gateR16bCategory, gateR16bVerdict, gateR16bZeroYield}},
		{"blind-r17", "blind32", gates{gateR17Precision, gateR17Recall, gateR17Category, gateR17Verdict, gateR17ZeroYield}},
		{"blind-r17b", "blind33", gates{gateR17bPrecision, gateR17bRecall, gateR17bCategory, gateR17bVerdict, gateR17bZeroYield}},
		{"blind-r17c", "blind34", gates{gateR17cPrecision, gateR17cRecall, gateR17cCategory, gateR17cVerdict, gateR17cZeroYield}},
		{"blind-r18", "blind35", gates{gateR18Precision, gateR18Recall, gateR18Category, gateR18Verdict, gateR18ZeroYield}},
		{"blind-r18b", "blind36", gates{gateR18bPrecision, gateR18bRecall, gateR18bCategory, gateR18bVerdict, gateR18bZeroYield}},
		{"blind-r19", "blind37", gates{gateR19Precision, gateR19Recall, gateR19Category, gateR19Verdict, gateR19ZeroYield}},
		{"blind-r19b", "blind38", gates{gateR19bPrecision, gateR19bRecall, gateR19bCategory, gateR19bVerdict, gateR19bZeroYield}},
		{"blind-r20", "blind39", gates{gateR20Precision, gateR20Recall, gateR20Category, gateR20Verdict, gateR20ZeroYield}},
		{"blind-r20b", "blind40", gates{gateR20bPrecision, gateR20bRecall, gateR20bCategory, gateR20bVerdict, gateR20bZeroYield}},
		{"blind-r21", "blind41", gates{gateR21Precision, gateR21Recall, gateR21Category, gateR21Verdict, gateR21ZeroYield}},
		{"blind-r21b", "blind42", gates{gateR21bPrecision, gateR21bRecall, gateR21bCategory, gateR21bVerdict, gateR21bZeroYield}},
		{"blind-r22", "blind43", gates{gateR22Precision, gateR22Recall, gateR22Category, gateR22Verdict, gateR22ZeroYield}},
		{"blind-r22b", "blind44", gates{gateR22bPrecision, gateR22bRecall, gateR22bCategory, gateR22bVerdict, gateR22bZeroYield}},
		{"blind-r23", "blind45", gates{gateR23Precision, gateR23Recall, gateR23Category, gateR23Verdict, gateR23ZeroYield}},
		{"blind-r23b", "blind46", gates{gateR23bPrecision, gateR23bRecall, gateR23bCategory, gateR23bVerdict, gateR23bZeroYield}},
	}

	check := func(split, name string, got, gate float64) {
		if got < gate {
			t.Errorf("%s %s %.3f is below its gate %.2f", split, name, got, gate)
		}
	}
	for _, sp := range splits {
		dir := filepath.Join(root, sp.dir)
		// A blind split is scored, never explained: its misses must not
		// reach the rule writers; nor must the hold-out's CHECK half
		// (holdout_quality_test.go).
		blind := unseen(sp.name) || slices.Contains(holdoutCheck, sp.dir)
		s := scoreSplit(t, dir, detail && !blind)
		report(t, sp.name, s, !blind)
		for _, d := range s.detail {
			t.Log("  " + d)
		}
		if detail && !blind {
			for _, z := range s.zeroYield {
				t.Log("  zero-yield: " + z)
			}
		}
		if a2 := scoreLabels(t, dir, "*.labels2.json", false); a2.reviews > 0 {
			// The same reviews against the second annotator's labels: how
			// much of the figure is the first annotator's taste.
			report(t, sp.name+", second annotator", a2, !blind)
			agreement(t, sp.name, dir)
		}
		if s.reviews == 0 {
			t.Fatalf("labelled reviews missing: %s", sp.name)
		}
		check(sp.name, "precision", s.precision(), sp.gate.precision)
		check(sp.name, "recall", s.recall(), sp.gate.recall)
		check(sp.name, "category accuracy", s.catAcc(), sp.gate.category)
		check(sp.name, "verdict accuracy", s.verdictAcc(), sp.gate.verdict)
		if n := len(s.zeroYield); n > sp.gate.zeroYield {
			t.Errorf("%s: %d change-requesting reviews with learnable findings yield none (gate %d)", sp.name, n, sp.gate.zeroYield)
		}
	}
}

// unseen reports whether a split is still blind: scored, never explained.
// blind-r5b, blind-r6 and blind-r6b keep the names of their one blind
// score but are development data since round 7, blind-r7 and blind-r8
// since round 8, blind-r8b since round 9, blind-r9, blind-r9b and blind-r9c (scored
// once at the end of round 9's rule writing) from then on, blind-r10 and
// blind-r10b since their one score at the end of round 10, blind-r11 and
// blind-r11b since round 11's, blind-r12, blind-r12b and blind-r12c since round 12's,
// blind-r13 and blind-r13b since round 13's, blind-r14 and blind-r14b since round 14's,
// blind-r15 since round 15's, blind-r16 and blind-r16b since round 16's,
// blind-r17, blind-r17b and blind-r17c since round 17's, and each
// round's pair since its one score: blind-r18 and blind-r18b (round 18),
// blind-r19 and blind-r19b, blind-r20 and blind-r20b, blind-r21 and
// blind-r21b. A new round's pair joins the list; none leaves it.
func unseen(split string) bool {
	switch strings.TrimSuffix(split, ", second annotator") {
	case "blind-r5b", "blind-r6", "blind-r6b", "blind-r7", "blind-r8", "blind-r8b", "blind-r9", "blind-r9b", "blind-r9c", "blind-r10", "blind-r10b", "blind-r11", "blind-r11b", "blind-r12", "blind-r12b", "blind-r12c", "blind-r13", "blind-r13b", "blind-r14", "blind-r14b", "blind-r15", "blind-r16", "blind-r16b", "blind-r17", "blind-r17b", "blind-r17c", "blind-r18", "blind-r18b", "blind-r19", "blind-r19b", "blind-r20", "blind-r20b", "blind-r21", "blind-r21b", "blind-r22", "blind-r22b", "blind-r23", "blind-r23b":
		return false
	}
	return strings.HasPrefix(split, "blind")
}

// agreement reports how often the two annotators agree on "learnable"
// for the same finding, raw and as Cohen's kappa.
func agreement(t *testing.T, split, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.labels2.json"))
	var n, same, yes1, yes2 int
	for _, f2 := range files {
		var a, b realLabels
		for _, x := range []struct {
			path string
			into *realLabels
		}{{strings.TrimSuffix(f2, ".labels2.json") + ".labels.json", &a}, {f2, &b}} {
			raw, err := os.ReadFile(x.path)
			if err != nil || json.Unmarshal(raw, x.into) != nil {
				t.Fatalf("read %s: %v", x.path, err)
			}
		}
		second := map[int]bool{}
		for _, f := range b.Findings {
			second[f.N] = f.Learnable
		}
		for _, f := range a.Findings {
			l2, ok := second[f.N]
			if !ok {
				continue
			}
			n++
			if f.Learnable == l2 {
				same++
			}
			if f.Learnable {
				yes1++
			}
			if l2 {
				yes2++
			}
		}
	}
	if n == 0 {
		return
	}
	po := float64(same) / float64(n)
	pe := (float64(yes1)*float64(yes2) + float64(n-yes1)*float64(n-yes2)) / float64(n*n)
	t.Logf("[%s] annotators agree on learnable for %d of %d findings (%.3f), Cohen's kappa %.3f", split, same, n, po, (po-pe)/(1-pe))
}

// report logs a split's figures; explain adds its category confusion
// under FLOWMEM_QUALITY_DETAIL=1.
func report(t *testing.T, split string, s *score, explain bool) {
	t.Helper()
	t.Logf("[%s] reviews %d, labelled findings %d (learnable %d), kept %d", split, s.reviews, s.labels, s.learnable, s.kept)
	t.Logf("[%s] precision %.3f (%d/%d)  recall %.3f (%d/%d)  category accuracy %.3f (%d/%d)  verdict accuracy %.3f (%d/%d)",
		split, s.precision(), s.tp, s.tp+s.fp, s.recall(), s.tp, s.learnable, s.catAcc(), s.catOK, s.tp, s.verdictAcc(), s.verdictOK, s.reviews)
	t.Logf("[%s] change-requesting reviews with learnable findings that yield none: %d", split, len(s.zeroYield))
	t.Logf("[%s] learnable findings in approving reviews (never recorded, outside recall): %d", split, s.shipLearnable)
	if os.Getenv("FLOWMEM_QUALITY_DETAIL") == "1" && explain {
		confusion(t, split, s)
	}
}

// confusion logs the category matrix of matched findings: a row per label
// category, a column per category capture gave.
func confusion(t *testing.T, split string, s *score) {
	t.Helper()
	cats := []string{CatFramework, CatConvention, CatAPI, CatBuild, CatEdgeCase, CatSecurity, CatGeneral}
	head := fmt.Sprintf("%-11s", "label\\got")
	for _, c := range cats {
		head += fmt.Sprintf("%6.5s", c)
	}
	t.Logf("[%s] category confusion\n  %s", split, head)
	for _, want := range cats {
		row := fmt.Sprintf("%-11s", want)
		for _, got := range cats {
			row += fmt.Sprintf("%6d", s.confusion[[2]string{want, got}])
		}
		t.Log("  " + row)
	}
}

// firstSentence is a finding's title: the first sentence of its problem.
func firstSentence(problem string) string {
	if ss := sentences(problem); len(ss) > 0 {
		return ss[0]
	}
	return problem
}

// TestQualityUnseen: a blind pair stays development data once scored;
// round 21's wiring replaced round 20's pair in the list instead of adding
// to it, and blind39/blind40 went back to being scored, never explained.
func TestQualityUnseen(t *testing.T) {
	for _, split := range []string{"blind-r5b", "blind-r18b", "blind-r19", "blind-r20", "blind-r20b, second annotator", "blind-r21", "blind-r21b", "blind-r22", "blind-r22b", "blind-r23", "blind-r23b"} {
		if unseen(split) {
			t.Errorf("unseen(%q) = true, want false: scored once, development data since", split)
		}
	}
	if !unseen("blind-r99") {
		t.Error(`unseen("blind-r99") = false, want true: a split not yet scored is blind`)
	}
}
