package mdstore

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// The parse cache (see cache.go) keeps, per memory file, what Parse read
// from it: entries and sightings, unfolded, in file order. Text is not
// copied into the cache: a field that is a substring of the markdown file
// (nearly all of them) is stored as an offset and a length into it, so a
// cache is a tenth of the file's size and decoding allocates no strings.
//
// Layout (integers are unsigned LEB128 varints unless noted):
//
//	body    = magic "FMDCACHE" | version u32le | str kind | str stamp
//	          | srcLen | srcCRC u32le | srcLines | flags
//	          | nEntries | nSightings | nTasks | entry*(nEntries+nSightings)
//	file    = body | crc32c(body) u32le
//	entry   = eflags | zigzag seen | zigzag line-delta | field kind | field status
//	          | field date, task, source, category, id, last-seen
//	          | [nTasks field*nTasks]      (when eflags has tasksSet)
//	          | field issue, fix, context, body
//	        then, when flags has uniqueIDs:
//	          | (target+1)*nSightings        the entry each sighting counts for
//	          | (fnv1a32(id) u32le, index u32le)*nEntries, sorted: the id index
//	field   = 0 (empty) | 1..len(consts) (a constant)
//	          | 8 + (n<<7 | gap<<2 | 0): n bytes of the file, gap (< 32) bytes
//	            after the end of the previous field taken from the file
//	          | 8 + (n<<2 | 1), zigzag delta: n bytes of the file at that
//	            offset from the end of the previous one
//	          | 8 + (n<<2 | 2), n bytes: inline
//	str     = len bytes
//
// Fields are in the order they appear in a rendered entry (heading,
// metadata line, then the text), so nearly every one is a file reference
// a few bytes after the one before: one varint each.
//
// srcLen, srcCRC (Castagnoli) and srcLines describe the exact bytes of the
// markdown file the cache was built from; flags says whether bytes appended
// after them can be parsed on their own, and whether no two entries share
// an id. Then Fold has nothing to do, sightings are counted by the index
// stored with them, and entries or sightings appended after the cached
// bytes are looked up in the id index: no map of every id is built.
const (
	cacheMagic   = "FMDCACHE"
	cacheVersion = 1
)

// Cache flags.
const (
	flagAppendable = 1
	flagUniqueIDs  = 2
)

// Entry flags.
const (
	eflagLegacy   = 1
	eflagTasksSet = 2
)

// castagnoli is the CRC-32C table, made on first use: making it takes a
// fifth of a millisecond, which every flowmem process paid at start, most
// of them (the hook on every tool call that is not a review) for nothing.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// consts are field values that are not in the file text: kinds, statuses
// and the defaults parseEntry fills in.
var consts = [...]string{"pitfall", "convention", "decision", "active", "archived", "manual"}

const fieldBase = 8

// cacheHeader describes the markdown bytes a cache was built from.
type cacheHeader struct {
	kind     Kind
	stamp    string
	srcLen   int
	srcCRC   uint32
	srcLines int
	flags    uint64
	// What decodeCacheHeader read; encodeCache counts for itself.
	nEntries, nSightings, nTasks int
}

// encoder appends the cache of one file to buf.
type encoder struct {
	buf     []byte
	src     string
	prevOff int
}

