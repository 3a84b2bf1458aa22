package capture

import (
	"cmp"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Recurrence: a lesson is "the same" as one in memory when a later review
// makes the same point in other words, about another task or file. Exact
// repeats (a review re-run) have the same content id; paraphrases are found
// by comparing the lessons' terms:
//
//   - terms are the words of the issue and fix, lower-cased, with stop words
//     dropped, review synonyms folded (absent/missing, folder/dir …, and
//     the thesaurus in words.go) and a light suffix stemmer, so
//     "retries"/"retry", "cached"/"cache" meet; identifiers and literals
//     (`t.TempDir`, HOME, --workdir, %w) count whole and by their parts;
//   - each term weighs its inverse document frequency: how rare the word is
//     in programming prose (a background list built from code comments and
//     manuals, words.go) and, as the memory grows, in this memory. Sharing
//     "omitempty" says far more than sharing "returns"; the background
//     keeps the weights sensible in a memory of a dozen lessons, where the
//     memory's own counts mean little, and the memory's counts take over in
//     a large one, where a project's everyday words ("hook", "flowctl")
//     should stop counting as evidence;
//   - character trigrams of the content words (generic review vocabulary
//     left out) let "serialize" meet "serialization" and "closes over" meet
//     "closure".
//
// The score adds two parts. The first is the weighted Dice coefficient of
// the terms, blended with the Jaccard index of the trigrams and scaled up
// for long lessons (two long findings sharing a third of their terms is
// stronger evidence than two short ones sharing as much). The second is
// how much of each lesson's fix the other one holds: a later review that
// makes the same point nearly always asks for the same remedy, while a
// near miss — same subject, another lesson — asks for another. A lesson
// folds into the best-scoring entry at or above foldThreshold.
//
// Lexical overlap cannot tell every paraphrase from a near miss (a lesson
// that shares most words but differs in the one that matters, HOME vs
// --workdir): the threshold leans towards keeping lessons apart, because a
// false merge loses a lesson while a missed fold only leaves a duplicate.
// The constants were chosen by leaving each labelled set out in turn
// (threshold fitted on the other three, scored on the one left out), among
// a handful of settings; the one kept is where that choice is stable (the
// same threshold from every three sets) and no set left out goes over 2%
// false merges. testdata/capture/recurrence/README.md has the figures.

const (
	// foldThreshold is the score at which a lesson folds into an entry.
	foldThreshold = 0.46
	// wordShare is the weight of the term part against the trigram part.
	wordShare = 0.4
	// sizeNorm is the combined term weight (geometric mean of both
	// lessons, in idf units) of a typical one-sentence lesson; longer
	// lessons get their score scaled up by (size/sizeNorm)^sizeExp.
	sizeNorm = 60
	sizeExp  = 0.45
	// fixShare is the weight of the fix part against the rest.
	fixShare = 0.25
	// priorDocs is how many lessons the background counts as: the memory's
	// own document frequencies outweigh it once the memory is larger.
	priorDocs = 200
	// anchorIDF is the background idf of an identifier or literal that is
	// not an English word: as rare as the rarest words in the list.
	anchorIDF = 10.8
)

// term is one hashed feature with its weight.
type term struct {
	h   uint64
	w   float32
	fix bool // the term appears in the lesson's fix
}

// lessonFeatures is the comparable form of a lesson.
type lessonFeatures struct {
	terms    []term  // sorted by h, unique
	grams    gramSet // character trigrams of the content words
	total    float32 // sum of term weights
	fixTotal float32 // sum of the weights of the fix's terms
}

// mix spreads FNV's weak low bits before gramSet uses them.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// gramSet is a 4,096-bit set of trigram hashes. A lesson has a few hundred
// trigrams, so collisions are rare, and set operations are a few popcounts
// instead of a sort and a merge.
type gramSet [64]uint64

func (g *gramSet) add(h uint64) { g[h>>6&63] |= 1 << (h & 63) }

// hash64 is FNV-1a: deterministic, so a lesson's features (and the
// matcher's borderline decisions) are the same in every process.
func hash64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// wordInfo is what one lower-cased word contributes to a lesson's features.
type wordInfo struct {
	skip    bool // a stop word
	generic bool // generic review vocabulary
	folded  bool // a thesaurus word, folded into its group's
	stem    uint64
	bg      float32 // background idf
	key     uint32  // memory-count cell of the word
	grams   []uint64
	w       cachedWeight
}

// cachedWeight is an idf and the version of the matcher's counts it was
// computed for (ver+1), packed in one word: builders running side by side
// (featuresOf) read and refresh it without a lock.
type cachedWeight struct{ v atomic.Uint64 }

// get returns the weight for version ver, computing and keeping it with
// compute when it is for another.
func (c *cachedWeight) get(ver uint32, compute func() float32) float32 {
	if v := c.v.Load(); uint32(v>>32) == ver+1 {
		return math.Float32frombits(uint32(v))
	}
	w := compute()
	c.v.Store(uint64(ver+1)<<32 | uint64(math.Float32bits(w)))
	return w
}

// analyzeWord: stop words are skipped; synonyms fold; generic review words
// contribute no trigrams (they would make every two findings look alike
// letter by letter).
func analyzeWord(lw string) *wordInfo {
	if stopWords()[lw] {
		return &wordInfo{skip: true}
	}
	wi := &wordInfo{bg: backgroundIDF(lw), key: countCell(lw)}
	if s, ok := synonyms()[lw]; ok {
		// The group's word is as common as its most common spelling.
		wi.bg = min(wi.bg, backgroundIDF(s))
		wi.folded = true
		lw = s
	}
	st := stem(lw)
	wi.stem = hash64(st)
	wi.generic = genericStems()[st] || genericWords()[lw]
	if !wi.generic {
		wi.grams = trigrams(lw)
	}
	return wi
}

// backgroundIDF is −ln of the share of background documents holding the
// word; words rarer than the list's cut-off get the cut-off's value plus a
// margin, numbers a middling value.
func backgroundIDF(lw string) float32 {
	if v, ok := background()[lw]; ok {
		return v
	}
	if isDigits(lw) {
		return 6.9
	}
	return 9.9
}

// trigrams returns the character trigrams of a word, padded at both ends.
func trigrams(w string) []uint64 {
	p := "^" + w + "$"
	out := make([]uint64, 0, len(p)-2)
	for i := 0; i+3 <= len(p); i++ {
		out = append(out, mix(hash64(p[i:i+3])))
	}
	return out
}

type featureBuilder struct {
	m     *Matcher
	terms []term
	grams gramSet
	buf   []byte
	// own, for a builder running beside others, holds the words and
	// identifiers it analysed that the matcher's lexicon lacks (which it
	// then only reads); nil when the builder adds them there.
	own *lexicon
	// record keeps in refs what each term came from, for the match
	// cache to keep the analysis (featcache.go).
	record bool
	refs   []featRef
}

func (b *featureBuilder) add(text string, fix bool) {
	forEachToken(text, func(tok string) {
		if isAnchor(tok) {
			a := b.anchor(tok)
			if a.h != 0 {
				b.terms = append(b.terms, term{a.h, b.m.anchorWeight(a), fix})
				if b.record {
					b.refs = append(b.refs, featRef{a: a, fix: fix})
				}
			}
			for _, wi := range a.parts {
				b.addWord(wi, fix)
			}
			return
		}
		if wi := b.word(tok); wi != nil {
			b.addWord(wi, fix)
		}
	})
}

// word is the analysis of a word as the lesson spells it; nil for one
// that does not count (too short, or a stop word).
func (b *featureBuilder) word(w string) *wordInfo {
	if len(w) < 2 && !isDigits(w) {
		return nil
	}
	b.buf = appendLower(b.buf[:0], w)
	var wi *wordInfo
	if b.own == nil {
		wi = b.m.lex.word(b.buf)
	} else if wi = b.m.lex.words[string(b.buf)]; wi == nil {
		wi = b.own.word(b.buf)
	}
	if wi.skip {
		return nil
	}
	return wi
}

func (b *featureBuilder) addWord(wi *wordInfo, fix bool) {
	for _, h := range wi.grams {
		b.grams.add(h)
	}
	b.terms = append(b.terms, term{wi.stem, b.m.wordWeight(wi), fix})
	if b.record {
		b.refs = append(b.refs, featRef{w: wi, fix: fix})
	}
}

// anchor is the analysis of an identifier token, cached: its own term,
// when it has one, and the words it counts as. "sign-in" is a spelling of
// a word; t.TempDir counts whole and as "t", "temp" and "dir".
func (b *featureBuilder) anchor(tok string) *anchorInfo {
	if a := b.m.lex.anchors[tok]; a != nil {
		return a
	}
	l := &b.m.lex
	if b.own != nil {
		if a := b.own.anchors[tok]; a != nil {
			return a
		}
		l = b.own
	}
	a := &anchorInfo{}
	whole := strings.ToLower(strings.Trim(tok, "-./:"))
	switch {
	case len(whole) < 2:
	case synonyms()[whole] != "":
		if wi := b.word(synonyms()[whole]); wi != nil {
			a.parts = []*wordInfo{wi}
		}
		l.addAnchor(tok, a)
		return a
	default:
		a.h = hash64("§" + whole)
		a.bg = anchorIDF
		if v, ok := background()[whole]; ok {
			a.bg = v // HOME, JSON: an identifier that is also a word
		}
		a.cells = anchorCells(tok)
	}
	splitIdent(tok, func(part string) {
		if wi := b.word(part); wi != nil {
			a.parts = append(a.parts, wi)
		}
	})
	l.addAnchor(tok, a)
	return a
}

func (b *featureBuilder) finish() lessonFeatures {
	f := lessonFeatures{grams: b.grams}
	f.finishTerms(b.terms)
	return f
}

// finishTerms makes f's terms of ts, in place: the analysis and the match
// cache's rebuild of it (featcache.go) end here alike.
func (f *lessonFeatures) finishTerms(ts []term) {
	sortTerms(ts)
	// A term counts once, with its heaviest weight; it belongs to the fix
	// if any occurrence does.
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && out[n-1].h == t.h {
			out[n-1].w = max(out[n-1].w, t.w)
			out[n-1].fix = out[n-1].fix || t.fix
			continue
		}
		out = append(out, t)
	}
	f.terms, f.total, f.fixTotal = out, 0, 0
	for _, t := range out {
		f.total += t.w
		if t.fix {
			f.fixTotal += t.w
		}
	}
}

