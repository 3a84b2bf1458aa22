package recall

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// A git union merge of two branches that both captured one lesson keeps
// the lines the two copies share once: the first copy is left a heading
// and a metadata line, the second holds the text. mdstore folds a file's
// copies of a lesson into one entry (Doc.Folded). recall's passes read a
// segment at a time: each counts the ids of the metadata lines it meets
// anyway (idCount), and only when one comes twice are the files read
// again for mdstore to fold that id's copies (foldCopies).

// idCount counts the ids of a pass's metadata lines by their hashes, in
// an open-addressing set: a map's insert cost the pass several times as
// much.
type idCount struct {
	keys  []uint64 // 0 is empty
	n     int
	again map[uint64]bool // the keys that came twice; nil while none did
}

func newIDCount(files []File) *idCount {
	var size int64
	for _, f := range files {
		size += f.size
	}
	// Sized for the files' entries (some 300 bytes each).
	n := 1024
	for int64(n) < size/150 {
		n *= 2
	}
	return &idCount{keys: make([]uint64, n)}
}

// add counts id; a nil idCount counts nothing.
func (c *idCount) add(id []byte) {
	if c != nil {
		c.addKey(idKey(id) | 1)
	}
}

func (c *idCount) addKey(k uint64) {
	mask := uint64(len(c.keys) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch c.keys[i] {
		case 0:
			c.keys[i] = k
			if c.n++; 2*c.n > len(c.keys) {
				old := c.keys
				c.keys, c.n = make([]uint64, 2*len(old)), 0
				for _, k := range old {
					if k != 0 {
						c.addKey(k)
					}
				}
			}
			return
		case k:
			if c.again == nil {
				c.again = map[uint64]bool{}
			}
			c.again[k] = true
			return
		}
	}
}

// twice reports whether some id came twice.
func (c *idCount) twice() bool { return c.again != nil }

// cameTwice reports whether id came twice.
func (c *idCount) cameTwice(id []byte) bool { return c.again != nil && c.again[idKey(id)|1] }

// idKey is a hash of id, eight bytes at a time (maphash cost a third
// of the count): two ids that share one cost a needless fold, never a
// wrong one.
func idKey(id []byte) uint64 {
	k := uint64(len(id))
	for ; len(id) >= 8; id = id[8:] {
		k = (k ^ binary.LittleEndian.Uint64(id)) * 0x9E3779B97F4A7C15
	}
	for _, c := range id {
		k = (k ^ uint64(c)) * 0x9E3779B97F4A7C15
	}
	return k
}

var metaIDOpen = []byte("<!-- flowmem: id=")

// metaID is the id of the metadata line l begins, as flowmem writes it
// (the id first); nil when l begins none.
func metaID(l []byte) []byte {
	l, ok := bytes.CutPrefix(l, metaIDOpen)
	if !ok {
		return nil
	}
	// The id ends at a space or a newline, found eight bytes at a time:
	// a call, or a loop byte by byte, cost more than the rest of the count.
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(l); i += 8 {
		w := binary.LittleEndian.Uint64(l[i:])
		sp, nl := w^(' '*ones), w^('\n'*ones)
		if m := ((sp-ones)&^sp | (nl-ones)&^nl) & highs; m != 0 {
			// A false mark can only follow a true one.
			return nonEmpty(l[:i+bits.TrailingZeros64(m)>>3])
		}
	}
	if j := bytes.IndexAny(l[i:], " \n"); j >= 0 {
		return nonEmpty(l[:i+j])
	}
	return nonEmpty(l)
}

func nonEmpty(id []byte) []byte {
	if len(id) == 0 {
		return nil
	}
	return id
}

// recordLine records l, a line that begins with a comment, when it is a
// sighting line, and counts its id when it is an entry's metadata line.
func recordLine(l []byte, m map[string]sighting, ids *idCount) {
	if id := metaID(l); id != nil {
		ids.add(id)
	} else {
		recordSighting(l, m)
	}
}

// segID is the id of the metadata line under seg's heading; nil when the
// line after the heading is none.
func segID(seg []byte) []byte {
	i := bytes.IndexByte(seg, '\n')
	if i < 0 {
		return nil
	}
	return metaID(seg[i+1:])
}

// counted reports whether id, which ViewSegment read from seg, is one
// idCount counted: its metadata line begins as metaID reads it.
func counted(seg, id []byte) bool {
	i := cap(seg) - cap(id) // id's offset in seg
	return i >= len(metaIDOpen) && i+len(id) < len(seg) && seg[i+len(id)] == ' ' &&
		bytes.Equal(seg[i-len(metaIDOpen):i], metaIDOpen)
}

// at is where a segment is: its file and the line of its heading.
type at struct{ file, line int }

// copies is one lesson a file holds more than once, folded; a pass in
// file order hands it out at its first copy and skips the others.
type copies struct {
	e    mdstore.Entry
	done bool
}

// foldCopies reads files again and folds, file by file, the lessons a
// file holds more than once (their ids came twice in ids) as mdstore folds
// them (Doc.Folded, sightings left to the caller), by where each copy is.
// Copies in different files stay apart, as mdstore keeps them. None when
// no id came twice.
func foldCopies(files []File, ids *idCount) (map[at]*copies, error) {
	if !ids.twice() {
		return nil, nil
	}
	docs := make([]mdstore.Doc, len(files))
	var r reader
	err := r.eachSegment(files, func(fi int, seg []byte, _ int64, line int) {
		if ids.cameTwice(segID(seg)) {
			if e, ok := mdstore.ParseSegment(files[fi].Kind, seg, line); ok {
				docs[fi].Entries = append(docs[fi].Entries, e)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	out := map[at]*copies{}
	for fi, d := range docs {
		d.Kind = files[fi].Kind
		byID := map[string]*copies{}
		for _, e := range d.Folded() {
			byID[e.ID] = &copies{e: e}
		}
		for _, e := range d.Entries {
			out[at{fi, e.Line}] = byID[e.ID]
		}
	}
	return out, nil
}

// take is what a pass in file order reads for the segment at fi, line:
// the folded lesson at its first copy, skip at a later one, neither when
// the segment is no copy.
func take(f map[at]*copies, fi, line int) (e *mdstore.Entry, skip bool) {
	if f == nil {
		return nil, false
	}
	c := f[at{fi, line}]
	if c == nil {
		return nil, false
	}
	if c.done {
		return nil, true
	}
	c.done = true
	return &c.e, false
}
