package recall

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// A git union merge of two branches that both captured one lesson keeps
// the lines the two copies share once: the first copy is left a heading
// and a metadata line, the second holds the text. mdstore folds such
// copies into one entry (Doc.Folded); recall's passes read a segment at a
// time, so they count every lesson id as they go (idCount), and only when
// some id comes twice read the files again to fold its copies (foldCopies).
// A memory without repeated ids pays for the count alone.

// idCount counts the ids of the metadata lines a pass reads, by a
// 32-bit key: two ids that share a key are told apart when their copies
// are parsed. An open-addressing set sized for the files' entries (some
// 300 bytes each): a pass adds one key per entry, and a map's insert and
// growth cost several times as much.
type idCount struct {
	slots []uint32 // 0 is empty; a key is never 0 (see idKey)
	n     int
	twice map[uint32]bool // nil while no key has come twice
}

func newIDCount(files []File) *idCount {
	var size int64
	for _, f := range files {
		size += f.size
	}
	n := 1024
	for int64(n) < size/300 {
		n *= 2
	}
	return &idCount{slots: make([]uint32, n)}
}

// idKey is the key of an id: its last eight bytes (its hash, for the ids
// flowmem writes), folded.
func idKey(id []byte) uint32 {
	var x uint64
	if len(id) >= 8 {
		x = binary.LittleEndian.Uint64(id[len(id)-8:])
	} else {
		var b [8]byte
		copy(b[:], id)
		x = binary.LittleEndian.Uint64(b[:])
	}
	x *= 0x9E3779B97F4A7C15
	return uint32(x>>32) | 1
}

// add counts the id whose key is k.
func (c *idCount) add(k uint32) {
	mask := uint32(len(c.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch c.slots[i] {
		case 0:
			c.slots[i] = k
			if c.n++; 4*c.n > 3*len(c.slots) {
				c.grow()
			}
			return
		case k:
			if c.twice == nil {
				c.twice = map[uint32]bool{}
			}
			c.twice[k] = true
			return
		}
	}
}

// grow doubles the set.
func (c *idCount) grow() {
	old := c.slots
	c.slots, c.n = make([]uint32, 2*len(old)), 0
	for _, k := range old {
		if k != 0 {
			c.add(k)
		}
	}
}

// again reports whether id may be one that came twice.
func (c *idCount) again(id []byte) bool {
	return c.twice != nil && c.twice[idKey(id)]
}

var metaIDOpen = []byte("<!-- flowmem: id=")

// metaID is the id of the metadata line l begins, as flowmem writes it
// (the id first); nil when l begins none.
func metaID(l []byte) []byte {
	if !bytes.HasPrefix(l, metaOpen) {
		return nil
	}
	return idAfter(l[len(metaOpen):])
}

// idAfter is metaID of the rest of a line after metaOpen.
func idAfter(l []byte) []byte {
	const open = " id="
	if len(l) < len(open)+24 || string(l[:len(open)]) != open {
		return idEnd(l, open)
	}
	l = l[len(open):]
	// The id ends at a space (or the line's end), most often within its
	// first 24 bytes: found eight bytes at a time (a call to find it cost
	// more than the rest of the count).
	for j := 0; j < 24; j += 8 {
		if m := endAt(l[j : j+8]); m != 0 {
			if j += bits.TrailingZeros64(m) >> 3; j == 0 {
				return nil
			}
			return l[:j]
		}
	}
	return idEnd(l, "")
}

// endAt marks (with its high bit) the first space or newline among b's
// eight bytes; 0 when there is none. Later bytes may be marked wrongly,
// never earlier ones.
func endAt(b []byte) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	w := binary.LittleEndian.Uint64(b)
	sp, nl := w^(' '*ones), w^('\n'*ones)
	return ((sp-ones)&^sp | (nl-ones)&^nl) & highs
}

// idEnd is idAfter of a short or long line: the id after open, up to a
// space or the line's end.
func idEnd(l []byte, open string) []byte {
	l, ok := bytes.CutPrefix(l, []byte(open))
	if !ok {
		return nil
	}
	if i := bytes.IndexAny(l, " \n"); i >= 0 {
		l = l[:i]
	}
	if len(l) == 0 {
		return nil
	}
	return l
}