// sortTerms sorts terms by hash. A lesson has a few dozen, where an
// insertion sort beats a general one, whose comparisons are calls.
func sortTerms(ts []term) {
	if len(ts) > 64 {
		slices.SortFunc(ts, func(x, y term) int { return cmp.Compare(x.h, y.h) })
		return
	}
	for i := 1; i < len(ts); i++ {
		t := ts[i]
		j := i
		for ; j > 0 && ts[j-1].h > t.h; j-- {
			ts[j] = ts[j-1]
		}
		ts[j] = t
	}
}

// overlap is what two lessons' terms share: the lighter weight of each
// common term, in all and restricted to each lesson's fix.
func overlap(a, b *lessonFeatures) (inter, aFix, bFix float32) {
	i, j := 0, 0
	for i < len(a.terms) && j < len(b.terms) {
		x, y := &a.terms[i], &b.terms[j]
		switch {
		case x.h < y.h:
			i++
		case x.h > y.h:
			j++
		default:
			w := min(x.w, y.w)
			inter += w
			if x.fix {
				aFix += w
			}
			if y.fix {
				bFix += w
			}
			i++
			j++
		}
	}
	return inter, aFix, bFix
}

// gramSimilarity is the Jaccard index of two lessons' trigram sets.
func gramSimilarity(a, b *lessonFeatures) float32 {
	inter, union := 0, 0
	for i := range a.grams {
		inter += bits.OnesCount64(a.grams[i] & b.grams[i])
		union += bits.OnesCount64(a.grams[i] | b.grams[i])
	}
	if union == 0 {
		return 0
	}
	return float32(inter) / float32(union)
}

