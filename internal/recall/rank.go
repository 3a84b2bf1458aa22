// Package recall finds the lessons in project memory that matter for a task
// or planning request, and renders them for a prompt or a terminal.
//
// Ranking is lexical (BM25F over folded stems, text.Fold) and streams over
// the memory files' raw bytes with no index and no cache: one pass finds,
// at the start of every word, the prefixes of the request's stems and
// counts how many entries have each; only the entries that may qualify are
// parsed and scored, best bound first, until no entry left could enter the
// result. A lesson qualifies only by saying a specific word of the request
// itself, and a request read as it is (prime, one read --relevant) gets
// lessons only when one of them says enough of its specific words (the
// relevance floor, SPEC §6): task ids and stop words are dropped, and
// generic words (generic.txt) rank a lesson that qualifies but never
// qualify one, so a request that no lesson bears on gets nothing.
package recall

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/text"
)

// Defaults for Options left at zero.
const (
	DefaultLimit    = 10
	DefaultMaxChars = 6000
	// PrimeMaxChars is Prime's default budget, and PrimeHardCap the most it
	// ever writes: Claude Code cuts hook additionalContext above 10,000
	// characters down to a short preview.
	PrimeMaxChars = 4000
	PrimeHardCap  = 9000
)

// Options bound and filter a recall.
type Options struct {
	Limit    int       // most entries returned; DefaultLimit when 0
	MaxChars int       // output budget, counted in bytes so that it bounds characters too; a default when 0
	Now      time.Time // reference for recency; zero means no recency lift
	// StaleAfterDays: a lesson not seen for longer ranks lower (and primes
	// last) but is still recalled; 0 turns staleness off.
	StaleAfterDays int
	// Floor is the relevance floor of a request read as it is: the share
	// of its specific words, weighed by idf, that one of the lessons
	// returned must say itself (0 to 1), unless it says two of them making
	// pairShare, or its context names one making pairShare that no other
	// lesson says; when the memory lacks as many of the request's words as
	// it has, two lessons must answer it that way. Otherwise nothing is
	// returned. The other lessons returned need one specific word. At 0 one
	// specific word is enough: the scout, which judges what it reads,
	// searches that way. Prime and a single read --relevant, whose output
	// is used unread, use StrictFloor.
	Floor float64
}

// StrictFloor is the relevance floor (Options.Floor) of prime and of a
// single read --relevant (chosen in testdata/recall/README.md). It is asked
// of the request, not of each lesson: once one lesson shows that the
// memory covers the request, the others it ranks next are the best it
// has. Asked of every lesson, it cut a third of the labelled lessons from
// the first 5; a higher share loses the Ralph loop's second task (e2e).
const StrictFloor = 0.65

// pairShare: a lesson that says two of the request's specific words
// answers it when they make this share of them; unknownShare is what a
// specific word no entry has counts for, against the rarest that some
// entry has.
const (
	pairShare    = 0.2
	unknownShare = 0.5
)

// remedyShare is what a word counts towards the floor's share when a
// lesson says it only in its fix (see answers). Half: the
// older sets 655 → 652 labelled requests in the first 5 and 186 → 190 of
// 210 requests with no relevant lesson emptied (0: 644 / 194; ¼: 647 /
// 192; ¾: 652 / 188); testdata/recall/README.md, round 13.
const remedyShare = 0.5

// spreadWords: a request of at least this many specific words is also
// answered when its best lessons say every one of them between them,
// though none says enough alone: a request with no relevant lesson shares
// one or two of its words with the memory by chance, not all of them.
const spreadWords = 3

// Hit is one ranked entry.
type Hit struct {
	Entry mdstore.Entry `json:"entry"`
	Score float64       `json:"score"`
	// answers: the lesson says enough of the request to pass the floor
	// (Options.Floor); alone: it says the floor's share itself, which no
	// second lesson need confirm.
	answers bool
	alone   bool
	mask    uint64 // the query's specific terms the lesson says
	// own: with a floor, the score with the fix's words at remedyShare
	// of their weight, by which search orders the lessons it keeps.
	own float64
}

func limitOf(opt Options) int { return cmp.Or(max(opt.Limit, 0), DefaultLimit) }

// fuseK is the rank offset of reciprocal-rank fusion: a hit at rank r
// (from 0) of one query adds 1/(fuseK+r), so each query's first hits lead.
// repeatShare is what a query adds for a lesson when every specific word
// the lesson says of it was counted for an earlier query: the scout's
// queries often repeat a word of the request, and a lesson that only says
// that word is counted again, not found again. (Offsets 4 to 8 and shares
// 0.3 to 0.5 are within a request of each other: testdata/recall/README.md.)
const (
	fuseK       = 6
	repeatShare = 0.3
)

// Feedback (pseudo-relevance feedback within the merged list): the first
// feedbackSeeds lessons are the likeliest to bear on the request, and a
// lesson that shares their rarer words (the file, the library, the call)
// is likely about the same work though the searches found it low. Each
// seed ranks the other lessons of the merged list by the words they share
// with it, and each place adds feedbackWeight/(fuseK + rank). Only the
// merged list is ranked, not the memory again (which doubled the cost).
// 3 to 8 seeds and weights 0.3 to 0.7 all gain (testdata/recall/README.md).
const (
	feedbackSeeds  = 5
	feedbackWeight = 0.5
)

// lengthPower: a merged lesson's score is divided by the length of its
// text to this power. A long lesson says more words, so more of the
// scout's searches find it by one of them and it gathers places that a
// short one (a convention or a decision stated in a sentence) cannot; of
// the lessons the searches find about as well, the shorter is the more
// often the one that bears on the request. Places are ranks, not scores,
// so BM25's own length normalisation does not reach the merge. 0.3 to 0.5
// gain alike on the older and the newer request sets
// (testdata/recall/README.md, round 21).
const lengthPower = 0.3

