package recall

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/text"
)

// floorDepth: with a floor, the search keeps this many lessons by score,
// weighs the floor on them and lets those that answer the request lead,
// before the limit cuts the list. Deeper than DefaultLimit, so that a
// lesson that answers the request from places 11 to 15 can lead
// (testdata/recall/README.md, round 22: 10 / 15 / 20 keep 964 / 969 / 968
// of FIT's 1300 requests' labelled lessons in the first 5; none of the
// no-relevant requests moved).
const floorDepth = 15

// BM25F parameters.
const (
	k1 = 1.2
	b  = 0.75
	// vocabularyMin: from this many entries on, a memory has a vocabulary
	// of its own, and the request's words it lacks say something about the
	// request (see weighed.foreign).
	vocabularyMin = 50
	// maxWords: the relevance floor weighs a lesson against the request's
	// most specific words, at most this many.
	maxWords = 8

	recurrenceLift = 0.15 // at most, reached at seen ≥ 16
	recencyLift    = 0.10 // at most, for a lesson seen today
	recencyDays    = 90   // e-folding time of the recency lift
	maxLift        = 1 + recurrenceLift + recencyLift
)

// Field weights: the lesson itself counts most; the fix and context
// (file paths, often the topic itself) next. The heading (date, task,
// source, category) is not scored: weighed at all, it moved no request of
// the quality sets (testdata/recall/README.md, round 14). Besides ranking,
// the weights keep a lesson's score near the bound its scan allows
// (bound: every term saturated), so the search stops parsing early: at
// weight 1 everywhere, read --relevant at 10,000 corpus-shaped lessons
// took a third more instructions.
const (
	wMain    = 3
	wFix     = 2
	wContext = 2
)

// plan is the compiled form of the queries of one search: every term of
// every query, looked for by a prefix of its stem (a needle) at the start
// of each word of the raw files.
type plan struct {
	qs      []*query
	needles []needle
	// folds memoizes text.Fold of the words the scan checks (exact).
	folds map[string]string
	// byPair holds the needles by their first two bytes, lower-cased: by
	// the first, a short list (a map lookup cost more than the scan of a
	// word).
	byPair [256][]pair
	// single holds the needles of one byte (an identifier such as x-y-z,
	// whose parts are too short to be tokens), by that byte.
	single [256][]int32
	// at is a bitset of the byte pairs, as written, at which the scan
	// looks: a needle's first two in every case, any that begins with a
	// one-byte needle's byte, and those that begin markup ("<!", "**").
	// One lookup per byte rejects the rest, word starts and all. A pair
	// is its bytes read as a little-endian uint16 (pairKey), so the scan
	// takes eight from one word of the text.
	at [1 << 16 / 64]uint64
}

type needle struct {
	s     string
	q     int
	t     int
	ascii bool
	// stem, when set, is the term a word the needle begins must fold to
	// for the scan to count it (says): the needle is a prefix, and a short
	// one begins many other words (the needle of intl begins internal and
	// integer), which counted would make the term look common.
	stem string
}

func compile(qs []*query) *plan {
	p := &plan{qs: qs, folds: map[string]string{}}
	for qi, q := range qs {
		for ti, t := range q.terms {
			if t.lead != "" {
				// An identifier's joined form: its first part begins it.
				p.addNeedle(needleOf(t.lead), qi, ti, "")
				continue
			}
			p.addNeedle(needleOf(t.stem), qi, ti, t.stem)
			for _, f := range text.Forms(t.stem) {
				p.addNeedle(needleOf(f), qi, ti, t.stem)
			}
			switch t.stem {
			case "die", "lie", "tie": // dying, lying, tying
				p.addNeedle(t.stem[:1]+"y", qi, ti, "")
			}
		}
	}
	p.setAt('<', '!')
	p.setAt('*', '*')
	return p
}

// setAt marks in at the pair a, b (lower-cased) in every case.
func (p *plan) setAt(a, b byte) {
	for _, x := range cases(a) {
		for _, y := range cases(b) {
			k := pairKey(x, y)
			p.at[k>>6] |= 1 << (k & 63)
		}
	}
}

// pairKey is the pair a, b as the scan reads it from the text.
func pairKey(a, b byte) uint16 { return uint16(a) | uint16(b)<<8 }

// looks reports whether at holds s's first two bytes.
func (p *plan) looks(s []byte) bool {
	return hasPair(&p.at, uint64(pairKey(s[0], s[1])))
}

// hasPair reports whether at holds the pair in k's low 16 bits.
func hasPair(at *[1 << 16 / 64]uint64, k uint64) bool {
	k &= 0xffff
	return at[k>>6]&(1<<(k&63)) != 0
}

// firstPair is the first j of 0 to 7 for which at holds the pair of
// bytes j and j+1 of w (eight bytes of text, little-endian; next is the
// byte after them), or 8 for none: the scan's step, eight bytes at a time.
func firstPair(at *[1 << 16 / 64]uint64, w, next uint64) int {
	switch {
	case hasPair(at, w):
		return 0
	case hasPair(at, w>>8):
		return 1
	case hasPair(at, w>>16):
		return 2
	case hasPair(at, w>>24):
		return 3
	case hasPair(at, w>>32):
		return 4
	case hasPair(at, w>>40):
		return 5
	case hasPair(at, w>>48):
		return 6
	case hasPair(at, w>>56|next<<8):
		return 7
	}
	return 8
}

