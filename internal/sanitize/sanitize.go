// Package sanitize makes text from outside safe to store and to print:
// review text, hand-edited or merged memory files and anything else a
// terminal would otherwise interpret. It removes terminal escape sequences
// (CSI, OSC and the other string controls, in their 7- and 8-bit forms),
// control characters other than newline and tab, bidirectional overrides
// and isolates (which make text read differently from what it is), and
// zero-width characters (which hide inside words and split secrets so that
// redaction no longer sees them). Invalid UTF-8 is dropped.
//
// Text is for text on its way into memory; Writer is for output on its way
// to a terminal. JSON output needs neither: the encoder escapes controls.
package sanitize

import (
	"encoding/binary"
	"io"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// Text returns s without escape sequences, control characters (newline and
// tab stay; a carriage return goes, so CR LF is a newline and a lone CR
// cannot overwrite a line on screen),
// bidirectional controls and zero-width characters. Text(Text(s)) == Text(s).
func Text(s string) string {
	out, _ := clean(s, false)
	return out
}

// clean is Text of s. With hold it stops where an escape sequence or a
// character that s cuts short starts (an escape sequence of at most
// maxHeld bytes), so that Writer can hold it back, and returns where; the
// end of s when nothing is cut short.
func clean(s string, hold bool) (string, int) {
	if plain(s) {
		return s, len(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c, start, done := s[i], i, true
		switch {
		case c == 0x1b:
			i, done = skipEscape(s, i+1)
		case c == '\n', c == '\t', c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			i++
		case c < 0x80:
			i++ // C0 control or DEL
		case hold && !utf8.FullRuneInString(s[i:]):
			return b.String(), i
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			switch {
			case r == utf8.RuneError && size == 1:
				// invalid byte
			case r == 0x9b:
				i, done = skipCSI(s, i)
			case introducer(r):
				i, done = skipString(s, i)
			case r >= 0x80 && r <= 0x9f, Invisible(r):
			default:
				b.WriteString(s[i-size : i])
			}
		}
		if hold && !done && len(s)-start <= maxHeld {
			// A sequence cut short runs to the end of s. Past maxHeld it
			// is dropped as far as it goes, and its rest prints as text.
			return b.String(), start
		}
	}
	return b.String(), len(s)
}

// plain: nothing Text would remove — printable ASCII, newlines, tabs and
// visible runes — the common case, which needs no copy. Rendered entries
// carry "→" and "·", so ASCII alone is not enough to be common.
func plain(s string) bool { return plainPrefix([]byte(s)) == len(s) }

// Invisible reports bidirectional controls and zero-width characters.
func Invisible(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f, // Arabic letter mark, LRM, RLM
		r >= 0x202a && r <= 0x202e, // embeddings and overrides
		r >= 0x2066 && r <= 0x2069, // isolates
		r >= 0x200b && r <= 0x200d, // zero-width space, non-joiner, joiner
		r >= 0x2060 && r <= 0x2064, // word joiner, invisible operators
		r == 0xfeff, r == 0x180e, r == 0x00ad, r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0,
		r >= 0xfff9 && r <= 0xfffb: // interlinear annotation
		return true
	}
	return false
}

// skipEscape skips what follows an ESC at s[i:]; done is false when s
// ends before the sequence does.
func skipEscape(s string, i int) (end int, done bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']', c == 'P', c == 'X', c == '^', c == '_':
		return skipString(s, i+1)
	case c >= 0x20 && c <= 0x2f: // intermediates, then a final byte
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			return i + 1, true
		}
		return i, i < len(s)
	case c >= 0x30 && c <= 0x7e:
		return i + 1, true
	}
	return i, true
}

// skipCSI skips a control sequence's parameters, intermediates and final
// byte.
func skipCSI(s string, i int) (int, bool) {
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		return i + 1, true
	}
	return i, i < len(s)
}

// skipString skips an OSC, DCS, SOS, PM or APC string up to its terminator
// (BEL, ESC \ or the 8-bit ST). An unterminated string ends at the end of
// its line: a terminal would swallow more, but a stray ESC ] must not eat
// a whole lesson file.
func skipString(s string, i int) (int, bool) {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1, true
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2, true
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2, true
		case s[i] == '\n':
			return i, true
		}
		i++
	}
	return i, false
}

// Writer returns a writer that passes everything written through Text, for
// output meant for people. A character or an escape sequence split across
// two writes is held back until the rest arrives (an escape sequence for
// at most maxHeld bytes).
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct {
	w    io.Writer
	tail []byte
}

