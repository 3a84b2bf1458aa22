package mdstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/atomicfile"
	"github.com/flowmem/flowmem/internal/regfile"
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

// writeTarget is where a write to the memory file at path lands: path, or
// the end of its chain of links, of the same name (atomicfile.SameName).
func writeTarget(path string) (string, error) {
	dest, err := atomicfile.SameName(path, "a memory file")
	if err != nil {
		return "", fmt.Errorf("open memory file: %w", err)
	}
	return dest, nil
}

// ReadDoc parses kind k's file; a missing file is an empty document.
func (s *Store) ReadDoc(k Kind) (*Doc, error) {
	path := s.Path(k)
	raw, err := regfile.Read(path, maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &Doc{Kind: k}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	d, err := Parse(k, raw)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return d, nil
}

// Load returns the entries of the given kinds (all kinds when none given),
// with entries that share an id folded into one and every sighting
// counted, in file order.
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

// maxFile bounds the memory files flowmem reads whole (regfile.Read, which
// also refuses a FIFO or a device that would hang a hook): far above any
// real memory (100,000 entries are about 40 MB), so that a wrong file (a
// disk image linked in by mistake) is an error, not all of memory.
const maxFile = 1 << 30

// Init creates the memory folder and any missing kind files from templates.
// Existing files are never touched. It returns the files it created.
func (s *Store) Init() ([]string, error) {
	if err := s.makeDir(); err != nil {
		return nil, err
	}
	var created []string
	for _, k := range Kinds {
		path := s.Path(k)
		// As Record creates one: never over an existing file, and gone
		// again when the write fails.
		if err := appendFile(path, []byte(Header(k)), true); errors.Is(err, fs.ErrExist) {
			continue
		} else if err != nil {
			return created, err
		}
		created = append(created, path)
	}
	return created, nil
}

// makeDir creates the memory folder and gives it its .gitignore, unless
// it has one: the lock file, temp files and the local injection log stay
// out of git.
func (s *Store) makeDir() error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("create memory folder: %w", err)
	}
	ignore := filepath.Join(s.Dir, ".gitignore")
	if _, err := os.Stat(ignore); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return atomicfile.Write(ignore, []byte(LockName+"\n.*.tmp-*\ninjections*.jsonl\n"), 0o644)
}

