package recall

import (
	"math"
	"sort"

	"github.com/flowmem/flowmem/internal/mdstore"
)

const (
	// primePool is how many ranked hits Prime considers per line it may
	// print, so confirmed lessons a little further down can move up.
	primePool = 4
	// primeFloor keeps confirmed-first from promoting a lesson that only
	// grazes the task: it must score within this fraction of the best.
	primeFloor = 0.25
)

// Confirmed reports whether a lesson has been borne out: seen in more than
// one review, or written down by a person.
func Confirmed(e *mdstore.Entry) bool {
	return e.Seen >= 2 || e.Source == "manual"
}

// Prime returns the prompt-ready block of the lessons that matter most for
// task, confirmed lessons first, within opt.MaxChars (PrimeMaxChars by
// default, never above PrimeHardCap). With no task words it lists the top
// confirmed lessons by recurrence and recency. It returns "" when nothing
// qualifies, so callers can skip the block entirely.
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
		hits = rank(entries, q, opt, limit*primePool)
		if len(hits) > 0 {
			floor := hits[0].Score * primeFloor
			kept := hits[:0]
			for _, h := range hits {
				if h.Score >= floor {
					kept = append(kept, h)
				}
			}
			hits = kept
		}
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
		top.offer(int32(i), (1+math.Log(seen))*(0.5+0.5*r))
	}
	return top.sorted()
}