func (t *writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.tail) == 0 {
		k := plainPrefix(p)
		if k == len(p) {
			// The common case, written as it is: no copy, no second pass.
			_, err := t.w.Write(p)
			return n, err
		}
		if len(p)-k < utf8.UTFMax && !utf8.FullRune(p[k:]) {
			// Plain up to a character the write cut short (a buffered
			// writer cuts anywhere): hold that back, as the slow path
			// would, without reading the rest twice.
			t.tail = append([]byte(nil), p[k:]...)
			_, err := t.w.Write(p[:k])
			return n, err
		}
	}
	if len(t.tail) > 0 {
		p = append(t.tail, p...)
		t.tail = nil
	}
	s, cut := clean(string(p), true)
	if cut < len(p) {
		t.tail = append([]byte(nil), p[cut:]...)
	}
	if s == "" {
		return n, nil
	}
	_, err := io.WriteString(t.w, s)
	return n, err
}

// introducer: an 8-bit CSI or string control, which takes the bytes after
// it with it.
func introducer(r rune) bool {
	switch r {
	case 0x9b, 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return true
	}
	return false
}

// ASCII reports whether p is printable ASCII alone (' ' to '~'): valid
// UTF-8 on one line, nothing Text removes. Eight bytes at a time: readers
// check a lesson's fields with it once, where a line would otherwise be
// checked for breaks, for UTF-8 and again here on its way out.
func ASCII(p []byte) bool {
	n := len(p)
	if n < 8 {
		for _, c := range p {
			if c < 0x20 || c >= 0x7f {
				return false
			}
		}
		return true
	}
	// No early exit: one mark over all the words, the last overlapping
	// the one before it.
	bad := notPrintable8Any(binary.LittleEndian.Uint64(p[n-8:]))
	q := p
	for ; len(q) >= 16; q = q[16:] {
		bad |= notPrintable8Any(binary.LittleEndian.Uint64(q)) | notPrintable8Any(binary.LittleEndian.Uint64(q[8:]))
	}
	if len(q) >= 8 {
		bad |= notPrintable8Any(binary.LittleEndian.Uint64(q))
	}
	return bad&highs == 0
}

// notPrintable8Any has the high bit of a byte of w set when w holds a
// byte that is not printable ASCII (not only the first: other bits are
// noise, the caller masks them with highs); none when all are printable.
func notPrintable8Any(w uint64) uint64 {
	t := w &^ highs // each byte below 0x80, so no sum below carries out of it
	// Outside ASCII; 0x7f (which becomes 0x80); below 0x20 (which stays
	// below 0x80).
	return w | (t + ones) | ^(t + 0x60*ones)
}

// Unwrap returns the writer under w when w is a Writer holding nothing
// back, for bytes a caller has checked itself (ASCII) or cleaned (Text)
// whole lines at a time; ok is false for any other writer.
func Unwrap(w io.Writer) (under io.Writer, ok bool) {
	t, ok := w.(*writer)
	if !ok || len(t.tail) > 0 {
		return nil, false
	}
	return t.w, true
}

// plainPrefix is the length of p's longest plain prefix.
func plainPrefix(p []byte) int {
	for i := 0; i < len(p); {
		// Eight bytes at a time while they are printable ASCII: memory
		// read passes megabytes of it through here. When they are not,
		// the first that is not is where the character-wise check goes
		// on, for one character.
		for i+8 <= len(p) {
			m := notPrintable8(binary.LittleEndian.Uint64(p[i : i+8]))
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(p) {
			break
		}
		c := p[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && c != '\n' && c != '\t' {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 || r <= 0x9f || Invisible(r) {
			return i
		}
		i += size
	}
	return len(p)
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// notPrintable8 marks (with its high bit) the first byte of the eight
// in w (little-endian) that is not printable ASCII (0x20 to 0x7e); 0 when
// all are. Bytes after the first marked one may be marked wrongly (a
// borrow runs on), never the bytes before it.
func notPrintable8(w uint64) uint64 {
	below := (w - 0x20*ones) &^ w // a byte below 0x20 (or above 0x7f) sets its high bit
	del := w ^ 0x7f*ones
	isDel := (del - ones) &^ del // a 0x7f byte became 0 and borrows
	return (w | below | isDel) & highs
}

// maxHeld bounds what Writer holds back of an unfinished sequence.
const maxHeld = 4096
