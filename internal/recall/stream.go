package recall

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/regfile"
)

// File is one memory file, read a chunk at a time.
type File struct {
	Kind mdstore.Kind
	Path string
	size int64 // when listed, to size what a pass counts
}

// Load lists the memory files of the given kinds (all when none); a
// missing file is an empty memory. Nothing is read until a search.
func Load(s *mdstore.Store, kinds ...mdstore.Kind) ([]File, error) {
	if len(kinds) == 0 {
		kinds = mdstore.Kinds
	}
	var files []File
	for _, k := range kinds {
		p := s.Path(k)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("read memory: %w", err)
		}
		files = append(files, File{Kind: k, Path: p, size: fi.Size()})
	}
	return files, nil
}

// reader reads memory files a chunk at a time into one buffer, kept from
// file to file and pass to pass (mdstore.Reader).
type reader struct {
	mdstore.Reader
}

// eachSegment calls fn with every entry of every file, in file order:
// its bytes (valid only during the call), its byte offset in the file and
// the line of its heading.
func (r *reader) eachSegment(files []File, fn func(fi int, seg []byte, off int64, line int)) error {
	for fi, f := range files {
		// No front matter check: a memory with a broken one is read as
		// Segments reads its bytes.
		if err := r.Scan(f.Path, nil, func(seg []byte, off int64, line int) bool {
			fn(fi, seg, off, line)
			return true
		}); err != nil {
			return err
		}
	}
	return nil
}

// handles are the memory files a search has read candidates from, each
// opened once: a search reads hundreds of candidates from a few files, and
// an open, a stat and a close apiece cost more than the read.
type handles map[string]*os.File

// readAt returns the n bytes at off of file f in *buf, valid until the
// next read.
func (h handles) readAt(f *File, off int64, n int, buf *[]byte) ([]byte, error) {
	fh, ok := h[f.Path]
	if !ok {
		var err error
		if fh, err = regfile.Open(f.Path, os.O_RDONLY, 0); err != nil {
			return nil, fmt.Errorf("read memory: %w", err)
		}
		h[f.Path] = fh
	}
	b := slices.Grow((*buf)[:0], n)[:n]
	*buf = b
	if _, err := fh.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

// close closes every file h holds.
func (h handles) close() {
	for _, fh := range h {
		fh.Close()
	}
}

// collectSightings reads the sighting lines of files: whole lines, found
// in the files' bytes without splitting them into entries (most files
// hold none). With ids, it counts every metadata line's id there as well
// (that search stops at every entry). A last line without its newline is
// an append that failed half-way, as mdstore reads it.
func (r *reader) collectSightings(files []File, ids *idCount) (map[string]sighting, error) {
	m := map[string]sighting{}
	record := func(b []byte) {
		recordLines(b[:bytes.LastIndexByte(b, '\n')+1], m, ids)
	}
	for _, f := range files {
		h, err := regfile.Open(f.Path, os.O_RDONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("read memory: %w", err)
		}
		err = r.Lines(h, record)
		h.Close()
		if err != nil {
			return nil, fmt.Errorf("read memory: %w", err)
		}
	}
	return m, nil
}

// EachLive calls fn with every live entry of files as render(e, false, a)
// shows it (a marking those not seen for staleAfterDays days at now), in
// file order, its sightings counted, each id once: copies of a lesson in
// one file (a union merge's) folded at the first, as mdstore folds them, a
// later file's copy left out, until fn returns false; line is valid only
// during the call. It holds one chunk of a file at a time,
// and renders most entries from their bytes (appendView): copying each
// into an Entry's strings made most of memory read's garbage. plain says
// that sanitize.Text would keep line as it is (appendView's plain).
func EachLive(files []File, now time.Time, staleAfterDays int, fn func(k mdstore.Kind, line []byte, plain bool) bool) error {
	a := ageing{now, staleAfterDays}
	var r reader
	ids := newIDCount(files)
	sightings, err := r.collectSightings(files, ids)
	if err != nil {
		return err
	}
	folds, err := foldCopies(files, ids)
	if err != nil {
		return err
	}
	// The ids of the entries parsed: those read from their bytes are
	// each counted once (counted, !cameTwice).
	seen := map[string]bool{}
	stop := false
	var line []byte
	var v mdstore.View
	return r.eachSegment(files, func(fi int, seg []byte, _ int64, n int) {
		k := files[fi].Kind
		if stop {
			return
		}
		if mdstore.ViewSegment(seg, &v) && counted(seg, v.ID) && !ids.cameTwice(v.ID) {
			if _, ok := sightings[string(v.ID)]; !ok {
				if out, ok, plain := appendView(line[:0], k, &v, a); ok {
					line = out
					stop = v.Status == mdstore.Active && !fn(k, line, plain)
					return
				}
			}
		}
		folded, skip := take(folds, fi, n)
		if skip {
			return
		}
		e, ok := mdstore.Entry{}, true
		if folded != nil {
			e = *folded
		} else {
			e, ok = mdstore.ParseSegment(k, seg, n)
		}
		if !ok || seen[e.ID] {
			return
		}
		// A copy of the id: the entry's fields are parts of its segment,
		// which the set would otherwise keep alive to the end.
		seen[strings.Clone(e.ID)] = true
		addSightings(sightings, &e)
		if e.Live() {
			line = render(line[:0], &e, false, a)
			stop = !fn(k, line, false)
		}
	})
}
