package recall

import (
	"math"
	"sort"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Confirmed reports whether a lesson has been borne out: seen in more than
// one review, or written down by a person.
func Confirmed(e *mdstore.Entry) bool {
	return e.Seen >= 2 || e.Source == "manual"
}

// Prime returns the prompt-ready block of the lessons that matter most for
// task within opt.MaxChars (PrimeMaxChars by default, never above
// PrimeHardCap). It takes the lessons Rank would return and puts the
// confirmed ones first, so that they are the ones kept when the budget
// runs out; it does not reach further down the ranking for them, since
// scores say too little to tell a lesson that grazes the task from one
// that fits. With no task words it lists the top confirmed lessons by
// recurrence and recency. It returns "" when nothing qualifies, so callers
// can leave the block out.
func Prime(entries []mdstore.Entry, task string, opt Options) string {
	limit := limitOf(opt)
	max := opt.MaxChars
	if max <= 0 {
		max = PrimeMaxChars
	}
	if max > PrimeHardCap {
		max = PrimeHardCap
	}
	var hits []Hit
	if q := parseQuery(task); len(q.terms) > 0 {
		hits = rank(entries, q, opt, limit)
		sort.SliceStable(hits, func(i, j int) bool {
			return Confirmed(&hits[i].Entry) && !Confirmed(&hits[j].Entry)
		})
	} else {
		hits = topConfirmed(entries, opt, limit)
	}
	if len(hits) == 0 {
		return ""
	}
	return block(header+primeIntro, hits, limit, max)
}

// topConfirmed ranks confirmed lessons without a query: recurrence first,
// weighed down as they age.
func topConfirmed(entries []mdstore.Entry, opt Options, k int) []Hit {
	top := topK{k: k, entries: entries}
	for i := range entries {
		e := &entries[i]
		if !eligible(e, opt.Kinds) || !Confirmed(e) {
			continue
		}
		seen := math.Max(float64(e.Seen), 1)
		r := 1.0
		if !opt.Now.IsZero() {
			r = recency(e, opt.Now)
		}
		sc := (1 + math.Log(seen)) * (0.5 + 0.5*r)
		top.offer(int32(i), sc, sc)
	}
	return top.sorted()
}
