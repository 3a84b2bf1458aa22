// Package recall finds the lessons in project memory that matter for a task
// or planning request, and renders them as a bounded block for a prompt.
//
// Ranking is lexical and runs in one pass over the entries, with no index on
// disk: memory files are small enough to scan, and an index would be one
// more thing to keep in sync across git merges. Each entry's fields are
// tokenized on the fly (identifiers split into their parts, words stemmed)
// and scored with BM25F, so a hit in the issue counts more than one in the
// context. A request and the lesson it needs rarely share their words
// ("brute-force protection for login", "sign-in has no rate limiting"), so
// each query word also brings in its abbreviations, synonyms and concept
// words (abbrev.go, concepts.go) at a lower weight. A request that names a
// kind of work ("cache the catalog") also brings in, lower still, the words
// of that work's usual pitfalls (missing TTL, stampede; risks.go).
// Recurrence and recency lift the score a little, never enough to put a
// frequent but off-topic lesson above a relevant one.
package recall

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
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
	Limit    int            // most entries returned; DefaultLimit when 0
	MaxChars int            // output budget, counted in bytes so that it bounds characters too; a default when 0
	Kinds    []mdstore.Kind // only these kinds; all when empty
	Now      time.Time      // reference for recency; zero means no recency lift
}

// Hit is one ranked entry.
type Hit struct {
	Entry mdstore.Entry `json:"entry"`
	Score float64       `json:"score"`
}

// Fields of an entry as the ranker weighs them. Issue and Body share one
// field: both hold the lesson itself, and an entry has one or the other.
const (
	fMain = iota
	fFix
	fContext
	fMeta // category and task ids
	nFields
)

var (
	// Context holds file paths and evidence: their names are often the
	// topic itself (webhook/sender.go), so it counts as much as the fix.
	fieldWeight = [nFields]float64{3, 2, 2, 0.5}
	// Length normalization per field; the meta field is a few tags.
	fieldB = [nFields]float64{0.75, 0.75, 0.75, 0}
)

const (
	k1 = 1.2
	// idfExp sharpens idf: a rare word of the request (webhook, CSV,
	// PgBouncer) says more about what it is after than a common one (add,
	// test, error), and more than plain BM25 credits it for; an entry
	// matching the one specific word should beat one matching two generic
	// ones.
	idfExp = 1.5
	// maxQueryGroups and maxQueryTerms bound the work a long request can
	// cause.
	maxQueryGroups = 64
	maxQueryTerms  = 256

	// relFloor drops hits far weaker than the best one: they matched only a
	// stray common word and would crowd the prompt.
	relFloor = 0.1

	recurrenceLift = 0.15 // at most, reached at seen ≥ 16
	recencyLift    = 0.10 // at most, for a lesson seen today
	recencyDays    = 90   // e-folding time of the recency lift
)

// A query is a list of groups, one per word or identifier of the request.
// A group has slots: one for a plain word; for an identifier such as
// useEffect, one for the joined form and one per part. Each slot holds the
// stems that count as that word: its own and its abbreviations' (ctx,
// context). An entry scores the best stem of each slot, and for a group
// the joined form or the sum of the parts, whichever is higher, so that
// "GitHub", "github" and "git_hub" weigh the same.
type term struct {
	stem   string
	slot   int32
	weight float64
	// areas has bit k set when the stem is a risk of the query's k-th
	// task area (risks.go). A term that is only a risk has slot -1.
	areas uint8
}

type query struct {
	terms      []term
	index      map[string]int32 // stem → term
	slotGroup  []int32          // slot → its group
	slotTerm   []int32          // slot → the term of the word itself
	groupWhole []int32          // group → its joined-form slot, or -1
	areas      int              // task areas the request triggers (risks.go)
	// prefix is a bitset over the first two bytes of the terms. A stem keeps
	// the first two bytes of its word (dying/lying/tying aside), so a token
	// whose first two bytes are not in the set cannot match, and most
	// tokens are rejected before any map lookup or stemming.
	prefix []uint64
	// heads holds the stems of the first words of the two-word phrases
	// among the terms (rate of "rate limit"): the matcher joins such a
	// word with the next one to find the phrase in prose.
	heads map[string]struct{}

	group int32 // the group being built by parseQuery
	open  bool  // whether the next part joins it
}