// recordLine records l, a line that begins with a comment, when it is a
// sighting line, and counts its id when it is an entry's metadata line.
func recordLine(l []byte, m map[string]sighting, ids *idCount) {
	if !bytes.HasPrefix(l, metaOpen) {
		return
	}
	if id := idAfter(l[len(metaOpen):]); id != nil {
		ids.add(idKey(id))
		return
	}
	recordSighting(l, m)
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

// at is where a segment is: its file and its offset there.
type at struct {
	file int
	off  int64
}

// copies is one lesson a file holds more than once, folded.
type copies struct {
	e    mdstore.Entry
	n    int  // the copies' bytes
	done bool // handed out (by a pass in file order)
	rep  int  // search: the candidate that stands for them, +1
}

// folds maps each copy of a lesson a file holds more than once to the
// lesson; extra is how many copies there are beyond one per lesson.
type folds struct {
	of    map[at]*copies
	extra int
}

// foldCopies reads files again and folds, file by file, the entries whose
// ids came twice (c.again) as mdstore.Doc.Folded folds them; none when
// none did. Copies in different files stay apart, as mdstore keeps them.
func (r *reader) foldCopies(files []File, c *idCount) (folds, error) {
	if c.twice == nil {
		return folds{}, nil
	}
	g := copyGroups{c: c}
	err := r.eachSegment(files, func(fi int, seg []byte, off int64, line int) {
		g.add(files, fi, seg, off, line)
	})
	if err != nil {
		return folds{}, err
	}
	return g.fold(files), nil
}

// copyGroups gathers, in a pass, the entries whose ids came twice, by
// file and id.
type copyGroups struct {
	c      *idCount
	groups map[copyKey]*copyGroup
	order  []copyKey
}

type copyKey struct {
	file int
	id   string
}

type copyGroup struct {
	es   []mdstore.Entry
	offs []int64
	n    int
}

// add takes the segment when its id came twice; false when it does not.
func (g *copyGroups) add(files []File, fi int, seg []byte, off int64, line int) bool {
	if id := segID(seg); id == nil || !g.c.again(id) {
		return false
	}
	e, ok := mdstore.ParseSegment(files[fi].Kind, seg, line)
	if !ok {
		return true
	}
	if g.groups == nil {
		g.groups = map[copyKey]*copyGroup{}
	}
	k := copyKey{fi, e.ID}
	cg := g.groups[k]
	if cg == nil {
		cg = &copyGroup{}
		g.groups[k] = cg
		g.order = append(g.order, k)
	}
	cg.es = append(cg.es, e)
	cg.offs = append(cg.offs, off)
	cg.n += len(seg)
	return true
}

// fold folds each group of two or more copies.
func (g *copyGroups) fold(files []File) folds {
	out := folds{of: map[at]*copies{}}
	for _, k := range g.order {
		cg := g.groups[k]
		if len(cg.es) < 2 {
			continue
		}
		d := mdstore.Doc{Kind: files[k.file].Kind, Entries: cg.es}
		cp := &copies{e: d.Folded()[0], n: cg.n}
		for _, off := range cg.offs {
			out.of[at{k.file, off}] = cp
		}
		out.extra += len(cg.es) - 1
	}
	return out
}

// each calls fn with each lesson of the groups, folded when it has
// copies, in file order of its first copy.
func (g *copyGroups) each(files []File, fn func(e *mdstore.Entry)) {
	for _, k := range g.order {
		cg := g.groups[k]
		e := cg.es[0]
		if len(cg.es) > 1 {
			d := mdstore.Doc{Kind: files[k.file].Kind, Entries: cg.es}
			e = d.Folded()[0]
		}
		fn(&e)
	}
}

// take is what a pass in file order reads for the segment at fi, off: the
// folded lesson at its first copy (first), nothing at a later one
// (skip), or the segment itself (neither).
func (f folds) take(fi int, off int64) (e *mdstore.Entry, skip bool) {
	if len(f.of) == 0 {
		return nil, false
	}
	cp := f.of[at{fi, off}]
	if cp == nil {
		return nil, false
	}
	if cp.done {
		return nil, true
	}
	cp.done = true
	return &cp.e, false
}

// counted reports whether id, which ViewSegment read from seg, is one
// idCount counted: its metadata line begins as metaID reads it.
func counted(seg, id []byte) bool {
	i := cap(seg) - cap(id) // id's offset in seg
	return i >= len(metaIDOpen) && i+len(id) < len(seg) && seg[i+len(id)] == ' ' &&
		bytes.Equal(seg[i-len(metaIDOpen):i], metaIDOpen)
}

// fold makes the candidates that are copies of one lesson (f) one
// candidate, the first, standing for the folded lesson: it says every term
// a copy says, each counted once in the document frequencies, and the
// memory holds one entry for all the copies.
func (r *scanned) fold(f folds, nq int) {
	if len(f.of) == 0 {
		return
	}
	r.n -= f.extra
	keep := 0
	for ci := range r.cands {
		c := r.cands[ci]
		m := r.masks[ci*nq : (ci+1)*nq]
		cp := f.of[at{int(c.file), c.off}]
		if cp != nil && cp.rep > 0 {
			rep := r.masks[(cp.rep-1)*nq : cp.rep*nq]
			for qi := range nq {
				for both := m[qi] & rep[qi]; both != 0; both &= both - 1 {
					r.df[qi][bits.TrailingZeros64(both)]--
				}
				rep[qi] |= m[qi]
			}
			continue
		}
		if cp != nil {
			r.folded = append(r.folded, cp.e)
			c.fold, c.n = int32(len(r.folded)), int32(cp.n)
			cp.rep = keep + 1
		}
		r.cands[keep] = c
		copy(r.masks[keep*nq:], m)
		keep++
	}
	r.cands, r.masks = r.cands[:keep], r.masks[:keep*nq]
}