// cases is c and, for a small ASCII letter, its capital.
func cases(c byte) []byte {
	if c >= 'a' && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// needleOf is the prefix by which a stem is found: Snowball rewrites at
// most the last letter of what it keeps (retry → retri) and may add an e
// after a short one (using → use), so all but the last letter
// of a stem of four or more (or of three ending in such an i or e) begin
// every word that has it.
func needleOf(stem string) string {
	for i := 0; i < len(stem); i++ {
		if stem[i] >= utf8.RuneSelf {
			// Case folding and the stemmer may change any letter outside
			// ASCII: look for the first letter only.
			_, n := utf8.DecodeRuneInString(stem)
			return stem[:n]
		}
	}
	if len(stem) >= 4 || len(stem) == 3 && (stem[2] == 'i' || stem[2] == 'e') {
		return stem[:len(stem)-1]
	}
	return stem
}

func (p *plan) addNeedle(s string, q, t int, stem string) {
	if s == "" {
		return
	}
	if len(s) == 1 {
		p.needles = append(p.needles, needle{s: s, q: q, t: t, ascii: true})
		p.single[lower[s[0]]] = append(p.single[lower[s[0]]], int32(len(p.needles)-1))
		for y := range 256 {
			p.setAt(lower[s[0]], byte(y))
		}
		return
	}
	// needleOf keeps one letter of a stem outside ASCII: a needle of two
	// bytes or more is ASCII, or one letter that is not.
	ascii := s[0] < utf8.RuneSelf
	if !ascii {
		stem = "" // says cuts words of ASCII only
	}
	n := int32(len(p.needles))
	p.needles = append(p.needles, needle{s: s, q: q, t: t, ascii: ascii, stem: stem})
	pairs := [][2]byte{{s[0], s[1]}}
	if !ascii {
		// Compared case-insensitively: index the spelling of every case
		// of its first letter (θ, ϑ, ϴ and Θ are one letter in four
		// spellings, not only a lower and an upper case).
		r, size := utf8.DecodeRuneInString(s)
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if v := utf8.AppendRune(nil, f); len(v) >= 2 {
				pairs = append(pairs, [2]byte{v[0], v[1]})
			} else if size < len(s) {
				pairs = append(pairs, [2]byte{v[0], s[size]})
			}
		}
	}
	for _, pr := range pairs {
		p.setAt(lower[pr[0]], lower[pr[1]])
		p.addPair(lower[pr[0]], lower[pr[1]], n)
	}
}

// pair is the needles whose first two bytes are a and b, in byPair.
type pair struct {
	b  byte
	ns []int32
}

func (p *plan) addPair(a, b byte, n int32) {
	for i := range p.byPair[a] {
		if pr := &p.byPair[a][i]; pr.b == b {
			if !slices.Contains(pr.ns, n) {
				pr.ns = append(pr.ns, n)
			}
			return
		}
	}
	p.byPair[a] = append(p.byPair[a], pair{b: b, ns: []int32{n}})
}

func (p *plan) pair(a, b byte) []int32 {
	for _, pr := range p.byPair[a] {
		if pr.b == b {
			return pr.ns
		}
	}
	return nil
}

// Byte classes for finding word starts the way text.Tokenizer splits.
const (
	cSep = iota
	cLower
	cUpper
	cDigit
)

var (
	lower   [256]byte
	byteCls [256]uint8
	inRun   [256]bool // a-z and 0-9: bytes that never start a part mid-word
)