func parseQuery(s string) *query {
	q, toks := parseWords(s)
	// The risks of the kinds of work the request names (risks.go).
	q.expandRisks(toks)
	return q
}

// parseWords is parseQuery without the risks: the request's own words,
// their expansions and phrases. It returns the request's tokens too.
func parseWords(s string) (*query, []collected) {
	q := &query{index: map[string]int32{}, prefix: make([]uint64, 1<<16/64), group: -1}
	c := collector{keepStop: true}
	var z tokenizer
	z.scan(s, &c)
	for _, tok := range c.toks {
		// A new group starts with each chunk; parts follow their joined
		// form. It is opened at its first new stem, so a repeated word
		// adds nothing.
		if tok.kind != tokPart {
			q.open = false
		}
		if tok.stop {
			continue
		}
		w := 1.0
		if tok.kind == tokWord && isTaskWord(tok.text) {
			w = taskWordWeight
		}
		q.word(stemOf(tok.text), w, tok.kind)
	}
	// Two words in a row that make a phrase of the thesaurus ("rate
	// limit", "sign in") are one more group, which brings in the phrase's
	// concept; the words keep their own groups.
	for i := 0; i+1 < len(c.toks); i++ {
		a, b := c.toks[i], c.toks[i+1]
		if a.kind != tokWord || b.kind != tokWord || a.stop {
			continue
		}
		if pair := stemOf(a.text) + stemOf(b.text); phraseHeadsOf()[pair] != "" {
			q.open = false
			q.word(pair, 1, tokWord)
		}
	}
	return q, c.toks
}

// word adds the stem of one query word, and its expansions, to the slot
// it opens.
func (q *query) word(st string, w float64, kind tokenKind) {
	if t, ok := q.index[st]; ok {
		// Said outright, not only as an expansion.
		q.terms[t].weight = math.Max(q.terms[t].weight, w)
		return
	}
	if len(q.terms) >= maxQueryTerms {
		return
	}
	if !q.open {
		if len(q.groupWhole) == maxQueryGroups {
			return
		}
		q.group, q.open = int32(len(q.groupWhole)), true
		q.groupWhole = append(q.groupWhole, -1)
	}
	slot := int32(len(q.slotGroup))
	q.slotGroup = append(q.slotGroup, q.group)
	q.slotTerm = append(q.slotTerm, int32(len(q.terms)))
	if kind == tokWhole {
		q.groupWhole[q.group] = slot
	}
	q.add(st, slot, w)
	for _, x := range expansionsOf()[st] {
		if _, ok := q.index[x.stem]; !ok && len(q.terms) < maxQueryTerms {
			q.add(x.stem, slot, w*x.weight)
		}
	}
}

func (q *query) add(stem string, slot int32, w float64) {
	q.index[stem] = int32(len(q.terms))
	q.terms = append(q.terms, term{stem: stem, slot: slot, weight: w})
	if h := phraseHeadsOf()[stem]; h != "" {
		q.addHead(h)
	}
	if len(stem) < 2 {
		for i := range q.prefix {
			q.prefix[i] = ^uint64(0)
		}
		return
	}
	q.setPrefix(stem[0], stem[1])
	switch stem {
	case "die", "lie", "tie":
		q.setPrefix(stem[0], 'y')
	}
	for _, p := range irregularPrefixes()[stem] {
		q.setPrefix(p[0], p[1])
	}
}

// addHead tells the matcher that a word with stem h may start a phrase of
// the query.
func (q *query) addHead(h string) {
	if q.heads == nil {
		q.heads = map[string]struct{}{}
	}
	q.heads[h] = struct{}{}
}

