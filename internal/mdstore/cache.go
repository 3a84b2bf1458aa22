package mdstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// The parse cache: derived data that lets Load skip parsing a large memory
// file, never a source of truth. It lives in CacheDir (.flow/memory/.cache/,
// with a .gitignore of "*", so it is never committed), one file per kind
// (pitfalls.cache…), written best-effort: a failed, raced or unwritable
// cache only means the next reader parses the markdown again.
//
// A cache is used only for the exact bytes it was built from: their length
// and CRC-32C, never a timestamp. Since flowmem only appends, a file that
// has grown past a cached prefix with the same checksum is read by parsing
// just the new bytes, when they start at a record boundary (see parseTail).
// Anything else is a full parse, after which the cache is rewritten. Files
// below cacheMinSize are always parsed, which is cheaper than the check.
//
// ReadDoc, Search and doctor parse the files themselves; Load and Upsert
// go through the cache.

// CacheDir is the folder, inside the memory folder, that holds the cache.
const CacheDir = ".cache"

// cacheMinSize: smaller files are parsed (≈0.3 ms at this size) and get no
// cache.
var cacheMinSize = 64 << 10

// cacheRewriteTail: while no more than this many bytes were appended after
// a cached prefix, readers parse them on each read and leave the cache as
// it is; a longer tail is worth a new cache (about 200 entries).
var cacheRewriteTail = 64 << 10

// loaded is a memory file as Load and Upsert need it, read in two steps:
// readKind checks the cache (or parses the file), then entries decodes the
// cache into memory the caller chooses and folds the entries there.
type loaded struct {
	k      Kind
	path   string
	exists bool
	size   int
	lastNL bool // the file ends with a newline
	// via says how it was read: "small" (parsed, no cache), "hit",
	// "tail" (cache plus the appended bytes) or "parse".
	via string
	// save writes a cache for what was read; nil when the cache is
	// current or not wanted. Callers run it after entries, and after
	// releasing any lock.
	save func()

	doc *Doc // the parse, or the decoded cache once entries ran
	// A cache that matched, not decoded yet:
	s          *Store
	raw        []byte
	src        string // raw as a string, without a copy
	dec        *decoder
	h          cacheHeader // the cache as read
	tail       []Entry     // entries and sightings appended after it
	tailSights []Entry
	next       cacheHeader // all of raw, once the tail is merged
}

func (s *Store) cachePath(k Kind) string {
	return filepath.Join(s.Dir, CacheDir, string(k)+"s.cache")
}

// readKind reads kind k's file and, for a large one, its cache.
func (s *Store) readKind(k Kind) (*loaded, error) {
	l := &loaded{k: k, path: s.Path(k), s: s}
	raw, err := os.ReadFile(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		l.doc = &Doc{Kind: k}
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	l.exists, l.size, l.lastNL = true, len(raw), len(raw) > 0 && raw[len(raw)-1] == '\n'
	if len(raw) < cacheMinSize {
		l.via = "small"
		l.doc, err = Parse(k, raw)
		return l, l.pathError(err)
	}
	// raw is never written to: fields can be substrings of it without a
	// copy of the whole file.
	l.raw, l.src = raw, unsafe.String(unsafe.SliceData(raw), len(raw))
	if c, err := readCache(s.cachePath(k), len(raw)); err == nil {
		// Nor is c: inline strings of the cache are substrings of it.
		if l.useCache(unsafe.String(unsafe.SliceData(c), len(c))) {
			return l, nil
		}
	}
	return l, l.pathError(l.parse())
}

// readCache reads a cache file unless it is larger than any cache of a
// srcLen-byte file can be (a cache stores offsets into the file, not its
// text: a tenth of its size, with headroom here for small entries): junk
// of gigabytes in .cache must not become one huge allocation.
func readCache(path string, srcLen int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > int64(2*srcLen+1<<20) {
		return nil, errors.New("cache larger than its file allows")
	}
	c := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, c); err != nil {
		return nil, err
	}
	return c, nil
}

func (l *loaded) pathError(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		pe.Path = l.path
	}
	return err
}

