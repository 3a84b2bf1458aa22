package capture

import (
	"encoding/binary"
	"math"
	"slices"
	"unsafe"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// The analysed entries of the match cache. A lesson is compared in full
// with every candidate entry, and analysing a candidate (tokens, words,
// identifiers, stems, trigrams) was most of a capture's matching: hundreds
// of candidates in a large memory, the same ones again whenever a review
// touches the same subjects. So the cache also keeps, for every entry
// analysed so far, what its features are made of — not the features
// themselves, whose weights change with the memory's counts, but where
// each term comes from:
//
//   - a table of sources: a word (its stem's hash, background idf, count
//     cell and trigrams) or an identifier's own term (its hash, background
//     idf and the count cells of its words), each once, by content;
//   - per analysed entry, its sources, each marked when it occurs in the
//     fix.
//
// A warm matcher rebuilds a candidate's features from these: the terms'
// weights computed from the current counts exactly as the analysis
// computes them (cellsCount), the trigram set as the union of its words',
// and the rest by the same finish as a fresh analysis. The result is the
// features a fresh analysis gives, bit for bit (TestFeatureCacheExact),
// for about a tenth of its cost.
//
// An entry's analysis is used only while its checksum (entryChecksum:
// id, text and fix) is the one the cache holds at its index, like its
// signature. The analysis depends on code that changes more often than
// the scan (word lists, stemming, tokens), so the section also names the
// executable that wrote it (mdstore.BuildStamp): another build ignores it
// and analyses afresh. A matcher that analysed more than matchCacheRewrite
// entries the cache lacked rewrites the cache with them.
//
// Section layout (little-endian, inside the match cache, see
// matchcache.go; offsets from its start, which is 8-byte aligned):
//
//	 0  stampLen u32 | nSrc u32 | nCells u32 | nGrams u32 | nIdx u32 | nRefs u32
//	24  source hash (u64) * nSrc
//	    source background idf (f32 bits) * nSrc
//	    source cell offset (u32) * (nSrc+1): its cells are cells[off[s]:off[s+1]]
//	    source gram offset (u32) * (nSrc+1): its trigrams likewise
//	    cells (u32) * nCells
//	    analysed entries' indices (u32) * nIdx, ascending
//	    their ref offsets (u32) * (nIdx+1)
//	    refs (u32: source<<1 | in-fix) * nRefs
//	    trigram bits (u16, < 4096) * nGrams
//	    stamp bytes, then zeros to a multiple of 8

// featRef is one term of a fresh analysis and where it came from: a word
// or an identifier's own term.
type featRef struct {
	w   *wordInfo
	a   *anchorInfo
	fix bool
}

// freshFeat is the recorded analysis of entry i of the memory as read.
type freshFeat struct {
	i    int
	refs []featRef
}

// featSection is the section as stored.
type featSection struct {
	stamp   string
	srcH    []uint64
	srcBG   []uint32
	srcCell []uint32
	srcGram []uint32
	cells   []uint32
	idx     []uint32
	off     []uint32
	refs    []uint32
	grams   []uint16
}

// featStamp names the code that analyses (a variable for tests).
var featStamp = mdstore.BuildStamp

const featHeaderSize = 24

// gramBits is the number of bits of a gramSet.
const gramBits = len(gramSet{}) * 64

// size is the section's encoded length.
func (f *featSection) size() int {
	nSrc := len(f.srcH)
	n := featHeaderSize + 8*nSrc + 4*(nSrc+2*(nSrc+1)+len(f.cells)+len(f.idx)+len(f.off)+len(f.refs)) + 2*len(f.grams) + len(f.stamp)
	return (n + 7) &^ 7
}

// encode writes the section into b, which is size() bytes, zeroed.
func (f *featSection) encode(b []byte) {
	le := binary.LittleEndian
	for i, v := range []int{len(f.stamp), len(f.srcH), len(f.cells), len(f.grams), len(f.idx), len(f.refs)} {
		le.PutUint32(b[4*i:], uint32(v))
	}
	p := b[featHeaderSize:]
	for i, h := range f.srcH {
		le.PutUint64(p[8*i:], h)
	}
	p = p[8*len(f.srcH):]
	for _, a := range [][]uint32{f.srcBG, f.srcCell, f.srcGram, f.cells, f.idx, f.off, f.refs} {
		p = putU32s(p, a)
	}
	for i, g := range f.grams {
		le.PutUint16(p[2*i:], g)
	}
	copy(p[2*len(f.grams):], f.stamp)
}

func putU32s(p []byte, a []uint32) []byte {
	if littleEndian {
		copy(p, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), 4*len(a)))
	} else {
		for i, v := range a {
			binary.LittleEndian.PutUint32(p[4*i:], v)
		}
	}
	return p[4*len(a):]
}

