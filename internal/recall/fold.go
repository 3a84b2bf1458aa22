package recall

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// A git union merge of two branches that both captured one lesson keeps
// the lines the two copies share once: the first copy is left a heading
// and a metadata line, the second holds the text. mdstore folds a file's
// copies of a lesson into one entry (Doc.Folded). recall's passes read a
// segment at a time: each counts the ids of the metadata lines it meets
// anyway (idCount), and only when one comes twice are the files read
// again for mdstore to fold that id's copies (foldCopies).

// idCount counts the ids of a pass's metadata lines by their hashes. The
// pass only lists them: a set of 100k hashes missed the cache at every
// insert and cost the pass a tenth of its time. Whether one came twice is
// worked out once, after the pass (resolve), a cache-sized bucket at a
// time.
type idCount struct {
	keys  []uint64        // every hash counted, in order
	again map[uint64]bool // the hashes that came twice; nil while none did
	done  bool
}

func newIDCount(files []File) *idCount {
	var size int64
	for _, f := range files {
		size += f.size
	}
	// Room for the files' entries (some 300 bytes each).
	return &idCount{keys: make([]uint64, 0, size/256+16)}
}

// add counts id; a nil idCount counts nothing.
func (c *idCount) add(id []byte) {
	if c != nil {
		c.keys = append(c.keys, idKey(id))
	}
}

// resolve finds the hashes that came twice: it sorts them into buckets
// of some 64 by their top bits, and in each bucket a bit for each of 4096
// values of the next bits sends the few that share one to be compared.
func (c *idCount) resolve() {
	if c.done {
		return
	}
	c.done = true
	b := uint(0)
	for 64<<b < len(c.keys) {
		b++
	}
	shift := 64 - b // the top b bits pick the bucket
	start := make([]int32, 1<<b+1)
	for _, k := range c.keys {
		start[k>>shift+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	bucketed := make([]uint64, len(c.keys))
	next := slices.Clone(start[:len(start)-1])
	for _, k := range c.keys {
		bucketed[next[k>>shift]] = k
		next[k>>shift]++
	}
	var set [64]uint64
	for i := range len(start) - 1 {
		bucket := bucketed[start[i]:start[i+1]]
		clear(set[:])
		for j, k := range bucket {
			v := k << b >> 52 // the 12 bits under the bucket's
			if set[v>>6]&(1<<(v&63)) != 0 && slices.Contains(bucket[:j], k) {
				if c.again == nil {
					c.again = map[uint64]bool{}
				}
				c.again[k] = true
			}
			set[v>>6] |= 1 << (v & 63)
		}
	}
}

// twice reports whether some id came twice; the pass is over.
func (c *idCount) twice() bool {
	c.resolve()
	return c.again != nil
}

// cameTwice reports whether id came twice; the pass is over.
func (c *idCount) cameTwice(id []byte) bool {
	c.resolve()
	return c.again != nil && c.again[idKey(id)]
}

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
