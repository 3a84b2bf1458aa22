package mdstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"
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
	today, err := prepareLessons(k, lessons, now)
	if err != nil {
		return nil, err
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	path := s.Path(k)
	raw, err := os.ReadFile(path)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	m := memory{k: k, doc: raw}
	if missing {
		m.doc = []byte(Header(k))
	} else if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		m.doc = append(m.doc, '\n')
	}
	base := len(raw)
	if missing {
		base = 0
	}
	outcomes := make([]Outcome, 0, len(lessons))
	for _, l := range lessons {
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
			m.doc = append(m.doc, '\n')
			m.doc = append(m.doc, renderSighting(e.ID, today, task)...)
			outcomes = append(outcomes, Outcome{ID: e.ID, Seen: e.Seen, Entry: e})
			continue
		}
		// A new lesson may share its content id with one it differs from
		// by symbols only; readers would fold the two into one.
		for salt := 1; m.hasID(l.ID); salt++ {
			l.ID = distinctID(l.Kind, l.Text(), salt)
		}
		m.doc = append(m.doc, '\n')
		m.doc = append(m.doc, Render(&l)...)
		outcomes = append(outcomes, Outcome{ID: l.ID, New: true, Seen: l.Seen, Entry: l})
	}
	if err := appendFile(path, m.doc[base:], missing); err != nil {
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
		if l.Date == "" {
			l.Date = today
		}
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
		flags |= os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
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

// memory is one kind's file as Record sees it: its bytes, with what this
// Record appended so far at the end.
type memory struct {
	k   Kind
	doc []byte
}

// repeat finds the entry lesson l repeats, as readers would show it.
func (m *memory) repeat(l *Entry) (Entry, bool) {
	// The id, then the ids Record gives lessons that share it but differ
	// by symbols (distinctID), for as long as the chain is in use.
	for id, salt := l.ID, 1; ; salt++ {
		var found Entry
		taken := false
		m.records("id", id, func(start int, sighting bool) bool {
			if sighting {
				return true
			}
			if e, ok := m.entryAt(start); ok && e.ID == id {
				taken = true
				if SameText(e.Text(), l.Text()) {
					found = e
					return false
				}
			}
			return true
		})
		if found.ID != "" {
			return m.state(found), true
		}
		if !taken {
			break
		}
		id = distinctID(l.Kind, l.Text(), salt)
	}
	var found Entry
	if l.FP != "" {
		m.records("fp", l.FP, func(start int, sighting bool) bool {
			if e, ok := m.entryAt(start); ok && !sighting && e.FP == l.FP && slices.Equal(symbols(e.Text()), symbols(l.Text())) {
				found = e
				return false
			}
			return true
		})
	}
	if found.ID == "" {
		found = m.legacy(l)
	}
	if found.ID == "" {
		return Entry{}, false
	}
	return m.state(found), true
}

// legacy finds an entry without metadata (flow-next's) that holds l's text
// as its lesson line.
func (m *memory) legacy(l *Entry) Entry {
	line := "\n" + l.Body + "\n"
	if l.Issue != "" {
		line = "\n**Issue**: " + l.Issue + "\n"
	}
	for off := 0; ; {
		i := bytes.Index(m.doc[off:], []byte(line))
		if i < 0 {
			return Entry{}
		}
		i += off + 1
		off = i
		if e, ok := m.entryAt(i); ok && e.Legacy && SameText(e.Text(), l.Text()) {
			return e
		}
	}
}

// hasID reports whether an entry has metadata or sightings under id.
func (m *memory) hasID(id string) bool {
	found := false
	m.records("id", id, func(int, bool) bool {
		found = true
		return false
	})
	return found
}

// records calls fn with the start of every metadata or sighting line that
// holds key=val, until fn returns false.
func (m *memory) records(key, val string, fn func(start int, sighting bool) bool) {
	needle := []byte(" " + key + "=" + val)
	for off := 0; ; {
		i := bytes.Index(m.doc[off:], needle)
		if i < 0 {
			return
		}
		i += off
		off = i + len(needle)
		if off < len(m.doc) && m.doc[off] != ' ' {
			continue
		}
		start := bytes.LastIndexByte(m.doc[:i], '\n') + 1
		line := m.doc[start:]
		if !bytes.HasPrefix(line, []byte(metaPrefix)) {
			continue
		}
		if !fn(start, bytes.HasPrefix(line[len(metaPrefix):], []byte(" seen "))) {
			return
		}
	}
}

// entryAt parses the entry whose segment holds offset pos: from the entry
// heading before it to the next one. It does not track code fences, so an
// entry found is one whose parse confirms what the caller looked for.
func (m *memory) entryAt(pos int) (Entry, bool) {
	start := -1
	for ls := bytes.LastIndexByte(m.doc[:pos], '\n') + 1; ; {
		if isEntryHeading(string(lineAt(m.doc, ls))) {
			start = ls
			break
		}
		if ls == 0 {
			return Entry{}, false
		}
		ls = bytes.LastIndexByte(m.doc[:ls-1], '\n') + 1
	}
	end := len(m.doc)
	for ls := start + len(lineAt(m.doc, start)) + 1; ls < len(m.doc); {
		l := lineAt(m.doc, ls)
		if isEntryHeading(string(l)) {
			end = ls
			break
		}
		ls += len(l) + 1
	}
	line := 1 + bytes.Count(m.doc[:start], []byte("\n"))
	e, _, ok := parseSegment(m.k, string(trimTrailingBlank(m.doc[start:end])), line)
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
	m.records("id", e.ID, func(start int, sighting bool) bool {
		r, isSighting, ok := parseMeta(string(lineAt(m.doc, start)))
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