// textLen is the length of what a lesson says: its fields, not its
// heading or metadata.
func textLen(e *mdstore.Entry) int {
	return len(e.Issue) + len(e.Body) + len(e.Fix) + len(e.Context)
}

// Search returns the entries of files most relevant to the queries, best
// first, at most opt.Limit of them; none when nothing qualifies. Archived
// and pending entries are left out. Several queries (the scout's searches
// for one request) are ranked in one pass and merged by reciprocal rank
// (the queries' scores are not on one scale), ties to the entry the
// earlier query ranked first; then feedback, and a short lesson ahead of
// a long one found as well (lengthPower).
func Search(files []File, queries []string, opt Options) ([]Hit, error) {
	limit := limitOf(opt)
	qs := make([]*query, 0, len(queries))
	for _, s := range queries {
		qs = append(qs, parseQuery(s))
	}
	// Several lists are ranked deeper than the limit, so an entry
	// second-best for two queries can pass one that is best for only one.
	deep := limit
	if len(qs) > 1 {
		deep = 2 * limit
	}
	lists, err := search(files, qs, opt, deep)
	if err != nil || len(qs) < 2 {
		return slices.Concat(lists...), err
	}
	type place struct {
		rank  int
		query int
		mask  uint64
	}
	type fused struct {
		hit    Hit
		score  float64
		first  int // (query, rank) of its best place, as query*deep+rank
		places []place
	}
	byKey := map[string]*fused{}
	var order []*fused
	for qi, list := range lists {
		for r, h := range list {
			key := h.Entry.ID
			if key == "" {
				key = "\x00" + h.Entry.Text()
			}
			f := byKey[key]
			if f == nil {
				f = &fused{hit: h, first: qi*deep + r}
				byKey[key] = f
				order = append(order, f)
			}
			f.places = append(f.places, place{r, qi, h.mask})
		}
	}
	var said []string
	for _, f := range order {
		// Best places first: the query that ranks the lesson highest is
		// the one that found it.
		slices.SortStableFunc(f.places, func(a, b place) int { return a.rank - b.rank })
		said = said[:0]
		for _, p := range f.places {
			w := repeatShare
			for m := p.mask; m != 0; m &= m - 1 {
				if st := qs[p.query].terms[bits.TrailingZeros64(m)].stem; !slices.Contains(said, st) {
					said = append(said, st)
					w = 1
				}
			}
			f.score += w / (fuseK + float64(p.rank))
		}
	}
	byScore := func(a, b *fused) int { return cmp.Or(cmp.Compare(b.score, a.score), a.first-b.first) }
	slices.SortStableFunc(order, byScore)
	entries := make([]*mdstore.Entry, len(order))
	for i, f := range order {
		entries[i] = &f.hit.Entry
	}
	for i, v := range feedback(entries, deep) {
		order[i].score += feedbackWeight * v
		order[i].score *= math.Pow(float64(max(textLen(entries[i]), 1)), -lengthPower)
	}
	slices.SortStableFunc(order, byScore)
	hits := make([]Hit, 0, min(limit, len(order)))
	for _, f := range order[:min(limit, len(order))] {
		hits = append(hits, Hit{Entry: f.hit.Entry, Score: f.score})
	}
	return hits, nil
}

// feedback scores the lessons of a merged list, best first, by what they
// share with its first feedbackSeeds: for each seed, the other lessons
// ranked by the weight of the specific words they share with it, and each
// of the first depth places adds 1/(fuseK + rank). A word weighs its
// Robertson–Sparck Jones idf over the list, none when more than half of the
// list says it: that is the request's topic, which every candidate shares
// and which tells nothing about which of them is near a seed. A lesson's
// words are those of its issue or body and its context, where the problem
// and its place are named; a fix names a remedy, which lessons about other
// problems share.
func feedback(entries []*mdstore.Entry, depth int) []float64 {
	out := make([]float64, len(entries))
	var z text.Tokenizer
	stems := map[string]string{} // word → folded stem; "" when it is not specific
	generic := genericWords()
	sets := make([][]string, len(entries))
	df := map[string]int{}
	for i, e := range entries {
		var set []string
		add := func(b []byte, k text.Kind) {
			st, ok := stems[string(b)]
			if !ok {
				w := string(b)
				if st = text.Fold(w); k != text.Whole && text.IsStop(w) || generic[st] {
					st = ""
				}
				stems[w] = st
			}
			if st != "" && !slices.Contains(set, st) {
				set = append(set, st)
			}
		}
		z.Scan(e.Issue, add)
		z.Scan(e.Body, add)
		z.Scan(e.Context, add)
		sets[i] = set
		for _, st := range set {
			df[st]++
		}
	}
	type near struct {
		i int
		s float64
	}
	var ns []near
	n := float64(len(entries))
	for si := range min(feedbackSeeds, len(entries)) {
		weight := make(map[string]float64, len(sets[si]))
		for _, st := range sets[si] {
			d := float64(df[st])
			weight[st] = max(0, math.Log((n-d+0.5)/(d+0.5)))
		}
		ns = ns[:0]
		for i, set := range sets {
			s := 0.0
			for _, st := range set {
				s += weight[st]
			}
			if i != si && s > 0 {
				ns = append(ns, near{i, s})
			}
		}
		slices.SortStableFunc(ns, func(a, b near) int { return cmp.Compare(b.s, a.s) })
		for r, x := range ns[:min(len(ns), depth)] {
			out[x.i] += 1 / (fuseK + float64(r))
		}
	}
	return out
}
