package recall

import (
	_ "embed"
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/text"
)

// Query weights relative to a word of the request.
const (
	// genericWeight is the weight of a generic word (generic.txt, or common
	// in this memory): it breaks ties but cannot lift a lesson by itself.
	genericWeight = 0.2
	// synonymWeight is the weight of a synonym (text.Synonyms): it counts
	// for its word's slot, never more than the word itself.
	synonymWeight = 0.4
	// pairWeight is the weight of two adjacent words of the request joined
	// as one (term.pair): the same thing written as one word, so closer
	// than a synonym, but two adjacent words need not name one thing.
	// Weights 0.4 to 1 gain alike (testdata/recall/README.md).
	pairWeight = 0.8
	// maxTerms bounds a query: terms are bits of a uint64 in the scan.
	maxTerms = 64
)

// A term is one folded stem the query looks for.
type term struct {
	stem   string
	slot   int // the request word it stands for
	weight float64
	syn    bool // a synonym of the slot's word, not the word itself
	// generic is set when the word is in generic.txt; Search also sets it
	// when the word is common in the memory searched.
	generic bool
	// pair: two adjacent words of the request joined (sign in, api key,
	// back off), as lessons write them in one word or one identifier
	// (signin, api_key, backoff); lead is the first word as written. Like
	// a synonym it counts for the first word's slot and never qualifies a
	// lesson.
	pair bool
	// minor: the word as the request writes it is a function word
	// (minorWords); it counts half a word towards a pair (see coverage).
	minor bool
	// lead is, for an identifier's joined form, where a file's spelling of
	// it starts: its first part as written (useEffect and use_effect both
	// start with "use"), or its first letter when no part is a token.
	lead string
}

// A slot is one word of the request: a plain word, an identifier's joined
// form, or one of its parts. group ties an identifier's slots together: an
// entry scores the joined form or the sum of the parts, whichever is more,
// so "GitHub", "github" and "git_hub" weigh the same.
type slot struct {
	group int
	whole bool
}

type query struct {
	terms  []term
	slots  []slot
	groups int
	index  map[string]int // stem → term
}

//go:embed generic.txt
var genericData string

var genericWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for line := range strings.Lines(genericData) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, w := range strings.Fields(line) {
			m[text.Fold(w)] = true
		}
	}
	return m
})

// minorWords are function words that stop.txt keeps (negations: the
// curator must not take a lesson for its opposite) or that name no topic
// (numbers, per). A lesson still qualifies by them and they count in the
// floor's share, but two of them make one word of a pair: a lesson that
// shares "two" and one other word with a request shares one word with it
// (a board game's "two steps" and a lesson about two migrations). General
// English, not taken from any request.
var minorWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("no not never none nothing one two three four five six seven eight nine ten twice per") {
		m[w] = true
	}
	return m
}()

// taskIDs are the ids of the work a request belongs to: flow-next's fn-N,
// fn-N.M and fn-N-slug.M anywhere, a leading "ID:" such as "PROJ-12:" or
// "#34:", and #N references. They name the task, not its topic: a lesson
// from the same task id in another project would share them by chance.
//
// Compiled on first use: every flowmem process, the hook above all, would
// pay for it at start.
var taskIDs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bfn-\d+(?:[.-][a-z0-9]+)*\b|^\s*#?[a-z]*[-_]?\d[\w.-]*\s*:|(?:^|\s)#\d+\b`)
})

// parseQuery turns a request into terms: its words without stop words and
// task ids, folded (text.Fold), each with its synonyms.
func parseQuery(s string) *query {
	s = taskIDs().ReplaceAllString(s, " ")
	q := &query{index: map[string]int{}}
	var z text.Tokenizer
	group, whole := -1, -1
	z.Scan(s, func(tok []byte, k text.Kind) {
		w := string(tok)
		switch k {
		case text.Part:
			if whole >= 0 && q.terms[whole].lead == "" {
				q.terms[whole].lead = w
			}
		default:
			group, whole = q.groups, -1
			q.groups++
		}
		if k != text.Whole && text.IsStop(w) {
			return
		}
		n := len(q.terms)
		q.word(text.Fold(w), group, k == text.Whole)
		if len(q.terms) > n {
			// As written, as the stop words are: "ones" is a pronoun,
			// not the number it folds to.
			q.terms[n].minor = minorWords[strings.ToLower(w)]
			if k == text.Whole {
				whole = n
			}
		}
	})
	for i := range q.terms {
		if q.slots[q.terms[i].slot].whole && q.terms[i].lead == "" {
			// Its first letter, not its first byte: the first byte of
			// a letter outside ASCII may differ between cases (ƕ, Ƕ).
			_, n := utf8.DecodeRuneInString(q.terms[i].stem)
			q.terms[i].lead = q.terms[i].stem[:n]
		}
	}
	// Synonyms come after every word, so a word said outright is never
	// taken for another's synonym.
	for i, n := 0, len(q.terms); i < n; i++ {
		t := q.terms[i]
		if t.generic {
			continue
		}
		for _, s := range text.Synonyms(t.stem) {
			if _, ok := q.index[s]; !ok && len(q.terms) < maxTerms {
				q.add(term{stem: s, slot: t.slot, weight: synonymWeight, syn: true})
			}
		}
	}
	q.pairs(s)
	return q
}

// particles are the stop words that end a phrasal verb, which code
// writes as one word (log in, time out, set up, back off, fail over).
var particles = map[string]bool{"in": true, "out": true, "up": true, "down": true, "off": true, "on": true, "over": true}

// pairs adds the joined form of each two adjacent plain words of s (the
// first not a stop word, the second not one either or a particle) to the
// first word's slot.
func (q *query) pairs(s string) {
	var z text.Tokenizer
	prev := ""
	z.Scan(s, func(tok []byte, k text.Kind) {
		switch k {
		case text.Part:
			return
		case text.Whole:
			prev = "" // an identifier is joined already
			return
		}
		w := strings.ToLower(string(tok))
		if prev != "" && (!text.IsStop(w) || particles[w]) && len(q.terms) < maxTerms {
			st := text.Fold(prev + w)
			if ti, ok := q.index[text.Fold(prev)]; ok {
				if _, dup := q.index[st]; !dup {
					q.add(term{stem: st, slot: q.terms[ti].slot, weight: pairWeight, syn: true, pair: true, lead: prev})
				}
			}
		}
		prev = w
		if text.IsStop(w) {
			prev = ""
		}
	})
}

// word adds the stem of one request word in a slot of its own.
func (q *query) word(st string, group int, whole bool) {
	if _, ok := q.index[st]; ok || len(q.terms) >= maxTerms {
		return
	}
	g := genericWords()[st]
	w := 1.0
	if g {
		w = genericWeight
	}
	q.slots = append(q.slots, slot{group: group, whole: whole})
	q.add(term{stem: st, slot: len(q.slots) - 1, weight: w, generic: g})
}

func (q *query) add(t term) {
	q.index[t.stem] = len(q.terms)
	q.terms = append(q.terms, t)
}

// idf is BM25's inverse document frequency. (A sharpened idf, its power
// 1.5, weighed rare words up further; plain idf finds as many labelled
// lessons and gives one more request with no relevant lesson nothing:
// testdata/recall/README.md.)
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}
