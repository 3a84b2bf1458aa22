//go:build quality

package capture

import (
	"fmt"
	"testing"
)

// TestQualityFolding measures the recurrence matcher on the labelled corpora
// in testdata/capture/recurrence: the folding rate on paraphrases (target ≥
// 0.9) and the false-merge rate on near misses (target ≤ 2%), per set and in
// total. Heavy rewrites (H lines) are reported but not held to a target.
//
// False merges lose lessons, so their bound is enforced on the total (a
// set of 36 queries cannot show 2%). The folding target is enforced on the
// development set; on the real-review and
// held-out sets lexical matching falls short of it (see the package notes
// in recur.go), and the report says so rather than hiding it.
//
//	go test -tags quality -run TestQualityFolding -v ./internal/capture
func TestQualityFolding(t *testing.T) {
	var total foldingResult
	for _, name := range []string{"corpus.txt", "reviews.txt", "holdout.txt"} {
		groups := loadRecurrenceCorpus(t, name)
		if groups == nil {
			t.Errorf("%s: missing", name)
			continue
		}
		r := evalFolding(groups)
		fmt.Printf("recurrence %-12s %s%s\n", name, r, belowTarget(r))
		for _, m := range r.misses {
			t.Log(name, m)
		}
		if name == "corpus.txt" && r.foldRate() < 0.9 {
			t.Errorf("%s: folding rate %.3f < 0.9", name, r.foldRate())
		}
		total.add(r)
	}
	fmt.Printf("recurrence %-12s %s%s\n", "total", total, belowTarget(total))
	if total.falseMergeRate() > 0.02 {
		t.Errorf("total false merge rate %.3f > 0.02", total.falseMergeRate())
	}
}

func belowTarget(r foldingResult) string {
	if r.foldRate() < 0.9 {
		return "  [folding BELOW the 0.9 target]"
	}
	return ""
}

func (r foldingResult) String() string {
	s := fmt.Sprintf("folded %d/%d paraphrases = %.3f; false merges %d/%d = %.3f (near misses merged %d/%d, paraphrases into the wrong entry %d)",
		r.folded, r.paraphrases, r.foldRate(), r.falseMerges+r.wrongEntry, r.nearMisses+r.paraphrases, r.falseMergeRate(),
		r.falseMerges, r.nearMisses, r.wrongEntry)
	if r.hard > 0 {
		s += fmt.Sprintf("; heavy rewrites folded %d/%d (wrong entry %d)", r.hardFolded, r.hard, r.hardWrong)
	}
	return s
}

func (r *foldingResult) add(o foldingResult) {
	r.paraphrases += o.paraphrases
	r.folded += o.folded
	r.wrongEntry += o.wrongEntry
	r.nearMisses += o.nearMisses
	r.falseMerges += o.falseMerges
	r.hard += o.hard
	r.hardFolded += o.hardFolded
	r.hardWrong += o.hardWrong
}
