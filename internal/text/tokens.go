// Package text is flowmem's one text toolkit: it splits text and
// identifiers into lower-case words, stems them (Snowball English), knows
// the stop words, and folds the abbreviations programmers write
// interchangeably with the word (ctx, context). Capture fingerprints
// lessons with it and recall ranks them with it, so both see the same words.
//
// The word lists are embedded data files (stop.txt, stems.txt,
// abbrev.txt), general vocabulary written from knowledge of English and of
// the trade, never phrases taken from a labelled corpus.
package text

import (
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes: longer runs are hashes, base64 or minified code; they
// never match usefully.
const maxTokenBytes = 64

// Kind tells how a token relates to its chunk (a run of letters and digits
// with the joiners _ - . / : \ @ # $ ~ between). A chunk of several parts
// yields its joined form first, then the parts, so a caller that matched
// the joined form can skip the parts instead of counting one name twice.
type Kind uint8

const (
	Word  Kind = iota // a chunk of one part
	Whole             // all parts of a chunk, run together
	Part              // one part of a chunk of several
)

// Tokenizer splits text into lower-case tokens. A chunk such as useEffect,
// max_retries, internal/mdstore/entry.go or http.Client yields its parts
// (use, effect) and, when it has several, the parts run together
// (useeffect), so one name matches across camelCase, snake_case,
// kebab-case and prose spelling.
//
// The zero value is ready; reuse one to scan without allocating. It is not
// safe for concurrent use.
type Tokenizer struct {
	whole []byte // all parts of the current chunk, lower-cased and joined
	ends  []int  // where each part ends in whole
	n     int    // runes in the part being read
	up    int    // upper-case runes in it
}

// class of an ASCII byte for the scanner.
const (
	clsSep   = iota // splits chunks
	clsLower        // a-z
	clsUpper        // A-Z
	clsDigit        // 0-9
	clsJoin         // joins parts of one identifier
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

// Scan calls fn with every token of s, in order. tok is valid only during
// the call: it points into the tokenizer's scratch space.
func (z *Tokenizer) Scan(s string, fn func(tok []byte, k Kind)) {
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
			if unspaced(r) {
				z.flush(fn)
				z.pair(r, s[i+n:], fn)
				prev = clsSep
				i += n
				continue
			}
			cls = classOf(r)
		}
		switch cls {
		case clsSep:
			z.flush(fn)
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
			if c == 's' && prev == clsUpper && z.up >= 2 && z.up == z.n && !startsWord(s[i:]) && !(i+1 < len(s) && s[i+1]-'0' < 10) {
				// The plural of an acronym (JWTs, APIs): the same word;
				// not an s that digits follow (IDs2 is one name).
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
	z.flush(fn)
}

// unspaced reports whether r is of a script written without spaces
// between words (Chinese and Japanese): a run of it is a sentence, not a
// word, longer than any token and shared by no other text whole.
func unspaced(r rune) bool {
	return r >= 0x3040 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 0x30FC) // U+30FC, the kana length mark
}

// pair emits r and the next rune as one word when that is of the same
// kind of script too: overlapping pairs of characters are the usual terms
// for text without word boundaries, since most of its words are one or two
// characters long. A lone character is dropped, as a lone letter is.
func (z *Tokenizer) pair(r rune, rest string, fn func([]byte, Kind)) {
	next, _ := utf8.DecodeRuneInString(rest)
	if rest == "" || !unspaced(next) {
		return
	}
	z.whole = utf8.AppendRune(utf8.AppendRune(z.whole[:0], r), next)
	fn(z.whole, Word)
	z.whole = z.whole[:0]
}

// startsWord reports whether s starts with lower-case letters that make a
// word, not just the "s" of a plural.
func startsWord(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if classOf(r) != clsLower || unspaced(r) {
		return false
	}
	if r != 's' || n == len(s) {
		return r != 's'
	}
	r, _ = utf8.DecodeRuneInString(s[n:])
	return classOf(r) == clsLower
}

func (z *Tokenizer) reset() {
	z.whole, z.ends, z.n, z.up = z.whole[:0], z.ends[:0], 0, 0
}

// cut ends the current part, if any.
func (z *Tokenizer) cut() {
	if z.n > 0 {
		z.ends = append(z.ends, len(z.whole))
		z.n, z.up = 0, 0
	}
}

// flush emits the chunk gathered so far. The joined form goes out even
// when long: long paths are still names.
func (z *Tokenizer) flush(fn func([]byte, Kind)) {
	z.cut()
	switch len(z.ends) {
	case 0:
	case 1:
		emit(z.whole, Word, fn)
	default:
		fn(z.whole, Whole)
		start := 0
		for _, end := range z.ends {
			emit(z.whole[start:end], Part, fn)
			start = end
		}
	}
	z.reset()
}

// emit passes p on unless it is too long or one letter: single letters
// carry no topic.
func emit(p []byte, k Kind, fn func([]byte, Kind)) {
	if _, n := utf8.DecodeRune(p); n == len(p) || len(p) > maxTokenBytes {
		return
	}
	fn(p, k)
}

// ContentWords returns the words of s that carry content, in order: its
// tokens without stop words, each stemmed and its abbreviation folded
// (Fold). Identifiers give their joined form and their parts.
func ContentWords(s string) []string {
	var out []string
	var z Tokenizer
	z.Scan(s, func(tok []byte, k Kind) {
		if k != Whole && IsStop(string(tok)) {
			return
		}
		out = append(out, Fold(string(tok)))
	})
	return out
}