func init() {
	for i := range lower {
		c := byte(i)
		lower[i] = c
		switch {
		case c >= 'A' && c <= 'Z':
			lower[i] = c + 'a' - 'A'
			byteCls[i] = cUpper
		case c >= 'a' && c <= 'z', c >= 0x80:
			// Bytes of multi-byte runes continue a word.
			byteCls[i] = cLower
		case c >= '0' && c <= '9':
			byteCls[i] = cDigit
		}
		inRun[i] = c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
}

var (
	metaOpen     = []byte("<!-- flowmem:")
	commentOpen  = []byte("<!--")
	commentClose = []byte("-->") // commentEnd finds it
)

// scan marks in masks (one per query) the terms whose needles begin a word
// of seg, and records sighting lines. A term not marked is certainly not
// in the entry; one marked is, unless says had to leave it to the scorer
// (a word outside ASCII, a run of capitals). The marks count the
// document frequencies, so they must not count the other words a
// needle begins.
func (p *plan) scan(seg []byte, masks []uint64, sightings map[string]sighting, ids *idCount) {
	n := len(seg)
	for i := 0; i+1 < n; i++ {
		if i+9 <= n {
			j := firstPair(&p.at, binary.LittleEndian.Uint64(seg[i:]), uint64(seg[i+8]))
			if i += j; j == 8 {
				i-- // the loop's step
				continue
			}
		} else if !hasPair(&p.at, uint64(pairKey(seg[i], seg[i+1]))) {
			continue
		}
		if c := seg[i]; c == '<' || c == '*' {
			i += markup(seg[i:], i == 0 || seg[i-1] == '\n', sightings, ids)
		} else if partStart(seg, i) {
			p.match(seg[i:], masks)
		}
	}
	if n > 0 && p.single[lower[seg[n-1]]] != nil && partStart(seg, n-1) {
		p.match(seg[n-1:], masks)
	}
}

// partStart reports whether a word part starts at seg[i], as the
// tokenizer cuts words in ASCII: after a separator, a capital after a
// small letter, the last of a run of capitals before a small letter.
// Outside ASCII any rune may start a part (the tokenizer knows Unicode
// case and punctuation; this does not), and so may what follows one (a
// false start costs only a lookup).
func partStart(seg []byte, i int) bool {
	c := seg[i]
	cls := byteCls[c]
	if cls == cSep {
		return false
	}
	if i == 0 || c >= 0xC0 || seg[i-1] >= 0x80 {
		return true
	}
	prev := byteCls[seg[i-1]]
	return prev == cSep || cls == cUpper && (prev == cLower || prev == cUpper && i+1 < len(seg) && byteCls[seg[i+1]] == cLower)
}

// markup is how many bytes after s[0] the scan skips as markup, not
// words: a comment (recording a sighting line) or, at a line's start, a
// field label. Out of scan's loop, which it would slow.
func markup(s []byte, lineStart bool, sightings map[string]sighting, ids *idCount) int {
	if bytes.HasPrefix(s, commentOpen) {
		// Comments (the metadata line, the id after a heading) are
		// not text; a sighting line counts.
		end := commentEnd(s)
		if end < 0 {
			return len(s)
		}
		// Only a comment that begins a line is a record (a sighting, an
		// entry's metadata line), as mdstore reads them; most comments
		// are the ids that end lines.
		if lineStart {
			recordLine(s[:end+len(commentClose)], sightings, ids)
		}
		return end
	}
	if s[0] == '*' && lineStart {
		return fieldLabel(s)
	}
	return 0
}

// fieldLabels are the labels mdstore writes before a pitfall's fields.
// They are markup, not words of the lesson: counted, every pitfall would
// say "context", and a request about Go's or React's context would find
// that word generic.
var fieldLabels = [][]byte{[]byte("**Issue**:"), []byte("**Fix**:"), []byte("**Context**:")}

// fieldLabel is the length of the field label s begins with, 0 if none,
// less one: the loop's own step passes its last byte.
func fieldLabel(s []byte) int {
	for _, l := range fieldLabels {
		if bytes.HasPrefix(s, l) {
			return len(l) - 1
		}
	}
	return 0
}

// commentEnd is bytes.Index(s, commentClose) by the comment's '>': its
// '-'s are the commonest bytes of a metadata line (dates, ids, task ids),
// and Index stops at each of them.
func commentEnd(s []byte) int {
	for k := 0; ; k++ {
		j := bytes.IndexByte(s[k:], '>')
		if j < 0 {
			return -1
		}
		if k += j; k >= 2 && s[k-1] == '-' && s[k-2] == '-' {
			return k - 2
		}
	}
}

// match marks the terms whose needles begin s, a part's start.
func (p *plan) match(s []byte, masks []uint64) {
	c := s[0]
	for _, ni := range p.single[lower[c]] {
		nd := &p.needles[ni]
		masks[nd.q] |= 1 << nd.t
	}
	if len(s) < 2 {
		return
	}
	for _, ni := range p.pair(lower[c], lower[s[1]]) {
		nd := &p.needles[ni]
		if masks[nd.q]&(1<<nd.t) == 0 && hasPrefixFold(s, nd) && (nd.stem == "" || p.says(s, nd.stem)) {
			masks[nd.q] |= 1 << nd.t
		}
	}
}

// says reports whether the word part that begins s folds to stem as the
// scorer will tokenize and fold it, or the identifier it begins does when
// it is written in camelCase (SameSite says samesite: the scorer matches
// its joined form). A part this loop cannot cut as text.Tokenizer does (a
// run of capitals, a letter outside ASCII, a capital after a digit)
// counts: the scorer tells.
func (p *plan) says(s []byte, stem string) bool {
	i := 0
	if byteCls[s[0]] == cUpper {
		if len(s) > 1 && byteCls[s[1]] == cUpper {
			return true
		}
		i = 1
	}
	for i < len(s) && inRun[s[i]] {
		i++
	}
	if i < len(s) && (s[i] >= 0x80 || byteCls[s[i]] == cUpper && byteCls[s[i-1]] == cDigit) {
		return true
	}
	if p.fold(s[:i]) == stem {
		return true
	}
	j := i
	for j < len(s) && s[j] < 0x80 && byteCls[s[j]] != cSep {
		j++
	}
	if j < len(s) && s[j] >= 0x80 {
		return true
	}
	return j > i && p.fold(s[:j]) == stem
}

// fold is text.Fold of the ASCII word w, lower-cased, remembered.
func (p *plan) fold(w []byte) string {
	var buf [64]byte
	if len(w) > len(buf) {
		return "" // not a token: text's longest is 64 bytes
	}
	for j, c := range w {
		buf[j] = lower[c]
	}
	f, ok := p.folds[string(buf[:len(w)])]
	if !ok {
		k := string(buf[:len(w)])
		f = text.Fold(k)
		p.folds[k] = f
	}
	return f
}

// begins reports whether some needle begins tok, a lower-case token.
func (p *plan) begins(tok []byte) bool {
	if len(tok) == 0 {
		return false
	}
	if p.single[tok[0]] != nil {
		return true
	}
	if len(tok) < 2 {
		return false
	}
	if !p.looks(tok) {
		return false
	}
	for _, ni := range p.pair(tok[0], tok[1]) {
		if hasPrefixFold(tok, &p.needles[ni]) {
			return true
		}
	}
	return false
}

func hasPrefixFold(s []byte, nd *needle) bool {
	if !nd.ascii {
		return hasPrefixFoldRunes(s, nd.s)
	}
	if len(s) < len(nd.s) {
		return false
	}
	for j := 0; j < len(nd.s); j++ {
		if lower[s[j]] != nd.s[j] {
			return false
		}
	}
	return true
}

// hasPrefixFoldRunes reports whether s begins with needle under Unicode
// case folding, rune by rune: the two cases of a letter outside ASCII may
// differ in length (Ⱦ is two bytes, ⱦ three), so a byte-for-byte window
// of the needle's length misses them.
func hasPrefixFoldRunes(s []byte, needle string) bool {
	for _, r := range needle {
		c, n := utf8.DecodeRune(s)
		if n == 0 || c != r && !sameLetter(c, r) {
			return false
		}
		s = s[n:]
	}
	return true
}

// sameLetter reports whether a and b are one letter in different cases.
func sameLetter(a, b rune) bool {
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// sighting is what the sighting lines of one id add to its entry.
type sighting struct {
	n      int
	last   string
	tasks  []string
	forgot bool // a forget's mark (mdstore.Forgotten)
}

var seenOpen = []byte("<!-- flowmem: seen ")

// recordSighting counts l in m when it is a sighting line, read as mdstore
// reads it.
func recordSighting(l []byte, m map[string]sighting) {
	if !bytes.HasPrefix(l, seenOpen) {
		return
	}
	me, ok := mdstore.ReadMeta(l)
	if !ok || !me.Sighting {
		return
	}
	s := m[string(me.ID)]
	if me.Status == mdstore.Forgotten {
		s.forgot = true
		m[string(me.ID)] = s
		return
	}
	s.n++
	s.last = max(s.last, string(me.Last))
	for _, t := range me.Tasks {
		if !slices.Contains(s.tasks, string(t)) {
			s.tasks = append(s.tasks, string(t))
		}
	}
	m[string(me.ID)] = s
}

// addSightings counts in e the sighting lines of its id.
func addSightings(m map[string]sighting, e *mdstore.Entry) {
	si, ok := m[e.ID]
	if !ok {
		return
	}
	if si.forgot {
		e.Status = mdstore.Forgotten
	}
	e.Seen += si.n
	e.LastSeen = max(e.LastSeen, si.last)
	for _, t := range si.tasks {
		if !slices.Contains(e.Tasks, t) {
			e.Tasks = append(e.Tasks, t)
		}
	}
}

// candidate is a segment in which the scan found some query's terms.
type candidate struct {
	file int32
	line int32
	n    int32   // length in bytes
	fold int32   // the lesson whose copies it stands for (scanned.folded), +1
	off  int64   // offset in its file
	ub   float64 // the most any query could score it (see bound)
	// lift is the most lift and staleness make of its score (ownLift);
	// key, the id its metadata line gives it, when lift was read there.
	lift float64
	key  uint64
}

// scanned is what one pass over the files found.
type scanned struct {
	n         int     // entries
	avgLen    float64 // mean segment length in bytes
	df        [][]int // per query, per term
	cands     []candidate
	masks     []uint64 // len(qs) per candidate
	sightings map[string]sighting
	folded    []mdstore.Entry // lessons a file holds more than once (fold)
}

// scanFiles scans files once; when some id came twice, once more with a
// file's copies of a lesson read as their fold (foldCopies): one entry,
// one candidate, which says every word a copy says.
func (p *plan) scanFiles(files []File, opt Options) (*scanned, error) {
	r, ids, err := p.scanPass(files, nil, opt)
	if err != nil || !ids.twice() {
		return r, err
	}
	folds, err := foldCopies(files, ids)
	if err != nil {
		return nil, err
	}
	r, _, err = p.scanPass(files, folds, opt)
	return r, err
}

func (p *plan) scanPass(files []File, folds map[at]*copies, opt Options) (*scanned, *idCount, error) {
	r := &scanned{df: make([][]int, len(p.qs)), sightings: map[string]sighting{}}
	for qi, q := range p.qs {
		r.df[qi] = make([]int, len(q.terms))
	}
	masks := make([]uint64, len(p.qs))
	lifts := map[liftKey]float64{}
	total := 0
	var rd reader
	ids := newIDCount(files)
	err := rd.eachSegment(files, func(fi int, seg []byte, off int64, line int) {
		c := candidate{file: int32(fi), line: int32(line), off: off}
		if e, skip := take(folds, fi, line); skip || e != nil {
			// The copy's own sighting lines count; its fold has none.
			recordLines(seg, r.sightings, nil)
			if skip {
				return
			}
			r.folded = append(r.folded, *e)
			seg, c.fold = []byte(mdstore.Render(e)), int32(len(r.folded))
		}
		c.n = int32(len(seg))
		r.n++
		total += len(seg)
		clear(masks)
		p.scan(seg, masks, r.sightings, ids)
		any := false
		for qi, m := range masks {
			for ; m != 0; m &= m - 1 {
				r.df[qi][bits.TrailingZeros64(m)]++
				any = true
			}
		}
		if any {
			c.lift = maxLift
			if c.fold == 0 {
				c.lift, c.key = ownLift(seg, opt, lifts)
			}
			r.cands = append(r.cands, c)
			r.masks = append(r.masks, masks...)
		}
	})
	// A sighting adds to a lesson's seen and last wherever it stands.
	if len(r.sightings) > 0 {
		sighted := make(map[uint64]bool, len(r.sightings))
		for id := range r.sightings {
			sighted[idKey([]byte(id))] = true
		}
		for i := range r.cands {
			if c := &r.cands[i]; sighted[c.key] {
				c.lift = maxLift
			}
		}
	}
	r.avgLen = 1
	if r.n > 0 {
		r.avgLen = float64(total) / float64(r.n)
	}
	return r, ids, err
}

// ownLift is lift times staleness of the entry seg holds, read from its
// metadata line when the entry is as flowmem writes it: that line under
// the heading (whose id tag, if any, is the line's), the only record in
// the segment. Then it is what the parsed entry has, unless a sighting
// adds to it; key is the line's id to find those by. Otherwise maxLift,
// the most there is. A search parses candidates best bound first until no
// bound can enter the result: a lesson not seen for months (stale, at
// half its score) has half the bound it had with maxLift.
func ownLift(seg []byte, opt Options, lifts map[liftKey]float64) (float64, uint64) {
	head, rest, _ := bytes.Cut(seg, []byte("\n"))
	l, _, _ := bytes.Cut(rest, []byte("\n"))
	id := metaID(l)
	if id == nil || bytes.IndexByte(id, '<') >= 0 || bytes.Count(seg, []byte("\n<!-- flowmem:")) != 1 {
		return maxLift, 0
	}
	head = bytes.TrimSuffix(head, []byte("\r"))
	if t, ok := bytes.CutSuffix(head, []byte(" -->")); bytes.Contains(head, commentOpen) &&
		!(ok && bytes.HasSuffix(t, id) && bytes.HasSuffix(t[:len(t)-len(id)], []byte(" <!-- "))) {
		return maxLift, 0 // tagged with another id: the line is a record
	}
	seen, last, ok := seenLast(l)
	if !ok {
		return maxLift, 0
	}
	// Memoized: time.Parse per candidate was most of this. From 16 on,
	// seen lifts no further.
	k := liftKey{min(seen, 16), [10]byte(last)}
	f, ok := lifts[k]
	if !ok {
		e := mdstore.Entry{Seen: k.seen, LastSeen: string(last)}
		f = lift(&e, opt.Now) * staleness(&e, opt)
		lifts[k] = f
	}
	return f, idKey(id)
}

type liftKey struct {
	seen int
	last [10]byte
}

// seenLast reads the seen and last fields of the metadata line l, each
// there once and valid; then they are what ReadMeta reads (without
// copying its tasks, which cost as much again).
func seenLast(l []byte) (seen int, last []byte, ok bool) {
	inner, ok := bytes.CutSuffix(bytes.TrimSpace(l), commentClose)
	if !ok {
		return 0, nil, false
	}
	field := func(key string) []byte {
		i := bytes.Index(inner, []byte(key))
		if i < 0 || bytes.Contains(inner[i+len(key):], []byte(key)) {
			return nil
		}
		v, _, _ := bytes.Cut(inner[i+len(key):], []byte(" "))
		return v
	}
	n, last := field(" seen="), field(" last=")
	if len(n) == 0 || len(n) > 9 || len(last) != 10 || last[4] != '-' || last[7] != '-' {
		return 0, nil, false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return 0, nil, false
		}
		seen = seen*10 + int(c-'0')
	}
	for i, c := range last {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return 0, nil, false
		}
	}
	return seen, last, seen > 0
}

