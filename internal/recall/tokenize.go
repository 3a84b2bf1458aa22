package recall

import (
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
	token(tok []byte)
}

// tokenizer splits text into lower-case tokens. A chunk such as
// useEffect, max_retries, internal/mdstore/entry.go or http.Client yields
// its parts (use, effect) and, when it has several parts, the parts run
// together (useeffect), so the same name matches across camelCase,
// snake_case, kebab-case and prose spelling. Stop words are dropped as
// parts but kept inside the joined form.
//
// A tokenizer is reused across calls and is not safe for concurrent use.
type tokenizer struct {
	part  []byte // the current part, lower-cased
	whole []byte // all parts of the current chunk, joined
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

// scan feeds every token of s to out.
func (z *tokenizer) scan(s string, out sink) {
	i := 0
	for i < len(s) {
		// Find the next chunk: a run of letters, digits and joiners.
		for i < len(s) {
			r, n := decode(s, i)
			if c := classOf(r); c != clsSep && c != clsJoin {
				break
			}
			i += n
		}
		start := i
		end := i
		for i < len(s) {
			r, n := decode(s, i)
			c := classOf(r)
			if c == clsSep {
				break
			}
			i += n
			if c != clsJoin {
				end = i // trailing joiners ("end.", "fn-1:") are not part of it
			}
		}
		if end > start {
			z.chunk(s[start:end], out)
		}
	}
}

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// chunk splits one identifier-like run into parts at joiners and case
// changes (fooBar, HTTPServer → http server). Letters and digits stay
// together (utf8, sha256, v2) since splitting them only adds noise.
func (z *tokenizer) chunk(c string, out sink) {
	z.whole = z.whole[:0]
	parts := 0
	z.part = z.part[:0]
	partRunes := 0
	prev := uint8(clsSep)
	flush := func() {
		if len(z.part) == 0 {
			return
		}
		parts++
		z.whole = append(z.whole, z.part...)
		emitPart(z.part, partRunes, out)
		z.part = z.part[:0]
		partRunes = 0
	}
	for i := 0; i < len(c); {
		r, n := decode(c, i)
		cls := classOf(r)
		switch cls {
		case clsJoin:
			flush()
		case clsUpper:
			if prev == clsLower {
				flush() // fooBar
			} else if prev == clsUpper && i+n < len(c) {
				// HTTPServer: the S starts a new part when a lower-case
				// letter follows it.
				if nr, _ := decode(c, i+n); classOf(nr) == clsLower {
					flush()
				}
			}
		}
		if cls != clsJoin {
			z.part = appendLower(z.part, r)
			partRunes++
		}
		prev = cls
		i += n
	}
	flush()
	if parts > 1 && len(z.whole) <= maxTokenBytes && utf8.RuneCount(z.whole) >= minTokenRunes {
		out.token(z.whole)
	}
}

func emitPart(p []byte, runes int, out sink) {
	if runes < minTokenRunes || len(p) > maxTokenBytes || isStopWord(p) {
		return
	}
	out.token(p)
}

func appendLower(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, unicode.ToLower(r))
}

// Tokens returns the tokens of s in order, as the ranker sees them before
// stemming. It exists for tests and for explaining a ranking.
func Tokens(s string) []string {
	var c collector
	var z tokenizer
	z.scan(s, &c)
	return c.toks
}

type collector struct{ toks []string }

func (c *collector) token(t []byte) { c.toks = append(c.toks, string(t)) }

// isStopWord reports words that carry no topic: English function words,
// the always/never/instead of lesson phrasing, and the "plan:" prefix of
// planner requests (plan-review entries still match as "planreview").
func isStopWord(b []byte) bool {
	if len(b) > 10 {
		return false
	}
	_, ok := stopWords[string(b)]
	return ok
}

var stopWords = func() map[string]struct{} {
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
	} {
		m[w] = struct{}{}
	}
	return m
}()
