package recall

import (
	"bytes"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// segments and parseSegment stand in for mdstore.Segments and
// mdstore.ParseSegment until the store package has them (PLAN.md).
func segments(raw []byte, fn func(seg []byte, line int) bool) {
	body, line := raw, 1
	if bytes.HasPrefix(raw, []byte("---\n")) || bytes.HasPrefix(raw, []byte("---\r\n")) {
		pos := bytes.IndexByte(raw, '\n') + 1
		for pos < len(raw) {
			end := bytes.IndexByte(raw[pos:], '\n')
			next := len(raw)
			if end >= 0 {
				next = pos + end + 1
			}
			if string(bytes.TrimRight(raw[pos:next], "\r\n")) == "---" {
				line += bytes.Count(raw[:next], []byte("\n"))
				body = raw[next:]
				break
			}
			pos = next
		}
	}
	if !bytes.Contains(body, []byte("```")) {
		// No code fence: every "\n## date" starts an entry, and a search
		// for it skips the lines between.
		start, startLine := -1, 0
		for pos, l := 0, line; pos < len(body); {
			var at int
			if pos == 0 && bytes.HasPrefix(body, []byte("## ")) {
				at = 0
			} else {
				j := bytes.Index(body[pos:], []byte("\n## "))
				if j < 0 {
					break
				}
				at = pos + j + 1
			}
			l += bytes.Count(body[pos:at], []byte("\n"))
			pos = at + 3
			if !isHeading(body[at:]) {
				continue
			}
			if start >= 0 && !fn(body[start:at], startLine) {
				return
			}
			start, startLine = at, l
		}
		if start >= 0 {
			fn(body[start:], startLine)
		}
		return
	}
	start, startLine, fence := -1, 0, false
	for pos, l := 0, line; pos < len(body); l++ {
		end := bytes.IndexByte(body[pos:], '\n')
		next := len(body)
		if end >= 0 {
			next = pos + end + 1
		}
		ln := body[pos:next]
		if bytes.HasPrefix(bytes.TrimLeft(ln, " "), []byte("```")) {
			fence = !fence
		}
		if !fence && isHeading(ln) {
			if start >= 0 && !fn(body[start:pos], startLine) {
				return
			}
			start, startLine = pos, l
		}
		pos = next
	}
	if start >= 0 {
		fn(body[start:], startLine)
	}
}

func isHeading(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("## ")) || len(l) < 13 {
		return false
	}
	d := l[3:13]
	for i, c := range d {
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
		} else if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func parseSegment(k mdstore.Kind, seg []byte, line int) (mdstore.Entry, bool) {
	d, err := mdstore.Parse(k, seg)
	if err != nil || len(d.Entries) == 0 {
		return mdstore.Entry{}, false
	}
	e := d.Entries[0]
	e.Line = line
	return e, true
}