// score is how likely a and b are the same lesson; see the comment at the
// top of the file.
func score(a, b *lessonFeatures) float32 {
	if a.total <= 0 || b.total <= 0 {
		return 0
	}
	inter, aFix, bFix := overlap(a, b)
	dice := 2 * inter / (a.total + b.total)
	s := wordShare*dice + (1-wordShare)*gramSimilarity(a, b)
	size := math.Sqrt(float64(a.total)*float64(b.total)) / sizeNorm
	s *= float32(math.Pow(size, sizeExp))
	// The fix part: the share of each fix the other lesson holds. A lesson
	// without a fix (a note added by hand) is judged on the rest alone.
	var cover float32
	n := 0
	if a.fixTotal > 0 {
		cover += aFix / a.fixTotal
		n++
	}
	if b.fixTotal > 0 {
		cover += bFix / b.fixTotal
		n++
	}
	if n == 0 {
		return s
	}
	return (s + fixShare*cover/float32(n)) / (1 + fixShare)
}

// Matcher finds the entry in memory that a new lesson repeats.
//
// Memory can hold tens of thousands of entries and the hook has a few
// milliseconds, so entries are not all analysed. One cheap pass over their
// text gives each entry a 1,024-bit signature of its word prefixes, and
// counts the words of a sample of them (the memory's document
// frequencies); a lesson is then compared in full only with the entries
// whose signature holds enough of its telling words, by weight. Counts,
// signatures, analysed words and the features of compared entries are
// kept across the calls of one Upsert, so after the pass the cost scales
// with the candidates, not with the memory. With a CachePath the pass
// itself is kept between processes (matchcache.go): a hook then only
// checks each entry against it and scans what was appended since.
// A zero Matcher works without one.
type Matcher struct {
	// Per entry of the memory, by index: kept in separate slices so the
	// signatures, most of the matcher's memory, hold no pointers for the
	// garbage collector to scan.
	idHash  []uint64 // hash64 of each entry's id
	firstID string   // the first and last ids seen, to tell an append
	lastID  string   // from another memory
	sigs    []signature
	feats   map[int]*lessonFeatures // only for entries that were candidates
	kinds   map[int][]int32         // the kinds of entries that were candidates (kinds.go)

	table   *countTable // sampled entries holding each word prefix
	nDocs   int         // entries in memory
	every   int         // every how many entries one is counted
	ver     uint32      // changes whenever the counts do
	lex     lexicon
	scratch []term // features' working space
	buf     []byte

	// CachePath, when set, is the match cache (matchcache.go) the first
	// pass over a memory reads, and SaveCache writes.
	CachePath string
	save      *matchState // what SaveCache writes; nil when the cache is current
	reused    int         // entries whose signature came from the cache
	// base is the cache's state of the memory as read, which SaveCache
	// also writes when matching analysed many entries the cache lacked:
	// fresh, the analyses of the entries of the memory as read
	// (featcache.go). nil without a cache.
	base  *matchState
	fresh []freshFeat
	// fc holds the analyses the cache kept, and cachedAt the place of
	// each entry's in it, or -1; nil when there are none.
	fc       *featCache
	cachedAt []int32
	pre      chan *matchState // the cache Preload is reading
}

// anchorInfo is what one identifier token contributes to a lesson's
// features, cached like wordInfo.
type anchorInfo struct {
	h     uint64 // 0 when the token is a spelling of a word, or too short
	bg    float32
	w     cachedWeight
	parts []*wordInfo // the words it counts as, in order
	cells []uint32    // its words' count cells (anchorCells), when h != 0
}

// lexicon caches the analysis of words and identifiers, which depends on
// nothing but their spelling.
type lexicon struct {
	words   map[string]*wordInfo
	anchors map[string]*anchorInfo
}

// countSample is how many entries the pass counts words of: enough for
// the words a large memory uses in one entry in twenty or more to show
// (those are the ones whose weight the memory should lower), at a cost
// that does not grow with the memory. Smaller memories are counted whole.
const countSample = 400

