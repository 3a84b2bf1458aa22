package mdstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/atomicfile"
	"github.com/gofrs/flock"
)

// ErrLockTimeout means another writer held the memory lock for longer than
// the store was willing to wait.
var ErrLockTimeout = errors.New("timed out waiting for the memory lock")

// LockName is the lock file every writer takes, in the memory folder.
const LockName = ".lock"

// Store is the memory folder. Reads need no lock: writers only append whole
// entries or rename complete files into place.
type Store struct {
	Dir         string
	LockTimeout time.Duration
}

// Open returns the store in dir (.flow/memory). Nothing is read yet.
func Open(dir string) *Store {
	return &Store{Dir: dir, LockTimeout: 10 * time.Second}
}

// Path is the file that holds kind k.
func (s *Store) Path(k Kind) string { return filepath.Join(s.Dir, k.File()) }

// ReadDoc parses kind k's file; a missing file is an empty document.
func (s *Store) ReadDoc(k Kind) (*Doc, error) {
	path := s.Path(k)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Doc{Kind: k}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	d, err := Parse(k, raw)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Path = path
		}
		return nil, err
	}
	return d, nil
}

// Load returns the entries of the given kinds (all kinds when none given),
// with entries that share an id folded into one, in file order.
func (s *Store) Load(kinds ...Kind) ([]Entry, error) {
	if len(kinds) == 0 {
		kinds = Kinds
	}
	var out []Entry
	for _, k := range kinds {
		d, err := s.ReadDoc(k)
		if err != nil {
			return nil, err
		}
		out = append(out, d.Folded()...)
	}
	return out, nil
}

// Init creates the memory folder and any missing kind files from templates.
// Existing files are never touched. It returns the files it created.
func (s *Store) Init() ([]string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create memory folder: %w", err)
	}
	ignore := filepath.Join(s.Dir, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(ignore, []byte(LockName+"\n.*.tmp-*\n"), 0o644); err != nil {
			return nil, err
		}
	}
	var created []string
	for _, k := range Kinds {
		path := s.Path(k)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return created, fmt.Errorf("create %s: %w", path, err)
		}
		_, err = f.WriteString(Header(k))
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return created, fmt.Errorf("write %s: %w", path, err)
		}
		created = append(created, path)
	}
	return created, nil
}

// lock takes the store's one writer lock, waiting at most LockTimeout.
func (s *Store) lock(ctx context.Context) (func(), error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create memory folder: %w", err)
	}
	fl := flock.New(filepath.Join(s.Dir, LockName))
	timeout := s.LockTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if !ok {
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%w after %v (%s)", ErrLockTimeout, timeout, fl.Path())
		}
		return nil, fmt.Errorf("lock memory: %w", err)
	}
	return func() { _ = fl.Unlock() }, nil
}

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
// lesson in order. A lesson memory already holds (Repeats) is recorded as a
// sighting of that entry; any other is appended as a new entry. Both are
// appends: the file is never rewritten, so a git union merge of two branches
// that both wrote to it only ever concatenates whole additions, and readers
// fold them by id.
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
	d, err := s.ReadDoc(k)
	if err != nil {
		return nil, err
	}
	existing := d.Folded()
	outcomes := make([]Outcome, 0, len(lessons))
	var added strings.Builder
	for _, l := range lessons {
		if i := findRepeat(existing, &l); i >= 0 {
			e := &existing[i]
			e.Seen++
			if today > e.LastSeen {
				e.LastSeen = today
			}
			task := ""
			if len(l.Tasks) > 0 {
				task = l.Tasks[0]
				if !contains(e.Tasks, task) {
					e.Tasks = append(e.Tasks, task)
				}
			}
			added.WriteString("\n")
			added.WriteString(RenderSighting(e.ID, today, task))
			outcomes = append(outcomes, Outcome{ID: e.ID, Seen: e.Seen, Entry: *e})
			continue
		}
		// A new lesson may share its content id with one it differs from
		// by symbols only; readers would fold the two into one.
		for salt := 1; idTaken(existing, l.ID); salt++ {
			l.ID = DistinctID(l.Kind, l.Text(), salt)
		}
		existing = append(existing, l)
		added.WriteString("\n")
		added.WriteString(Render(&l))
		outcomes = append(outcomes, Outcome{ID: l.ID, New: true, Seen: l.Seen, Entry: l})
	}
	if added.Len() == 0 {
		return outcomes, nil
	}
	return outcomes, s.appendRaw(k, d.Raw, added.String())
}

// findRepeat picks the existing entry that a new lesson repeats, or -1: the
// same content id, and the same text as far as the id can tell (SameText).
// A lesson that differs from the entry with its id by symbols only has the
// next id of the chain Record gives such twins (DistinctID), and is looked
// for under it.
func findRepeat(existing []Entry, e *Entry) int {
	for id, salt := e.ID, 1; ; salt++ {
		found := false
		for i := range existing {
			if existing[i].ID == id {
				if SameText(existing[i].Text(), e.Text()) {
					return i
				}
				found = true
			}
		}
		if !found {
			return -1
		}
		id = DistinctID(e.Kind, e.Text(), salt)
	}
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

func idTaken(existing []Entry, id string) bool {
	for i := range existing {
		if existing[i].ID == id {
			return true
		}
	}
	return false
}

// appendRaw adds text at the end of the file, whose bytes were read as raw
// (nil when missing), creating it from the template. The caller holds the
// lock.
func (s *Store) appendRaw(k Kind, raw []byte, text string) error {
	path := s.Path(k)
	prefix := ""
	if raw == nil {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			prefix = Header(k)
		}
	} else if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		prefix = "\n"
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	_, err = f.WriteString(prefix + text)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return nil
}

// Hit is one line of an entry that a search matched.
type Hit struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	ID    string `json:"id"`
	Type  Kind   `json:"type"`
	Text  string `json:"text"`
	Entry *Entry `json:"-"`
}

// Search matches re against every line of every entry (not the file
// preambles) and returns one hit per matching line.
func (s *Store) Search(re *regexp.Regexp, kinds ...Kind) ([]Hit, error) {
	if len(kinds) == 0 {
		kinds = Kinds
	}
	pf := newPrefilter(re)
	var hits []Hit
	for _, k := range kinds {
		d, err := s.ReadDoc(k)
		if err != nil {
			return nil, err
		}
		for i, sp := range d.spans {
			rest := string(d.Raw[sp.start:sp.end])
			for n := 0; rest != ""; n++ {
				var line string
				line, rest, _ = strings.Cut(rest, "\n")
				line = strings.TrimRight(line, "\r")
				if pf.maybe(line) && re.MatchString(line) {
					hits = append(hits, Hit{File: s.Path(k), Line: d.Entries[i].Line + n, ID: d.Entries[i].ID,
						Type: k, Text: strings.ToValidUTF8(line, "\uFFFD"), Entry: &d.Entries[i]})
				}
			}
		}
	}
	return hits, nil
}
