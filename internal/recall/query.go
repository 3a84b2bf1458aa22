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

// maxTerms bounds a query: terms are bits of a uint64 in the scan.
const maxTerms = 64

// A term is one word of the request, folded: a plain word, an
// identifier's joined form, or one of its parts. group ties an
// identifier's terms together: an entry scores the joined form or the sum
// of the parts, whichever is more, so "GitHub", "github" and "git_hub"
// weigh the same.
type term struct {
	stem  string
	group int
	whole bool // an identifier's joined form
	// generic is set when the word is in generic.txt.
	generic bool
	// lead is, for an identifier's joined form, where a file's spelling of
	// it starts: its first part as written (useEffect and use_effect both
	// start with "use"), or its first letter when no part is a token.
	lead string
}

type query struct {
	terms  []term
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
// task ids, folded (text.Fold).
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
		if q.terms[i].whole && q.terms[i].lead == "" {
			// Its first letter, not its first byte: the first byte of
			// a letter outside ASCII may differ between cases (ƕ, Ƕ).
			_, n := utf8.DecodeRuneInString(q.terms[i].stem)
			q.terms[i].lead = q.terms[i].stem[:n]
		}
	}
	return q
}

// word adds the stem of one request word, unless the query has it.
func (q *query) word(st string, group int, whole bool) {
	if _, ok := q.index[st]; ok || len(q.terms) >= maxTerms {
		return
	}
	q.add(term{stem: st, group: group, whole: whole, generic: genericWords()[st]})
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