// countBits sizes the count table: 2^14 cells, so a full sample's ~12,000
// words land under one to a cell. Each word is counted in two cells and
// read from the smaller (a count-min sketch): a rare word whose cell it
// shares with a common one still has its other cell to itself.
const countBits = 14

// countCell maps a lower-cased word to its two count cells by its first
// five bytes, so "validate" and "validation" share a count as they share a
// stem.
func countCell(lw string) uint32 {
	var x uint64
	for i := 0; i < len(lw) && i < 5; i++ {
		x |= uint64(lw[i]) << (8 * i)
	}
	return cellOf(x, len(lw))
}

// cellOf hashes up to five packed bytes and the word's length, capped, to
// two cells: the low countBits bits and the next countBits.
func cellOf(packed uint64, n int) uint32 {
	return uint32(mix(packed|uint64(min(n, 5))<<40) >> (64 - 2*countBits))
}

const cellMask = 1<<countBits - 1

// count is the estimated number of entries in memory holding the word of
// a cell pair.
func (m *Matcher) count(cells uint32) float32 {
	t := m.table
	if t == nil || t.sampled == 0 {
		return 0
	}
	c := float32(min(t.counts[cells&cellMask], t.counts[cells>>countBits])) - float32(t.n)/float32(len(t.counts))
	return max(c, 0) * float32(m.nDocs) / float32(t.sampled)
}

// anchorCount estimates how many entries hold an identifier: as many as
// hold its rarest word, which is right for the identifier itself when that
// word only occurs in it.
func (m *Matcher) anchorCount(tok string) float32 {
	n := float32(math.MaxFloat32)
	var buf [64]byte
	forEachWord(tok, func(w string) {
		n = min(n, m.count(countCell(string(appendLower(buf[:0], w)))))
	})
	if n == math.MaxFloat32 {
		return 0
	}
	return n
}

// anchorCells are the count cells of an identifier's words, the ones
// anchorCount reads: kept with the identifier so that its weight, here
// and from the match cache, is computed from them alone.
func anchorCells(tok string) []uint32 {
	var cells []uint32
	var buf [64]byte
	forEachWord(tok, func(w string) {
		cells = append(cells, countCell(string(appendLower(buf[:0], w))))
	})
	return cells
}

// cellsCount is anchorCount from an identifier's cells; for a word's one
// cell it is count, exactly.
func (m *Matcher) cellsCount(cells []uint32) float32 {
	n := float32(math.MaxFloat32)
	for _, c := range cells {
		n = min(n, m.count(c))
	}
	if n == math.MaxFloat32 {
		return 0
	}
	return n
}

// idf of a term: the background is worth priorDocs lessons, each holding
// the term with its background probability.
func (m *Matcher) idf(bg, df float32) float32 {
	v := math.Log(float64(float32(m.nDocs)+priorDocs) / float64(df+priorDocs*float32(math.Exp(-float64(bg)))))
	return float32(max(v, 0))
}

// wordWeight is a word's idf, cached until the counts change.
func (m *Matcher) wordWeight(wi *wordInfo) float32 {
	return wi.w.get(m.ver, func() float32 { return m.idf(wi.bg, m.count(wi.key)) })
}

// anchorWeight is an identifier's idf, cached until the counts change.
func (m *Matcher) anchorWeight(a *anchorInfo) float32 {
	return a.w.get(m.ver, func() float32 { return m.idf(a.bg, m.cellsCount(a.cells)) })
}

// word is the analysis of a lower-cased word, cached. (Indexing the map
// with string(lw) does not copy lw; only a new word is copied, to keep.)
func (l *lexicon) word(lw []byte) *wordInfo {
	if wi := l.words[string(lw)]; wi != nil {
		return wi
	}
	wi := analyzeWord(string(lw))
	if l.words == nil {
		l.words = map[string]*wordInfo{}
	}
	l.words[string(lw)] = wi
	return wi
}

func (l *lexicon) addAnchor(tok string, a *anchorInfo) {
	if l.anchors == nil {
		l.anchors = map[string]*anchorInfo{}
	}
	l.anchors[tok] = a
}

// merge adds to l what o has and l lacks (the same analysis either way).
func (l *lexicon) merge(o *lexicon) {
	for k, v := range o.words {
		if l.words == nil {
			l.words = make(map[string]*wordInfo, len(o.words))
		}
		if l.words[k] == nil {
			l.words[k] = v
		}
	}
	for k, v := range o.anchors {
		if l.anchors == nil {
			l.anchors = make(map[string]*anchorInfo, len(o.anchors))
		}
		if l.anchors[k] == nil {
			l.anchors[k] = v
		}
	}
}

func (m *Matcher) features(issue, fix string) lessonFeatures {
	b := featureBuilder{m: m, terms: m.scratch[:0], buf: m.buf[:0]}
	b.add(issue, false)
	b.add(fix, true)
	f := b.finish()
	m.scratch, m.buf = b.terms[:0], b.buf
	// The terms are kept; the scratch space is reused.
	f.terms = slices.Clone(f.terms)
	return f
}

// sigBits: signatures of 2^10 bits. A lesson sets a few dozen, so an
// unrelated entry holds a given key word's bit by chance about 3% of the
// time, and the prefilter's cost is one load per key word and entry.
const sigBits = 10

// signature is a Bloom-style set of the 4-byte lower-cased prefixes of an
// entry's words: "retries", "retry" and "retried" share "retr".
type signature [1 << sigBits / 64]uint64