// Lock takes the store's one writer lock, waiting at most LockTimeout:
// Record and Rewrite take it, and so does any other writer of the memory
// folder (the reviews log). Call the returned func to release it.
func (s *Store) Lock(ctx context.Context) (func(), error) {
	if err := ctx.Err(); err != nil {
		// The caller's deadline has passed: not a busy lock.
		return nil, fmt.Errorf("lock memory: %w", err)
	}
	if _, err := os.Stat(s.Dir); err != nil {
		// A folder made here (deleted, or never committed) gets its
		// .gitignore as init makes it, or git add -A takes the lock file.
		if err := s.makeDir(); err != nil {
			return nil, err
		}
	}
	fl := flock.New(filepath.Join(s.Dir, LockName))
	timeout := s.LockTimeout
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

// Hit is one line of an entry that a search matched.
type Hit struct {
	File string `json:"file"`
	Line int    `json:"line"`
	ID   string `json:"id"`
	Type Kind   `json:"type"`
	Text string `json:"text"`
}

// SearchEach matches re against every line of every entry (not the file
// preambles) and hands fn one hit per matching line as it is found: the
// files are read a piece at a time, so a search takes the same little
// memory whatever the size of the store. An error from fn stops the search.
// A forgotten lesson is no entry, so its lines a union merge brought back
// are no hit either.
func (s *Store) SearchEach(re *regexp.Regexp, fn func(Hit) error, kinds ...Kind) error {
	if len(kinds) == 0 {
		kinds = Kinds
	}
	pf := newPrefilter(re)
	var r Reader
	var x entryScan
	var ferr error
	for _, k := range kinds {
		path := s.Path(k)
		// A forget's mark may stand anywhere in the file, after the lines
		// it forgets too, so the ids marks name are found first.
		marked, err := r.forgetMarked(path)
		if err != nil {
			return err
		}
		// A front matter that cannot be read is an error, as for Load.
		err = r.Scan(path, readFrontMatter, func(seg []byte, _ int64, line int) bool {
			// Most entries hold no literal of the pattern: one look at
			// the whole entry rules them out.
			if !pf.maybe(seg) {
				return true
			}
			id, parsed := "", false
			for n, start := 0, 0; start < len(seg); n++ {
				end := len(seg)
				if i := bytes.IndexByte(seg[start:], '\n'); i >= 0 {
					end = start + i
				}
				l := trimEOL(seg[start:end])
				start = end + 1
				if !pf.match(re, l) {
					continue
				}
				if !parsed {
					id, parsed = entryID(&x, k, seg, line), true
				}
				if marked[id] {
					return true
				}
				text, _ := strings.CutSuffix(string(l), " <!-- "+id+" -->")
				if !utf8.ValidString(text) {
					text = strings.ToValidUTF8(text, "\uFFFD")
				}
				if ferr = fn(Hit{File: path, Line: line + n, ID: id, Type: k, Text: text}); ferr != nil {
					return false
				}
			}
			return true
		})
		if err != nil {
			return err
		}
		if ferr != nil {
			return ferr
		}
	}
	return nil
}

// entryID is the id of the entry seg holds, as parseEntry reads it: with
// one metadata line that names it, that line's id, without making the
// Entry (whose strings were most of what a search allocated).
func entryID(x *entryScan, k Kind, seg []byte, line int) string {
	if x.scan(seg, line) && x.marks == nil && len(x.metas) == 1 && len(x.metas[0].ID) > 0 {
		return string(x.metas[0].ID)
	}
	e, _, _, _ := parseEntry(x, k, seg, "", line)
	return e.ID
}

// indexForgotten is where b first holds "=forgotten", the value of a
// forget's mark (forgetMark), or -1. It looks for the 'g', the rarest of
// its bytes in lessons' text: bytes.Index steps through text full of the
// needle's first bytes at a dozen instructions a byte, more than the
// search of the file costs.
func indexForgotten(b []byte) int {
	const v, g = "=" + string(Forgotten), 4 // v[g] == 'g'
	for at := g; at < len(b); {
		i := bytes.IndexByte(b[at:], 'g')
		if i < 0 {
			return -1
		}
		if at += i; bytes.HasPrefix(b[at-g:], []byte(v)) {
			return at - g
		}
		at++
	}
	return -1
}

// Forgotten is the ids of kind k's entries that memory forget removed (the
// marks it left, Forgotten), so a command can tell a forgotten id from one
// that never was; nil when there are none.
func (s *Store) Forgotten(k Kind) (map[string]bool, error) {
	var r Reader
	return r.forgetMarked(s.Path(k))
}

// forgetMarked is the ids of the file at path that a record line marks
// forgotten, wherever the line stands; nil when there are none.
func (r *Reader) forgetMarked(path string) (map[string]bool, error) {
	f, err := regfile.Open(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	defer f.Close()
	var marked map[string]bool
	err = r.Lines(f, func(piece []byte) {
		for at := 0; ; {
			i := indexForgotten(piece[at:])
			if i < 0 {
				return
			}
			i += at
			from := bytes.LastIndexByte(piece[:i], '\n') + 1
			to := len(piece)
			if j := bytes.IndexByte(piece[i:], '\n'); j >= 0 {
				to = i + j
			}
			at = to
			l := bytes.TrimSpace(piece[from:to])
			if !bytes.HasPrefix(l, []byte(metaPrefix)) {
				continue
			}
			if m, _, ok := parseMeta(string(l)); ok && m.Status == Forgotten && m.ID != "" {
				if marked == nil {
					marked = make(map[string]bool)
				}
				marked[m.ID] = true
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return marked, nil
}