// weighed is one query with the memory's statistics applied: idf per
// term, generic words marked, and what the relevance floor needs.
type weighed struct {
	q   *query
	idf []float64
	// specific marks terms that can qualify a lesson: the request's
	// words that are not generic, found in some entry.
	specific uint64
	// groupIdf is, per group, the highest idf of its specific terms: what
	// the group adds to a lesson's coverage; total is their sum.
	groupIdf   []float64
	groupKnown []bool
	total      float64
	// credit is, per term, what saying it adds to a lesson's coverage.
	credit []float64
	floor  float64 // Options.Floor
	// only marks the specific terms a single entry says (see answers).
	only uint64
	// loose marks the parts of a joined word no entry says whole (see
	// answers).
	loose uint64
	// foreign: the memory lacks as many of the request's maxWords most
	// specific words as it has (see search).
	foreign bool
	// vocabulary: the memory has vocabularyMin entries or more.
	vocabulary bool
}

func weigh(q *query, df []int, n int, floor float64) *weighed {
	w := &weighed{q: q, floor: floor, idf: make([]float64, len(q.terms)), groupIdf: make([]float64, q.groups), groupKnown: make([]bool, q.groups)}
	known := 0.0 // the highest idf of a specific word some entry has
	for t, tm := range q.terms {
		w.idf[t] = idf(df[t], n)
		if !tm.generic {
			// A specific word the memory never uses still counts in the
			// whole: a request whose topic words no lesson says is about
			// something the memory does not cover.
			g := tm.group
			if df[t] > 0 {
				w.specific |= 1 << t
				w.groupKnown[g] = true
				known = max(known, w.idf[t])
			}
			if df[t] == 1 {
				w.only |= 1 << t
			}
			w.groupIdf[g] = max(w.groupIdf[g], w.idf[t])
		}
	}
	// A word no entry has counts for half the rarest word some entry has:
	// at its own idf, the highest there is, it would outweigh every known
	// word in a small memory, and it is as often the project's own name for
	// a thing (orders, invoices) as the topic.
	for g, v := range w.groupIdf {
		if known > 0 && !w.groupKnown[g] {
			w.groupIdf[g] = min(v, known) * unknownShare
		}
	}
	// The whole is the request's maxWords most specific words: a long
	// request (a task file given to prime) is not more demanding than the
	// title that names its topic.
	top := make([]int, q.groups)
	for g := range top {
		top[g] = g
	}
	slices.SortStableFunc(top, func(a, b int) int { return cmp.Compare(w.groupIdf[b], w.groupIdf[a]) })
	lacks, has := 0, 0
	for _, g := range top[:min(len(top), maxWords)] {
		switch {
		case w.groupKnown[g]:
			has++
		case w.groupIdf[g] > 0:
			lacks++
		}
		w.total += w.groupIdf[g]
	}
	// A memory of a few dozen lessons lacks most words of any request: its
	// gaps say nothing about the request until it has a vocabulary of its
	// own, the size from which a word's share of it means something.
	w.vocabulary = n >= vocabularyMin
	for t, tm := range q.terms {
		if tm.whole && df[t] == 0 {
			for u, tu := range q.terms {
				if tu.group == tm.group && !tu.whole {
					w.loose |= 1 << u
				}
			}
		}
	}
	w.foreign = lacks >= has && w.vocabulary
	// A part of a joined word is credited at most the rarest word of its
	// group some lesson says: an unknown part's idf (the torch of PyTorch)
	// is no lesson's to claim.
	w.credit = make([]float64, len(q.terms))
	knownIdf := make([]float64, q.groups)
	for t, tm := range q.terms {
		if w.specific&(1<<t) != 0 {
			knownIdf[tm.group] = max(knownIdf[tm.group], w.idf[t])
		}
	}
	for t, tm := range q.terms {
		w.credit[t] = w.groupIdf[tm.group]
		if !tm.whole {
			w.credit[t] = min(w.credit[t], knownIdf[tm.group])
		}
	}
	return w
}

