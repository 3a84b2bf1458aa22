package recall

import (
	"slices"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// fuseK is the rank offset of reciprocal-rank fusion: a hit at rank r (from
// 0) of one query adds 1/(fuseK+r). A small offset lets the first hits of
// each query lead, which is what the scout's queries are for: each names
// the work from another side, and its best hits are its point. Chosen on
// blind3 and blind4 with the scout's own searches (testdata/recall/README.md,
// "Seventh round"); 1 to 3 are within a query of each other.
const fuseK = 2

// RankAll ranks entries against several queries at once and merges the
// lists by reciprocal rank: an entry's score is the sum over the queries of
// 1/(fuseK + its rank there). Ranks, not scores, are summed because the
// queries' BM25 scores are not on one scale (a long task title scores
// higher than a three-word list of risks). Ties go to the entry the
// earlier query ranked first, so the request itself, given first, breaks
// them. One query is Rank.
func RankAll(entries []mdstore.Entry, queries []string, opt Options) []Hit {
	if len(queries) == 1 {
		return Rank(entries, queries[0], opt)
	}
	limit := limitOf(opt)
	// Each list is ranked deeper than the limit, so an entry second-best for
	// two queries can pass one that is best for only one of them.
	deep := opt
	deep.Limit = 2 * limit
	type fused struct {
		hit   Hit
		score float64
		first int // (query, rank) of its best place, as query*deep+rank
	}
	byID := map[string]*fused{}
	var order []*fused
	qs := make([]*query, len(queries))
	for i, q := range queries {
		qs[i] = parseQuery(q)
	}
	for qi, list := range rankMany(entries, qs, deep, deep.Limit) {
		for r, h := range list {
			key := h.Entry.ID
			if key == "" {
				// Hand-written entries without an id are told apart by text.
				key = "\x00" + h.Entry.Issue + "\x00" + h.Entry.Body
			}
			f := byID[key]
			if f == nil {
				f = &fused{hit: h, first: qi*deep.Limit + r}
				byID[key] = f
				order = append(order, f)
			}
			f.score += 1 / float64(fuseK+r)
		}
	}
	slices.SortStableFunc(order, func(a, b *fused) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.first - b.first
	})
	hits := make([]Hit, 0, min(limit, len(order)))
	for _, f := range order[:min(limit, len(order))] {
		hits = append(hits, Hit{Entry: f.hit.Entry, Score: f.score})
	}
	return hits
}