// decodeFeatSection reads a section of a cache of n entries. It checks
// everything that indexes anything, so a forged section cannot make the
// matcher read out of bounds; its slices may be b's own bytes.
func decodeFeatSection(b []byte, n int) (*featSection, bool) {
	le := binary.LittleEndian
	if len(b) < featHeaderSize || len(b)%8 != 0 {
		return nil, false
	}
	var c [6]int
	for i := range c {
		c[i] = int(le.Uint32(b[4*i:]))
	}
	stampLen, nSrc, nCells, nGrams, nIdx, nRefs := c[0], c[1], c[2], c[3], c[4], c[5]
	// Counts are below 2^32 each: the sum cannot overflow an int64.
	want := int64(featHeaderSize) + 8*int64(nSrc) + 4*(int64(nSrc)+2*(int64(nSrc)+1)+int64(nCells)+2*int64(nIdx)+1+int64(nRefs)) +
		2*int64(nGrams) + int64(stampLen)
	if (want+7)&^7 != int64(len(b)) || nIdx > n {
		return nil, false
	}
	for _, x := range b[want:] {
		if x != 0 {
			return nil, false
		}
	}
	f := &featSection{}
	p := b[featHeaderSize:]
	f.srcH, p = u64s(p, nSrc)
	f.srcBG, p = u32s(p, nSrc)
	f.srcCell, p = u32s(p, nSrc+1)
	f.srcGram, p = u32s(p, nSrc+1)
	f.cells, p = u32s(p, nCells)
	f.idx, p = u32s(p, nIdx)
	f.off, p = u32s(p, nIdx+1)
	f.refs, p = u32s(p, nRefs)
	f.grams, p = u16s(p, nGrams)
	f.stamp = string(p[:stampLen])
	if !offsets(f.srcCell, nCells) || !offsets(f.srcGram, nGrams) || !offsets(f.off, nRefs) {
		return nil, false
	}
	for k, i := range f.idx {
		if int(i) >= n || k > 0 && i <= f.idx[k-1] {
			return nil, false
		}
	}
	for _, r := range f.refs {
		if int(r>>1) >= nSrc {
			return nil, false
		}
	}
	for _, c := range f.cells {
		if c >= 1<<(2*countBits) {
			return nil, false
		}
	}
	for _, g := range f.grams {
		if int(g) >= gramBits {
			return nil, false
		}
	}
	return f, true
}

// offsets reports whether off runs from 0 up to end without going down.
func offsets(off []uint32, end int) bool {
	if off[0] != 0 || int(off[len(off)-1]) != end {
		return false
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return false
		}
	}
	return true
}

// u32s returns the first k little-endian uint32s of p, in place when p is
// aligned for them, and the rest of p.
func u32s(p []byte, k int) ([]uint32, []byte) {
	if k == 0 {
		return nil, p
	}
	if ptr := unsafe.Pointer(unsafe.SliceData(p)); littleEndian && uintptr(ptr)%4 == 0 {
		return unsafe.Slice((*uint32)(ptr), k), p[4*k:]
	}
	out := make([]uint32, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(p[4*i:])
	}
	return out, p[4*k:]
}

func u64s(p []byte, k int) ([]uint64, []byte) {
	if k == 0 {
		return nil, p
	}
	if ptr := unsafe.Pointer(unsafe.SliceData(p)); littleEndian && uintptr(ptr)%8 == 0 {
		return unsafe.Slice((*uint64)(ptr), k), p[8*k:]
	}
	out := make([]uint64, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(p[8*i:])
	}
	return out, p[8*k:]
}

func u16s(p []byte, k int) ([]uint16, []byte) {
	if k == 0 {
		return nil, p
	}
	if ptr := unsafe.Pointer(unsafe.SliceData(p)); littleEndian && uintptr(ptr)%2 == 0 {
		return unsafe.Slice((*uint16)(ptr), k), p[2*k:]
	}
	out := make([]uint16, k)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(p[2*i:])
	}
	return out, p[2*k:]
}

// featCache is a section in use: the weight of each source is computed
// once per version of the counts.
type featCache struct {
	*featSection
	w  []float32
	wv []uint32 // the version (ver+1) w is for
}

// useFeatCache takes the section of a cache read for existing, whose
// entry k the cache holds unchanged when reuse[k]; nothing when another
// build wrote it.
func (m *Matcher) useFeatCache(f *featSection, reuse []bool) {
	if f == nil || len(f.idx) == 0 || f.stamp == "" || f.stamp != featStamp() {
		return
	}
	m.cachedAt = make([]int32, len(reuse))
	for i := range m.cachedAt {
		m.cachedAt[i] = -1
	}
	for k, i := range f.idx {
		if int(i) < len(reuse) && reuse[i] {
			m.cachedAt[i] = int32(k)
		}
	}
	m.fc = &featCache{featSection: f}
}

