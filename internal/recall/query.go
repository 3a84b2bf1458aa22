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
	// synonymWeight is the weight of a synonym (text.Synonyms): it counts
	// for its word's slot, never more than the word itself.
	synonymWeight = 0.4
	// maxTerms bounds a query: terms are bits of a uint64 in the scan.
	maxTerms = 64
)

// A term is one folded stem the query looks for.
type term struct {
	stem   string
	slot   int // the request word it stands for
	weight float64
	syn    bool // a synonym of the slot's word, not the word itself
	// generic is set when the word is in generic.txt.
	generic bool
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
		if len(q.terms) > n && k == text.Whole {
			whole = n
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
	return q
}

// word adds the stem of one request word in a slot of its own.
func (q *query) word(st string, group int, whole bool) {
	if _, ok := q.index[st]; ok || len(q.terms) >= maxTerms {
		return
	}
	q.slots = append(q.slots, slot{group: group, whole: whole})
	q.add(term{stem: st, slot: len(q.slots) - 1, weight: 1, generic: genericWords()[st]})
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