// qualifies: a lesson qualifies only by saying a specific word of the
// request itself (SPEC §6). Task ids, stop words and generic words never
// qualify it.
func (w *weighed) qualifies(mask uint64) bool {
	return mask&w.specific != 0
}

// answers is the relevance floor of a request read as it is
// (Options.Floor): a lesson that says that share of the request's specific
// words (by idf), or two of them making pairShare, shows the request is
// about something the memory covers.
//
// A lesson whose context (the file or component the problem was found
// in) names a word of the request that no other lesson says also
// answers it when that word makes pairShare: the request names the
// lesson's place. Said in the issue or the fix, such a word is as often
// another sense of it.
//
// A word the lesson says only in its fix, not in its issue
// or context (topic), counts remedyShare of its weight: a fix names the
// remedy, a verb and the thing it acts on ("oil the hinge", "trim the
// wick"), words that lessons about other problems and requests about
// other things share. A memory without a vocabulary of its own (see
// foreign) has few other problems to share them with, and its first
// lessons' fixes are often all it says of a topic: there every word
// counts whole.
//
// A part of a joined word no entry says whole (the share of bike-share,
// the text of speech-to-text; the scan counts a joined word by its first
// part, so one whose first part no entry begins a word with) is not one
// of a pair's two words: the request names a thing the memory lacks, and
// a lesson saying the part alone says it in another sense. Its weight
// still counts (testdata/recall/README.md, round 23).
func (w *weighed) answers(mask, place, topic uint64) (answers, alone bool) {
	if w.floor == 0 {
		return mask&w.specific != 0, true
	}
	if !w.vocabulary {
		topic = mask
	}
	c, words := w.coverage(mask, topic)
	if c >= w.floor {
		return true, true
	}
	if words >= 2 && mask&w.loose != 0 {
		_, words = w.coverage(mask&^w.loose, topic)
	}
	return c >= pairShare && (words >= 2 || place&w.only != 0), false
}