// cached reports whether the cache kept entry i's analysis.
func (m *Matcher) cached(i int) bool { return i < len(m.cachedAt) && m.cachedAt[i] >= 0 }

// weighCached computes, for the current counts, the weights of the sources
// of the entries at idx whose analysis the cache kept, each once: rebuild
// then only reads them, on any number of goroutines.
func (m *Matcher) weighCached(idx []int) {
	fc := m.fc
	if fc == nil {
		return
	}
	if fc.w == nil {
		fc.w, fc.wv = make([]float32, len(fc.srcH)), make([]uint32, len(fc.srcH))
	}
	for _, i := range idx {
		if !m.cached(i) {
			continue
		}
		k := m.cachedAt[i]
		for _, r := range fc.refs[fc.off[k]:fc.off[k+1]] {
			if s := r >> 1; fc.wv[s] != m.ver+1 {
				bg := math.Float32frombits(fc.srcBG[s])
				fc.w[s], fc.wv[s] = m.idf(bg, m.cellsCount(fc.cells[fc.srcCell[s]:fc.srcCell[s+1]])), m.ver+1
			}
		}
	}
}

// keepCached gives every candidate at idx that the match cache analysed
// its features, rebuilt at the weights of this moment and kept for the
// rest of the matcher's life, as an entry analysed here keeps the ones it
// got when first analysed. Rebuilt anew for each lesson instead, its
// weights would follow the counts that every lesson added before moves,
// and a warm cache would fold differently from a cold one.
func (m *Matcher) keepCached(idx []int) {
	m.weighCached(idx)
	var todo []int
	size := 0
	for _, i := range idx {
		if m.feats[i] == nil && m.cached(i) {
			todo = append(todo, i)
			k := m.cachedAt[i]
			size += int(m.fc.off[k+1] - m.fc.off[k])
		}
	}
	if len(todo) == 0 {
		return
	}
	// One block for the features and one for their terms, each part of
	// the split rebuilding into its own stretch of both.
	feats := make([]lessonFeatures, len(todo))
	terms := make([]term, size)
	inParts(len(todo), scoresPerWorker, func(int) {}, func(_, lo, hi int) {
		at := 0
		for _, i := range todo[:lo] {
			k := m.cachedAt[i]
			at += int(m.fc.off[k+1] - m.fc.off[k])
		}
		for j := lo; j < hi; j++ {
			k := m.cachedAt[todo[j]]
			n := int(m.fc.off[k+1] - m.fc.off[k])
			m.rebuild(todo[j], &feats[j], terms[at:at:at+n])
			at += n
		}
	})
	for j, i := range todo {
		m.feats[i] = &feats[j]
	}
}

// rebuild makes f the features of entry i from the analysis the cache
// kept, its terms in ts's space (returned for the next call). The weights
// must have been weighed.
func (m *Matcher) rebuild(i int, f *lessonFeatures, ts []term) []term {
	fc := m.fc
	k := m.cachedAt[i]
	f.grams = gramSet{}
	ts = ts[:0]
	for _, r := range fc.refs[fc.off[k]:fc.off[k+1]] {
		s := r >> 1
		ts = append(ts, term{fc.srcH[s], fc.w[s], r&1 != 0})
		for _, g := range fc.grams[fc.srcGram[s]:fc.srcGram[s+1]] {
			f.grams[g>>6] |= 1 << (g & 63)
		}
	}
	f.finishTerms(ts)
	return ts
}

