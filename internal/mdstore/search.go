package mdstore

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"regexp/syntax"
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
	lits [][]byte
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
		p.lits = append(p.lits, []byte(asciiLower(l)))
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

// maybe reports whether text could match: it holds a literal, or one of
// the two letters outside ASCII that fold to ASCII ones (K, the Kelvin sign,
// and ſ, the long s), whose case folding the literal test does not cover,
// when a literal holds a k or an s.
// low is text with ASCII letters in lower case (appendLower).
func (p *prefilter) maybe(text, low []byte) bool {
	if p == nil {
		return true
	}
	for _, l := range p.lits {
		if bytes.Contains(low, l) {
			return true
		}
	}
	return p.fold && (bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u017f")))
}

// match reports whether re matches text (low is text lowered): the
// prefilter first, and the expression only when the prefilter cannot tell.
func (p *prefilter) match(re *regexp.Regexp, text, low []byte) bool {
	if !p.maybe(text, low) {
		return false
	}
	return p != nil && p.exact || re.Match(text)
}

// appendLower appends b to dst with ASCII letters in lower case, eight
// bytes at a time: search lowers every byte of the store.
func appendLower(dst, b []byte) []byte {
	n := len(dst)
	dst = append(dst, b...)
	out := dst[n:]
	i := 0
	for ; i+8 <= len(out); i += 8 {
		w := binary.LittleEndian.Uint64(out[i : i+8])
		low7 := w & 0x7f7f7f7f7f7f7f7f
		// A byte's high bit: set from 'A' up, and from past 'Z' up; the
		// upper-case letters are those with the first and not the second,
		// among bytes below 0x80.
		upper := (low7 + 0x3f3f3f3f3f3f3f3f) &^ (low7 + 0x2525252525252525) &^ w & 0x8080808080808080
		binary.LittleEndian.PutUint64(out[i:i+8], w|upper>>2)
	}
	for ; i < len(out); i++ {
		if c := out[i]; 'A' <= c && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return dst
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
