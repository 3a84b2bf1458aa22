package hookevent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The payload is framed and split by hand rather than with encoding/json:
// its scanner looks at every byte twice through a state machine, about
// 50–100 MB/s, and a tool's output can make the payload megabytes long on
// events the hook only has to turn away. Here strings — where nearly all
// of a payload's bytes are — are skipped with bytes.IndexByte, the large
// members (tool_input, tool_response, error) stay raw slices of the one
// buffer read, and only the small ones are decoded by encoding/json.

// readObject reads from r until one whole JSON object has arrived and
// returns its bytes, without waiting for EOF. More than limit bytes
// before the object closes is ErrTooLarge.
func readObject(r io.Reader, limit int64) ([]byte, error) {
	lr := &io.LimitedReader{R: r, N: limit + 1}
	buf := make([]byte, 0, 32<<10)
	var f framer
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		end, ferr := f.scan(buf)
		switch {
		case ferr != nil:
			return nil, ferr
		case end > 0 && int64(end) <= limit:
			return buf[f.start:end], nil
		case lr.N <= 0 || end > 0:
			return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, limit)
		case errors.Is(err, io.EOF) && f.start < 0:
			return nil, errors.New("empty input")
		case errors.Is(err, io.EOF):
			return nil, io.ErrUnexpectedEOF
		case err != nil:
			return nil, err
		}
	}
}

// framer finds where the top-level object ends, resuming where it stopped
// as more bytes arrive, so reading stays linear however the input is cut.
type framer struct {
	pos     int
	start   int // index of the opening brace; -1 before it
	depth   int
	inStr   bool
	strOpen int // index of the current string's opening quote
	started bool
}

// scan returns the index just past the object's closing brace, or 0 while
// it is incomplete.
func (f *framer) scan(b []byte) (int, error) {
	if !f.started {
		f.started, f.start = true, -1
	}
	for f.pos < len(b) {
		if f.inStr {
			end, ok := stringEnd(b, f.strOpen, f.pos)
			if !ok {
				f.pos = len(b)
				return 0, nil
			}
			f.inStr, f.pos = false, end
			continue
		}
		c := b[f.pos]
		if f.start < 0 {
			switch {
			case isSpace(c):
				f.pos++
				continue
			case c != '{':
				return 0, notObject(b[f.pos:])
			}
			f.start = f.pos
		}
		switch c {
		case '"':
			f.inStr, f.strOpen = true, f.pos
		case '{', '[':
			f.depth++
		case '}', ']':
			f.depth--
			if f.depth == 0 {
				f.pos++
				return f.pos, nil
			}
		}
		f.pos++
	}
	return 0, nil
}

// stringEnd finds the quote that closes the string opened at b[open],
// searching from `from`: it returns the index after it, or false when the
// string has not ended in b. A quote preceded by an odd run of
// backslashes is escaped; each run is counted once, by the quote after it.
func stringEnd(b []byte, open, from int) (int, bool) {
	if from <= open {
		from = open + 1
	}
	for {
		k := bytes.IndexByte(b[from:], '"')
		if k < 0 {
			return 0, false
		}
		q := from + k
		n := 0
		for q-1-n > open && b[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		from = q + 1
	}
}

// valueEnd returns the index just past the JSON value starting at b[i].
// Containers are matched by depth with strings skipped; scalars run to the
// next delimiter. It checks structure only; the values the hook uses are
// decoded (and so checked) by encoding/json.
func valueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, io.ErrUnexpectedEOF
	}
	switch b[i] {
	case '"':
		end, ok := stringEnd(b, i, i+1)
		if !ok {
			return 0, io.ErrUnexpectedEOF
		}
		return end, nil
	case '{', '[':
		// The framer, started at the container, finds its end.
		f := framer{pos: i, start: i, started: true}
		if end, _ := f.scan(b); end > 0 {
			return end, nil
		}
		return 0, io.ErrUnexpectedEOF
	case ',', '}', ']', ':':
		return 0, syntaxError(b[i], "looking for beginning of value")
	}
	j := i
	for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	return j, nil
}

// members calls fn with each key and raw value of the object obj, in
// order.
func members(obj []byte, fn func(key string, val []byte) error) error {
	i := skipSpace(obj, 1)
	if i < len(obj) && obj[i] == '}' {
		return nil
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return syntaxError(obj[i], "looking for beginning of object key string")
		}
		kend, ok := stringEnd(obj, i, i+1)
		if !ok {
			return io.ErrUnexpectedEOF
		}
		key := string(obj[i+1 : kend-1])
		if bytes.IndexByte(obj[i:kend], '\\') >= 0 {
			if err := json.Unmarshal(obj[i:kend], &key); err != nil {
				return err
			}
		}
		i = skipSpace(obj, kend)
		if i >= len(obj) {
			return io.ErrUnexpectedEOF
		} else if obj[i] != ':' {
			return syntaxError(obj[i], "after object key")
		}
		i = skipSpace(obj, i+1)
		vend, err := valueEnd(obj, i)
		if err != nil {
			return err
		}
		if err := fn(key, obj[i:vend]); err != nil {
			return err
		}
		i = skipSpace(obj, vend)
		if i >= len(obj) {
			return io.ErrUnexpectedEOF
		}
		switch obj[i] {
		case ',':
			i = skipSpace(obj, i+1)
		case '}':
			return nil
		default:
			return syntaxError(obj[i], "after object key:value pair")
		}
	}
	return io.ErrUnexpectedEOF
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// notObject names what the top level, rest, is instead of an object, in
// encoding/json's words; a word is a literal only as far as it spells one
// ("not json" is no null).
func notObject(rest []byte) error {
	c, kind, lit := rest[0], "", ""
	switch {
	case c == '[':
		kind = "array"
	case c == '"':
		kind = "string"
	case c == '-' || (c >= '0' && c <= '9'):
		kind = "number"
	case c == 't':
		kind, lit = "bool", "true"
	case c == 'f':
		kind, lit = "bool", "false"
	case c == 'n':
		kind, lit = "null", "null"
	default:
		return syntaxError(c, "looking for beginning of value")
	}
	for i := 1; i < len(lit) && i < len(rest); i++ {
		if rest[i] != lit[i] {
			return syntaxError(rest[i], fmt.Sprintf("in literal %s (expecting %s)", lit, strconv.QuoteRune(rune(lit[i]))))
		}
	}
	return fmt.Errorf("not a JSON object (%s)", kind)
}

// syntaxError words a syntax error as encoding/json does.
func syntaxError(c byte, context string) error {
	q := strconv.QuoteRune(rune(c))
	if c == '\'' {
		q = `'\''`
	}
	return fmt.Errorf("invalid character %s %s", q, context)
}
