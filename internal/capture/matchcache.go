package capture

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"unsafe"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// The match cache: the Matcher's pass over memory (sync), kept on disk so
// that the next hook process need not redo it. Like mdstore's parse cache
// it is derived data and never a source of truth: it lives beside that
// cache in mdstore.CacheDir (.flow/memory/.cache/pitfalls.match, ignored by
// git), is written best-effort after Upsert has released the memory lock,
// and a reader that finds it missing, damaged, stale or built by other
// code simply does the pass.
//
// What the pass derives from an entry (its signature) depends only on the
// entry's text, so the cache stores, per entry in memory order, a checksum
// of the entry's id, Text() and Fix next to its signature and id hash. A
// reader checksums its own entries (cheap next to the pass) and reuses the
// signature of every entry whose checksum is the one cached at its index;
// the others — entries appended since (the common case: flowmem only
// appends), or any that were edited — are scanned as the pass would. The
// memory's word counts (the count table) are a sum over the sampled
// entries, every `every`-th one: the cached table is reused only when the
// sampling step is the same for the memory as it is now and every sampled
// entry it counted is unchanged; then the new sampled entries are added.
// Otherwise (the memory crossed a multiple of countSample entries and the
// step changed, or it shrank, or a sampled entry changed) the table is
// counted again from the sampled entries, a twenty-fifth of the pass at
// 10,000 entries. Either way the matcher ends up in exactly the state a
// matcher without a cache reaches on the same entries: the cache only
// makes it faster (TestMatchCacheEquivalence).
//
// A cache describes the entries the matcher read from the file, not the
// lessons Upsert appended after them: the next capture finds those as new
// entries and scans them (microseconds each), and the cache is rewritten
// only once more than matchCacheRewrite entries had to be scanned or
// analysed (featcache.go), the table counted again, or there was no usable
// cache. So a warm capture reads the cache and writes nothing.
//
// Layout (little-endian):
//
//	 0  magic "FMMATCH\x00"
//	 8  version u32 | sigBits u32 | countBits u32 | countSample u32
//	24  scanVersion u32 | scanFingerprint u32
//	32  every u32 | entries u32 | sampled u32 | crc32c u32
//	48  increments u64 | analysis bytes u64
//	64  count (u16) * 2^countBits
//	    id hash (u64) * entries
//	    checksum (u32) * entries | 0 u32 when entries is odd
//	    the analysed entries (featcache.go), analysis bytes long
//	    signature ([16]u64) * entries
//
// The crc32c covers every byte but its own. The signatures, nine tenths of
// the file, come last and 8-byte aligned: a reader reads the file into a
// buffer with room after it and uses them where they lie, appending the
// signatures of new entries in place, with no copy and no second
// allocation of a megabyte (whose page faults and garbage-collector work
// cost more than the rest of the load).
//
// Every constant the data depends on is in the header; scanFingerprint is
// the signature and counts scanEntry gives a fixed text, so a change to
// the scan that forgets to bump scanVersion still invalidates old caches.
const (
	matchCacheMagic   = "FMMATCH\x00"
	matchCacheVersion = 2
	// scanVersion names the scan (prefixByte, prefixIndex, cellOf, the
	// per-entry word dedup and the texts scanned): bump it whenever
	// anything changes what scanEntry derives from a text.
	scanVersion     = 1
	matchHeaderSize = 64
	sigSize         = int(unsafe.Sizeof(signature{}))
)

// matchCacheSize is the size of a cache of n entries with an analysis
// section of feat bytes, featAt where that section starts and sigsAt where
// the signatures do.
func matchCacheSize(n, feat int) int { return sigsAt(n, feat) + n*sigSize }

func featAt(n int) int { return matchHeaderSize + 2<<countBits + 8*n + 4*n + 4*(n&1) }

func sigsAt(n, feat int) int { return featAt(n) + feat }

// maxFeatBytes bounds the analysis section of a cache for a memory of n
// entries, far above what real lessons give (a few hundred bytes each), so
// that junk in .cache is not read.
func maxFeatBytes(n int) int { return 1<<20 + n*(16<<10) }

// matchCacheMinEntries: smaller memories are scanned (well under a
// millisecond) and get no cache. A variable for tests.
var matchCacheMinEntries = 256

