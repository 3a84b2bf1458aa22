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

// categoryRecord is one learnable label matched to an extracted finding:
// what the first annotator called it and what categorize gives.
type categoryRecord struct {
	Split, File, Label, Got string
	Kept                    bool // kept by the capture path (what the quality harness scores)
	Severity                string
	Finding                 Finding
	Scores                  []int
	Anchor                  bool
	Features                map[string][2]int // stem or bonus → count in problem, in fix
}

// categoryFeatures are the counts categoryScores sums, one by one, so a
// diagnostic can weigh each signal apart.
func categoryFeatures(f Finding) map[string][2]int {
	problem, fix := categoryWords(f.Problem), categoryWords(f.Fix)
	m := map[string][2]int{}
	for _, c := range categorySignals {
		for _, stem := range strings.Fields(c.stems) {
			if p, x := signalCount(problem, []string{stem}), signalCount(fix, []string{stem}); p+x > 0 {
				m[c.name+":"+stem] = [2]int{p, x}
			}
		}
	}
	if testFile(f.Location) {
		m["testfile"] = [2]int{1, 0}
	}
	return m
}

// categoryRecords matches every learnable label of a change-requesting
// review to the first extracted finding whose whole text holds its anchor,
// kept or not: category is judged on more findings than the keep rules
// let through, so a change of the keep rules does not move this set.
func categoryRecords(t *testing.T, split, dir string) []categoryRecord {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var out []categoryRecord
	for _, lf := range files {
		var l realLabels
		b, err := os.ReadFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatalf("parse %s: %v", lf, err)
		}
		if !Verdict(l.Verdict).Actionable() {
			continue
		}
		rf, err := ReviewFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(rf)
		if err != nil {
			t.Fatal(err)
		}
		u := Unwrap(string(raw))
		opts := DefaultOptions()
		a := AnalyzeWith(u.Text, opts)
		texts := wholeTexts(t, u.Text, a)
		used := make([]bool, len(texts))
		for _, lb := range l.Findings {
			if !lb.Learnable || lb.Category == "" {
				continue
			}
			for i := range texts {
				if used[i] || !AnchorIn(lb.Anchor, texts[i]) {
					continue
				}
				used[i] = true
				d := a.Decisions[i]
				out = append(out, categoryRecord{Split: split, File: filepath.Base(rf), Label: lb.Category,
					Got: categorize(d.Finding), Kept: d.Keep, Severity: d.Finding.Severity, Finding: d.Finding,
					Scores: categoryScores(d.Finding), Anchor: hasAnchor(d.Finding.Problem) || hasAnchor(d.Finding.Fix), Features: categoryFeatures(d.Finding)})
				break
			}
		}
	}
	return out
}