func (s *signature) add(idx uint32) { s[idx>>6&uint32(len(s)-1)] |= 1 << (idx & 63) }

func (s *signature) has(idx uint32) bool { return s[idx>>6&uint32(len(s)-1)]&(1<<(idx&63)) != 0 }

// forEachWord calls fn with every word of three or more bytes (and every
// number of two or more digits) in s: runs of ASCII letters and digits or
// non-ASCII bytes.
func forEachWord(s string, fn func(word string)) {
	for i := 0; i < len(s); {
		if !prefixByte[s[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && prefixByte[s[j]] {
			j++
		}
		if n := j - i; n >= 3 || n == 2 && isDigits(s[i:j]) {
			fn(s[i:j])
		}
		i = j
	}
}

// prefixIndex maps a word's first four bytes, lower-cased, to a signature
// bit (multiplicative hashing; the top bits are the good ones).
func prefixIndex(w string) uint32 {
	var x uint32
	switch {
	case len(w) >= 4:
		x = uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
	case len(w) == 3:
		x = uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16
	default:
		x = uint32(w[0]) | uint32(w[1])<<8
	}
	// Setting bit 5 of every byte lower-cases ASCII letters and leaves
	// digits as they are; other bytes change consistently.
	x |= 0x20202020
	return (x * 2654435761) >> (32 - sigBits)
}

// scanEntry is the one pass over an entry's text: its signature and, when
// t is not nil, its words added to t's counts once each (stamp marks the
// cells this entry has counted). Written out rather than through
// forEachWord: it runs over every entry in memory.
func scanEntry(sig *signature, t *countTable, stamp uint32, texts ...string) {
	for _, s := range texts {
		for i := 0; i < len(s); {
			if !prefixByte[s[i]] {
				i++
				continue
			}
			j := i + 1
			for j < len(s) && prefixByte[s[j]] {
				j++
			}
			if n := j - i; n >= 3 || n == 2 && isDigits(s[i:j]) {
				w := s[i:j]
				sig.add(prefixIndex(w))
				if t != nil {
					var packed uint64
					for x := 0; x < len(w) && x < 5; x++ {
						c := w[x]
						if c >= 'A' && c <= 'Z' {
							c += 'a' - 'A'
						}
						packed |= uint64(c) << (8 * x)
					}
					cells := cellOf(packed, len(w))
					for _, cell := range [2]uint32{cells & cellMask, cells >> countBits} {
						if t.stamp[cell] != stamp && t.counts[cell] < math.MaxUint16 {
							t.stamp[cell] = stamp
							t.counts[cell]++
							t.n++
						}
					}
				}
			}
			i = j
		}
	}
}

// prefixByte marks the bytes of words for signatures and counts.
var prefixByte = func() (w [256]bool) {
	for c := 0; c < 256; c++ {
		w[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
	}
	return
}()

// sync brings the per-entry state and the memory's counts up to date with
// existing: Upsert appends to it between calls, so normally only the new
// tail is scanned. Anything else (an entry replaced) starts over. The
// first pass over a memory goes through the match cache when the matcher
// has a CachePath (matchcache.go).
func (m *Matcher) sync(existing []mdstore.Entry) {
	// Upsert only appends to the slice it passes back in. Anything else
	// (another memory, an entry replaced) starts over; the ends of what was
	// seen tell, without reading every entry again.
	if n := len(m.idHash); n > 0 && (n > len(existing) || existing[0].ID != m.firstID || existing[n-1].ID != m.lastID) {
		// The analysed words stay; their weights are recomputed (ver).
		*m = Matcher{CachePath: m.CachePath, lex: m.lex, ver: m.ver}
	}
	from := len(m.idHash)
	if from == len(existing) {
		return
	}
	if from == 0 {
		// The sampling step is fixed by the memory's size when it is
		// first seen: the lessons Upsert appends later are counted at
		// the same step.
		m.every = max(1, len(existing)/countSample)
		m.feats = map[int]*lessonFeatures{}
		m.kinds = map[int][]int32{}
		m.save = nil
	}
	if from == 0 && m.CachePath != "" && len(existing) >= matchCacheMinEntries {
		m.syncFromCache(existing)
	} else {
		if m.table == nil {
			m.table = newCountTable()
		}
		for i := from; i < len(existing); i++ {
			m.idHash = append(m.idHash, hash64(existing[i].ID))
		}
		m.sigs = slices.Grow(m.sigs, len(existing)-from)[:len(existing)]
		m.scan(existing, len(existing)-from, func(k int) int { return from + k })
	}
	m.firstID, m.lastID = existing[0].ID, existing[len(existing)-1].ID
	m.nDocs = len(existing)
	m.ver++
}

// scan is the pass over n entries, the k-th at index at(k): each one's
// signature and, for every every-th entry of memory, its words counted.
// It is split across the cores for a large memory: each part counts into
// its own table, and the parts are added up after. Counts are exact (one
// per sampled entry holding a word), so the split does not change them.
func (m *Matcher) scan(existing []mdstore.Entry, n int, at func(k int) int) {
	parts := parallelChunks(n, m.table, func(lo, hi int, t *countTable) {
		for k := lo; k < hi; k++ {
			i := at(k)
			m.sigs[i] = signature{}
			var ct *countTable
			if i%m.every == 0 {
				ct = t
				t.sampled++
			}
			scanEntry(&m.sigs[i], ct, uint32(i)+1, existing[i].Text(), existing[i].Fix)
		}
	})
	for _, t := range parts {
		if t == m.table {
			continue
		}
		for c, n := range t.counts {
			m.table.counts[c] = uint16(min(int(m.table.counts[c])+int(n), math.MaxUint16))
		}
		m.table.n += t.n
		m.table.sampled += t.sampled
	}
}

// parallelFor runs fn over [0, n) in one chunk per core, or in one call
// when n is too small for goroutines to pay.
func parallelFor(n int, fn func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/2000))
	if workers == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}

// parallelChunks runs fn over [0, n) as parallelFor does, the first chunk
// with the matcher's own count table and the others with tables of their
// own, which it returns (nil when it made none).
func parallelChunks(n int, own *countTable, fn func(lo, hi int, t *countTable)) []*countTable {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/2000))
	if workers == 1 {
		fn(0, n, own)
		return nil
	}
	parts := make([]*countTable, workers)
	var wg sync.WaitGroup
	for w := range workers {
		parts[w] = own
		if w > 0 {
			parts[w] = newCountTable()
		}
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { fn(lo, hi, parts[w]) })
	}
	wg.Wait()
	return parts
}