// matchCacheRewrite: while no more than this many entries had to be
// scanned, the cache is left as it is (the next process scans them again,
// a few microseconds each) rather than rewritten, which costs more. A
// variable for tests.
var matchCacheRewrite = 64

// MatchCachePath is where the Matcher keeps its cache for kind k's file
// in the memory folder memDir.
func MatchCachePath(memDir string, k mdstore.Kind) string {
	return filepath.Join(memDir, mdstore.CacheDir, string(k)+"s.match")
}

// matchState is the per-entry part of a Matcher's pass and its count
// table, as the cache holds it.
type matchState struct {
	every   int
	sampled int
	incs    int // increments in counts (countTable.n)
	counts  []uint16
	sums    []uint32 // entryChecksum per entry
	idHash  []uint64
	sigs    []signature
	feat    *featSection // nil when no entry's analysis is kept
}

// entryChecksum covers what the pass reads from an entry: its id (for the
// id hash) and the texts scanEntry scans. The lengths come first, so
// moving bytes from one field to the next changes it. buf is working
// space, returned for the next call: one checksum call over one buffer is
// faster than four over the parts.
func entryChecksum(buf []byte, e *mdstore.Entry) (uint32, []byte) {
	text := e.Text()
	buf = binary.LittleEndian.AppendUint32(buf[:0], uint32(len(e.ID)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(text)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(e.Fix)))
	buf = append(append(append(buf, e.ID...), text...), e.Fix...)
	return crc32.Update(0, castagnoli(), buf), buf
}

// castagnoli is the CRC-32C table, made on first use (see mdstore's).
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// scanProbe exercises every branch of scanEntry: cases, digits, two-byte
// numbers and words, non-ASCII, punctuation, underscores, long words and
// repeats.
var scanProbe = []string{
	"Retries RETRIED retrying the t.TempDir() call with --workdir=/home/agent, HOME and %w in fn-1.2; " +
		"go 42 x7 ab 007 snake_case camelCaseName naïve café Ünïcode 日本語 emoji🙂 a-b-c x.y.z",
	"json.Decoder decodes one JSON object; io.ReadAll waits for EOF (EOF!) 3.14 0x1F 1e9 retries retries",
}

// scanFingerprint is a checksum of what scanEntry derives from scanProbe.
var scanFingerprint = sync.OnceValue(func() uint32 {
	var sig signature
	t := newCountTable()
	scanEntry(&sig, t, 1, scanProbe...)
	b := make([]byte, 0, 8*len(sig)+8)
	for _, w := range sig {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(t.n))
	c := crc32.Update(0, castagnoli(), b)
	for cell, n := range t.counts {
		if n != 0 {
			c = crc32.Update(c, castagnoli(), binary.LittleEndian.AppendUint32(nil, uint32(cell)<<16|uint32(n)))
		}
	}
	return c
})

// encodeMatchCache renders s in the layout above.
func encodeMatchCache(s *matchState) []byte {
	le := binary.LittleEndian
	n := len(s.sigs)
	feat := 0
	if s.feat != nil {
		feat = s.feat.size()
	}
	b := make([]byte, matchCacheSize(n, feat))
	copy(b, matchCacheMagic)
	for i, v := range []uint32{matchCacheVersion, sigBits, countBits, countSample, scanVersion, scanFingerprint(),
		uint32(s.every), uint32(n), uint32(s.sampled)} {
		le.PutUint32(b[8+4*i:], v)
	}
	le.PutUint64(b[48:], uint64(s.incs))
	le.PutUint64(b[56:], uint64(feat))
	p := b[matchHeaderSize:]
	for i, c := range s.counts {
		le.PutUint16(p[2*i:], c)
	}
	p = p[2<<countBits:]
	for i, h := range s.idHash {
		le.PutUint64(p[8*i:], h)
	}
	p = p[8*n:]
	for i, c := range s.sums {
		le.PutUint32(p[4*i:], c)
	}
	if s.feat != nil {
		s.feat.encode(b[featAt(n) : featAt(n)+feat])
	}
	p = b[sigsAt(n, feat):]
	if littleEndian {
		copy(p, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s.sigs))), n*sigSize))
	} else {
		for i := range s.sigs {
			for j, w := range s.sigs[i] {
				le.PutUint64(p[i*sigSize+8*j:], w)
			}
		}
	}
	le.PutUint32(b[44:], matchCacheCRC(b))
	return b
}

