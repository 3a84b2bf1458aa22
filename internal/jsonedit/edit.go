package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Obj is a JSON object whose keys are rendered in the order given.
type Obj []KV

// KV is one key/value pair of an Obj.
type KV struct {
	Key   string
	Value any
}

// AddMember returns the source with key: v added as the last member of
// obj, which must be an object.
func (d *Doc) AddMember(obj *Node, key string, v any) []byte {
	return d.insert(obj, func(b *strings.Builder, ind string, inline bool) {
		b.WriteString(quote(key))
		b.WriteString(d.colon(inline))
		d.render(b, v, ind, inline)
	})
}

// AppendElem returns the source with v added as the last element of arr,
// which must be an array.
func (d *Doc) AppendElem(arr *Node, v any) []byte {
	return d.insert(arr, func(b *strings.Builder, ind string, inline bool) {
		d.render(b, v, ind, inline)
	})
}

// Remove returns the source without the i-th member or element of c, taking
// the separator and the whitespace that belonged to it along, so that
// removing what AddMember or AppendElem inserted restores the bytes.
func (d *Doc) Remove(c *Node, i int) []byte {
	n := children(c)
	if i < 0 || i >= n {
		return bytes.Clone(d.Src)
	}
	var start, end int
	switch {
	case n == 1:
		start, end = c.Start+1, c.End-1
	case i > 0:
		_, start = span(c, i-1)
		_, end = span(c, i)
	default:
		start, _ = span(c, 0)
		end, _ = span(c, 1)
	}
	return splice(d.Src, start, end, "")
}

// RemoveKey removes the last member named key from obj, if present.
func (d *Doc) RemoveKey(obj *Node, key string) []byte {
	return d.Remove(obj, obj.index(key))
}

// span is the byte range of c's i-th child, key included for members.
func span(c *Node, i int) (start, end int) {
	if c.Kind == Object {
		m := c.Members[i]
		return m.KeyStart, m.Value.End
	}
	return c.Elems[i].Start, c.Elems[i].End
}

// insert adds one child at the end of container c, laid out like its
// siblings: on its own line at their indentation, or inline after a comma
// when the container is written on one line.
func (d *Doc) insert(c *Node, write func(b *strings.Builder, ind string, inline bool)) []byte {
	var b strings.Builder
	if n := children(c); n > 0 {
		lastStart, lastEnd := span(c, n-1)
		if ind, own := d.lineIndentAt(lastStart); own && d.Indent != "" {
			b.WriteString(",")
			b.WriteString(d.Newline)
			b.WriteString(ind)
			write(&b, ind, false)
		} else {
			b.WriteString(d.inlineSep(c))
			write(&b, "", true)
		}
		return splice(d.Src, lastEnd, lastEnd, b.String())
	}
	if d.Indent == "" {
		write(&b, "", true)
		return splice(d.Src, c.Start+1, c.End-1, b.String())
	}
	outer := d.lineIndent(c.Start)
	ind := outer + d.Indent
	b.WriteString(d.Newline)
	b.WriteString(ind)
	write(&b, ind, false)
	b.WriteString(d.Newline)
	b.WriteString(outer)
	return splice(d.Src, c.Start+1, c.End-1, b.String())
}

// inlineSep is the separator between children of a one-line container, as
// the file already spells it.
func (d *Doc) inlineSep(c *Node) string {
	if children(c) >= 2 {
		_, e0 := span(c, 0)
		s1, _ := span(c, 1)
		if sep := string(d.Src[e0:s1]); !strings.ContainsAny(sep, "\r\n") {
			return sep
		}
	}
	if strings.HasSuffix(d.Colon, " ") {
		return ", "
	}
	return ","
}

func (d *Doc) colon(inline bool) string {
	if d.Colon == "" {
		return ": "
	}
	if inline {
		return strings.TrimLeft(d.Colon, " \t")
	}
	return d.Colon
}

// render writes v (an Obj, a []any, a string or an int: what settings
// hold); ind is the indentation of the line v starts on.
func (d *Doc) render(b *strings.Builder, v any, ind string, inline bool) {
	sep := ","
	if strings.HasSuffix(d.colon(true), " ") {
		sep = ", "
	}
	var open, close string
	var elems []KV // an array's elements have no key
	switch v := v.(type) {
	case Obj:
		open, close, elems = "{", "}", v
	case []any:
		open, close = "[", "]"
		for _, e := range v {
			elems = append(elems, KV{Value: e})
		}
	}
	if open != "" {
		b.WriteString(open)
		for i, kv := range elems {
			if i > 0 && inline {
				b.WriteString(sep)
			} else if i > 0 {
				b.WriteString(",")
			}
			if !inline {
				b.WriteString(d.Newline + ind + d.Indent)
			}
			if open == "{" {
				b.WriteString(quote(kv.Key))
				b.WriteString(d.colon(inline))
			}
			d.render(b, kv.Value, ind+d.Indent, inline)
		}
		if !inline && len(elems) > 0 {
			b.WriteString(d.Newline + ind)
		}
		b.WriteString(close)
		return
	}
	switch v := v.(type) {
	case string:
		b.WriteString(quote(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	default:
		panic(fmt.Sprintf("jsonedit: cannot render %T", v))
	}
}

// quote encodes s as a JSON string without HTML escaping, so commands with
// & or > stay readable in the file.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}