// countTable is the word counts of one part of the pass.
type countTable struct {
	counts  []uint16
	stamp   []uint32 // the entry (index+1) last counted in a cell
	n       int      // increments
	sampled int      // entries counted
}

func newCountTable() *countTable {
	return &countTable{counts: make([]uint16, 1<<countBits), stamp: make([]uint32, 1<<countBits)}
}

// prefilter holds a lesson's telling words as signature bits, each with
// the idf of its word, and the lesson's own signature.
type prefilter struct {
	key   signature // the telling words' bits
	w     [1 << sigBits]float32
	total float32
	sig   signature
	// words are the indexes of key's words that hold a bit, in order: a
	// lesson's telling words are in a few of them, and candidate runs
	// for every entry of memory.
	words []uint8
}

// prefilterOf: stop words, generic review vocabulary and thesaurus words
// are left out (an entry may say the same thing with another word of the
// group, whose prefix differs: "hangs" and "blocks").
func (m *Matcher) prefilterOf(texts ...string) *prefilter {
	p := &prefilter{}
	scanEntry(&p.sig, nil, 0, texts...)
	var buf []byte
	for _, t := range texts {
		forEachWord(t, func(word string) {
			buf = appendLower(buf[:0], word)
			wi := m.lex.word(buf)
			if wi.skip || wi.generic || wi.folded {
				return
			}
			bit := prefixIndex(word)
			w := m.wordWeight(wi)
			if !p.key.has(bit) {
				p.key.add(bit)
			} else if w <= p.w[bit] {
				return
			}
			p.total += w - p.w[bit]
			p.w[bit] = w
		})
	}
	for i, w := range p.key {
		if w != 0 {
			p.words = append(p.words, uint8(i))
		}
	}
	return p
}

// candidate reports whether an entry is worth a full comparison: its
// signature holds enough of the lesson's telling words, by weight, and
// enough of all its word prefixes (the Jaccard index of the signatures).
// Both tests are loose on purpose: TestPrefilterKeepsMatches checks that
// no pair the full score would fold is dropped here.
func (p *prefilter) candidate(sig *signature) bool {
	n := 0
	for _, i := range p.words {
		n += bits.OnesCount64(sig[i] & p.key[i])
	}
	if n < 2 {
		return false
	}
	// In the order of the bits, as always: the same sum to the last bit.
	var got float32
	for _, i := range p.words {
		for w := sig[i] & p.key[i]; w != 0; w &= w - 1 {
			got += p.w[int(i)*64+bits.TrailingZeros64(w)]
		}
	}
	if got < prefilterShare*p.total {
		return false
	}
	inter, union := 0, 0
	for i := range sig {
		inter += bits.OnesCount64(sig[i] & p.sig[i])
		union += bits.OnesCount64(sig[i] | p.sig[i])
	}
	return float32(inter) >= prefilterJaccard*float32(union)
}

// prefilterShare is the weighted share of a lesson's telling words an
// entry must hold to be compared in full, and prefilterJaccard the share
// of word prefixes the two have in common. On the labelled sets no pair
// that folds comes below 0.22 and 0.18; the margin is for wordings they
// do not have.
const (
	prefilterShare   = 0.16
	prefilterJaccard = 0.15
)

// Prepare readies the matcher on existing — the pass over every entry, or
// the match cache — ahead of Match, which then only matches. Match calls it
// itself; a caller may call it earlier, on another goroutine, before any
// Match.
func (m *Matcher) Prepare(existing []mdstore.Entry) { m.sync(existing) }

