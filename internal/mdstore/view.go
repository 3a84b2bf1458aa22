package mdstore

import (
	"bytes"
	"slices"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/sanitize"
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
	// ASCII: Text, Fix and Context are printable ASCII alone
	// (sanitize.ASCII), so a listing need check them no further.
	ASCII bool
	x     *entryScan // the reader, kept for the next entry
}

// ViewSegment reads seg (as Segments gives it) into v when what the
// entry says of a View's fields stands in its bytes as it is read: one
// metadata line, with its id, tasks and last sighting, and a lesson that
// needs no cleaning (valid UTF-8, no escapes, on one line), and no line
// of another entry. Then v says what ParseSegment would. Any other entry
// gives false, and the caller parses it.
func ViewSegment(seg []byte, v *View) bool {
	if v.x == nil {
		v.x = &entryScan{}
	}
	x := v.x
	*v = View{Seen: 1, Status: Active, x: x}
	if !x.scan(seg, 0) || x.marks != nil || x.dmgLine != 0 || len(x.metas) != 1 {
		return false
	}
	m := &x.metas[0]
	if len(m.ID) == 0 || m.odd || len(m.Tasks) == 0 || m.Last == nil {
		return false
	}
	text := x.issue
	if len(bytes.TrimSpace(text)) == 0 {
		switch len(x.body) {
		case 0:
		case 1:
			text = x.body[0]
			// unescapeBody, where it needs no copy.
			if len(text) >= 2 && text[0] == '\\' && isASCIIPunct(text[1]) {
				text = text[1:]
			} else if n := listMarker(text); n > 0 && text[n] == '\\' {
				return false
			}
		default:
			return false // several lines: OneLine joins them
		}
	}
	fields := [...][]byte{text, x.fix, x.context}
	ascii := true
	for i, f := range fields {
		f = bytes.TrimSpace(f)
		a := sanitize.ASCII(f)
		if !a && !utf8.Valid(f) || escapedOpen(f) {
			return false // cleaning would copy it
		}
		ascii = ascii && a
		fields[i] = f
	}
	*v = View{ID: m.ID, Text: fields[0], Fix: fields[1], Context: fields[2], LastSeen: m.Last, Tasks: m.Tasks, Seen: m.Seen, Status: m.Status, ASCII: ascii, x: x}
	return true
}

// escapedOpen reports whether f holds `<\` (an escaped comment opener,
// which reading unescapes): bytes.Contains, by '<' alone, which most
// fields lack (Contains cost a hundred instructions a field).
func escapedOpen(f []byte) bool {
	for i := bytes.IndexByte(f, '<'); i >= 0; {
		if i+1 < len(f) && f[i+1] == '\\' {
			return true
		}
		j := bytes.IndexByte(f[i+1:], '<')
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return false
}

// Meta is what a metadata or sighting line says (as parseMeta reads it),
// as parts of the line.
type Meta struct {
	ID, FP, Last, MergedInto []byte
	// IntoOwn is into-own= (Entry.IntoOwn).
	IntoOwn []byte
	// Gave is gave= (Entry.Gave).
	Gave int
	// Took is took= (Entry.Took).
	Took []byte
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
		// A field is key=value, its key what comes before the first
		// '=': since no key holds one, the field starts with key and '='
		// exactly when its key is that one.
		switch f[0] {
		case 'i':
			if val, ok := bytes.CutPrefix(f, []byte("id=")); ok {
				m.ID = val
			} else if val, ok := bytes.CutPrefix(f, []byte("into-own=")); ok {
				m.IntoOwn = val
			}
		case 'f':
			if val, ok := bytes.CutPrefix(f, []byte("fp=")); ok {
				m.FP = val
			}
		case 'm':
			if val, ok := bytes.CutPrefix(f, []byte("merged-into=")); ok {
				m.MergedInto = val
			}
		case 'n':
			if val, ok := bytes.CutPrefix(f, []byte("n=")); ok {
				m.N = val
			}
		case 'g':
			if val, ok := bytes.CutPrefix(f, []byte("gave=")); ok {
				if n, ok := digits(val); ok {
					m.Gave = n
				}
			}
		case 'l':
			if val, ok := bytes.CutPrefix(f, []byte("last=")); ok && validDate(val) {
				m.Last = val
			}
		case 's':
			if val, ok := bytes.CutPrefix(f, []byte("seen=")); ok {
				if n, ok := digits(val); ok && n > 0 {
					m.Seen = n
				}
			} else if val, ok := bytes.CutPrefix(f, []byte("status=")); ok {
				switch string(val) {
				case string(Archived):
					m.Status = Archived
				case string(Pending):
					m.Status = Pending
				case string(Forgotten):
					m.Status = Forgotten
				}
			}
		case 't':
			if val, ok := bytes.CutPrefix(f, []byte("took=")); ok {
				m.Took = val
				continue
			}
			val, ok := bytes.CutPrefix(f, []byte("tasks="))
			for ok && withTasks && len(val) > 0 {
				var t []byte
				t, val, _ = bytes.Cut(val, []byte(","))
				for _, c := range t {
					m.odd = m.odd || c <= ' ' || c >= utf8.RuneSelf
				}
				if len(t) > 0 && !slices.ContainsFunc(m.Tasks, func(x []byte) bool { return bytes.Equal(x, t) }) {
					m.Tasks = append(m.Tasks, t)
				}
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