// parse reads the whole file and arranges for its cache to be written.
func (l *loaded) parse() error {
	l.via, l.dec = "parse", nil
	d, err := parseSrc(l.k, l.raw, l.src)
	if err != nil {
		return err
	}
	d.Raw = nil
	l.doc = d
	h := cacheHeader{kind: l.k, stamp: buildStamp(), srcLen: len(l.raw), srcCRC: crcString(0, l.src),
		srcLines: bytes.Count(l.raw, []byte{'\n'})}
	if d.appendable {
		h.flags |= flagAppendable
	}
	l.save = l.s.saver(l.k, h, l.src, d)
	return nil
}

// useCache takes the cache c if it describes the file or a prefix of it
// that the bytes after can be added to (see parseTail).
func (l *loaded) useCache(c string) bool {
	h, dec, ok := decodeCacheHeader(c)
	if !ok || h.kind != l.k || h.stamp != buildStamp() || h.srcLen <= 0 || h.srcLen > len(l.raw) ||
		crcString(0, l.src[:h.srcLen]) != h.srcCRC {
		return false
	}
	l.h, l.dec, l.via = h, dec, "hit"
	if h.srcLen == len(l.raw) {
		return true
	}
	// Appended bytes: parse only them when the cached prefix ends at a
	// line start outside any comment.
	if h.flags&flagAppendable == 0 || l.src[h.srcLen-1] != '\n' {
		return false
	}
	te, ts, appendable, ok := parseTail(l.k, l.raw, l.src, h.srcLen, 1+h.srcLines, h.nEntries > 0)
	if !ok {
		return false
	}
	l.via, l.tail, l.tailSights = "tail", te, ts
	l.next = cacheHeader{kind: l.k, stamp: h.stamp, srcLen: len(l.raw), srcCRC: crcString(h.srcCRC, l.src[h.srcLen:]),
		srcLines: h.srcLines + bytes.Count(l.raw[h.srcLen:], []byte{'\n'})}
	if appendable {
		l.next.flags |= flagAppendable
	}
	return true
}

// count is the number of entries before folding.
func (l *loaded) count() int {
	if l.doc != nil {
		return len(l.doc.Entries)
	}
	return l.h.nEntries + len(l.tail)
}

// entries returns the file's entries, folded. dst, if not nil, has length
// count(): a cache is decoded into it, and the result is a prefix of it
// unless entries had to be merged or the file was parsed.
func (l *loaded) entries(dst []Entry) ([]Entry, error) {
	if err := l.decode(dst); err != nil {
		return nil, err
	}
	return l.doc.fold(true), nil
}

// decode sets l.doc: the cache decoded into dst, plus the tail.
func (l *loaded) decode(dst []Entry) error {
	if l.doc != nil {
		return nil
	}
	if len(dst) < l.count() {
		dst = make([]Entry, l.count())
	}
	entries, sightings, targets, ok := l.dec.entries(l.src[:l.h.srcLen], dst[:0])
	if !ok {
		return l.pathError(l.parse())
	}
	n := len(entries)
	unique := l.h.flags&flagUniqueIDs != 0
	var tailIDs map[string]int
	if unique && len(l.tail) > 0 {
		// Appended entries keep ids unique unless one repeats an id.
		tailIDs = make(map[string]int, len(l.tail))
		for i := range l.tail {
			id := l.tail[i].ID
			if _, dup := tailIDs[id]; dup || l.dec.lookup(entries, id) >= 0 {
				unique = false
				break
			}
			tailIDs[id] = n + i
		}
	}
	entries = append(entries, l.tail...)
	if unique {
		find := func(id string) int32 {
			if t := l.dec.lookup(entries[:n], id); t >= 0 {
				return int32(t)
			}
			if t, ok := tailIDs[id]; ok {
				return int32(t)
			}
			return -1
		}
		if tailIDs != nil {
			// A sighting counts for its id's entry wherever in the
			// file that entry is, appended ones included.
			for i, t := range targets {
				if t < 0 {
					if t, ok := tailIDs[sightings[i].ID]; ok {
						targets[i] = int32(t)
					}
				}
			}
		}
		for i := range l.tailSights {
			targets = append(targets, find(l.tailSights[i].ID))
		}
	}
	if len(entries) == 0 {
		entries = nil // as Parse leaves it
	}
	l.doc = &Doc{Kind: l.k, Entries: entries, Sightings: append(sightings, l.tailSights...), uniqueIDs: unique}
	if unique {
		l.doc.sightingAt = targets
	}
	if l.via == "tail" && len(l.raw)-l.h.srcLen > cacheRewriteTail {
		l.save = l.s.saver(l.k, l.next, l.src, l.doc)
	}
	return nil
}

