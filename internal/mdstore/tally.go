package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/regfile"
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
	f, err := regfile.Open(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return Tally{}, nil
	}
	var size int64
	if err == nil {
		defer f.Close()
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			if size = fi.Size(); size > maxFile {
				err = fmt.Errorf("%s is over %d bytes: %w", path, maxFile, regfile.ErrTooLarge)
			}
		}
	}
	if err != nil {
		return Tally{}, fmt.Errorf("read memory: %w", err)
	}
	t, err := tallyReader(k, f, size, now, staleDays)
	var pe *ParseError
	switch {
	case errors.As(err, &pe):
		pe.Path = path
	case err != nil:
		err = fmt.Errorf("read %s: %w", path, err)
	}
	return t, err
}

// brief is a record that counts for an entry by id: a sighting, or a
// metadata line a merge moved.
type brief struct {
	id, last string
}

// counted is an entry as counting keeps it: its id's place in the
// counter's arena, its days (a date is ten bytes; no date is zeros) and
// its state. It holds no pointer, so the collector never reads the list,
// however long it is.
type counted struct {
	idOff, idLen int32
	next         int32 // the next entry whose id has the same hash, or -1
	date, last   [10]byte
	status       Status
}

// counter holds the entries of one file by id.
type counter struct {
	seed    maphash.Seed
	arena   []byte // the ids
	entries []counted
	byHash  map[uint64]int32 // an id's hash: its first entry
}

func (c *counter) find(id []byte) (int, uint64) {
	h := maphash.Bytes(c.seed, id)
	j, ok := c.byHash[h]
	for ok && j >= 0 {
		e := &c.entries[j]
		if string(c.arena[e.idOff:e.idOff+e.idLen]) == string(id) {
			return int(j), h
		}
		j = e.next
	}
	return -1, h
}

func (c *counter) add(b segBrief) {
	i, h := c.find(b.id)
	if i < 0 {
		next, ok := c.byHash[h]
		if !ok {
			next = -1
		}
		c.byHash[h] = int32(len(c.entries))
		c.entries = append(c.entries, counted{idOff: int32(len(c.arena)), idLen: int32(len(b.id)), next: next,
			date: dayOf(b.date), last: dayOf(b.last), status: b.status})
		c.arena = append(c.arena, b.id...)
		return
	}
	// fold's rule for two copies of one lesson.
	a := &c.entries[i]
	if string(b.last) > lastDay(a) {
		a.last, a.status = dayOf(b.last), b.status
	} else if string(b.last) == lastDay(a) && b.status == Active {
		a.status = Active
	}
}

// dayOf keeps a date (or no date) in ten bytes.
func dayOf(b []byte) (d [10]byte) {
	copy(d[:], b)
	return d
}

// lastDay is e's last day as the entry has it: "" when none.
func lastDay(e *counted) string {
	if e.last == ([10]byte{}) {
		return ""
	}
	return string(e.last[:])
}