func (q *query) setPrefix(a, b byte) {
	k := uint(a)<<8 | uint(b)
	q.prefix[k>>6] |= 1 << (k & 63)
}

// matcher collects, for one entry at a time, how often each query term
// occurs in each field.
type matcher struct {
	q     *query
	memo  map[string]memoEntry // token → what it stems to; stems each distinct token once
	field int
	hits  []termCount
	// skip is set once a chunk's joined form matched: its parts would count
	// the same name again.
	skip bool
	// head is the stem of the previous word when it starts a phrase of the
	// query; pair is scratch space for joining it with the next.
	head string
	pair []byte
}

type memoEntry struct {
	stem string
	term int32 // the query term it stems to, or -1
	head bool  // whether its stem starts a phrase of the query
}

type termCount struct {
	term int32
	n    [nFields]uint16
}

// mayMatch is the prefilter: false when tok cannot stem to any term.
func (q *query) mayMatch(tok []byte) bool {
	k := uint(tok[0])<<8 | uint(tok[1])
	return q.prefix[k>>6]&(1<<(k&63)) != 0
}

func (m *matcher) token(b []byte, kind tokenKind) {
	head := m.head
	m.head = ""
	if kind != tokPart {
		m.skip = false
	} else if m.skip {
		return
	}
	if head != "" && kind == tokWord {
		// The word after a phrase head: the two may make the phrase.
		e := m.lookup(b)
		m.pair = append(append(m.pair[:0], head...), e.stem...)
		if t, ok := m.q.index[string(m.pair)]; ok {
			m.count(t)
		}
		m.match(e, kind)
		return
	}
	if !m.q.mayMatch(b) {
		return
	}
	m.match(m.lookup(b), kind)
}

func (m *matcher) lookup(b []byte) memoEntry {
	if e, ok := m.memo[string(b)]; ok {
		return e
	}
	s := string(b)
	e := memoEntry{stem: stemOf(s), term: -1}
	if i, ok := m.q.index[e.stem]; ok {
		e.term = i
	}
	if _, ok := m.q.heads[e.stem]; ok {
		e.head = true
	}
	m.memo[s] = e
	return e
}

func (m *matcher) match(e memoEntry, kind tokenKind) {
	if e.head && kind == tokWord {
		m.head = e.stem
	}
	if e.term < 0 {
		return
	}
	m.skip = kind == tokWhole
	m.count(e.term)
}

func (m *matcher) count(t int32) {
	for i := range m.hits {
		if m.hits[i].term == t {
			if m.hits[i].n[m.field] < math.MaxUint16 {
				m.hits[i].n[m.field]++
			}
			return
		}
	}
	m.hits = append(m.hits, termCount{term: t})
	m.hits[len(m.hits)-1].n[m.field] = 1
}

// scanEntry feeds every field of e to the matcher.
func (m *matcher) scanEntry(z *tokenizer, e *mdstore.Entry) {
	matchers{m}.scanEntry(z, e)
}

// matchers are the matchers of several queries fed by one tokenizing pass:
// tokenizing is most of ranking's work, and the scout asks up to three
// queries at once. Each matcher keeps its own state (the phrase head, the
// parts skipped after a joined form), so each sees what it would alone.
type matchers []*matcher

func (ms matchers) token(b []byte, kind tokenKind) {
	for _, m := range ms {
		m.token(b, kind)
	}
}

func (ms matchers) scanEntry(z *tokenizer, e *mdstore.Entry) {
	var out sink = ms
	if len(ms) == 1 {
		out = ms[0]
	}
	for _, m := range ms {
		m.hits = m.hits[:0]
	}
	ms.field(fMain)
	ms.scan(z, out, e.Issue)
	ms.scan(z, out, e.Body)
	ms.field(fFix)
	ms.scan(z, out, e.Fix)
	ms.field(fContext)
	ms.scan(z, out, e.Context)
	ms.field(fMeta)
	ms.scan(z, out, e.Category)
	ms.scan(z, out, e.Task)
	for _, t := range e.Tasks {
		if t != e.Task {
			ms.scan(z, out, t)
		}
	}
}

