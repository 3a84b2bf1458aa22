// Package jsonedit edits JSON documents in place: it parses a document into a
// tree of byte ranges and changes it by splicing text, so that everything it
// does not touch — key order, indentation, spacing, number and string
// spelling, the final newline — stays byte for byte as the author wrote it.
// Round-tripping settings files through map[string]any would sort their keys
// and re-indent them; people notice and stop trusting the tool.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Kind is the JSON type of a node.
type Kind int

// The JSON value kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Node is one JSON value and where it sits in the source.
type Node struct {
	Kind       Kind
	Start, End int      // the value's bytes are src[Start:End]
	Members    []Member // objects, in source order
	Elems      []*Node  // arrays, in source order
}

// Member is one key/value pair of an object.
type Member struct {
	Key      string // decoded key
	KeyStart int    // offset of the key's opening quote
	KeyEnd   int    // offset just past its closing quote
	Value    *Node
}

// Get returns the value of the last member named key (the one
// encoding/json, and so Claude Code, would use), or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	if i := n.index(key); i >= 0 {
		return n.Members[i].Value
	}
	return nil
}

// index returns the position of the last member named key, or -1.
func (n *Node) index(key string) int {
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return i
		}
	}
	return -1
}

// ParseError is a syntax error with its 1-based line and column (in bytes).
type ParseError struct {
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Doc is a parsed document and the layout habits detected in it, used to
// format whatever is inserted so that it looks like the rest of the file.
type Doc struct {
	Src     []byte
	Root    *Node
	Indent  string // one level of indentation; "" when the document is on one line
	Newline string // "\n" or "\r\n"
	Colon   string // what separates a key from its value, e.g. ": "
}

var bom = []byte("\xef\xbb\xbf")

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 1000

// Parse parses src, which must hold exactly one JSON value (RFC 8259, no
// comments, no trailing commas) surrounded by optional whitespace, after an
// optional UTF-8 byte order mark.
func Parse(src []byte) (*Doc, error) {
	p := &parser{src: src}
	if bytes.HasPrefix(src, bom) {
		p.pos = len(bom) // Windows editors write one; it stays where it is
	}
	p.skipSpace()
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(src) {
		return nil, p.errf("unexpected %s after the top-level value", p.describe())
	}
	d := &Doc{Src: src, Root: root}
	d.detectStyle()
	return d, nil
}

type parser struct {
	src []byte
	pos int
}

func (p *parser) errf(format string, a ...any) *ParseError {
	return newParseError(p.src, p.pos, fmt.Sprintf(format, a...))
}

func newParseError(src []byte, off int, msg string) *ParseError {
	line, col := Position(src, off)
	return &ParseError{Line: line, Col: col, Msg: msg}
}

// Position is the 1-based line and column (in bytes) of offset off in src.
func Position(src []byte, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	return 1 + bytes.Count(src[:off], []byte{'\n'}), off - bytes.LastIndexByte(src[:off], '\n')
}

func (p *parser) describe() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, p.errf("nesting deeper than %d levels", maxDepth)
	}
	if p.pos >= len(p.src) {
		return nil, p.errf("unexpected end of input, expecting a value")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container(depth, Object)
	case c == '[':
		return p.container(depth, Array)
	case c == '"':
		start := p.pos
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &Node{Kind: String, Start: start, End: p.pos}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", Bool)
	case c == 'f':
		return p.literal("false", Bool)
	case c == 'n':
		return p.literal("null", Null)
	default:
		return nil, p.errf("unexpected %s, expecting a value", p.describe())
	}
}

func (p *parser) literal(word string, k Kind) (*Node, error) {
	start := p.pos
	if !bytes.HasPrefix(p.src[p.pos:], []byte(word)) {
		return nil, p.errf("invalid literal, expecting %s", word)
	}
	p.pos += len(word)
	return &Node{Kind: k, Start: start, End: p.pos}, nil
}

func (p *parser) number() (*Node, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.src[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return nil, p.errf("invalid number")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errf("invalid number: digits expected after '.'")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errf("invalid number: digits expected in exponent")
		}
	}
	return &Node{Kind: Number, Start: start, End: p.pos}, nil
}