// matchCacheCRC is the checksum of a cache: every byte but its own.
func matchCacheCRC(b []byte) uint32 {
	return crc32.Update(crc32.Checksum(b[:44], castagnoli()), castagnoli(), b[48:])
}

// littleEndian: signatures are stored as the machine holds them.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// decodeMatchCache reads a cache written by encodeMatchCache with the
// constants of this build. ok is false for anything else: another format
// or scan, a torn or damaged file, or numbers that do not add up. The
// signatures are b's own bytes when they can be (b must then not change):
// room is how many entries the caller may append to them, which cap(b)
// must leave space for; with less, they are copied.
func decodeMatchCache(b []byte, room int) (s *matchState, ok bool) {
	le := binary.LittleEndian
	if len(b) < matchHeaderSize || string(b[:8]) != matchCacheMagic {
		return nil, false
	}
	u32 := func(off int) uint32 { return le.Uint32(b[off:]) }
	for i, want := range []uint32{matchCacheVersion, sigBits, countBits, countSample, scanVersion} {
		if u32(8+4*i) != want {
			return nil, false
		}
	}
	every, n, sampled := int(u32(32)), int(u32(36)), int(u32(40))
	feat64 := le.Uint64(b[56:])
	if every < 1 || sampled != (n+every-1)/every || feat64%8 != 0 || feat64 > uint64(len(b)) {
		return nil, false
	}
	feat := int(feat64)
	if len(b) != matchCacheSize(n, feat) || n&1 == 1 && u32(featAt(n)-4) != 0 {
		return nil, false
	}
	if u32(44) != matchCacheCRC(b) || u32(28) != scanFingerprint() {
		return nil, false
	}
	s = &matchState{every: every, sampled: sampled, incs: int(le.Uint64(b[48:])),
		counts: make([]uint16, 1<<countBits), idHash: make([]uint64, n, n+room), sums: make([]uint32, n)}
	p := b[matchHeaderSize:]
	total := uint64(0)
	for i := range s.counts {
		s.counts[i] = le.Uint16(p[2*i:])
		total += uint64(s.counts[i])
	}
	// Each sampled entry adds at most one to a cell per word, and counts
	// never saturate at this sample size: the increments are the sum.
	if total != uint64(s.incs) {
		return nil, false
	}
	p = p[2<<countBits:]
	for i := range s.idHash {
		s.idHash[i] = le.Uint64(p[8*i:])
	}
	p = p[8*n:]
	for i := range s.sums {
		s.sums[i] = le.Uint32(p[4*i:])
	}
	if feat > 0 {
		if s.feat, ok = decodeFeatSection(b[featAt(n):sigsAt(n, feat)], n); !ok {
			return nil, false
		}
	}
	at := sigsAt(n, feat)
	if p := unsafe.Pointer(unsafe.SliceData(b)); littleEndian && n > 0 && (uintptr(p)+uintptr(at))%8 == 0 && cap(b) >= len(b)+room*sigSize {
		s.sigs = unsafe.Slice((*signature)(unsafe.Add(p, at)), n+room)[:n]
		return s, true
	}
	s.sigs = make([]signature, n, n+room)
	for i := range s.sigs {
		for j := range s.sigs[i] {
			s.sigs[i][j] = le.Uint64(b[at+i*sigSize+8*j:])
		}
	}
	return s, true
}

// loadMatchCache reads the cache at path, with room for its signatures
// to grow to want entries in place; nil when there is none usable.
func loadMatchCache(path string, want int) *matchState {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	var head [matchHeaderSize]byte
	if err != nil || fi.Size() < matchHeaderSize {
		return nil
	}
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return nil
	}
	// A cache describes at most the entries in memory now (entries are only
	// appended), and what its header says it holds is its size: anything
	// else is junk, not worth an allocation. (A cache is replaced by
	// rename, never written in place: the open file keeps its size.)
	n, feat := int(binary.LittleEndian.Uint32(head[36:])), binary.LittleEndian.Uint64(head[56:])
	if string(head[:8]) != matchCacheMagic || n > want || feat > uint64(maxFeatBytes(want)) ||
		fi.Size() != int64(matchCacheSize(n, int(feat))) {
		return nil
	}
	size := int(fi.Size())
	room := want - n
	b := make([]byte, size, size+room*sigSize)
	copy(b, head[:])
	if _, err := io.ReadFull(f, b[matchHeaderSize:]); err != nil {
		return nil
	}
	s, ok := decodeMatchCache(b, room)
	if !ok {
		return nil
	}
	return s
}

