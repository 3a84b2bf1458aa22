package recall

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Token limits. Long runs are hashes, base64 or minified code: they never
// match a query usefully and would only bloat the stem memo.
const (
	maxTokenBytes = 64
	minTokenRunes = 2
)

// sink receives tokens from scan. tok is only valid during the call: it
// points into the tokenizer's scratch buffer, which is what keeps scanning
// free of allocations.
type sink interface {
	token(tok []byte, kind tokenKind)
}

// tokenKind tells a sink how a token relates to its chunk. A chunk of
// several parts yields its joined form first, then the parts, so a sink
// that matched the joined form can skip the parts instead of counting the
// same name several times.
type tokenKind uint8

const (
	tokWord  tokenKind = iota // a chunk of one part
	tokWhole                  // all parts of a chunk, joined
	tokPart                   // one part of a chunk of several
)

// tokenizer splits text into lower-case tokens. A chunk such as
// useEffect, max_retries, internal/mdstore/entry.go or http.Client yields
// its parts (use, effect) and, when it has several parts, the parts run
// together (useeffect), so the same name matches across camelCase,
// snake_case, kebab-case and prose spelling. Stop words are left to the
// query parser (see collector).
//
// A tokenizer is reused across calls and is not safe for concurrent use.
type tokenizer struct {
	whole []byte // all parts of the current chunk, lower-cased and joined
	ends  []int  // where each part ends in whole
	runes []int  // rune count of each part
	n     int    // runes in the part being read
	up    int    // upper-case runes in it
}

// class of an ASCII byte for the scanner.
const (
	clsSep   = iota // splits chunks
	clsLower        // a-z
	clsUpper        // A-Z
	clsDigit        // 0-9
	clsJoin         // joins parts of one identifier: _ - . / : \ @ # $ ~
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clsLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clsUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	for _, c := range "_-./:\\@#$~" {
		t[c] = clsJoin
	}
	return t
}()

func classOf(r rune) uint8 {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	switch {
	case unicode.IsUpper(r):
		return clsUpper
	case unicode.IsLetter(r), unicode.Is(unicode.Mn, r):
		// Combining marks stay inside their word (decomposed accents).
		return clsLower
	case unicode.IsDigit(r):
		return clsDigit
	}
	return clsSep
}

// scan feeds every token of s to out. It makes one pass over the bytes,
// with table lookups for ASCII, since it runs over every field of every
// entry on each query.
func (z *tokenizer) scan(s string, out sink) {
	z.reset()
	prev := uint8(clsSep)
	for i := 0; i < len(s); {
		c := s[i]
		r, n := rune(c), 1
		var cls uint8
		if c < utf8.RuneSelf {
			cls = asciiClass[c]
		} else {
			r, n = utf8.DecodeRuneInString(s[i:])
			cls = classOf(r)
		}
		switch cls {
		case clsSep:
			z.flush(out)
		case clsJoin:
			z.cut()
		case clsUpper:
			if prev == clsLower {
				z.cut() // fooBar
			} else if prev == clsUpper && i+n < len(s) && startsWord(s[i+n:]) {
				z.cut() // HTTPServer: the S starts the next part
			}
			if c < utf8.RuneSelf {
				z.whole = append(z.whole, c+('a'-'A'))
			} else {
				z.whole = utf8.AppendRune(z.whole, unicode.ToLower(r))
			}
			z.n++
			z.up++
		default:
			if c == 's' && prev == clsUpper && z.up >= 2 && z.up == z.n && !startsWord(s[i:]) {
				// The plural of an acronym (JWTs, APIs, CVEs): the same word.
				prev = clsLower
				i++
				continue
			}
			if c < utf8.RuneSelf {
				z.whole = append(z.whole, c)
			} else {
				z.whole = utf8.AppendRune(z.whole, unicode.ToLower(r)) // titlecase letters
			}
			z.n++
		}
		prev = cls
		i += n
	}
	z.flush(out)
}

// startsWord reports whether s starts with lower-case letters that make a
// word, not just the "s" of a plural.
func startsWord(s string) bool {
	r, n := decode(s, 0)
	if classOf(r) != clsLower {
		return false
	}
	if r != 's' || n == len(s) {
		return r != 's'
	}
	r, _ = decode(s, n)
	return classOf(r) == clsLower
}

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func (z *tokenizer) reset() {
	z.whole, z.ends, z.runes, z.n, z.up = z.whole[:0], z.ends[:0], z.runes[:0], 0, 0
}

// cut ends the current part, if any.
func (z *tokenizer) cut() {
	if z.n > 0 {
		z.ends = append(z.ends, len(z.whole))
		z.runes = append(z.runes, z.n)
		z.n, z.up = 0, 0
	}
}