// spread is the floor's second way in (spreadWords): the lessons
// together say every specific word of a request of spreadWords or more.
// A word no entry has is never said, so such a request never passes it.
func (w *weighed) spread(mask uint64) bool {
	c, words := w.coverage(mask, mask)
	return words >= spreadWords && c >= 1-1e-9
}

// coverage is the share of the request's specific words, by idf, among
// the terms in mask, and how many of its words that is; a word only
// terms outside whole say counts remedyShare of its weight.
func (w *weighed) coverage(mask, whole uint64) (float64, int) {
	if w.total == 0 {
		return 0, 0
	}
	var got float64
	var best [64]float64
	n := 0
	seen := uint64(0)
	for i, m := range [2]uint64{mask & whole, mask &^ whole} {
		share := 1.0
		if i == 1 {
			share = remedyShare
		}
		for m &= w.specific; m != 0; m &= m - 1 {
			t := bits.TrailingZeros64(m)
			c := share * w.credit[t]
			g := w.q.terms[t].group
			if g >= 64 {
				got += c
				n++
				continue
			}
			if seen&(1<<g) == 0 {
				seen |= 1 << g
				n++
			}
			best[g] = max(best[g], c)
		}
	}
	for m := seen; m != 0; m &= m - 1 {
		got += best[bits.TrailingZeros64(m)]
	}
	return got / w.total, n
}

// bound is the most an entry whose scan found the terms in mask can score:
// every term saturated, times its lift (candidate.lift).
func (w *weighed) bound(mask uint64, lift float64) float64 {
	var s float64
	for m := mask; m != 0; m &= m - 1 {
		t := bits.TrailingZeros64(m)
		s += w.idf[t] * (k1 + 1)
	}
	return s * lift
}