// encodeCache renders entries and sightings parsed from src, whose fields
// are mostly substrings of src.
func encodeCache(h cacheHeader, src string, entries, sightings []Entry) []byte {
	nTasks := 0
	for _, list := range [2][]Entry{entries, sightings} {
		for i := range list {
			nTasks += len(list[i].Tasks)
		}
	}
	h.flags &^= flagUniqueIDs
	recs, unique := sortedIDs(entries)
	if unique {
		h.flags |= flagUniqueIDs
	}
	e := encoder{buf: make([]byte, 0, 64+len(entries)*40+len(sightings)*24+nTasks*4), src: src}
	e.buf = append(e.buf, cacheMagic...)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, cacheVersion)
	e.str(string(h.kind))
	e.str(h.stamp)
	e.uvarint(uint64(h.srcLen))
	e.buf = binary.LittleEndian.AppendUint32(e.buf, h.srcCRC)
	e.uvarint(uint64(h.srcLines))
	e.uvarint(h.flags)
	e.uvarint(uint64(len(entries)))
	e.uvarint(uint64(len(sightings)))
	e.uvarint(uint64(nTasks))
	prevLine := 0
	for _, list := range [2][]Entry{entries, sightings} {
		for i := range list {
			x := &list[i]
			var fl uint64
			if x.Legacy {
				fl |= eflagLegacy
			}
			if x.Tasks != nil {
				fl |= eflagTasksSet
			}
			e.uvarint(fl)
			e.varint(int64(x.Seen))
			e.varint(int64(x.Line) - int64(prevLine))
			prevLine = x.Line
			e.field(string(x.Kind))
			e.field(string(x.Status))
			e.field(x.Date)
			e.field(x.Task)
			e.field(x.Source)
			e.field(x.Category)
			e.field(x.ID)
			e.field(x.LastSeen)
			if x.Tasks != nil {
				e.uvarint(uint64(len(x.Tasks)))
				for _, t := range x.Tasks {
					e.field(t)
				}
			}
			e.field(x.Issue)
			e.field(x.Fix)
			e.field(x.Context)
			e.field(x.Body)
		}
	}
	if unique {
		for i := range sightings {
			e.uvarint(uint64(findID(recs, entries, sightings[i].ID) + 1))
		}
		for _, r := range recs {
			e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(r>>32))
			e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(r))
		}
	}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, crc32.Checksum(e.buf, castagnoli()))
	return e.buf
}

// sortedIDs returns the id index of entries: (idHash, index) pairs in
// order, and whether no two entries share an id.
func sortedIDs(entries []Entry) ([]uint64, bool) {
	recs := make([]uint64, len(entries))
	for i := range entries {
		recs[i] = uint64(idHash(entries[i].ID))<<32 | uint64(i)
	}
	slices.Sort(recs)
	for i := 1; i < len(recs); i++ {
		if recs[i]>>32 != recs[i-1]>>32 {
			continue
		}
		// Equal hashes: compare these ids with every other of that hash.
		for j := i - 1; j >= 0 && recs[j]>>32 == recs[i]>>32; j-- {
			if entries[uint32(recs[i])].ID == entries[uint32(recs[j])].ID {
				return recs, false
			}
		}
	}
	return recs, true
}

// findID is the index of the entry with this id, or -1.
func findID(recs []uint64, entries []Entry, id string) int {
	h := uint64(idHash(id))
	i, _ := slices.BinarySearch(recs, h<<32)
	for ; i < len(recs) && recs[i]>>32 == h; i++ {
		if j := int(uint32(recs[i])); entries[j].ID == id {
			return j
		}
	}
	return -1
}

// idHash is 32-bit FNV-1a: ids are short, and this stays in line.
func idHash(id string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h = (h ^ uint32(id[i])) * 16777619
	}
	return h
}