// flush emits the chunk gathered so far: a chunk of one part as a word; a
// chunk of several as its joined form, then the parts. The joined form
// goes out even when long: it marks the chunk's start for sinks that group
// parts, and long paths are still names.
func (z *tokenizer) flush(out sink) {
	z.cut()
	switch len(z.ends) {
	case 0:
	case 1:
		emit(z.whole, z.runes[0], tokWord, out)
	default:
		out.token(z.whole, tokWhole)
		start := 0
		for i, end := range z.ends {
			emit(z.whole[start:end], z.runes[i], tokPart, out)
			start = end
		}
	}
	z.reset()
}

func emit(p []byte, runes int, kind tokenKind, out sink) {
	if runes < minTokenRunes || len(p) > maxTokenBytes {
		return
	}
	out.token(p, kind)
}

// Tokens returns the tokens of s in order, as the ranker sees them before
// stemming: for a chunk of several parts, the joined form and then the
// parts. It exists for tests and for explaining a ranking.
func Tokens(s string) []string {
	var c collector
	var z tokenizer
	z.scan(s, &c)
	out := make([]string, len(c.toks))
	for i, t := range c.toks {
		out[i] = t.text
	}
	return out
}

type collected struct {
	text string
	kind tokenKind
	stop bool // a stop word, kept only with keepStop
}

// collector gathers the tokens of a query.
type collector struct {
	toks []collected
	// keepStop keeps stop words, marked, for the query parser: they carry
	// no topic but may finish a phrase ("sign in").
	keepStop bool
}

// token keeps every token but stop words. Only queries need them dropped:
// a document's stop words can never match a query term.
func (c *collector) token(t []byte, kind tokenKind) {
	stop := kind != tokWhole && isStopWord(t)
	if stop && !c.keepStop {
		return
	}
	c.toks = append(c.toks, collected{string(t), kind, stop})
}

// isStopWord reports words that carry no topic: English function words,
// the always/never/instead of lesson phrasing, and the "plan:" prefix of
// planner requests (plan-review entries still match as "planreview").
func isStopWord(b []byte) bool {
	if len(b) > 10 {
		return false
	}
	_, ok := stopWords()[string(b)]
	return ok
}

var stopWords = sync.OnceValue(func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range []string{
		"a", "about", "above", "across", "after", "again", "against", "all", "already", "also",
		"always", "am", "among", "an", "and", "any", "are", "as", "at", "be", "because", "been",
		"before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
		"does", "doing", "don", "down", "during", "each", "eg", "either", "else", "etc", "even",
		"ever", "every", "few", "for", "from", "further", "had", "has", "have", "having", "he",
		"her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "ie", "if", "in",
		"instead", "into", "is", "it", "its", "itself", "just", "let", "me", "might", "more",
		"most", "much", "must", "my", "myself", "never", "no", "nor", "not", "now", "of", "off",
		"on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
		"plan", "please", "rather", "s", "same", "shall", "she", "should", "so", "some", "still",
		"such", "t", "than", "that", "the", "their", "theirs", "them", "themselves", "then",
		"there", "these", "they", "this", "those", "through", "to", "too", "under", "until",
		"up", "upon", "us", "very", "via", "was", "we", "were", "what", "whatever", "when",
		"whenever", "where", "whether", "which", "while", "who", "whom", "whose", "why", "will",
		"with", "within", "without", "would", "yet", "you", "your", "yours", "yourself",
		"yourselves",
		// What is left of a contraction once the apostrophe splits it
		// (doesn't, won't, we've).
		"aren", "couldn", "didn", "doesn", "hadn", "hasn", "haven", "isn", "ll",
		"shouldn", "ve", "wasn", "weren", "won", "wouldn",
	} {
		m[w] = struct{}{}
	}
	return m
})

// taskWordWeight is the weight of a task word in a query: the verbs and
// fillers of task titles and planner requests ("Add …", "Fix …", "Support
// …") that say what to do with a topic, not what the topic is. They count
// a little, so that they still break ties, but an entry matching only
// them is not pulled up. Documents keep them at full weight: "fix" in a
// lesson is as much a word as any other.
const taskWordWeight = 0.2

func isTaskWord(b string) bool {
	_, ok := taskWords()[b]
	return ok
}

var taskWords = sync.OnceValue(func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range []string{
		"add", "adding", "added", "adds",
		"allow", "allows",
		"change", "changes",
		"choose", "choosing", "pick", "decide", "deciding",
		"create", "creating",
		"enable", "ensure",
		"fix", "fixes", "fixing", "fixed",
		"get", "gets",
		"handle", "handling",
		"implement", "implementing", "implementation", "impl",
		"introduce", "introducing",
		"improve", "improving",
		"make", "makes", "making",
		"need", "needs",
		"new",
		"refactor",
		"support", "supports", "supporting",
		"update", "updates", "updating",
		"use", "using",
		"want",
		"work", "works",
	} {
		m[w] = struct{}{}
	}
	return m
})