// syncFromCache is sync's first pass over a memory when the matcher has a
// cache path: the cached signatures of unchanged entries, the rest scanned
// (see the comment at the top of the file).
func (m *Matcher) syncFromCache(existing []mdstore.Entry) {
	n := len(existing)
	// Room for the lessons Upsert appends, without copying the signatures.
	var c *matchState
	if m.pre != nil {
		c = <-m.pre
		m.pre = nil
		// Read for at most as many entries as there are now, or it would
		// not have been for this memory.
		if c != nil && len(c.sigs) > n+16 {
			c = nil
		}
	} else {
		c = loadMatchCache(m.CachePath, n+16)
	}
	sums := make([]uint32, n)
	parallelFor(n, func(lo, hi int) {
		var buf []byte
		for i := lo; i < hi; i++ {
			sums[i], buf = entryChecksum(buf, &existing[i])
		}
	})
	var reuse []bool
	tableOK := false
	if c != nil {
		// The cache's slices become the matcher's: no copy of the
		// signatures.
		k := min(n, len(c.sigs))
		m.sigs, m.idHash = c.sigs[:k], c.idHash[:k]
		reuse = make([]bool, n)
		tableOK = c.every == m.every && len(c.sigs) <= n
		for i := range k {
			reuse[i] = sums[i] == c.sums[i]
			if !reuse[i] && i%m.every == 0 {
				tableOK = false
			}
		}
	}
	// Whatever is not reused below is scanned or hashed, so the new
	// elements need no zeroing.
	m.sigs = slices.Grow(m.sigs, n+16-len(m.sigs))[:n]
	m.idHash = slices.Grow(m.idHash, n+16-len(m.idHash))[:n]
	m.table = newCountTable()
	if tableOK {
		copy(m.table.counts, c.counts)
		m.table.n, m.table.sampled = c.incs, c.sampled
	}
	// Scan what the cache does not have; with the table counted again,
	// the sampled entries too.
	var todo []int
	for i := range n {
		if reuse == nil || !reuse[i] || !tableOK && i%m.every == 0 {
			todo = append(todo, i)
		}
	}
	scanned := 0
	m.reused = n
	for _, i := range todo {
		if reuse == nil || !reuse[i] {
			m.idHash[i] = hash64(existing[i].ID)
			scanned++
			m.reused--
		}
	}
	m.scan(existing, len(todo), func(k int) int { return todo[k] })
	// The state of the memory as read, which a rewrite writes: when the
	// signatures or counts call for one now, or once matching has
	// analysed many entries the cache lacks (SaveCache).
	t := m.table
	m.base = &matchState{every: m.every, sampled: t.sampled, incs: t.n, counts: append([]uint16(nil), t.counts...),
		sums: sums, idHash: m.idHash[:n:n], sigs: m.sigs[:n:n]}
	if c == nil || !tableOK || scanned > matchCacheRewrite {
		m.save = m.base
	}
	if c != nil {
		m.useFeatCache(c.feat, reuse)
	}
}

// Preload starts reading the match cache for a memory of at most n
// entries on another goroutine, for Prepare (or the first Match) to use:
// the hook has it read while the memory's entries are decoded.
func (m *Matcher) Preload(n int) {
	if m.CachePath == "" || n < matchCacheMinEntries || m.pre != nil || len(m.idHash) > 0 {
		return
	}
	pre := make(chan *matchState, 1)
	path := m.CachePath
	go func() { pre <- loadMatchCache(path, n+16) }()
	m.pre = pre
}

// SaveCache writes the match cache when the last pass found it missing or
// stale, or matching analysed more than matchCacheRewrite entries it
// lacked, best-effort: call it after Upsert returns, outside the memory
// lock. It writes what the matcher read from the memory file, not the
// lessons Upsert appended after, which the next reader scans as new.
func (m *Matcher) SaveCache() {
	s := m.save
	if s == nil && len(m.fresh) > matchCacheRewrite {
		s = m.base
	}
	m.save = nil
	if s == nil || m.CachePath == "" {
		return
	}
	s.feat = m.featSectionFor(len(s.sigs))
	m.base, m.fresh = nil, nil
	mdstore.WriteCacheFile(m.CachePath, encodeMatchCache(s))
}