func (e *encoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

func (e *encoder) varint(v int64) { e.buf = binary.AppendVarint(e.buf, v) }

func (e *encoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encoder) field(s string) {
	if s == "" {
		e.buf = append(e.buf, 0)
		return
	}
	if len(s) <= len("convention") {
		for i, c := range consts {
			if s == c {
				e.buf = append(e.buf, byte(1+i))
				return
			}
		}
	}
	n := uint64(len(s))
	if off, ok := offsetIn(e.src, s); ok {
		if gap := off - e.prevOff; gap >= 0 && gap < 32 {
			e.uvarint(fieldBase + (n<<7 | uint64(gap)<<2))
		} else {
			e.uvarint(fieldBase + (n<<2 | 1))
			e.varint(int64(off - e.prevOff))
		}
		e.prevOff = off + len(s)
		return
	}
	e.uvarint(fieldBase + (n<<2 | 2))
	e.buf = append(e.buf, s...)
}

// offsetIn returns where s lies inside src when s is a substring of src's
// memory (as parsed fields are), checked by content as well.
func offsetIn(src, s string) (int, bool) {
	if len(s) == 0 || len(s) > len(src) {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(src)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if p < base || p-base > uintptr(len(src)-len(s)) {
		return 0, false
	}
	off := int(p - base)
	return off, src[off:off+len(s)] == s
}

// decoder reads a cache held in the string c, resolving file references
// against src.
type decoder struct {
	c       string
	pos     int
	src     string
	prevOff int
	bad     bool
	h       cacheHeader
	// ids is the id index of a cache with unique ids: 8-byte records.
	ids string
}

// minEntryBytes is the least an encoded entry takes: flags, seen, line
// and 12 fields.
const minEntryBytes = 15

// decodeCacheHeader checks the cache's checksum and reads its header; the
// returned decoder continues with the entries.
func decodeCacheHeader(c string) (cacheHeader, *decoder, bool) {
	if len(c) < len(cacheMagic)+8 || c[:len(cacheMagic)] != cacheMagic {
		return cacheHeader{}, nil, false
	}
	body := c[:len(c)-4]
	if crcString(0, body) != (&decoder{c: c, pos: len(c) - 4}).u32() {
		return cacheHeader{}, nil, false
	}
	d := &decoder{c: body, pos: len(cacheMagic)}
	if d.u32() != cacheVersion {
		return cacheHeader{}, nil, false
	}
	var h cacheHeader
	h.kind = Kind(d.str())
	h.stamp = d.str()
	h.srcLen = d.int()
	h.srcCRC = d.u32()
	h.srcLines = d.int()
	h.flags = d.uvarint()
	h.nEntries, h.nSightings, h.nTasks = d.int(), d.int(), d.int()
	rest := len(d.c) - d.pos
	if d.bad || h.nEntries > rest/minEntryBytes || h.nSightings > rest/minEntryBytes ||
		h.nEntries+h.nSightings > rest/minEntryBytes || h.nTasks > rest {
		return cacheHeader{}, nil, false
	}
	d.h = h
	return h, d, true
}

// entries decodes the entries and sightings against src (the markdown
// file, at least h.srcLen long), the entries into dst's memory when it has
// room for them. When ids are unique, targets holds the entry each
// sighting counts for (-1: none). It can run once.
func (d *decoder) entries(src string, dst []Entry) (entries, sightings []Entry, targets []int32, ok bool) {
	d.src = src
	n, ns, nt := d.h.nEntries, d.h.nSightings, d.h.nTasks
	if cap(dst) < n {
		dst = make([]Entry, 0, n)
	}
	entries = dst[:n]
	if ns > 0 {
		sightings = make([]Entry, ns)
	}
	var pool []string
	if nt > 0 {
		pool = make([]string, nt)
	}
	used, line := 0, 0
	for _, list := range [2][]Entry{entries, sightings} {
		for i := range list {
			x := &list[i]
			fl := d.uvarint()
			x.Legacy = fl&eflagLegacy != 0
			x.Seen = d.intv()
			line += d.intv()
			x.Line = line
			x.Kind = Kind(d.field())
			x.Status = Status(d.field())
			x.Date = d.field()
			x.Task = d.field()
			x.Source = d.field()
			x.Category = d.field()
			x.ID = d.field()
			x.LastSeen = d.field()
			if fl&eflagTasksSet != 0 {
				k := d.int()
				if d.bad || k > nt-used {
					return nil, nil, nil, false
				}
				tasks := pool[used : used+k : used+k]
				used += k
				for j := range tasks {
					tasks[j] = d.field()
				}
				x.Tasks = tasks
			} else {
				x.Tasks = nil
			}
			x.Issue = d.field()
			x.Fix = d.field()
			x.Context = d.field()
			x.Body = d.field()
			if d.bad || fl > eflagLegacy|eflagTasksSet {
				return nil, nil, nil, false
			}
		}
	}
	if used != nt {
		return nil, nil, nil, false
	}
	if d.h.flags&flagUniqueIDs != 0 {
		targets = make([]int32, ns)
		for i := range targets {
			t := d.uvarint()
			if d.bad || t > uint64(n) {
				return nil, nil, nil, false
			}
			targets[i] = int32(t) - 1
		}
		if len(d.c)-d.pos != 8*n {
			return nil, nil, nil, false
		}
		d.ids = d.c[d.pos:]
		d.pos = len(d.c)
	}
	if d.pos != len(d.c) {
		return nil, nil, nil, false
	}
	return entries, sightings, targets, true
}

// lookup returns the index of the entry with this id in entries (as
// decoded), or -1, using the id index.
func (d *decoder) lookup(entries []Entry, id string) int {
	h := idHash(id)
	rec := func(i int) (uint32, int) {
		r := d.ids[8*i : 8*i+8]
		return uint32(r[0]) | uint32(r[1])<<8 | uint32(r[2])<<16 | uint32(r[3])<<24,
			int(uint32(r[4]) | uint32(r[5])<<8 | uint32(r[6])<<16 | uint32(r[7])<<24)
	}
	n := len(d.ids) / 8
	i := sort.Search(n, func(i int) bool { hi, _ := rec(i); return hi >= h })
	for ; i < n; i++ {
		hi, idx := rec(i)
		if hi != h {
			break
		}
		if idx < len(entries) && entries[idx].ID == id {
			return idx
		}
	}
	return -1
}

func (d *decoder) u32() uint32 {
	if len(d.c)-d.pos < 4 {
		d.bad = true
		return 0
	}
	c := d.c[d.pos:]
	d.pos += 4
	return uint32(c[0]) | uint32(c[1])<<8 | uint32(c[2])<<16 | uint32(c[3])<<24
}

func (d *decoder) uvarint() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.pos >= len(d.c) {
			break
		}
		b := d.c[d.pos]
		d.pos++
		if b < 0x80 {
			if shift == 63 && b > 1 {
				break
			}
			return v | uint64(b)<<shift
		}
		v |= uint64(b&0x7f) << shift
	}
	d.bad = true
	return 0
}

