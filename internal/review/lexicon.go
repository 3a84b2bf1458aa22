package review

import "strings"

// lexicon is a list of literal phrases matched against lowercased text.
// Go's regexp runs large alternations of literals through its NFA or
// backtracker, which cost ~5 ms per finding here; plain strings.Index per
// phrase costs microseconds, and the hook runs on the agent's hot path.
//
// A phrase written `\bword\b` must start (end) at a word boundary.
type lexicon []term

type term struct {
	s      string
	lb, rb bool
}

func lex(phrases ...string) lexicon {
	l := make(lexicon, 0, len(phrases))
	for _, p := range phrases {
		t := term{s: p}
		if strings.HasPrefix(t.s, `\b`) {
			t.s, t.lb = t.s[2:], true
		}
		if strings.HasSuffix(t.s, `\b`) {
			t.s, t.rb = t.s[:len(t.s)-2], true
		}
		l = append(l, t)
	}
	return l
}

func isWordByte(c byte) bool { return isASCIILetter(c) || isDigit(c) || c == '_' }

// index returns the position of the term in s honouring boundaries, or -1.
func (t term) index(s string, from int) int {
	for from <= len(s) {
		i := strings.Index(s[from:], t.s)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(t.s)
		okL := !t.lb || i == 0 || !isWordByte(s[i-1])
		okR := !t.rb || end == len(s) || !isWordByte(s[end])
		if okL && okR {
			return i
		}
		from = i + 1
	}
	return -1
}

// first returns the earliest phrase occurring in lower, or "".
func (l lexicon) first(lower string) string {
	best, at := "", -1
	for _, t := range l {
		if i := t.index(lower, 0); i >= 0 && (at < 0 || i < at) {
			best, at = t.s, i
		}
	}
	return strings.TrimSpace(best)
}

// has reports whether any phrase occurs in lower.
func (l lexicon) has(lower string) bool {
	for _, t := range l {
		if t.index(lower, 0) >= 0 {
			return true
		}
	}
	return false
}

// count returns how many distinct phrases occur in lower.
func (l lexicon) count(lower string) int {
	n := 0
	for _, t := range l {
		if t.index(lower, 0) >= 0 {
			n++
		}
	}
	return n
}

// matches lists the distinct phrases occurring in lower, in lexicon order.
func (l lexicon) matches(lower string) []string {
	var out []string
	for _, t := range l {
		if t.index(lower, 0) >= 0 {
			out = append(out, strings.TrimSpace(t.s))
		}
	}
	return out
}