// Search ranks the entries of files against each query and returns, per
// query, its best hits (at most k, fewer when fewer qualify). It reads
// every file's bytes once; only entries that may qualify are parsed, in
// order of the most they could score, until none left could enter the
// top k.
func search(files []File, qs []*query, opt Options, k int) ([][]Hit, error) {
	out := make([][]Hit, len(qs))
	p := compile(qs)
	if len(p.needles) == 0 || k <= 0 {
		return out, nil
	}
	r, err := p.scanFiles(files, opt)
	if err != nil {
		return nil, err
	}
	nq := len(qs)
	ws := make([]*weighed, nq)
	for qi, q := range qs {
		ws[qi] = weigh(q, r.df[qi], r.n, opt.Floor)
	}
	// The floor weighs the best floorDepth lessons whatever the limit: a
	// shorter list is the first part of the default one, not a list
	// answered on less evidence.
	depth := k
	if opt.Floor > 0 {
		depth = max(k, floorDepth)
	}
	sc := newScorer(p)
	defer sc.files.close()
	for qi, w := range ws {
		// The candidates that may qualify for this query, best bound first.
		var order []int
		for ci := range r.cands {
			m := r.masks[ci*nq+qi]
			if w.qualifies(m) {
				r.cands[ci].ub = w.bound(m, r.cands[ci].lift)
				order = append(order, ci)
			}
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(r.cands[b].ub, r.cands[a].ub) })
		top := topK{k: depth}
		for _, ci := range order {
			c := &r.cands[ci]
			if top.full() && c.ub < top.worst() {
				break
			}
			pe := sc.parse(&files[c.file], c, r)
			if !pe.ok || !eligible(&pe.e) {
				continue
			}
			s, mask, place, topic := sc.score(w, pe, float64(c.n)/r.avgLen)
			if !w.qualifies(mask) {
				continue
			}
			l := lift(&pe.e, opt.Now) * staleness(&pe.e, opt)
			h := Hit{Entry: pe.e, Score: s * l, mask: mask & w.specific}
			if w.floor > 0 {
				h.own = sc.sum(w, float64(c.n)/r.avgLen, remedyShare) * l
			}
			h.answers, h.alone = w.answers(mask, place, topic)
			top.offer(h)
		}
		out[qi] = top.sorted()
		// A request read as it is names the work, and a lesson's fix the
		// remedy, whose verbs and objects lessons about other problems
		// share: as its floor does, it weighs the fix's words remedyShare
		// of their weight in the order of the lessons it keeps. Kept by
		// the whole score, the lessons are the ones the bound lets the
		// search stop at (testdata/recall/README.md, round 22). The
		// scout's searches name remedies themselves: no floor, no change.
		if w.floor > 0 {
			for i := range out[qi] {
				out[qi][i].Score = out[qi][i].own
			}
			slices.SortStableFunc(out[qi], func(a, b Hit) int {
				if better(&a, &b) {
					return -1
				}
				if better(&b, &a) {
					return 1
				}
				return 0
			})
		}
		answering, alone := 0, false
		var said uint64
		for _, h := range out[qi] {
			if h.answers {
				answering++
			}
			alone = alone || h.alone
			said |= h.mask
		}
		// A request most of whose words the memory lacks is about
		// something else, unless one lesson says the floor's share or
		// two lessons answer it: one lesson sharing a pair of its words
		// (a row, a table) is chance.
		answered := alone || answering >= 2 || answering == 1 && !w.foreign
		if !answered {
			for i := range out[qi] {
				out[qi][i].answers = false
			}
		}
		if !answered && !(w.floor > 0 && w.spread(said)) {
			// None of the best lessons says enough of the request: what
			// they share with it is a word or two of another topic.
			out[qi] = nil
		}
		if w.floor > 0 {
			// The lessons that answer the request lead, as prime orders
			// them: each says enough of the request itself, where the
			// others share a word of it (testdata/recall/README.md, round
			// 22).
			lead(out[qi], func(h *Hit) bool { return h.answers })
		}
		out[qi] = out[qi][:min(len(out[qi]), k)]
	}
	return out, nil
}

