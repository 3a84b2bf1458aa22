package mdstore

import (
	"bytes"
	"slices"
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
	*v = View{Seen: 1, Status: Active, Tasks: v.Tasks[:0]}
	if bytes.IndexByte(seg, '\r') >= 0 {
		return false
	}
	first, rest, _ := bytes.Cut(seg, []byte("\n"))
	if !isASCII(first) {
		return false // parseHeading's white space outside ASCII
	}
	_, tag := cutTag(first)
	if tag == nil {
		return false
	}
	l, rest, _ := bytes.Cut(rest, []byte("\n"))
	if !bytes.HasPrefix(l, []byte(metaPrefix)) {
		return false
	}
	m, ok := readMetaBytes(l, v.Tasks, true)
	if !ok || m.Sighting || m.odd || !bytes.Equal(m.ID, tag) || len(m.Tasks) == 0 || m.Last == nil {
		return false
	}
	v.ID, v.Seen, v.LastSeen, v.Tasks, v.Status = m.ID, m.Seen, m.Last, m.Tasks, m.Status
	var issue, body []byte
	for len(rest) > 0 {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
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
		if bytes.Contains(l, []byte(`<\`)) {
			return false // an escaped comment opener: unescaping copies
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

// Meta is what a metadata or sighting line says (as parseMeta reads it),
// as parts of the line.
type Meta struct {
	ID, FP, Last, MergedInto []byte
	// N is a record's random token (n=): one per sighting line, the
	// captures' on a metadata line (Entry.Copies).
	N        []byte
	Tasks    [][]byte
	Seen     int
	Status   Status
	Sighting bool
	// odd: a task the renderer would trim; ViewSegment leaves such an
	// entry to the parser.
	odd bool
}

// ReadMeta reads a metadata or sighting line; ok is false when l is not
// one that readers count.
func ReadMeta(l []byte) (Meta, bool) {
	if !bytes.HasPrefix(l, []byte(metaPrefix)) {
		return Meta{}, false
	}
	return readMetaBytes(l, nil, true)
}

// readMetaBytes reads a line that starts with metaPrefix (parseMeta).
// Tasks are read only when withTasks (counting needs none), into tasks'
// array.
func readMetaBytes(l []byte, tasks [][]byte, withTasks bool) (m Meta, ok bool) {
	inner, ok := bytes.CutSuffix(bytes.TrimSpace(l[len(metaPrefix):]), []byte("-->"))
	if !ok {
		return Meta{}, false
	}
	m = Meta{Tasks: tasks[:0], Seen: 1, Status: Active}
	// Fields split on single spaces, empty ones skipped, as parseMeta
	// splits them.
	first := true
	for i := 0; i < len(inner); {
		j := bytes.IndexByte(inner[i:], ' ')
		if j < 0 {
			j = len(inner)
		} else {
			j += i
		}
		f := inner[i:j]
		i = j + 1
		if len(f) == 0 {
			continue
		}
		if first {
			first = false
			if string(f) == "seen" {
				m.Sighting = true
				continue
			}
		}
		eq := bytes.IndexByte(f, '=')
		if eq < 0 {
			continue
		}
		switch val := f[eq+1:]; string(f[:eq]) {
		case "id":
			m.ID = val
		case "fp":
			m.FP = val
		case "merged-into":
			m.MergedInto = val
		case "n":
			m.N = val
		case "seen":
			if n, ok := digits(val); ok && n > 0 {
				m.Seen = n
			}
		case "last":
			if validDate(val) {
				m.Last = val
			}
		case "tasks":
			for withTasks && len(val) > 0 {
				var t []byte
				t, val, _ = bytes.Cut(val, []byte(","))
				for _, c := range t {
					m.odd = m.odd || c <= ' ' || c >= utf8.RuneSelf
				}
				if len(t) > 0 && !slices.ContainsFunc(m.Tasks, func(x []byte) bool { return bytes.Equal(x, t) }) {
					m.Tasks = append(m.Tasks, t)
				}
			}
		case "status":
			switch string(val) {
			case string(Archived):
				m.Status = Archived
			case string(Pending):
				m.Status = Pending
			case string(Forgotten):
				m.Status = Forgotten
			}
		}
	}
	if len(m.ID) == 0 && m.Sighting {
		return Meta{}, false
	}
	return m, true
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
