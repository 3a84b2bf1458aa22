package mdstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/flowmem/flowmem/internal/regfile"
)

// Outcome says what Record did with one lesson.
type Outcome struct {
	ID  string `json:"id"`
	New bool   `json:"new"`
	// Seen is how often the lesson has been seen, this time included.
	Seen int `json:"seen"`
	// Entry is the lesson as memory now holds it: for a repeat, the stored
	// entry with every sighting counted.
	Entry Entry `json:"entry"`
}

// Record stores lessons of kind k under the writer lock, one Outcome per
// lesson in order. A lesson memory already holds is recorded as a sighting
// of that entry (seen, last, tasks); any other is appended as a new entry.
// Both are appends: the file is never rewritten, so a git union merge of
// two branches that both wrote to it only concatenates whole additions,
// and readers fold them by id.
//
// A repeat is found without parsing the memory: the file's bytes are
// searched for the lesson's id and fingerprint on metadata lines (and, for
// entries flow-next wrote without metadata, for its text line), and only
// the entries found there are parsed to confirm it. An entry is a repeat
// when it has the lesson's id and the same text as far as the id can tell
// (SameText), or the lesson's fingerprint and the same symbols in the same
// order: "compare with === not ==" and "compare with == not ===" stay two
// lessons.
func (s *Store) Record(ctx context.Context, k Kind, lessons []Entry, now time.Time) ([]Outcome, error) {
	unlock, err := s.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.RecordLocked(ctx, k, lessons, now)
}

// RecordLocked is Record for a caller that already holds the lock (Lock),
// so that what it checks and writes besides the lessons (the capture
// hook's reviews log) happens in the same critical section.
func (s *Store) RecordLocked(ctx context.Context, k Kind, lessons []Entry, now time.Time) ([]Outcome, error) {
	today, err := prepareLessons(k, lessons, now)
	if err != nil {
		return nil, err
	}
	path := s.Path(k)
	m := memory{k: k, path: path}
	size, last, err := m.prepare(lessons)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	if missing {
		m.loaded = true
		m.added = []byte(Header(k))
	} else if size > 0 && last != '\n' {
		// An append cut off: the next starts on a line of its own, and
		// marks the cut-off text, which readers left out, so that they
		// still do.
		m.added = []byte{'\n'}
		if n := m.tornTail(); n > 0 {
			m.added = fmt.Appendf(m.added, "%s seen id=%s lines=%d -->\n", metaPrefix, tornID, n)
		}
	}
	outcomes := make([]Outcome, 0, len(lessons))
	// lines counts the newlines before m.added[counted:]: where a new
	// entry's heading lands.
	lines, counted := m.lines, 0
	for _, l := range lessons {
		// A review of thousands of findings takes long to check; past the
		// caller's deadline nothing is written, rather than all of it late.
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("memory untouched: the deadline passed while recording (%w)", err)
		}
		if e, ok := m.repeat(&l); ok {
			e = m.survivor(e)
			e.Seen++
			e.LastSeen = max(e.LastSeen, today)
			task := ""
			if len(l.Tasks) > 0 {
				task = l.Tasks[0]
				if !slices.Contains(e.Tasks, task) {
					e.Tasks = append(e.Tasks, task)
				}
			}
			m.added = append(m.added, '\n')
			m.added = append(m.added, renderSighting(e.ID, today, task)...)
			outcomes = append(outcomes, Outcome{ID: e.ID, Seen: e.Seen, Entry: e})
			continue
		}
		// A new lesson may share its content id with one it differs from
		// by symbols only; readers would fold the two into one.
		for salt := 1; m.hasID(l.ID); salt++ {
			l.ID = distinctID(l.Kind, l.Text(), salt)
		}
		if l.Copies == "" {
			l.Copies = fmt.Sprintf("%08x", rand.Uint32())
		}
		m.added = append(m.added, '\n')
		lines += bytes.Count(m.added[counted:], []byte{'\n'})
		counted = len(m.added)
		l.Line = lines + 1
		m.added = append(m.added, Render(&l)...)
		outcomes = append(outcomes, Outcome{ID: l.ID, New: true, Seen: l.Seen, Entry: l})
	}
	if m.err != nil {
		return nil, fmt.Errorf("read memory: %w", m.err)
	}
	if err := appendFile(path, m.added, missing); err != nil {
		return nil, err
	}
	return outcomes, nil
}