func (ms matchers) field(f int) {
	for _, m := range ms {
		m.field = f
	}
}

// scan feeds one text to the matchers; a phrase never spans two texts.
func (ms matchers) scan(z *tokenizer, out sink, s string) {
	for _, m := range ms {
		m.head = ""
	}
	z.scan(s, out)
}

func fieldLens(e *mdstore.Entry) [nFields]int {
	return [nFields]int{len(e.Issue) + len(e.Body), len(e.Fix), len(e.Context), 0}
}

func eligible(e *mdstore.Entry, kinds []mdstore.Kind) bool {
	if e.Status == mdstore.Archived {
		return false
	}
	if len(kinds) == 0 {
		return true
	}
	for _, k := range kinds {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// Rank returns the entries most relevant to query, best first, at most
// opt.Limit of them. Archived entries and kinds not in opt.Kinds are left
// out; equal scores are ordered by recurrence, recency, then id.
func Rank(entries []mdstore.Entry, query string, opt Options) []Hit {
	return rank(entries, parseQuery(query), opt, limitOf(opt))
}

func limitOf(opt Options) int {
	if opt.Limit <= 0 {
		return DefaultLimit
	}
	return opt.Limit
}

// posting is one query term found in one candidate entry, its field-weighted
// and length-normalized frequency already folded into tf.
type posting struct {
	term int32
	tf   float32
}

type candidate struct {
	entry  int32
	off, n int32 // its postings
}

// scanned is what one pass found for one query: its terms' document
// frequencies and, per matching entry, its postings.
type scanned struct {
	df    []int
	cands []candidate
	posts []posting
}

// scanAll tokenizes every eligible entry once and returns, for each query,
// what it found. Large memories are split across cores; each worker has
// its own matchers, and the parts are joined in entry order, so the result
// is the same as one pass.
func scanAll(entries []mdstore.Entry, qs []*query, opt Options, avg [nFields]float64) []scanned {
	scan := func(from, to int) []scanned {
		ms := make(matchers, len(qs))
		out := make([]scanned, len(qs))
		for i, q := range qs {
			ms[i] = &matcher{q: q, memo: make(map[string]memoEntry, 256)}
			out[i].df = make([]int, len(q.terms))
		}
		var z tokenizer
		for i := from; i < to; i++ {
			e := &entries[i]
			if !eligible(e, opt.Kinds) {
				continue
			}
			ms.scanEntry(&z, e)
			lens := fieldLens(e)
			for qi, m := range ms {
				if len(m.hits) == 0 {
					continue
				}
				p := &out[qi]
				off := len(p.posts)
				for _, h := range m.hits {
					var tf float64
					for f, c := range h.n {
						if c == 0 {
							continue
						}
						norm := 1 - fieldB[f] + fieldB[f]*float64(lens[f])/avg[f]
						tf += fieldWeight[f] * float64(c) / norm
					}
					p.df[h.term]++
					p.posts = append(p.posts, posting{term: h.term, tf: float32(tf)})
				}
				p.cands = append(p.cands, candidate{entry: int32(i), off: int32(off), n: int32(len(p.posts) - off)})
			}
		}
		return out
	}
	workers := min(runtime.GOMAXPROCS(0), len(entries)/parallelMin)
	if workers <= 1 {
		return scan(0, len(entries))
	}
	parts := make([][]scanned, workers)
	per := (len(entries) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range parts {
		from, to := w*per, min((w+1)*per, len(entries))
		wg.Add(1)
		go func() {
			defer wg.Done()
			parts[w] = scan(from, to)
		}()
	}
	wg.Wait()
	out := make([]scanned, len(qs))
	for qi, q := range qs {
		r := &out[qi]
		r.df = make([]int, len(q.terms))
		for _, part := range parts {
			p := part[qi]
			for t, d := range p.df {
				r.df[t] += d
			}
			base := int32(len(r.posts))
			for _, c := range p.cands {
				c.off += base
				r.cands = append(r.cands, c)
			}
			r.posts = append(r.posts, p.posts...)
		}
	}
	return out
}

// parallelMin is the number of entries per extra scanning goroutine below
// which ranking stays on one core.
const parallelMin = 2500

func rank(entries []mdstore.Entry, q *query, opt Options, k int) []Hit {
	return rankMany(entries, []*query{q}, opt, k)[0]
}

// rankMany ranks entries against each query, at most k hits each, with one
// pass over the entries for all of them.
func rankMany(entries []mdstore.Entry, qs []*query, opt Options, k int) [][]Hit {
	out := make([][]Hit, len(qs))
	var live []*query
	var at []int // live query → its place in qs
	for i, q := range qs {
		if len(q.terms) > 0 && k > 0 {
			live = append(live, q)
			at = append(at, i)
		}
	}
	if len(live) == 0 {
		return out
	}
	// Average field lengths, in bytes: tokens would need a second
	// tokenizing pass, and bytes normalize length just as well.
	var sum [nFields]float64
	var cnt [nFields]int
	n := 0
	for i := range entries {
		e := &entries[i]
		if !eligible(e, opt.Kinds) {
			continue
		}
		n++
		for f, l := range fieldLens(e) {
			if l > 0 {
				sum[f] += float64(l)
				cnt[f]++
			}
		}
	}
	var avg [nFields]float64
	for f := range avg {
		avg[f] = 1
		if cnt[f] > 0 {
			avg[f] = sum[f] / float64(cnt[f])
		}
	}
	for i, r := range scanAll(entries, live, opt, avg) {
		out[at[i]] = score(entries, live[i], r, n, opt, k)
	}
	return out
}

// score turns one query's postings into its top k hits.
func score(entries []mdstore.Entry, q *query, r scanned, n int, opt Options, k int) []Hit {
	if len(r.cands) == 0 {
		return nil
	}
	idf := make([]float64, len(q.terms))
	for t := range idf {
		d := float64(r.df[t])
		idf[t] = math.Pow(math.Log(1+(float64(n)-d+0.5)/(d+0.5)), idfExp)
	}
	sc := newScorer(q)
	top := topK{k: k, entries: entries}
	for _, c := range r.cands {
		score, risk := sc.score(r.posts[c.off:c.off+c.n], idf)
		l := lift(&entries[c.entry], opt.Now)
		// The floor judges a match of a task area's risks as it would the
		// same words said in the request: a lesson that shares only a
		// specific risk with the request is what the areas are for, and
		// at riskWeight it would fall under the floor of any strong hit.
		top.offer(c.entry, score*l, (score-risk+risk/riskWeight)*l)
	}
	hits := top.sorted()
	if len(hits) > 0 {
		floor := hits[0].Score * relFloor
		kept := hits[:0]
		for i, h := range hits {
			if top.heap[i].pass >= floor {
				kept = append(kept, h)
			}
		}
		hits = kept
	}
	return hits
}

// scorer combines an entry's postings into its score, and says how much of
// it comes from task areas' risks; its slices are scratch space reused
// across entries.
//
// A slot (one query word with its abbreviations, synonyms and concept
// words) is scored as one BM25 term whose frequency is the weighted sum of
// its stems' frequencies, and whose idf is theirs, averaged with the same
// weights: the usual way to fold synonyms into BM25. An entry saying
// "stall", "timeout" and "forever" about the query's "hangs" thus gathers
// evidence from all three, while saturation keeps one concept, however
// often it is spelled, from outweighing another query word; and a stem
// counts for the slot as much as its weight, so the word itself always
// beats its expansions.
type scorer struct {
	q       *query
	tf      []float64 // per slot: weighted frequency of its stems
	idf     []float64 // per slot: weighted sum of their idf times frequency
	whole   []float64 // per group: its joined form's contribution
	parts   []float64 // per group: the sum of its parts' contributions
	touched []int32
	// Per task area, as tf and idf per slot: its risks' frequency and
	// idf times frequency.
	areaTf, areaIdf [8]float64
}

func newScorer(q *query) *scorer {
	return &scorer{
		q:     q,
		tf:    make([]float64, len(q.slotGroup)),
		idf:   make([]float64, len(q.slotGroup)),
		whole: make([]float64, len(q.groupWhole)),
		parts: make([]float64, len(q.groupWhole)),
	}
}

func (s *scorer) score(ps []posting, idf []float64) (score, risk float64) {
	q := s.q
	for _, p := range ps {
		t := &q.terms[p.term]
		for a := t.areas; a != 0; a &= a - 1 {
			k := bits.TrailingZeros8(a)
			s.areaTf[k] += float64(p.tf)
			s.areaIdf[k] += float64(p.tf) * idf[p.term]
		}
		if t.slot < 0 {
			continue
		}
		// Weight relative to the word that opened the slot.
		w := t.weight / q.terms[q.slotTerm[t.slot]].weight
		tf := w * float64(p.tf)
		s.tf[t.slot] += tf
		s.idf[t.slot] += tf * idf[p.term]
	}
	s.touched = s.touched[:0]
	for _, p := range ps {
		sl := q.terms[p.term].slot
		if sl < 0 {
			continue
		}
		tf := s.tf[sl]
		if tf == 0 {
			continue // taken already, through another stem of the slot
		}
		v := q.terms[q.slotTerm[sl]].weight * s.idf[sl] / tf * tf * (k1 + 1) / (k1 + tf)
		s.tf[sl], s.idf[sl] = 0, 0
		g := q.slotGroup[sl]
		if s.whole[g] == 0 && s.parts[g] == 0 {
			s.touched = append(s.touched, g)
		}
		if q.groupWhole[g] == sl {
			s.whole[g] = v
		} else {
			s.parts[g] += v
		}
	}
	for _, g := range s.touched {
		score += math.Max(s.whole[g], s.parts[g])
		s.whole[g], s.parts[g] = 0, 0
	}
	// Each task area the request names is one more term, of its risks
	// together, at riskWeight.
	for k := 0; k < q.areas; k++ {
		if tf := s.areaTf[k]; tf > 0 {
			risk += riskWeight * s.areaIdf[k] / tf * tf * (k1 + 1) / (k1 + tf)
			s.areaTf[k], s.areaIdf[k] = 0, 0
		}
	}
	return score + risk, risk
}

// lift is the modest boost for lessons that keep coming back and for those
// seen lately: at most 1 + recurrenceLift + recencyLift.
func lift(e *mdstore.Entry, now time.Time) float64 {
	l := 1.0
	if e.Seen > 1 {
		l += recurrenceLift * math.Min(math.Log(float64(e.Seen))/math.Log(16), 1)
	}
	if !now.IsZero() {
		l += recencyLift * recency(e, now)
	}
	return l
}

// recency is 1 for an entry seen at now, falling off exponentially with age;
// 0 when the entry has no date.
func recency(e *mdstore.Entry, now time.Time) float64 {
	d := e.LastSeen
	if d == "" {
		d = e.Date
	}
	t, ok := parseDate(d)
	if !ok {
		return 0
	}
	age := now.Sub(t).Hours() / 24
	if age < 0 {
		age = 0
	}
	return math.Exp(-age / recencyDays)
}

// parseDate reads YYYY-MM-DD without time.Parse, which is slow enough to
// show when every candidate needs it.
func parseDate(s string) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	num := func(s string) (int, bool) {
		v := 0
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
			v = v*10 + int(s[i]-'0')
		}
		return v, true
	}
	y, ok1 := num(s[:4])
	mo, ok2 := num(s[5:7])
	d, ok3 := num(s[8:])
	if !ok1 || !ok2 || !ok3 || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC), true
}

func expansionsOf() map[string][]expansion { e, _ := vocabulary(); return e }

func phraseHeadsOf() map[string]string { _, h := vocabulary(); return h }