// str scans a string literal and returns its decoded value.
func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // opening quote
	simple := true
	for {
		if p.pos >= len(p.src) {
			return "", newParseError(p.src, start, "unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			if simple {
				return string(p.src[start+1 : p.pos-1]), nil
			}
			var s string
			if err := json.Unmarshal(p.src[start:p.pos], &s); err != nil {
				return "", newParseError(p.src, start, "invalid string: "+err.Error())
			}
			return s, nil
		case c == '\\':
			simple = false
			p.pos++
			if p.pos >= len(p.src) {
				return "", newParseError(p.src, start, "unterminated string")
			}
			switch p.src[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				p.pos++
				for i := 0; i < 4; i++ {
					if p.pos >= len(p.src) || !isHex(p.src[p.pos]) {
						return "", p.errf("invalid \\u escape in string")
					}
					p.pos++
				}
			default:
				return "", p.errf("invalid escape in string")
			}
		case c < 0x20:
			return "", p.errf("control character in string")
		default:
			if c >= utf8.RuneSelf {
				simple = false // let encoding/json decide how invalid UTF-8 reads
			}
			p.pos++
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// container parses an object or an array: its members (a string key, ':'
// and a value) or elements, separated by commas.
func (p *parser) container(depth int, k Kind) (*Node, error) {
	closer := byte(']')
	if k == Object {
		closer = '}'
	}
	n := &Node{Kind: k, Start: p.pos}
	p.pos++
	p.skipSpace()
	for first := true; ; first = false {
		if first && p.pos < len(p.src) && p.src[p.pos] == closer {
			p.pos++
			n.End = p.pos
			return n, nil
		}
		if k == Object {
			if p.pos >= len(p.src) || p.src[p.pos] != '"' {
				return nil, p.errf("unexpected %s, expecting a string key", p.describe())
			}
			keyStart := p.pos
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			keyEnd := p.pos
			p.skipSpace()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return nil, p.errf("unexpected %s, expecting ':' after object key", p.describe())
			}
			p.pos++
			p.skipSpace()
			n.Members = append(n.Members, Member{Key: key, KeyStart: keyStart, KeyEnd: keyEnd})
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if k == Object {
			n.Members[len(n.Members)-1].Value = v
		} else {
			n.Elems = append(n.Elems, v)
		}
		p.skipSpace()
		if p.pos >= len(p.src) {
			return nil, p.errf("unexpected end of input, expecting ',' or '%c'", closer)
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
			if p.pos < len(p.src) && p.src[p.pos] == closer {
				// The usual slip of a hand edit, said in its words.
				return nil, p.errf("unexpected %s after a comma: JSON allows no comma after the last item", p.describe())
			}
		case closer:
			p.pos++
			n.End = p.pos
			return n, nil
		default:
			return nil, p.errf("unexpected %s, expecting ',' or '%c'", p.describe(), closer)
		}
	}
}

// Raw is the source text of n.
func (d *Doc) Raw(n *Node) []byte { return d.Src[n.Start:n.End] }

// Decode unmarshals n's source text into v.
func (d *Doc) Decode(n *Node, v any) error { return json.Unmarshal(d.Raw(n), v) }

// detectStyle learns indentation, newline and key separator from the file.
func (d *Doc) detectStyle() {
	d.Newline = "\n"
	if bytes.Contains(d.Src, []byte("\r\n")) {
		d.Newline = "\r\n"
	}
	d.Colon = ": "
	if m := firstMember(d.Root); m != nil {
		sep := string(d.Src[m.KeyEnd:m.Value.Start])
		if !bytes.ContainsAny([]byte(sep), "\r\n") {
			d.Colon = sep
		}
	}
	d.Indent = "  "
	if d.Root.Kind == Object || d.Root.Kind == Array {
		if !bytes.Contains(d.Raw(d.Root), []byte{'\n'}) && children(d.Root) > 0 {
			d.Indent = "" // a one-line document stays on one line
			return
		}
	}
	if unit, ok := d.findUnit(d.Root); ok {
		d.Indent = unit
	}
}

// findUnit looks for the first container whose first child starts its own
// line and returns how much deeper that child is indented than the container.
func (d *Doc) findUnit(n *Node) (string, bool) {
	var start int
	switch {
	case n.Kind == Object && len(n.Members) > 0:
		start = n.Members[0].KeyStart
	case n.Kind == Array && len(n.Elems) > 0:
		start = n.Elems[0].Start
	default:
		return "", false
	}
	if ind, own := d.lineIndentAt(start); own {
		outer := d.lineIndent(n.Start)
		if len(ind) > len(outer) && ind[:len(outer)] == outer {
			return ind[len(outer):], true
		}
	}
	for _, c := range childNodes(n) {
		if u, ok := d.findUnit(c); ok {
			return u, true
		}
	}
	return "", false
}

// lineIndentAt returns the whitespace between the start of off's line and
// off, and whether only whitespace precedes off on that line.
func (d *Doc) lineIndentAt(off int) (string, bool) {
	ls := bytes.LastIndexByte(d.Src[:off], '\n') + 1
	pre := d.Src[ls:off]
	if len(bytes.Trim(pre, " \t")) != 0 {
		return "", false
	}
	return string(pre), true
}

// lineIndent is the leading whitespace of the line that holds off.
func (d *Doc) lineIndent(off int) string {
	line := d.Src[bytes.LastIndexByte(d.Src[:off], '\n')+1:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

func firstMember(n *Node) *Member {
	if n.Kind == Object && len(n.Members) > 0 {
		return &n.Members[0]
	}
	for _, c := range childNodes(n) {
		if m := firstMember(c); m != nil {
			return m
		}
	}
	return nil
}

func childNodes(n *Node) []*Node {
	if n.Kind == Array {
		return n.Elems
	}
	out := make([]*Node, len(n.Members))
	for i, m := range n.Members {
		out[i] = m.Value
	}
	return out
}

func children(n *Node) int { return len(n.Members) + len(n.Elems) }