// int is a uvarint that must fit a non-negative int.
func (d *decoder) int() int {
	v := d.uvarint()
	if v > uint64(maxInt) {
		d.bad = true
		return 0
	}
	return int(v)
}

// intv is a zigzag varint that must fit an int.
func (d *decoder) intv() int {
	u := d.uvarint()
	v := int64(u>>1) ^ -int64(u&1)
	if int64(int(v)) != v {
		d.bad = true
		return 0
	}
	return int(v)
}

const maxInt = int(^uint(0) >> 1)

func (d *decoder) str() string {
	n := d.int()
	if d.bad || n > len(d.c)-d.pos {
		d.bad = true
		return ""
	}
	s := d.c[d.pos : d.pos+n]
	d.pos += n
	return s
}

func (d *decoder) field() string {
	tag := d.uvarint()
	if tag < fieldBase {
		switch {
		case tag == 0:
			return ""
		case tag <= uint64(len(consts)):
			return consts[tag-1]
		}
		d.bad = true
		return ""
	}
	tag -= fieldBase
	var off, n int
	switch tag & 3 {
	case 0:
		if tag>>7 > uint64(len(d.src)) {
			d.bad = true
			return ""
		}
		off, n = d.prevOff+int(tag>>2&31), int(tag>>7)
	case 1:
		if tag>>2 > uint64(len(d.src)) {
			d.bad = true
			return ""
		}
		n = int(tag >> 2)
		delta := d.intv()
		off = d.prevOff + delta
		if d.bad || delta < 0 && off > d.prevOff || delta > 0 && off < d.prevOff {
			d.bad = true
			return ""
		}
	case 2:
		if tag>>2 > uint64(len(d.c)-d.pos) {
			d.bad = true
			return ""
		}
		n = int(tag >> 2)
		s := d.c[d.pos : d.pos+n]
		d.pos += n
		return s
	default:
		d.bad = true
		return ""
	}
	if off < 0 || off > len(d.src) || n > len(d.src)-off {
		d.bad = true
		return ""
	}
	d.prevOff = off + n
	return d.src[off : off+n]
}

// crcString is crc32.Update over a string, without copying it.
func crcString(crc uint32, s string) uint32 {
	if s == "" {
		return crc
	}
	return crc32.Update(crc, castagnoli(), unsafe.Slice(unsafe.StringData(s), len(s)))
}