// Match implements mdstore.MatchFunc: the index of the existing entry e
// repeats, or -1. An entry with the same content id always matches; among
// paraphrases the most similar one wins.
func (m *Matcher) Match(existing []mdstore.Entry, e *mdstore.Entry) int {
	m.sync(existing)
	// The same id is the same lesson, unless the texts differ in symbols
	// only (=== and ==): then the lesson's id is the next of the chain
	// mdstore gives such twins, and the twins are never folded into.
	var twins []int
	for id, salt := e.ID, 1; ; salt++ {
		h, found := hash64(id), false
		for i, x := range m.idHash {
			if x == h && existing[i].ID == id && existing[i].Kind == e.Kind {
				if mdstore.SameText(existing[i].Text(), e.Text()) {
					return i
				}
				twins, found = append(twins, i), true
			}
		}
		if !found {
			break
		}
		id = mdstore.DistinctID(e.Kind, e.Text(), salt)
	}
	pf := m.prefilterOf(e.Text(), e.Fix)
	if pf.total == 0 {
		return -1
	}
	// The candidates first, then the features of those not analysed yet
	// (nor kept by the match cache), then the scores in order, each on
	// several cores when there are many.
	cands := m.candidates(existing, e, pf)
	if len(twins) > 0 {
		cands = slices.DeleteFunc(cands, func(i int) bool { return slices.Contains(twins, i) })
	}
	if len(cands) == 0 {
		return -1
	}
	var todo []int
	for _, i := range cands {
		if m.feats[i] == nil && !m.cached(i) {
			todo = append(todo, i)
		}
	}
	fe := m.features(e.Text(), e.Fix)
	m.featuresOf(existing, todo)
	m.keepCached(cands)
	// The kinds (kinds.go) decide only between the fold threshold and the
	// bonus below it, so the texts of the few candidates scoring there
	// are all that is read for them, and the lesson's own only when there
	// is one.
	var ek []int32
	ekRead := false
	same := func(i int) bool {
		if !ekRead {
			ek, ekRead = lessonKinds(e), true
		}
		return len(ek) > 0 && m.mayBeOf(ek, i) && sameKinds(ek, m.kindsAt(existing, i))
	}
	return m.best(&fe, cands, same)
}

// kindsAt are the kinds of existing[i], worked out once.
func (m *Matcher) kindsAt(existing []mdstore.Entry, i int) []int32 {
	k, ok := m.kinds[i]
	if !ok {
		k = lessonKinds(&existing[i])
		m.kinds[i] = k
	}
	return k
}

// lessonKinds are the kinds of the lesson e (kinds.go).
func lessonKinds(e *mdstore.Entry) []int32 {
	return kinds().kindsOf(e.Text() + "\n" + e.Fix)
}

// kindBonus lifts the score of a pair whose lessons are of the same kinds
// (kinds.go): the score says how alike their words are, the kinds that
// they make the same point.
var kindBonus float32 = 0.15

// mayBeOf reports whether entry i's signature may hold all the kinds ek.
func (m *Matcher) mayBeOf(ek []int32, i int) bool {
	c := kinds()
	for _, k := range ek {
		if !c.mayBe(k, &m.sigs[i]) {
			return false
		}
	}
	return true
}

// candidates are the entries of e's kind, not archived, that pass e's
// prefilter, in memory order.
func (m *Matcher) candidates(existing []mdstore.Entry, e *mdstore.Entry, pf *prefilter) []int {
	var parts [][]int
	inParts(len(m.sigs), candidatesPerWorker, func(n int) { parts = make([][]int, n) }, func(w, lo, hi int) {
		var out []int
		for i := lo; i < hi; i++ {
			if !pf.candidate(&m.sigs[i]) {
				continue
			}
			if x := &existing[i]; x.Kind == e.Kind && x.Status != mdstore.Archived {
				out = append(out, i)
			}
		}
		parts[w] = out
	})
	if len(parts) == 1 {
		return parts[0]
	}
	return slices.Concat(parts...)
}

// best is the candidate scoring highest with fe, at or above the fold
// threshold, the first of equals; -1 when none does. A candidate scoring
// short of the threshold by less than kindBonus gets the bonus when same
// says it is of the lesson's kinds.
func (m *Matcher) best(fe *lessonFeatures, cands []int, same func(i int) bool) int {
	scores := make([]float32, len(cands))
	inParts(len(cands), scoresPerWorker, func(int) {}, func(_, lo, hi int) {
		for j, i := range cands[lo:hi] {
			scores[lo+j] = score(fe, m.feats[i])
		}
	})
	best, bestScore := -1, float32(0)
	for j, i := range cands {
		s := scores[j]
		if s < foldThreshold && s+kindBonus >= foldThreshold && same(i) {
			s += kindBonus
		}
		if s >= foldThreshold && s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// The fewest items worth a goroutine of candidates and best (variables
// for tests).
var (
	candidatesPerWorker = 2000
	scoresPerWorker     = 200
)

// inParts runs fn over [0, n) in consecutive parts, one per core and at
// least per items each, or in one call when n is too small for goroutines
// to pay; setup learns the number of parts first.
func inParts(n, per int, setup func(parts int), fn func(part, lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/per))
	setup(workers)
	if workers == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { fn(w, lo, hi) })
	}
	wg.Wait()
}

// featuresPerWorker is the fewest entries worth a goroutine of featuresOf
// (a variable for tests).
var featuresPerWorker = 48