// prepareLessons fills in what Record adds to every lesson, and rejects an
// empty one before the lock is taken.
func prepareLessons(k Kind, lessons []Entry, now time.Time) (string, error) {
	today := now.UTC().Format("2006-01-02")
	for i := range lessons {
		l := &lessons[i]
		l.Kind = k
		l.Date = cmp.Or(l.Date, today)
		l.LastSeen = today
		l.Normalize()
		if l.Text() == "" {
			return "", errors.New("an entry needs some text")
		}
	}
	return today, nil
}

// appendFile writes text at the end of path. If the write fails (a full
// disk), the file is cut back to its size before, or removed when it was
// created here, so it is exactly as it was. The caller holds the lock.
func appendFile(path string, text []byte, create bool) error {
	flags := os.O_WRONLY | os.O_APPEND
	if create {
		// O_EXCL never follows a link: a memory file linked to a shared
		// one that does not exist yet is created where the link points.
		flags |= os.O_CREATE | os.O_EXCL
	}
	path, err := writeTarget(path)
	if err != nil {
		return err
	}
	f, err := regfile.Open(path, flags, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if _, err = f.Write(text); err == nil {
		err = f.Sync()
	}
	if err != nil {
		if create {
			os.Remove(path)
		} else if terr := f.Truncate(fi.Size()); terr != nil {
			err = errors.Join(err, fmt.Errorf("undo the partial write: %w", terr))
		}
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return nil
}

// memory is one kind's file as Record sees it: its bytes, and what this
// Record is adding at its end. The file is read whole only when a lesson
// needs an entry of it (a repeat, an id taken, flow-next entries): most
// captures add new lessons, and for them one pass in pieces is enough.
type memory struct {
	k      Kind
	path   string
	doc    []byte // the file, once loaded
	loaded bool
	err    error // from loading the file
	added  []byte
	// The metadata and sighting lines of doc that hold the ids and
	// fingerprints the lessons need ("id=…", "fp=…"), found in one pass
	// over doc (prepare): wanted is what was looked for, found where.
	wanted map[string]bool
	found  map[string][]int
	// legacy: doc has entries without a metadata line (flow-next's).
	legacy bool
	// lines is the number of newlines in the file.
	lines int
}

// prepare finds, in one pass over the file, every metadata line that
// holds an id or fingerprint of the lessons, and the ids the lessons would
// get as symbol twins; other keys are searched for when asked. It reads
// the file in pieces, cut after a newline, and returns its size and last
// byte.
func (m *memory) prepare(lessons []Entry) (size int64, last byte, err error) {
	m.want(lessons)
	f, err := regfile.Open(m.path, os.O_RDONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return 0, 0, err
	} else if fi.Size() > maxFile {
		return 0, 0, fmt.Errorf("%s is over %d bytes: %w", m.path, maxFile, regfile.ErrTooLarge)
	}
	// Small pieces: a capture reads the file once and keeps nothing of
	// it, and every page of buffer is a page fault in a cold process.
	return m.prepareFrom(f, &Reader{Buf: make([]byte, 0, 64<<10)})
}

// want names the records prepare looks for: the lessons' ids, the ids
// they would get as symbol twins, and their fingerprints.
func (m *memory) want(lessons []Entry) {
	for i := range lessons {
		l := &lessons[i]
		m.wantKey("id=" + l.ID)
		for salt := 1; salt <= 2; salt++ {
			m.wantKey("id=" + distinctID(l.Kind, l.Text(), salt))
		}
		if l.FP != "" {
			m.wantKey("fp=" + l.FP)
		}
	}
}

// wantKey adds key ("id=…" or "fp=…") to what prepare looks for.
func (m *memory) wantKey(key string) {
	if m.wanted == nil {
		m.wanted, m.found = map[string]bool{}, map[string][]int{}
	}
	m.wanted[key] = true
}

// prepareFrom is prepare's pass over the file's bytes from rd.
func (m *memory) prepareFrom(rd io.Reader, r *Reader) (size int64, last byte, err error) {
	var c lineCounts
	err = r.Lines(rd, func(piece []byte) {
		m.scan(piece, int(size), &c)
		last = piece[len(piece)-1]
		size += int64(len(piece))
	})
	// Every entry flowmem writes has a metadata line: fewer of them than
	// headings means entries flow-next wrote.
	m.legacy = c.heads > c.metas
	m.lines = c.lines
	return size, last, err
}

// lineCounts is what prepare counts: metadata lines, entry headings and
// newlines.
type lineCounts struct{ metas, heads, lines int }

// scan is prepare's pass over region, whole lines of the file from its
// offset base. It looks at the first bytes of each line only, save on
// metadata lines.
func (m *memory) scan(region []byte, base int, c *lineCounts) {
	for pos := 0; pos < len(region); {
		end := len(region)
		if i := bytes.IndexByte(region[pos:], '\n'); i >= 0 {
			end = pos + i
			c.lines++
		}
		if l := region[pos:end]; len(l) >= 3 {
			switch l[0] {
			case '#':
				if l[1] == '#' && l[2] == ' ' && isEntryHeading(bytes.TrimRight(l, "\r")) {
					c.heads++
				}
			case '<':
				if rest, ok := bytes.CutPrefix(l, []byte(metaPrefix)); ok {
					rest = bytes.TrimRight(rest, "\r")
					if !bytes.HasPrefix(rest, []byte(" seen ")) {
						c.metas++
					}
					m.findKeys(rest, base+pos)
				}
			}
		}
		pos = end + 1
	}
}

// findKeys records, under start, every field of a metadata line (split on
// spaces) that prepare looks for; only an id= or fp= field can be one.
func (m *memory) findKeys(fields []byte, start int) {
	for len(fields) > 0 {
		f := fields
		if j := bytes.IndexByte(fields, ' '); j >= 0 {
			f, fields = fields[:j], fields[j+1:]
		} else {
			fields = nil
		}
		if len(f) > 3 && f[2] == '=' && m.wanted[string(f)] {
			m.found[string(f)] = append(m.found[string(f)], start)
		}
	}
}

// file is the memory file's bytes, read when first asked for; a read error
// is kept in m.err and reads as an empty file.
func (m *memory) file() []byte {
	if !m.loaded {
		m.loaded = true
		m.doc, m.err = regfile.Read(m.path, maxFile)
	}
	return m.doc
}

// tornTail is the number of lines of the record cut off at the end of the
// file (from the blank line every append starts with), or 0 when its last
// line, which has no newline, is whole: a hand edit left it without one.
// Every line flowmem writes ends with "-->" (a tag, a metadata line),
// except an entry's lesson text, whole when the entry's id is made from
// it. An entry without metadata (flow-next's) cannot tell, and is whole.
func (m *memory) tornTail() int {
	doc := m.file()
	i := bytes.LastIndexByte(doc, '\n') + 1
	l := bytes.TrimRight(doc[i:], " \t\r")
	lines := 1 + bytes.Count(doc[max(0, bytes.LastIndex(doc, []byte("\n\n"))+2):], []byte("\n"))
	switch {
	case m.err != nil || len(l) == 0 || bytes.HasSuffix(l, []byte("-->")):
		return 0
	case bytes.Contains(l, []byte("<!--")):
		return lines // a comment opened, never closed
	}
	e, ok := m.entryAt(doc, i)
	switch {
	case !ok || e.Legacy && e.Text() != "":
		return 0
	case e.Legacy || e.Issue != "" && !bytes.HasPrefix(l, []byte("**Issue**:")):
		return lines
	}
	for salt := 0; salt <= 3; salt++ {
		id := contentID(m.k, e.Text())
		if salt > 0 {
			id = distinctID(m.k, e.Text(), salt)
		}
		if id == e.ID {
			return 0
		}
	}
	return lines
}

// repeat finds the entry lesson l repeats, as readers would show it.
func (m *memory) repeat(l *Entry) (Entry, bool) {
	// The id, then the ids Record gives lessons that share it but differ
	// by symbols (distinctID), for as long as the chain is in use.
	for id, salt := l.ID, 1; ; salt++ {
		var found Entry
		taken := false
		m.records("id", id, func(doc []byte, start int, sighting bool) bool {
			if sighting {
				// A forget's mark keeps its id: the lesson recorded
				// again is new, under the next id of the chain.
				taken = taken || bytes.HasSuffix(lineAt(doc, start), []byte(" status="+Forgotten+" -->"))
				return true
			}
			if e, ok := m.entryAt(doc, start); ok && e.ID == id {
				taken = true
				if SameText(e.Text(), l.Text()) {
					found = e
					return false
				}
			}
			return true
		})
		if found.ID != "" {
			if e := m.state(found); e.Status != Forgotten {
				return e, true
			}
		}
		if !taken {
			break
		}
		id = distinctID(l.Kind, l.Text(), salt)
	}
	var found Entry
	if l.FP != "" {
		m.records("fp", l.FP, func(doc []byte, start int, sighting bool) bool {
			if e, ok := m.entryAt(doc, start); ok && !sighting && e.FP == l.FP && slices.Equal(symbols(e.Text()), symbols(l.Text())) && m.state(e).Status != Forgotten {
				found = e
				return false
			}
			return true
		})
	}
	if found.ID == "" && m.legacy {
		found = m.legacyEntry(l)
	}
	if found.ID == "" {
		return Entry{}, false
	}
	return m.state(found), true
}

// legacyEntry finds an entry without metadata (flow-next's) that holds l's
// text as its lesson line.
func (m *memory) legacyEntry(l *Entry) Entry {
	line := "\n" + l.Body + "\n"
	if l.Issue != "" {
		line = "\n**Issue**: " + l.Issue + "\n"
	}
	needle := []byte(line)
	for _, doc := range [...][]byte{m.file(), m.added} {
		for off := 0; ; {
			i := bytes.Index(doc[off:], needle)
			if i < 0 {
				break
			}
			i += off + 1
			off = i
			if e, ok := m.entryAt(doc, i); ok && e.Legacy && SameText(e.Text(), l.Text()) {
				return e
			}
		}
	}
	return Entry{}
}

// hasID reports whether an entry has metadata or sightings under id.
func (m *memory) hasID(id string) bool {
	found := false
	m.records("id", id, func([]byte, int, bool) bool {
		found = true
		return false
	})
	return found
}

// records calls fn with the start of every metadata or sighting line that
// holds key=val, in the file or in what is being added, until fn returns
// false.
func (m *memory) records(key, val string, fn func(doc []byte, start int, sighting bool) bool) {
	var docs [2][]byte
	if k := key + "=" + val; m.wanted[k] {
		// Found by prepare: the file is read only if there is one.
		for _, start := range m.found[k] {
			doc := m.file()
			if m.err != nil {
				return
			}
			if !fn(doc, start, bytes.HasPrefix(doc[start+len(metaPrefix):], []byte(" seen "))) {
				return
			}
		}
	} else {
		docs[0] = m.file()
	}
	docs[1] = m.added
	needle := []byte(" " + key + "=" + val)
	for _, doc := range docs {
		for off := 0; ; {
			i := bytes.Index(doc[off:], needle)
			if i < 0 {
				break
			}
			i += off
			off = i + len(needle)
			if off < len(doc) && doc[off] != ' ' {
				continue
			}
			start := bytes.LastIndexByte(doc[:i], '\n') + 1
			line := doc[start:]
			if !bytes.HasPrefix(line, []byte(metaPrefix)) {
				continue
			}
			if !fn(doc, start, bytes.HasPrefix(line[len(metaPrefix):], []byte(" seen "))) {
				return
			}
		}
	}
}

// entryAt parses the entry whose segment holds offset pos: from the entry
// heading before it to the next one. It does not track code fences, so an
// entry found is one whose parse confirms what the caller looked for.
func (m *memory) entryAt(doc []byte, pos int) (Entry, bool) {
	start := -1
	for ls := bytes.LastIndexByte(doc[:pos], '\n') + 1; ; {
		if isEntryHeading(lineAt(doc, ls)) {
			start = ls
			break
		}
		if ls == 0 {
			return Entry{}, false
		}
		ls = bytes.LastIndexByte(doc[:ls-1], '\n') + 1
	}
	end := len(doc)
	for ls := start + len(lineAt(doc, start)) + 1; ls < len(doc); {
		l := lineAt(doc, ls)
		if isEntryHeading(l) {
			end = ls
			break
		}
		ls += len(l) + 1
	}
	line := 1 + bytes.Count(doc[:start], []byte("\n"))
	if len(doc) > 0 && len(m.added) > 0 && &doc[0] == &m.added[0] {
		line += bytes.Count(m.file(), []byte("\n"))
	}
	e, _, _, ok := parseEntry(nil, m.k, trimTrailingBlank(doc[start:end]), "", line)
	return e, ok
}

// lineAt is the line that starts at offset i, without its newline.
func lineAt(b []byte, i int) []byte {
	l := b[i:]
	if j := bytes.IndexByte(l, '\n'); j >= 0 {
		l = l[:j]
	}
	return bytes.TrimRight(l, "\r")
}

// state is entry e as readers see it: every copy of its metadata (a union
// merge of two branches that both recorded it) folded in, and every
// sighting counted.
func (m *memory) state(e Entry) Entry {
	meta := e
	var sightings []Entry
	m.records("id", e.ID, func(doc []byte, start int, sighting bool) bool {
		r, isSighting, ok := parseMeta(string(lineAt(doc, start)))
		switch {
		case !ok || r.ID != e.ID:
		case isSighting:
			sightings = append(sightings, r)
		default:
			meta = fold(meta, r)
		}
		return true
	})
	e.Seen, e.LastSeen, e.Tasks, e.Status = meta.Seen, meta.LastSeen, meta.Tasks, meta.Status
	for i := range sightings {
		CountSighting(&e, &sightings[i])
	}
	return e
}