// TestQualityCategoryDiagnostic prints, for the category rules, the
// confusion matrix pooled over the old splits, blind6..11 (where rules are
// designed), blind12..16 (NEW-DEV, where a rule is checked once),
// BLIND6-16 and all seventeen, the label distribution, and what trivial
// predictors score beside the rules: the commonest label, and the
// commonest label per severity. Rules that lose to a trivial predictor are
// guessing. FLOWMEM_CATEGORY_DUMP=file writes the records as JSON lines.
func TestQualityCategoryDiagnostic(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "review", "real")
	old := []string{"dev", "blind", "blind2", "blind3", "blind4", "blind5"}
	newest := []string{"blind6", "blind7", "blind8", "blind9", "blind10", "blind11"}
	check := []string{"blind12", "blind13", "blind14", "blind15", "blind16"}
	var all, recOld, recNew, recCheck []categoryRecord
	for _, d := range old {
		r := categoryRecords(t, d, filepath.Join(root, d))
		recOld = append(recOld, r...)
	}
	for _, d := range newest {
		r := categoryRecords(t, d, filepath.Join(root, d))
		recNew = append(recNew, r...)
	}
	for _, d := range check {
		r := categoryRecords(t, d, filepath.Join(root, d))
		recCheck = append(recCheck, r...)
	}
	all = slices.Concat(recOld, recNew, recCheck)
	if p := os.Getenv("FLOWMEM_CATEGORY_DUMP"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		for _, r := range all {
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, set := range []struct {
		name string
		recs []categoryRecord
	}{{"old dev (dev, blind..blind5)", recOld}, {"BLIND6-11", recNew}, {"NEW-DEV (blind12..16)", recCheck}, {"BLIND6-16", slices.Concat(recNew, recCheck)}, {"all seventeen", all}} {
		for _, keptOnly := range []bool{true, false} {
			var recs []categoryRecord
			for _, r := range set.recs {
				if r.Kept || !keptOnly {
					recs = append(recs, r)
				}
			}
			which := "extracted"
			if keptOnly {
				which = "kept"
			}
			categoryReport(t, fmt.Sprintf("%s, %s", set.name, which), recs)
		}
	}
	// How often each structural signal fires per first-annotator label,
	// on kept findings: a signal worth its place leans to its category on
	// the old pool and on the newest alike.
	for _, set := range []struct {
		name string
		recs []categoryRecord
	}{{"old dev", recOld}, {"BLIND6-11", recNew}, {"NEW-DEV", recCheck}} {
		cats := []string{CatFramework, CatConvention, CatAPI, CatBuild, CatEdgeCase, CatSecurity, CatGeneral}
		out := fmt.Sprintf("[%s, kept] structural signals per label\n  %-11s", set.name, "signal")
		for _, c := range cats {
			out += fmt.Sprintf("%6.5s", c)
		}
		out += "\n"
		for _, feat := range []string{"testfile", "no signal"} {
			n := map[string]int{}
			for _, r := range set.recs {
				v := r.Features[feat]
				if !r.Kept || feat != "no signal" && v[0]+v[1] == 0 || feat == "no signal" && slices.Max(r.Scores) > 0 {
					continue
				}
				n[r.Label]++
			}
			out += fmt.Sprintf("  %-11s", feat)
			for _, c := range cats {
				out += fmt.Sprintf("%6d", n[c])
			}
			out += "\n"
		}
		t.Log(out)
	}
}

func categoryReport(t *testing.T, name string, recs []categoryRecord) {
	t.Helper()
	cats := []string{CatFramework, CatConvention, CatAPI, CatBuild, CatEdgeCase, CatSecurity, CatGeneral}
	conf := map[[2]string]int{}
	labels := map[string]int{}
	bySev := map[string]map[string]int{}
	ok := 0
	for _, r := range recs {
		conf[[2]string{r.Label, r.Got}]++
		labels[r.Label]++
		if bySev[r.Severity] == nil {
			bySev[r.Severity] = map[string]int{}
		}
		bySev[r.Severity][r.Label]++
		if r.Label == r.Got {
			ok++
		}
	}
	top := func(m map[string]int) (string, int) {
		best, n := "", -1
		for _, c := range cats {
			if m[c] > n {
				best, n = c, m[c]
			}
		}
		return best, n
	}
	common, commonN := top(labels)
	perSev := 0
	for _, m := range bySev {
		_, n := top(m)
		perSev += n
	}
	out := fmt.Sprintf("[%s] %d findings: rules %.3f (%d), commonest label (%s) %.3f (%d), commonest per severity %.3f (%d)\n",
		name, len(recs), ratio(ok, len(recs)), ok, common, ratio(commonN, len(recs)), commonN, ratio(perSev, len(recs)), perSev)
	out += fmt.Sprintf("  %-11s", "label\\got")
	for _, c := range cats {
		out += fmt.Sprintf("%6.5s", c)
	}
	out += "  total\n"
	for _, want := range cats {
		out += fmt.Sprintf("  %-11s", want)
		for _, got := range cats {
			out += fmt.Sprintf("%6d", conf[[2]string{want, got}])
		}
		out += fmt.Sprintf("%7d\n", labels[want])
	}
	t.Log(out)
}
