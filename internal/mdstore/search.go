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
type prefilter struct{ lits []string }

// newPrefilter derives the literals every match must contain, or returns
// nil when there is no such set (then every line is tried).
func newPrefilter(re *regexp.Regexp) *prefilter {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	lits := required(t.Simplify())
	if len(lits) == 0 {
		return nil
	}
	for i, l := range lits {
		if l == "" {
			return nil
		}
		for j := 0; j < len(l); j++ {
			if l[j] >= utf8.RuneSelf {
				// Non-ASCII case folding is beyond the ASCII fold below.
				return nil
			}
		}
		lits[i] = asciiLower(l)
	}
	return &prefilter{lits}
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
// and ſ, the long s), whose case folding the literal test does not cover.
// low is text with ASCII letters in lower case (appendLower).
func (p *prefilter) maybe(text, low []byte) bool {
	if p == nil {
		return true
	}
	for _, l := range p.lits {
		if bytes.Contains(low, []byte(l)) {
			return true
		}
	}
	return bytes.Contains(text, []byte("\u212a")) || bytes.Contains(text, []byte("\u017f"))
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
