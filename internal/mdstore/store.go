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
	"sync"
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
// with entries that share an id folded into one, in file order. Large files
// are read through the parse cache (cache.go).
func (s *Store) Load(kinds ...Kind) ([]Entry, error) {
	if len(kinds) == 0 {
		kinds = Kinds
	}
	// The files are independent: read them at the same time.
	files := make([]*loaded, len(kinds))
	errs := make([]error, len(kinds))
	var wg sync.WaitGroup
	for i, k := range kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i], errs[i] = s.readKind(k)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// Then decode each into its part of one slice, so that large memories
	// are not copied again to be concatenated.
	total := 0
	for _, f := range files {
		total += f.count()
	}
	out := make([]Entry, total)
	folded := make([][]Entry, len(files))
	slot := make([][2]int, len(files)) // each file's part of out: start, length
	off := 0
	for i, f := range files {
		n := f.count()
		dst := out[off : off+n : off+n]
		slot[i] = [2]int{off, n}
		off += n
		wg.Add(1)
		go func() {
			defer wg.Done()
			folded[i], errs[i] = f.entries(dst)
			if errs[i] == nil && f.save != nil {
				f.save()
			}
		}()
	}
	wg.Wait()
	sum := 0
	inPlace := true
	for i, f := range folded {
		if errs[i] != nil {
			return nil, errs[i]
		}
		sum += len(f)
		if len(f) > 0 && (len(f) > slot[i][1] || &f[0] != &out[slot[i][0]]) {
			inPlace = false
		}
	}
	if !inPlace {
		// A cache that failed to decode: its file was parsed instead, into
		// memory of its own and perhaps into more entries than the cache
		// announced. Compacting in place could overwrite the next file's
		// entries, so everything is copied once.
		all := make([]Entry, 0, sum)
		for _, f := range folded {
			all = append(all, f...)
		}
		if len(all) == 0 {
			return nil, nil
		}
		return all, nil
	}
	n := 0
	for _, f := range folded {
		// Entries that folding merged leave their part of out short:
		// close the gaps (each part starts at or after n, so this only
		// moves entries forward).
		if len(f) > 0 && &f[0] != &out[n] {
			copy(out[n:], f)
		}
		n += len(f)
	}
	if n == 0 {
		return nil, nil
	}
	return out[:n:n], nil
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

// MatchFunc picks the existing entry that a new lesson repeats, or -1.
type MatchFunc func(existing []Entry, e *Entry) int

// MatchID is the default MatchFunc: the same content id, and the same text
// as far as the id can tell (SameText). A lesson that differs from the
// entry with its id by symbols only has the next id of the chain that
// Upsert gives such twins (DistinctID), and is looked for under it.
func MatchID(existing []Entry, e *Entry) int {
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

// Outcome says what Upsert did with one lesson.
type Outcome struct {
	Entry    Entry `json:"entry"`
	Recurred bool  `json:"recurred"`
}

// Upsert records lessons of kind k under the writer lock. A lesson that
// match finds in memory is recorded as a sighting of that entry; any other
// is appended as a new entry. Both are appends: the file is never rewritten,
// so a git union merge of two branches that both wrote to it only ever
// concatenates whole additions, and readers fold them by id.
func (s *Store) Upsert(ctx context.Context, k Kind, lessons []Entry, match MatchFunc, now time.Time) ([]Outcome, error) {
	today, err := prepareLessons(k, lessons, now)
	if err != nil {
		return nil, err
	}
	h, err := s.Hold(ctx, k)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return h.upsert(lessons, match, today)
}

// prepareLessons fills in what Upsert adds to every lesson, and rejects an
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

// Held is one kind of memory, locked and read, so that a writer can work
// out its lessons while the memory loads: the hook analyses the review on
// one core while the store is read on the other. Close must always be
// called; Upsert at most once before it.
type Held struct {
	s        *Store
	k        Kind
	file     *loaded
	existing []Entry
	decoded  bool
	unlock   func()
	written  bool
}

// holdRoom is the room left after the entries for new lessons, so that the
// first append does not copy every entry of a large memory.
const holdRoom = 32

// Hold takes the memory lock and reads kind k.
func (s *Store) Hold(ctx context.Context, k Kind) (*Held, error) {
	h, err := s.HoldRead(ctx, k)
	if err != nil {
		return nil, err
	}
	if err := h.Decode(); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// HoldRead is Hold up to the decoding of the entries, which Decode then
// does: the file and its parse cache are read and checked, so Count is
// known, and a caller can start work that needs it beside the decoding.
func (s *Store) HoldRead(ctx context.Context, k Kind) (*Held, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	file, err := s.readKind(k)
	if err != nil {
		unlock()
		return nil, err
	}
	return &Held{s: s, k: k, file: file, unlock: unlock}, nil
}

// Count is the number of entries in the file before folding, as its
// cache or parse gives it: Entries holds no more, unless a cache that
// failed to decode had the file parsed again.
func (h *Held) Count() int { return h.file.count() }

// Decode decodes the entries HoldRead read; once is enough.
func (h *Held) Decode() error {
	if h.decoded {
		return nil
	}
	n := h.file.count()
	existing, err := h.file.entries(make([]Entry, n, n+holdRoom))
	if err != nil {
		return err
	}
	h.existing, h.decoded = existing, true
	return nil
}

// Entries are the memory's entries as read, folded (after Decode). They
// are the slice a MatchFunc is given, so a matcher may prepare on them;
// they must not be changed.
func (h *Held) Entries() []Entry { return h.existing }

// Upsert is Store.Upsert on the held memory.
func (h *Held) Upsert(lessons []Entry, match MatchFunc, now time.Time) ([]Outcome, error) {
	today, err := prepareLessons(h.k, lessons, now)
	if err != nil {
		return nil, err
	}
	return h.upsert(lessons, match, today)
}

// Close releases the lock, then writes the parse cache: it describes the
// file as it was read, a prefix of what it is now, and stays valid.
func (h *Held) Close() {
	if h.unlock == nil {
		return
	}
	h.unlock()
	h.unlock = nil
	if h.file.save != nil {
		h.file.save()
	}
}

func (h *Held) upsert(lessons []Entry, match MatchFunc, today string) ([]Outcome, error) {
	if h.unlock == nil || h.written {
		return nil, errors.New("memory no longer held: Upsert after Close or twice")
	}
	if err := h.Decode(); err != nil {
		return nil, err
	}
	h.written = true
	if match == nil {
		match = MatchID
	}
	existing := h.existing
	outcomes := make([]Outcome, 0, len(lessons))
	var added strings.Builder
	for _, l := range lessons {
		if i := match(existing, &l); i >= 0 {
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
			outcomes = append(outcomes, Outcome{Entry: *e, Recurred: true})
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
		outcomes = append(outcomes, Outcome{Entry: l})
	}
	h.existing = existing
	if added.Len() == 0 {
		return outcomes, nil
	}
	return outcomes, h.s.appendRaw(h.k, h.file, added.String())
}

func idTaken(existing []Entry, id string) bool {
	for i := range existing {
		if existing[i].ID == id {
			return true
		}
	}
	return false
}

// appendRaw adds text at the end of the file, creating it from the template
// when missing. The caller holds the lock.
func (s *Store) appendRaw(k Kind, file *loaded, text string) error {
	path := s.Path(k)
	prefix := ""
	if !file.exists {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			prefix = Header(k)
		}
	} else if file.size > 0 && !file.lastNL {
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
