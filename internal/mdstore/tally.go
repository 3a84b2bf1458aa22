package mdstore

import (
	"os"
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

// Tally counts kind k's entries as Load would return them, reading a file
// a piece at a time and, of each entry flowmem wrote, only its heading and
// metadata line: counting needs states and dates, not the lessons' text.
// Any other entry (flow-next's, a hand edit, a merge's leftovers) is
// parsed whole, as Load parses it.
func (s *Store) Tally(k Kind, now time.Time, staleDays int) (Tally, error) {
	// Small pieces, as Record's: list counts three files, each with a
	// Reader of its own, and every page of buffer is a page fault in a
	// cold process.
	r := Reader{Buf: make([]byte, 0, 64<<10)}
	var size int64
	if fi, err := os.Stat(s.Path(k)); err == nil {
		size = fi.Size()
	}
	return tally(k, size, func(front func([]byte) error, fn func([]byte, int64, int) bool) error {
		return r.Scan(s.Path(k), front, fn)
	}, now, staleDays)
}

// brief is a record that counts for an entry by id: a sighting, or a
// metadata line a merge moved.
type brief struct {
	id, last  string
	forgotten bool // a forget's mark
}

// counted is an entry as counting keeps it: its days (a date is ten
// bytes; no date is zeros) and its state.
type counted struct {
	date, last [10]byte
	status     Status
}

// dayOf keeps a date (or no date) in ten bytes.
func dayOf[T string | []byte](b T) (d [10]byte) {
	copy(d[:], b)
	return d
}

// tally is Tally of the entries scan gives (as Reader.Scan gives them)
// from a file of size bytes: it keeps ids, days and states, never the file.
func tally(k Kind, size int64, scan func(front func([]byte) error, fn func([]byte, int64, int) bool) error, now time.Time, staleDays int) (Tally, error) {
	// Sized for the file (an entry is some 300 bytes; a file of anything
	// else gets at most a million places): growing them entry by entry
	// would touch twice the memory.
	n := int(min(size/300, 1<<20))
	index, entries := make(map[string]int, n), make([]counted, 0, n)
	var records []brief
	x := entryScan{brief: true}
	front := func(start []byte) error {
		if err := readFrontMatter(start); err != nil {
			return err
		}
		for _, r := range preambleRecords(start) {
			records = append(records, brief{id: r.ID, last: r.LastSeen, forgotten: r.Status == Forgotten})
		}
		return nil
	}
	err := scan(front, func(seg []byte, _ int64, line int) bool {
		id, c, ok := briefEntry(k, &x, seg, line, &records)
		if !ok {
			return true
		}
		i, ok := index[string(id)]
		if !ok {
			index[string(id)] = len(entries)
			entries = append(entries, c)
			return true
		}
		// fold's rule for two copies of one lesson.
		a := &entries[i]
		if string(c.last[:]) > string(a.last[:]) {
			a.last = c.last
		}
		if statusRank(c.status) > statusRank(a.status) {
			a.status = c.status
		}
		return true
	})
	if err != nil {
		return Tally{}, err
	}
	for _, r := range records {
		// CountSighting: a sighting moves the last day on, nothing else
		// that counting reads.
		i, ok := index[r.id]
		switch {
		case !ok:
		case r.forgotten:
			entries[i].status = Forgotten
		case r.last > string(entries[i].last[:]):
			entries[i].last = dayOf(r.last)
		}
	}
	var t Tally
	for _, e := range entries {
		switch e.status {
		case Archived:
			t.Archived++
		case Pending:
			t.Pending++
		case Forgotten:
		default:
			t.Active++
			d := e.last
			if d == ([10]byte{}) {
				d = e.date
			}
			if staleDay(d[:], now, staleDays) {
				t.Stale++
			}
		}
	}
	return t, nil
}

// briefEntry is what counting needs of the entry seg holds, read by x
// (which reads metadata lines only, without their tasks). With one metadata line that
// names its id, it is that line's id, day and state, parts of seg; any
// other entry is made whole, as Load makes it. records gets the records
// seg holds of other entries, which count by id.
func briefEntry(k Kind, x *entryScan, seg []byte, line int, records *[]brief) (id []byte, c counted, ok bool) {
	ok = x.scan(seg, line)
	if ok && x.marks == nil && len(x.metas) == 1 && len(x.metas[0].ID) > 0 {
		for i := range x.records {
			r := &x.records[i]
			*records = append(*records, brief{id: string(r.ID), last: string(r.Last), forgotten: r.Status == Forgotten})
		}
		m := &x.metas[0]
		c = counted{last: dayOf(m.Last), status: m.Status}
		if m.Last == nil {
			h, _ := parseHeading(string(x.head))
			c.date = dayOf(h.date)
		}
		return m.ID, c, true
	}
	e, recs, _, ok := parseEntry(nil, k, seg, "", line)
	for _, r := range recs {
		if r.ID != tornID {
			*records = append(*records, brief{id: strings.Clone(r.ID), last: strings.Clone(r.LastSeen), forgotten: r.Status == Forgotten})
		}
	}
	if !ok {
		return nil, c, false
	}
	return []byte(e.ID), counted{date: dayOf(e.Date), last: dayOf(e.LastSeen), status: e.Status}, true
}