// parseTail reads raw[b:], bytes appended after a prefix whose heading scan
// took the fast path and ended, at a line start, outside any comment; line
// is the line number at b, afterEntry whether the prefix holds an entry. ok
// is false unless the result is exactly what a parse of all of raw adds to
// the prefix's entries and sightings.
func parseTail(k Kind, raw []byte, src string, b, line int, afterEntry bool) (entries, sightings []Entry, appendable, ok bool) {
	tail := raw[b:]
	heads, fast, inComment := scanHeadingsState(tail)
	if !fast {
		return nil, nil, false, false
	}
	pre := src[b:]
	if len(heads) > 0 {
		pre = pre[:heads[0]]
	}
	if afterEntry {
		// Lines before the first new heading belong to the last cached
		// entry: only blank lines and sighting records leave it as it was.
		for pre != "" {
			var l string
			l, pre, _ = strings.Cut(pre, "\n")
			l = strings.TrimRight(l, "\r")
			if strings.TrimSpace(l) == "" {
				continue
			}
			if !strings.HasPrefix(l, metaPrefix) {
				return nil, nil, false, false
			}
			m, sighting, ok := parseMeta(l)
			if !ok || !sighting {
				return nil, nil, false, false
			}
			sightings = append(sightings, m)
		}
	}
	if len(heads) > 0 {
		es, _, ss := parseEntries(k, raw, src, b, heads, line)
		entries, sightings = es, append(sightings, ss...)
	}
	return entries, sightings, !inComment, true
}

// saver encodes the cache of d, parsed from src, now, before callers fold
// or change its entries, and returns the function that writes it.
func (s *Store) saver(k Kind, h cacheHeader, src string, d *Doc) func() {
	data := encodeCache(h, src, d.Entries, d.Sightings)
	return func() { s.writeCache(k, data) }
}

// writeCache replaces kind k's cache with data.
func (s *Store) writeCache(k Kind, data []byte) { WriteCacheFile(s.cachePath(k), data) }

// WriteCacheFile replaces a file of derived data in a cache folder (the
// parse cache here, capture's match cache): temp file and rename, so a
// reader sees the old file or the new one, never part of one. No fsync: a
// file torn by a crash fails its checksum and is ignored. The folder is
// made, with a .gitignore that keeps it out of git, on first use. Every
// error is dropped, since a cache that cannot be written is only slower,
// and no temp file is left behind.
func WriteCacheFile(path string, data []byte) {
	dir := filepath.Dir(path)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
	if f, err := os.OpenFile(filepath.Join(dir, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
		_, werr := f.WriteString("# flowmem's parse cache: derived from the memory files, never committed.\n*\n")
		if cerr := f.Close(); werr != nil || cerr != nil {
			return
		}
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return
	}
	removeStaleTemps(dir)
}

// removeStaleTemps deletes temp files (of any cache in dir) that a process
// killed while writing left behind; a temp file younger than staleTemp may still be in
// use.
func removeStaleTemps(dir string) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range list {
		if name := e.Name(); name[0] == '.' && strings.Contains(name, ".tmp-") {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
				_ = os.Remove(filepath.Join(dir, name))
			}
		}
	}
}

const staleTemp = 10 * time.Minute

var stampOnce = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(fi.Size(), 36) + "." + strconv.FormatInt(fi.ModTime().UnixNano(), 36)
})

// buildStamp names the running executable (size and modification time), so
// a rebuilt or upgraded flowmem, whose parser may read files differently,
// never trusts a cache an older one wrote. cacheVersion covers the format.
func buildStamp() string { return stampOnce() }

// BuildStamp is buildStamp for the other caches of derived data that must
// not outlive the code that derived it (capture's match cache keeps the
// analysis of entries there).
func BuildStamp() string { return stampOnce() }
