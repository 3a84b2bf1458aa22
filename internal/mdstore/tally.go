package mdstore

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// Tally is how many of a kind's entries are in each state, as Load folds
// them: copies of one lesson count once.
type Tally struct {
	Active   int // active, stale ones included
	Stale    int // active but not seen for the given days
	Pending  int
	Archived int
}

// Tally counts kind k's entries as Load would return them, reading only
// each entry's heading and metadata lines: counting needs states and dates,
// not the lessons' text. An entry without a usable metadata line (written
// by flow-next or by hand) is parsed whole, as Load parses it.
func (s *Store) Tally(k Kind, now time.Time, staleDays int) (Tally, error) {
	path := s.Path(k)
	raw, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Tally{}, nil
	}
	if err != nil {
		return Tally{}, fmt.Errorf("read memory: %w", err)
	}
	t, err := tally(k, raw, now, staleDays)
	var pe *ParseError
	if errors.As(err, &pe) {
		pe.Path = path
	}
	return t, err
}

// brief is what counting needs of an entry or a sighting.
type brief struct {
	id, date, last string
	status         Status
}

func tally(k Kind, raw []byte, now time.Time, staleDays int) (Tally, error) {
	if _, _, err := readFrontMatter(raw); err != nil {
		return Tally{}, err
	}
	// Fields are substrings of one conversion, as in Parse.
	src := string(raw)
	entries := make([]brief, 0, len(raw)/320+1)
	index := make(map[string]int, cap(entries))
	var records []brief
	segments(raw, func(seg []byte, line int) bool {
		start := cap(raw) - cap(seg)
		b, ok := briefEntry(k, src[start:start+len(seg)], line, &records)
		if !ok {
			return true
		}
		i, dup := index[b.id]
		if !dup {
			index[b.id] = len(entries)
			entries = append(entries, b)
			return true
		}
		// fold's rule for two copies of one lesson.
		a := &entries[i]
		if b.last > a.last {
			a.last, a.status = b.last, b.status
		} else if b.last == a.last && b.status == Active {
			a.status = Active
		}
		return true
	})
	for _, r := range records {
		// CountSighting: a sighting moves the last day on, nothing else
		// that counting reads.
		if i, ok := index[r.id]; ok && r.last > entries[i].last {
			entries[i].last = r.last
		}
	}
	var t Tally
	for i := range entries {
		switch entries[i].status {
		case Archived:
			t.Archived++
		case Pending:
			t.Pending++
		default:
			t.Active++
			e := Entry{Date: entries[i].date, LastSeen: entries[i].last}
			if e.Stale(now, staleDays) {
				t.Stale++
			}
		}
	}
	return t, nil
}

// briefEntry is parseEntry reading only the heading and the metadata
// lines; records gets the sightings and moved metadata lines, which count
// by id. When the entry's id is not on a metadata line, it parses the
// entry whole.
func briefEntry(k Kind, src string, line int, records *[]brief) (brief, bool) {
	first, rest, _ := strings.Cut(src, "\n")
	if n := len(first); n > 0 && first[n-1] == '\r' {
		first = first[:n-1]
	}
	head, tag := cutTag(first)
	date, ok := headingDate(head)
	if !ok {
		return brief{}, false
	}
	var m Entry
	metas, mark := 0, len(*records)
	for {
		if !strings.HasPrefix(rest, metaPrefix) {
			i := strings.Index(rest, "\n"+metaPrefix)
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		mm, sighting, ok := readMeta(l, false)
		switch {
		case !ok:
		case sighting, tag != "" && mm.ID != tag, metas > 0 && mm.ID != m.ID:
			*records = append(*records, brief{id: mm.ID, last: mm.LastSeen})
		case metas == 0:
			m, metas = mm, 1
		default:
			m = fold(m, mm)
			metas++
		}
	}
	if metas == 0 || m.ID == "" {
		// The id comes from the text: read the entry as Load does.
		*records = (*records)[:mark]
		e, recs, _, ok := parseEntry(k, src, line)
		if !ok {
			return brief{}, false
		}
		for _, r := range recs {
			*records = append(*records, brief{id: r.ID, last: r.LastSeen})
		}
		return brief{id: e.ID, date: e.Date, last: e.LastSeen, status: e.Status}, true
	}
	return brief{id: m.ID, date: date, last: m.LastSeen, status: m.Status}, true
}