// tallyReader is Tally of a file read a piece at a time: it keeps ids,
// days and states, never the file.
func tallyReader(k Kind, r io.Reader, size int64, now time.Time, staleDays int) (Tally, error) {
	// Sized for the file (an entry is some 300 bytes; a file of anything
	// else gets at most a million places): growing the lists entry by
	// entry would touch twice the memory.
	n := int(min(size/300, 1<<20))
	c := counter{seed: maphash.MakeSeed(), byHash: make(map[uint64]int32, n),
		entries: make([]counted, 0, n), arena: make([]byte, 0, 16*n)}
	var records []brief
	checkFront := func(start []byte) error {
		_, _, err := readFrontMatter(start)
		return err
	}
	var sr Reader
	err := sr.scan(r, checkFront, func(seg []byte, _ int64, line int) bool {
		if b, ok := briefEntry(k, seg, line, &records); ok {
			c.add(b)
		}
		return true
	})
	if err != nil {
		return Tally{}, err
	}
	for _, r := range records {
		// CountSighting: a sighting moves the last day on, nothing else
		// that counting reads.
		if i, _ := c.find([]byte(r.id)); i >= 0 && r.last > lastDay(&c.entries[i]) {
			c.entries[i].last = dayOf([]byte(r.last))
		}
	}
	var t Tally
	for i := range c.entries {
		e := &c.entries[i]
		switch e.status {
		case Archived:
			t.Archived++
		case Pending:
			t.Pending++
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

// segBrief is what counting needs of an entry, as bytes of its segment.
type segBrief struct {
	id, date, last []byte
	status         Status
}

// briefEntry is parseEntry reading only the heading and the metadata
// lines; records gets the sightings and moved metadata lines, which count
// by id. It reads bytes: the result is part of seg. An entry it cannot
// read that way (its id not on a metadata line, a heading outside ASCII)
// is parsed whole.
func briefEntry(k Kind, seg []byte, line int, records *[]brief) (segBrief, bool) {
	first, rest, _ := bytes.Cut(seg, []byte("\n"))
	if n := len(first); n > 0 && first[n-1] == '\r' {
		first = first[:n-1]
	}
	if !isASCII(first) {
		return wholeBrief(k, seg, line, records)
	}
	head, tag := cutTagBytes(first)
	date, ok := asciiHeadingDate(head)
	if !ok {
		return segBrief{}, false
	}
	var m metaBytes
	metas, mark := 0, len(*records)
	for {
		if !bytes.HasPrefix(rest, []byte(metaPrefix)) {
			i := bytes.Index(rest, []byte("\n"+metaPrefix))
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		mm, ok := readMetaBytes(l, nil, false)
		switch {
		case !ok:
		case mm.sighting, tag != nil && string(mm.id) != string(tag), metas > 0 && string(mm.id) != string(m.id):
			*records = append(*records, brief{id: string(mm.id), last: string(mm.last)})
		case metas == 0:
			m, metas = mm, 1
		default:
			// fold's rule for the day and the state.
			if string(mm.last) > string(m.last) {
				m.last, m.status = mm.last, mm.status
			} else if string(mm.last) == string(m.last) && mm.status == Active {
				m.status = Active
			}
			metas++
		}
	}
	if metas == 0 || len(m.id) == 0 {
		// The id comes from the text: read the entry as Load does.
		*records = (*records)[:mark]
		return wholeBrief(k, seg, line, records)
	}
	return segBrief{id: m.id, date: date, last: m.last, status: m.status}, true
}

// wholeBrief counts an entry parsed whole.
func wholeBrief(k Kind, seg []byte, line int, records *[]brief) (segBrief, bool) {
	e, recs, _, ok := parseEntry(k, string(seg), line)
	if !ok {
		return segBrief{}, false
	}
	for _, r := range recs {
		*records = append(*records, brief{id: strings.Clone(r.ID), last: strings.Clone(r.LastSeen)})
	}
	return segBrief{id: []byte(e.ID), date: []byte(e.Date), last: []byte(e.LastSeen), status: e.Status}, true
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// cutTagBytes is cutTag on bytes: the id is nil when the line has none.
func cutTagBytes(l []byte) ([]byte, []byte) {
	body, ok := bytes.CutSuffix(l, []byte(" -->"))
	if !ok {
		return l, nil
	}
	i := bytes.LastIndexByte(body, '<')
	if i < 1 || !bytes.HasPrefix(body[i-1:], []byte(" <!-- ")) {
		return l, nil
	}
	id := body[i+len("<!-- "):]
	if !isToken(id) {
		return l, nil
	}
	return body[:i-1], id
}

// asciiHeadingDate is parseHeading's date of an ASCII heading, without
// splitting the rest of it.
func asciiHeadingDate(line []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(line, " "), []byte("## "))
	if !ok {
		return nil, false
	}
	rest = bytes.TrimRight(rest, " #")
	i := 0
	for i < len(rest) && isSpaceASCII(rest[i]) {
		i++
	}
	j := i
	for j < len(rest) && !isSpaceASCII(rest[j]) {
		j++
	}
	if !validDate(rest[i:j]) {
		return nil, false
	}
	return rest[i:j], true
}

func isSpaceASCII(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }
