package recall

import (
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Substring is the naive baseline the quality report compares Rank with:
// what grepping memory for the words of a request finds. An entry scores
// the number of distinct query words (3+ letters) that occur in its text,
// case-insensitively; ties keep file order.
func Substring(entries []mdstore.Entry, query string, limit int) []Hit {
	if limit <= 0 {
		limit = DefaultLimit
	}
	var words []string
	for _, w := range strings.Fields(strings.ToLower(query)) {
		w = strings.Trim(w, ".,:;!?\"'()[]{}<>`*")
		if len(w) >= 3 && !containsStr(words, w) {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil
	}
	type sc struct{ i, n int }
	var all []sc
	for i := range entries {
		e := &entries[i]
		if e.Status == mdstore.Archived {
			continue
		}
		text := strings.ToLower(e.Issue + " " + e.Fix + " " + e.Context + " " + e.Body)
		n := 0
		for _, w := range words {
			if strings.Contains(text, w) {
				n++
			}
		}
		if n > 0 {
			all = append(all, sc{i, n})
		}
	}
	// Stable selection of the best: the order among equals is file order.
	hits := make([]Hit, 0, limit)
	for len(hits) < limit && len(all) > 0 {
		bi := 0
		for j := range all {
			if all[j].n > all[bi].n {
				bi = j
			}
		}
		hits = append(hits, Hit{Entry: entries[all[bi].i], Score: float64(all[bi].n)})
		all = append(all[:bi], all[bi+1:]...)
	}
	return hits
}
