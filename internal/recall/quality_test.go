//go:build quality

package recall

import (
	"fmt"
	"strings"
	"testing"
)

// TestQualityRecall reports how well Rank finds the labelled entries of the
// corpus queries (development, held-out and two blind sets; see
// testdata/recall/README.md), next to the naive Substring baseline, and
// fails when Rank's recall@5 over all queries is under 0.9. Run with
//
//	go test -tags quality -run Quality -v ./internal/recall/
//
// recall@5 is the share of a query's labelled entries found in the top 5
// (out of at most 5), averaged over queries; MRR@10 the mean reciprocal
// rank of the first labelled entry in the top 10.
func TestQualityRecall(t *testing.T) {
	entries := loadCorpus(t)
	dev, holdout, blind, blind2 := loadQueries(t), loadHoldout(t), loadBlind(t), loadBlind2(t)
	tuned := append(append([]labelledQuery{}, dev...), holdout...)
	all := append(append(append([]labelledQuery{}, tuned...), blind...), blind2...)
	opt := Options{Limit: 10, Now: corpusNow}
	rank := func(q string) []Hit { return Rank(entries, q, opt) }
	substring := func(q string) []Hit { return Substring(entries, q, 10) }

	t.Logf("corpus: %d entries; %d development, %d held-out, %d blind and %d blind2 queries",
		len(entries), len(dev), len(holdout), len(blind), len(blind2))
	t.Logf("%-30s %10s %8s", "", "recall@5", "MRR@10")
	var overall float64
	for _, set := range []struct {
		name    string
		queries []labelledQuery
	}{
		{"development", dev},
		{"held-out", holdout},
		{"blind", blind},
		{"blind2", blind2},
		{"dev+held-out+blind", append(append([]labelledQuery{}, tuned...), blind...)},
		{"development+held-out", tuned},
		{"all", all},
	} {
		r := measure(t, set.queries, rank, false)
		b := measure(t, set.queries, substring, false)
		t.Logf("%-30s %10.3f %8.3f", "Rank, "+set.name, r.recall5, r.mrr)
		t.Logf("%-30s %10.3f %8.3f", "Substring, "+set.name, b.recall5, b.mrr)
		overall = r.recall5
	}
	if overall < 0.9 {
		t.Errorf("Rank recall@5 = %.3f over all queries, want ≥ 0.9", overall)
	}
}

type quality struct{ recall5, mrr float64 }

func measure(t *testing.T, queries []labelledQuery, rank func(string) []Hit, verbose bool) quality {
	var r quality
	for _, q := range queries {
		hits := rank(q.Query)
		pos := map[string]int{}
		for i, h := range hits {
			if _, ok := pos[h.Entry.ID]; !ok {
				pos[h.Entry.ID] = i + 1
			}
		}
		found, first := 0, 0
		var missed []string
		for _, id := range q.Relevant {
			p, ok := pos[id]
			if ok && p <= 5 {
				found++
			} else {
				missed = append(missed, fmt.Sprintf("%s@%d", id, p))
			}
			if ok && (first == 0 || p < first) {
				first = p
			}
		}
		den := min(len(q.Relevant), 5)
		r.recall5 += float64(min(found, den)) / float64(den)
		if first > 0 {
			r.mrr += 1 / float64(first)
		}
		if verbose && len(missed) > 0 {
			var top []string
			for i, h := range hits {
				if i == 5 {
					break
				}
				top = append(top, h.Entry.ID)
			}
			t.Logf("miss %q: %s (@0: not in top 10); top 5: %s", q.Query, strings.Join(missed, " "), strings.Join(top, " "))
		}
	}
	n := float64(len(queries))
	return quality{r.recall5 / n, r.mrr / n}
}

// TestQualityTuning is the report to tune against: development and
// held-out sets only, with the development misses listed under -v. The
// blind sets stay out of it so that they are not used to choose changes;
// TestQualityRecall reports them.
//
//	go test -tags quality -run QualityTuning -v ./internal/recall/
func TestQualityTuning(t *testing.T) {
	entries := loadCorpus(t)
	dev, holdout := loadQueries(t), loadHoldout(t)
	opt := Options{Limit: 10, Now: corpusNow}
	rank := func(q string) []Hit { return Rank(entries, q, opt) }
	r := measure(t, dev, rank, testing.Verbose())
	h := measure(t, holdout, rank, false)
	t.Logf("%-30s %10.3f %8.3f", "Rank, development", r.recall5, r.mrr)
	t.Logf("%-30s %10.3f %8.3f", "Rank, held-out", h.recall5, h.mrr)
}
