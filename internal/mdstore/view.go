package mdstore

import (
	"bytes"
	"unicode/utf8"
)

// View is what a listing shows of an entry, read straight from its
// segment's bytes: its fields are parts of the segment, valid while it is.
// memory read shows every entry of a memory once; copying each into the
// strings of an Entry costs more garbage than the listing itself.
type View struct {
	ID       []byte
	Text     []byte // Entry.Text
	Fix      []byte
	Context  []byte
	LastSeen []byte
	Tasks    [][]byte
	Seen     int
	Status   Status
}

// ViewSegment reads seg (as Segments gives it) into v when the entry has
// the shape flowmem writes: a heading tagged with its id, one metadata line
// of that id naming its tasks and last sighting, then only Issue, Fix and
// Context lines or one line of text. Then v says what ParseSegment would,
// for the fields a View has. Any other entry (flow-next's, a hand edit, a
// merge's leftovers) gives false, and the caller parses it.
func ViewSegment(seg []byte, v *View) bool {
	tasks := v.Tasks[:0]
	*v = View{Seen: 1, Status: Active}
	if bytes.IndexByte(seg, '\r') >= 0 {
		return false
	}
	first, rest, _ := cutBytes(seg, '\n')
	for _, c := range first {
		if c >= utf8.RuneSelf {
			return false // parseHeading's white space outside ASCII
		}
	}
	tag := headingTag(first)
	if tag == nil {
		return false
	}
	meta, rest, _ := cutBytes(rest, '\n')
	if !viewMeta(meta, v, tasks) || !bytes.Equal(v.ID, tag) || len(v.Tasks) == 0 || v.LastSeen == nil {
		return false
	}
	var issue, body []byte
	for len(rest) > 0 {
		var l []byte
		l, rest, _ = cutBytes(rest, '\n')
		if len(bytes.TrimSpace(l)) == 0 {
			return false
		}
		var dst *[]byte
		switch {
		case bytes.HasPrefix(l, []byte(metaPrefix)):
			return false
		case bytes.HasPrefix(l, []byte("**Issue**:")):
			dst, l = &issue, l[len("**Issue**:"):]
		case bytes.HasPrefix(l, []byte("**Fix**:")):
			dst, l = &v.Fix, cutOwnTag(l[len("**Fix**:"):], tag)
		case bytes.HasPrefix(l, []byte("**Context**:")):
			dst, l = &v.Context, cutOwnTag(l[len("**Context**:"):], tag)
		default:
			dst = &body
			if len(l) >= 2 && l[0] == '\\' && isASCIIPunct(l[1]) {
				l = l[1:]
			} else if listMarker(l) > 0 {
				return false // an escaped list marker: unescaping copies
			}
		}
		if *dst != nil {
			return false // a second line of one field
		}
		if *dst = bytes.TrimSpace(l); !utf8.Valid(*dst) {
			return false
		}
	}
	v.Text = issue
	if len(issue) == 0 {
		v.Text = body
	} else if body != nil {
		return false // text after a lesson: parseEntry reads its tag
	}
	return true
}

// headingTag is cutTag's id on a heading line, or nil.
func headingTag(l []byte) []byte {
	body, ok := bytes.CutSuffix(l, []byte(" -->"))
	if !ok {
		return nil
	}
	i := bytes.LastIndexByte(body, '<')
	if i < 1 || !bytes.HasPrefix(body[i-1:], []byte(" <!-- ")) {
		return nil
	}
	if id := body[i+len("<!-- "):]; isToken(id) {
		return id
	}
	return nil
}

// cutOwnTag drops the " <!-- tag -->" that ends a field line.
func cutOwnTag(v, tag []byte) []byte {
	n := len(v) - len(" -->") - len(tag)
	if n >= len(" <!-- ") && bytes.Equal(v[n:n+len(tag)], tag) && string(v[n+len(tag):]) == " -->" && string(v[n-len(" <!-- "):n]) == " <!-- " {
		return v[:n-len(" <!-- ")]
	}
	return v
}

// viewMeta is readMeta on bytes, for an entry's own metadata line (not a
// sighting); tasks is the slice to reuse for v.Tasks.
func viewMeta(l []byte, v *View, tasks [][]byte) bool {
	v.Tasks = tasks
	if !bytes.HasPrefix(l, []byte(metaPrefix)) {
		return false
	}
	inner, ok := bytes.CutSuffix(bytes.TrimSpace(l[len(metaPrefix):]), []byte("-->"))
	if !ok {
		return false
	}
	firstField := true
	for len(inner) > 0 {
		var f []byte
		f, inner, _ = cutBytes(inner, ' ')
		if len(f) == 0 {
			continue
		}
		if firstField && string(f) == "seen" {
			return false // a sighting
		}
		firstField = false
		key, val, ok := cutBytes(f, '=')
		if !ok {
			continue
		}
		switch string(key) {
		case "id":
			v.ID = val
		case "seen":
			n, ok := digits(val)
			if !ok {
				return false // Atoi's signs and overflow: the parser decides
			}
			if n > 0 {
				v.Seen = n
			}
		case "last":
			if validDate(val) {
				v.LastSeen = val
			}
		case "tasks":
			for len(val) > 0 {
				var t []byte
				t, val, _ = cutBytes(val, ',')
				if len(t) == 0 {
					continue
				}
				for _, c := range t {
					if c <= ' ' || c >= utf8.RuneSelf {
						return false // a task the renderer would trim
					}
				}
				dup := false
				for _, x := range v.Tasks {
					dup = dup || bytes.Equal(x, t)
				}
				if !dup {
					v.Tasks = append(v.Tasks, t)
				}
			}
		case "status":
			switch string(val) {
			case string(Archived):
				v.Status = Archived
			case string(Pending):
				v.Status = Pending
			}
		}
	}
	return len(v.ID) > 0
}

// digits reads a decimal number of at most 18 digits.
func digits(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// cutBytes is bytes.Cut with a one-byte separator: IndexByte directly
// (Cut's Index costs more for one byte, and a view cuts every line and
// field with it).
func cutBytes(s []byte, sep byte) (before, after []byte, found bool) {
	if i := bytes.IndexByte(s, sep); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, nil, false
}