// featSectionFor is the section a rewritten cache of the memory's first n
// entries holds: every analysis of them the matcher has, from the cache
// it read or its own.
func (m *Matcher) featSectionFor(n int) *featSection {
	stamp := featStamp()
	if stamp == "" || m.fc == nil && len(m.fresh) == 0 {
		return nil
	}
	fresh := slices.Clone(m.fresh)
	slices.SortFunc(fresh, func(x, y freshFeat) int { return x.i - y.i })
	t := sourceTable{f: &featSection{stamp: stamp, srcCell: []uint32{0}, srcGram: []uint32{0}, off: []uint32{0}},
		byHash: map[uint64]uint32{}, words: map[*wordInfo]uint32{}, anchors: map[*anchorInfo]uint32{}}
	if m.fc != nil {
		t.cached = make([]int32, len(m.fc.srcH))
		for i := range t.cached {
			t.cached[i] = -1
		}
	}
	var refs []uint32
	type keyed struct {
		h uint64
		r uint32
	}
	var ks []keyed
	emit := func(i int) {
		f := t.f
		// In term order, so that a rebuild's sort has nothing to do (an
		// insertion sort: an entry has a few dozen refs).
		ks = ks[:0]
		for _, r := range refs {
			k := keyed{f.srcH[r>>1], r}
			j := len(ks)
			ks = append(ks, k)
			for ; j > 0 && (ks[j-1].h > k.h || ks[j-1].h == k.h && ks[j-1].r > k.r); j-- {
				ks[j] = ks[j-1]
			}
			ks[j] = k
		}
		// One ref per source: the term is the same, and in the fix if
		// any of its occurrences is.
		out := refs[:0]
		for _, k := range ks {
			if n := len(out); n > 0 && out[n-1]>>1 == k.r>>1 {
				out[n-1] |= k.r & 1
				continue
			}
			out = append(out, k.r)
		}
		f.idx = append(f.idx, uint32(i))
		f.refs = append(f.refs, out...)
		f.off = append(f.off, uint32(len(f.refs)))
	}
	fi := 0
	for i := 0; i < n; i++ {
		switch {
		case m.fc != nil && i < len(m.cachedAt) && m.cachedAt[i] >= 0:
			fc := m.fc
			k := m.cachedAt[i]
			refs = refs[:0]
			for _, r := range fc.refs[fc.off[k]:fc.off[k+1]] {
				refs = append(refs, t.cachedSource(fc.featSection, r>>1)<<1|r&1)
			}
			emit(i)
		case fi < len(fresh) && fresh[fi].i == i:
			refs = refs[:0]
			for _, r := range fresh[fi].refs {
				s := t.freshSource(r)
				if r.fix {
					s = s<<1 | 1
				} else {
					s <<= 1
				}
				refs = append(refs, s)
			}
			emit(i)
		}
		for fi < len(fresh) && fresh[fi].i <= i {
			fi++
		}
	}
	if len(t.f.idx) == 0 {
		return nil
	}
	return t.f
}

// sourceTable builds a section's sources, each content once.
type sourceTable struct {
	f       *featSection
	byHash  map[uint64]uint32 // content hash → first source with it
	cached  []int32           // the read section's sources, once placed
	words   map[*wordInfo]uint32
	anchors map[*anchorInfo]uint32
	gbuf    []uint16
}

func (t *sourceTable) cachedSource(f *featSection, s uint32) uint32 {
	if v := t.cached[s]; v >= 0 {
		return uint32(v)
	}
	v := t.add(f.srcH[s], f.srcBG[s], f.cells[f.srcCell[s]:f.srcCell[s+1]], f.grams[f.srcGram[s]:f.srcGram[s+1]])
	t.cached[s] = int32(v)
	return v
}

func (t *sourceTable) freshSource(r featRef) uint32 {
	if r.w != nil {
		if v, ok := t.words[r.w]; ok {
			return v
		}
		t.gbuf = t.gbuf[:0]
		for _, g := range r.w.grams {
			t.gbuf = append(t.gbuf, uint16(g&uint64(gramBits-1)))
		}
		v := t.add(r.w.stem, math.Float32bits(r.w.bg), []uint32{r.w.key}, t.gbuf)
		t.words[r.w] = v
		return v
	}
	if v, ok := t.anchors[r.a]; ok {
		return v
	}
	v := t.add(r.a.h, math.Float32bits(r.a.bg), r.a.cells, nil)
	t.anchors[r.a] = v
	return v
}

// add returns the source with this content, adding it when new. Two
// contents with one hash (never seen) are both kept: only the size
// suffers.
func (t *sourceTable) add(h uint64, bg uint32, cells []uint32, grams []uint16) uint32 {
	f := t.f
	k := mix(h ^ uint64(bg)<<32 ^ uint64(len(cells))<<8 ^ uint64(len(grams)))
	for _, c := range cells {
		k = mix(k ^ uint64(c))
	}
	for _, g := range grams {
		k = mix(k ^ uint64(g))
	}
	if s, ok := t.byHash[k]; ok && f.srcH[s] == h && f.srcBG[s] == bg &&
		slices.Equal(f.cells[f.srcCell[s]:f.srcCell[s+1]], cells) && slices.Equal(f.grams[f.srcGram[s]:f.srcGram[s+1]], grams) {
		return s
	}
	s := uint32(len(f.srcH))
	f.srcH = append(f.srcH, h)
	f.srcBG = append(f.srcBG, bg)
	f.cells = append(f.cells, cells...)
	f.srcCell = append(f.srcCell, uint32(len(f.cells)))
	f.grams = append(f.grams, grams...)
	f.srcGram = append(f.srcGram, uint32(len(f.grams)))
	if _, ok := t.byHash[k]; !ok {
		t.byHash[k] = s
	}
	return s
}