// lead moves the hits for which first holds before the others, each
// group in the order it had.
func lead(hits []Hit, first func(*Hit) bool) {
	after := func(h *Hit) int {
		if first(h) {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(hits, func(a, b Hit) int { return after(&a) - after(&b) })
}

// scorer tokenizes candidate entries, each once for all queries, and keeps
// the stems of the tokens it has seen.
type scorer struct {
	p     *plan
	z     text.Tokenizer
	memo  map[string]string
	toks  []tok
	cache map[*candidate]*parsed // an entry parsed for one query serves the next
	files handles
	buf   []byte // a candidate's bytes, until it is parsed (ParseSegment copies)
	// tf and fixTf are the last scored entry's term frequencies, all and
	// its fix's; whole and parts, sum's per group.
	tf, fixTf    []float64
	whole, parts []float64
}

type tok struct {
	stem   string
	weight float64
	kind   text.Kind
}

type parsed struct {
	e    mdstore.Entry
	ok   bool
	toks []tok
	// place is where the context field's tokens are in toks; fix, where
	// the fix's begin (the issue's and body's come before it).
	place [2]int
	fix   int
}

func newScorer(p *plan) *scorer {
	return &scorer{p: p, memo: map[string]string{}, cache: map[*candidate]*parsed{}, files: handles{}}
}

func (s *scorer) parse(f *File, c *candidate, r *scanned) *parsed {
	if pe, ok := s.cache[c]; ok {
		return pe
	}
	pe := &parsed{}
	// A file rewritten since the scan (curation) makes a candidate
	// unreadable or another entry: it is skipped, or scored as it is now.
	if c.fold > 0 {
		pe.e, pe.ok = r.folded[c.fold-1], true
	} else if seg, err := s.files.readAt(f, c.off, int(c.n), &s.buf); err == nil {
		pe.e, pe.ok = mdstore.ParseSegment(f.Kind, seg, int(c.line))
	}
	if pe.ok {
		e := &pe.e
		addSightings(r.sightings, e)
		s.toks = s.toks[:0]
		s.field(e.Issue, wMain)
		s.field(e.Body, wMain)
		pe.fix = len(s.toks)
		s.field(e.Fix, wFix)
		pe.place[0] = len(s.toks)
		s.field(e.Context, wContext)
		pe.place[1] = len(s.toks)
		pe.toks = slices.Clone(s.toks)
	}
	s.cache[c] = pe
	return pe
}

func (s *scorer) field(v string, w float64) {
	s.z.Scan(v, func(b []byte, k text.Kind) {
		if k != text.Whole && !s.p.begins(b) {
			// No needle begins it, so it folds to no term of any query
			// (the scan's rule): left out. A joined form is always kept:
			// the needle of a request's identifier is its first part as
			// written, which need not begin the joined form ("0#BY" joins
			// to "0by"; its needle is "by"), and it marks where its
			// chunk's parts begin (see score).
			return
		}
		st, ok := s.memo[string(b)]
		if !ok {
			w := string(b)
			st = text.Fold(w)
			s.memo[w] = st
		}
		s.toks = append(s.toks, tok{st, w, k})
	})
}

// score is an entry's BM25F score for one query, the terms it says,
// those its context says, those its issue, body or context says (topic:
// the others it says only in its fix).
// Each identifier of the request scores its joined form or its parts,
// whichever is more.
func (s *scorer) score(w *weighed, pe *parsed, relLen float64) (total float64, mask, place, topic uint64) {
	q := w.q
	s.tf = append(s.tf[:0], make([]float64, len(q.terms))...)
	s.fixTf = append(s.fixTf[:0], make([]float64, len(q.terms))...)
	skip := false
	for i, t := range pe.toks {
		if t.kind != text.Part {
			skip = false
		}
		ti, ok := q.index[t.stem]
		if !ok {
			continue
		}
		mask |= 1 << ti
		inFix := false
		if i >= pe.place[0] && i < pe.place[1] {
			place |= 1 << ti
			topic |= 1 << ti
		} else if i < pe.fix {
			topic |= 1 << ti
		} else {
			inFix = true
		}
		if skip {
			continue // the joined form matched: its parts would count it twice
		}
		skip = t.kind == text.Whole
		s.tf[ti] += t.weight
		if inFix {
			s.fixTf[ti] += t.weight
		}
	}
	return s.sum(w, relLen, 1), mask, place, topic
}

// sum is the BM25F score of the term frequencies the last score counted,
// a fix's words weighed fixShare of their weight.
func (s *scorer) sum(w *weighed, relLen, fixShare float64) (total float64) {
	q := w.q
	norm := 1 - b + b*relLen
	s.whole = append(s.whole[:0], make([]float64, q.groups)...)
	s.parts = append(s.parts[:0], make([]float64, q.groups)...)
	for ti, tf := range s.tf {
		tf -= (1 - fixShare) * s.fixTf[ti]
		if tf <= 0 {
			continue
		}
		v := w.idf[ti] * tf * (k1 + 1) / (tf + k1*norm)
		if g := q.terms[ti].group; q.terms[ti].whole {
			s.whole[g] = v
		} else {
			s.parts[g] += v
		}
	}
	for g := range s.whole {
		total += max(s.whole[g], s.parts[g])
	}
	return total
}

// eligible: archived and pending (merged, awaiting curation) lessons are
// never recalled.
func eligible(e *mdstore.Entry) bool {
	return e.Status != mdstore.Archived && e.Status != mdstore.Pending && e.Status != mdstore.Forgotten
}

// lift is the modest boost for lessons that keep coming back and for those
// seen lately: at most maxLift.
func lift(e *mdstore.Entry, now time.Time) float64 {
	l := 1.0
	if e.Seen > 1 {
		l += recurrenceLift * min(math.Log(float64(e.Seen))/math.Log(16), 1)
	}
	if !now.IsZero() {
		l += recencyLift * recency(e, now)
	}
	return l
}

// stalePenalty scales the score of a stale lesson: still recalled when it
// matches, after fresh lessons that match about as well.
const stalePenalty = 0.5

func staleness(e *mdstore.Entry, opt Options) float64 {
	if e.Stale(opt.Now, opt.StaleAfterDays) {
		return stalePenalty
	}
	return 1
}

// recency is 1 for an entry seen at now, falling off exponentially with
// age; 0 when the entry has no date.
func recency(e *mdstore.Entry, now time.Time) float64 {
	t, err := time.Parse(time.DateOnly, lastSeen(e))
	if err != nil {
		return 0
	}
	age := max(now.Sub(t).Hours()/24, 0)
	return math.Exp(-age / recencyDays)
}