// featuresOf analyses the entries at idx into m.feats. Many are split
// across the cores: each part analyses with the matcher's lexicon, which
// it only reads, and a lexicon of its own for what that lacks; the ones of
// the parts are added to the matcher's after. Features depend on nothing
// but the text and the counts, so the split does not change them.
func (m *Matcher) featuresOf(existing []mdstore.Entry, idx []int) {
	// What the analyses of the entries the match cache describes are made
	// of is kept, for SaveCache to keep in the cache (featcache.go).
	nFile := 0
	if m.base != nil {
		nFile = len(m.base.sigs)
	}
	keep := func(b *featureBuilder, i int) {
		if i < nFile {
			m.fresh = append(m.fresh, freshFeat{i, slices.Clone(b.refs)})
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), len(idx)/featuresPerWorker))
	if workers == 1 {
		b := featureBuilder{m: m, terms: m.scratch[:0], buf: m.buf[:0], record: nFile > 0}
		for _, i := range idx {
			x := &existing[i]
			b.terms, b.grams, b.refs = b.terms[:0], gramSet{}, b.refs[:0]
			b.add(x.Text(), false)
			b.add(x.Fix, true)
			f := b.finish()
			f.terms = slices.Clone(f.terms)
			m.feats[i] = &f
			keep(&b, i)
		}
		m.scratch, m.buf = b.terms[:0], b.buf
		return
	}
	out := make([]lessonFeatures, len(idx))
	refs := make([][]featRef, len(idx))
	own := make([]lexicon, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := len(idx)*w/workers, len(idx)*(w+1)/workers
		wg.Go(func() {
			b := featureBuilder{m: m, own: &own[w], record: nFile > 0}
			for k := lo; k < hi; k++ {
				x := &existing[idx[k]]
				b.terms, b.grams, b.refs = b.terms[:0], gramSet{}, b.refs[:0]
				b.add(x.Text(), false)
				b.add(x.Fix, true)
				out[k] = b.finish()
				out[k].terms = slices.Clone(out[k].terms)
				if idx[k] < nFile {
					refs[k] = slices.Clone(b.refs)
				}
			}
		})
	}
	wg.Wait()
	for w := range own {
		m.lex.merge(&own[w])
	}
	for k, i := range idx {
		m.feats[i] = &out[k]
		if i < nFile {
			m.fresh = append(m.fresh, freshFeat{i, refs[k]})
		}
	}
}

// forEachToken calls fn for every token of s: runs of letters and digits,
// joined across the inner punctuation of identifiers, paths, flags and
// versions (t.TempDir, --user, /home/agent, fn-1.2, HOME=/x splits at =).
func forEachToken(s string, fn func(string)) {
	start := -1
	for i := 0; i <= len(s); {
		var inWord, joiner bool
		size := 1
		if i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				// ASCII fast path: lessons are mostly ASCII.
				inWord = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
				joiner = c == '.' || c == '-' || c == '/' || c == ':'
			} else {
				var r rune
				r, size = utf8.DecodeRuneInString(s[i:])
				inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
			}
		}
		switch {
		case inWord:
			if start < 0 {
				start = i
				// Keep a leading "--", "/" or "%" so flags, paths and format
				// verbs (%w) stay anchors.
				for start > 0 && (s[start-1] == '-' || s[start-1] == '/' || s[start-1] == '%') && i-start < 2 {
					start--
				}
			}
		case joiner && start >= 0 && i+size < len(s) && isWordByte(s[i+size]):
			// inner punctuation: keep going
		default:
			if start >= 0 {
				fn(s[start:i])
				start = -1
			}
		}
		i += size
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= utf8.RuneSelf
}

// isAnchor: a token that names something exact rather than being an English
// word — it has inner punctuation, digits, an underscore, a leading dash or
// slash, inner capitals (camelCase) or is an all-caps name of 2+ letters.
func isAnchor(tok string) bool {
	if strings.HasPrefix(tok, "-") || strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, "%") {
		return true
	}
	upper, lower, digit := 0, 0, 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c == '.' || c == '-' || c == '/' || c == ':' || c == '_':
			return true
		case c >= '0' && c <= '9':
			digit++
		case c >= 'A' && c <= 'Z':
			upper++
			if i > 0 && lower > 0 {
				return true // camelCase
			}
		case c >= 'a' && c <= 'z':
			lower++
		}
	}
	return digit > 0 || upper >= 2 && lower == 0
}

// splitIdent calls fn for the parts of an identifier: split at punctuation,
// at lower→upper case changes and at letter/digit changes.
func splitIdent(tok string, fn func(string)) {
	start := -1
	prevLower, prevDigit := false, false
	for i := 0; i <= len(tok); i++ {
		var c byte
		if i < len(tok) {
			c = tok[i]
		}
		isL := c >= 'a' && c <= 'z' || c >= utf8.RuneSelf
		isU := c >= 'A' && c <= 'Z'
		isD := c >= '0' && c <= '9'
		if !(isL || isU || isD) {
			if start >= 0 {
				fn(tok[start:i])
				start = -1
			}
			prevLower, prevDigit = false, false
			continue
		}
		if start >= 0 && (isU && prevLower || isD != prevDigit) {
			fn(tok[start:i])
			start = i
		}
		if start < 0 {
			start = i
		}
		prevLower, prevDigit = isL, isD
	}
}

func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(dst, strings.ToLower(s[i:])...)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stem strips common English suffixes. It is deliberately light (no
// dictionary): lessons are short and the matcher only needs "retries",
// "retried" and "retrying" to meet, or "validate" and "validation".
func stem(w string) string {
	if len(w) <= 3 || isDigits(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied"):
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	// Two passes: "validated" → "validat" → "valid", "retrying" → "retry"
	// → "retr".
	for pass := 0; pass < 2; pass++ {
		for _, suf := range suffixes {
			if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
				w = w[:len(w)-len(suf)]
				break
			}
		}
	}
	// Undouble a final consonant left by -ing/-ed: "running" → "run".
	if n := len(w); n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

var suffixes = []string{"ations", "ation", "ingly", "ings", "ing", "edly", "ed", "ly", "ment", "ness", "able", "ible", "ion", "ate", "at", "er", "or", "e", "y"}
