package mdstore

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// prefilter is a cheap, conservative test run before the regular
// expression: every line the expression can match contains one of the
// literals (ASCII case folded). Go's regexp engines are slow on many short
// inputs; most lines of a large memory fail this test without ever running
// the expression.
//
// When the expression is nothing but literals matched case-insensitively
// ("goroutine|deadline"), holding one is a match and the expression need
// not run at all: Go's backtracker costs thousands of instructions a line.
type prefilter struct {
	lits []foldLit
	// fold: a literal holds k or s, which the Kelvin sign and the long s
	// also match under case folding; only then must text be checked for
	// them.
	fold bool
	// exact: holding a literal is matching.
	exact bool
}

// newPrefilter derives the literals every match must contain, or returns
// nil when there is no such set (then every line is tried).
func newPrefilter(re *regexp.Regexp) *prefilter {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	t = t.Simplify()
	lits := required(t)
	if len(lits) == 0 {
		return nil
	}
	p := &prefilter{exact: literalsOnly(t)}
	for _, l := range lits {
		if l == "" {
			return nil
		}
		for j := 0; j < len(l); j++ {
			if l[j] >= utf8.RuneSelf {
				// Non-ASCII case folding is beyond the ASCII fold below.
				return nil
			}
			if c := l[j] | 0x20; c == 'k' || c == 's' {
				p.fold = true
			}
			if l[j] < ' ' || l[j] == 0x7f {
				// A line is matched without its line ending; its lowered
				// copy may still hold a "\r".
				p.exact = false
			}
		}
		p.lits = append(p.lits, newFoldLit(strings.ToLower(l)))
	}
	if p.fold {
		p.exact = false
	}
	return p
}

// literalsOnly reports whether t is a case-insensitive literal or an
// alternation of them: then a text matches exactly when it holds one.
func literalsOnly(t *syntax.Regexp) bool {
	switch t.Op {
	case syntax.OpLiteral:
		return t.Flags&syntax.FoldCase != 0
	case syntax.OpAlternate:
		for _, s := range t.Sub {
			if s.Op != syntax.OpLiteral || s.Flags&syntax.FoldCase == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// required returns a set of strings one of which appears in every match of
// t, or nil when it cannot tell.
func required(t *syntax.Regexp) []string {
	switch t.Op {
	case syntax.OpLiteral:
		return []string{string(t.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return required(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return required(t.Sub[0])
		}
	case syntax.OpConcat:
		var best []string
		for _, s := range t.Sub {
			if r := required(s); r != nil && (best == nil || shortest(r) > shortest(best)) {
				best = r
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, s := range t.Sub {
			r := required(s)
			if r == nil {
				return nil
			}
			all = append(all, r...)
		}
		return all
	}
	return nil
}

func shortest(set []string) int {
	n := -1
	for _, s := range set {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

// maybe reports whether text could match: it holds a literal (ASCII
// letters in either case), or one of the two letters outside ASCII that
// fold to ASCII ones (K, the Kelvin sign, and ſ, the long s), whose case
// folding the literal test does not cover, when a literal holds a k or an s.
func (p *prefilter) maybe(text []byte) bool {
	if p == nil {
		return true
	}
	for i := range p.lits {
		if p.lits[i].in(text) {
			return true
		}
	}
	return p.fold && (bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u017f")))
}

// match reports whether re matches text: the prefilter first, and the
// expression only when the prefilter cannot tell.
func (p *prefilter) match(re *regexp.Regexp, text []byte) bool {
	if !p.maybe(text) {
		return false
	}
	return p != nil && p.exact || re.Match(text)
}

// foldLit is a lower-case literal found in text whatever the case of its
// ASCII letters, without lowering the text: candidates are the places of
// its rarest byte, in either case, which IndexByte finds.
type foldLit struct {
	lit    []byte
	k      int  // the anchor: lit[k] is the literal's rarest byte
	lo, up byte // lit[k] and its upper case (the same byte if not a letter)
}

// letterOrder ranks bytes from the most to the least common in English
// text; bytes not in it (digits, punctuation) count as rarer than any.
const letterOrder = " etaoinsrhldcumfpgwybvkxjqz"

func newFoldLit(lit string) foldLit {
	f := foldLit{lit: []byte(lit)}
	best := -1
	for i := 0; i < len(lit); i++ {
		r := strings.IndexByte(letterOrder, lit[i])
		if r < 0 {
			r = len(letterOrder)
		}
		if r > best {
			best, f.k = r, i
		}
	}
	if len(lit) > 0 {
		f.lo, f.up = lit[f.k], lit[f.k]
		if 'a' <= f.lo && f.lo <= 'z' {
			f.up = f.lo - ('a' - 'A')
		}
	}
	return f
}

// in reports whether s holds the literal, ASCII letters folded: what
// bytes.Contains says of s lowered.
func (f *foldLit) in(s []byte) bool {
	n := len(f.lit)
	if n == 0 {
		return true
	}
	for _, c := range [2]byte{f.lo, f.up} {
		// Anchors at or past end leave no room.
		for i, end := f.k, len(s)-n+f.k+1; i < end; i++ {
			j := bytes.IndexByte(s[i:end], c)
			if j < 0 {
				break
			}
			i += j
			if equalFoldASCII(s[i-f.k:i-f.k+n], f.lit) {
				return true
			}
		}
		if f.up == f.lo {
			break
		}
	}
	return false
}

// equalFoldASCII reports whether a, with ASCII letters lowered, is lit.
func equalFoldASCII(a, lit []byte) bool {
	for i, c := range a {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
