//go:build quality

package recall

import (
	"fmt"
	"strings"
	"testing"
)

// TestQualityRecall reports how well Rank finds the labelled entries of the
// corpus queries, next to the naive Substring baseline. Run with
//
//	go test -tags quality -run Quality -v ./internal/recall/
func TestQualityRecall(t *testing.T) {
	entries := loadCorpus(t)
	queries := loadQueries(t)
	opt := Options{Limit: 10, Now: corpusNow}

	type result struct{ recall5, mrr float64 }
	measure := func(rank func(string) []Hit, verbose bool) result {
		var r result
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
				t.Logf("miss %q: %s; top5 %s", q.Query, strings.Join(missed, " "), strings.Join(top, " "))
			}
		}
		n := float64(len(queries))
		return result{r.recall5 / n, r.mrr / n}
	}

	ranked := measure(func(q string) []Hit { return Rank(entries, q, opt) }, testing.Verbose())
	base := measure(func(q string) []Hit { return Substring(entries, q, 10) }, false)

	t.Logf("corpus: %d entries, %d queries", len(entries), len(queries))
	t.Logf("%-10s %10s %8s", "", "recall@5", "MRR@10")
	t.Logf("%-10s %10.3f %8.3f", "Rank", ranked.recall5, ranked.mrr)
	t.Logf("%-10s %10.3f %8.3f", "Substring", base.recall5, base.mrr)
	if ranked.recall5 < 0.9 {
		t.Errorf("Rank recall@5 = %.3f, want ≥ 0.9", ranked.recall5)
	}
}
