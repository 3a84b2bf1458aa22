package capture

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
)

// Kinds of lesson. Reviewers keep finding the same few hundred mistakes —
// the loop variable a goroutine captures, the response body never closed,
// %v where %w was meant — and a later reviewer words each one freely. Two
// lessons of the same kind are very likely the same lesson even when they
// share few words; two of different kinds that share many words (the
// goroutine never waited on, beside the goroutine that captures the loop
// variable) are very likely not. Word overlap cannot tell these apart, so
// the matcher also asks which kinds each lesson is of.
//
// The catalog (kinds/*.txt) is written by hand, one file per field, and
// recognises a kind by its words, not by a model: each kind lists groups of
// terms, and a lesson is of that kind when every group has a term in it.
// The format:
//
//	== go-loop-var-capture
//	about: a goroutine or closure in a loop captures the shared loop variable
//	all: goroutine, go func, closure, func literal
//	all: loop variable, range variable, iteration variable
//	none: waitgroup
//	ex: the goroutines capture the range variable, so all see the last item
//	no: goroutines launched in the loop are never waited on
//
// A term is one or more words, matched after stemming and without stop
// words, consecutively; a word ending in * matches any word it begins; a
// term holding other characters than letters, digits, spaces and hyphens
// (%w, :=, 1.22), or a camelCase word (WithCancel), matches the lesson's
// text as is, case aside. "none" terms
// veto the kind. "ex" and "no" lines are examples the kind must and must
// not recognise (TestKindsExamples).

// kindCatalog is the parsed catalog with its term index.
type kindCatalog struct {
	kinds []lessonKind
	// byFirst indexes the word terms by their first word's stem.
	byFirst map[string][]kindTermRef
	// prefixes indexes the terms whose first word is a prefix (ser*) by
	// that prefix's first three bytes (all of it when shorter), its stem's
	// too when that differs; literals indexes the literal terms by their
	// first two bytes, and litStart marks those pairs.
	prefixes map[string][]kindTermRef
	literals map[string][]kindTermRef
	litStart [1 << 16 / 64]uint64
	// masks, per kind and "all" group, hold the signature bits
	// (recur.go) of the words that can satisfy the group, so a memory's
	// entries are sifted by signature before their text is read; a group
	// that a word too short to sift by, or a literal, can satisfy is open.
	masks [][]kindMask
}

type kindMask struct {
	bits signature
	open bool
}

type lessonKind struct {
	name, about string
	file        string
	groups      int // number of "all" groups
	ex, no      []string
}

// kindTermRef is one term of one group of one kind.
type kindTermRef struct {
	kind  int32
	group int8 // −1 for a "none" term
	words []string
	// stems holds, for a word ending in * (a prefix), its prefix's stem,
	// which the text's stems may begin with too ("serializ*": serializ).
	stems []string
	lit   string // a literal term, lower-cased
}

// kinds is the catalog the matcher uses: kinds_gen.go, the catalog text
// parsed ahead of time (TestKindsGenerated keeps it so). Parsing the text
// costs a hook about 20 ms, several times that under load, and a hook
// reads the catalog while it holds the memory lock; putting the generated
// tables in maps costs it a fraction of a millisecond.
var kinds = sync.OnceValue(genCatalog)

// genIndexed is one key of a term index and its terms, in catalog order.
type genIndexed struct {
	key   string
	terms []kindTermRef
}

func genCatalog() *kindCatalog {
	c := &kindCatalog{
		kinds:    genKinds,
		byFirst:  make(map[string][]kindTermRef, len(genByFirst)),
		prefixes: make(map[string][]kindTermRef, len(genPrefixes)),
		literals: make(map[string][]kindTermRef, len(genLiterals)),
		litStart: genLitStart,
		masks:    genMasks,
	}
	for _, x := range genByFirst {
		c.byFirst[x.key] = x.terms
	}
	for _, x := range genPrefixes {
		c.prefixes[x.key] = x.terms
	}
	for _, x := range genLiterals {
		c.literals[x.key] = x.terms
	}
	return c
}

// buildMasks fills c.masks. A word of the text satisfies a term's first
// word when their stems (after synonyms) are equal, or begin alike for a
// prefix term; the signature holds the text words' first four bytes. The
// stem is a prefix of every word that has it, so a stem of five bytes or
// more (or four, not ending in a y that -ies became) gives the first four
// bytes of every such word; synonyms add the exact words that fold into it.
func (c *kindCatalog) buildMasks() {
	bySource := map[string][]string{}
	for src, canon := range synonyms() {
		st := stem(canon)
		bySource[st] = append(bySource[st], src)
	}
	for _, srcs := range bySource {
		slices.Sort(srcs) // the masks, made in this order, are generated
	}
	c.masks = make([][]kindMask, len(c.kinds))
	for k := range c.kinds {
		c.masks[k] = make([]kindMask, c.kinds[k].groups)
	}
	add := func(r kindTermRef) {
		if r.group < 0 {
			return
		}
		m := &c.masks[r.kind][r.group]
		if r.lit != "" {
			m.open = true
			return
		}
		st := strings.TrimSuffix(r.words[0], "*")
		if strings.HasSuffix(r.words[0], "*") {
			st = stem(st)
		}
		if len(st) < 4 || len(st) == 4 && st[3] == 'y' {
			m.open = true
			return
		}
		m.bits.add(prefixIndex(st))
		for _, src := range bySource[st] {
			if len(src) < 3 {
				m.open = true
				return
			}
			m.bits.add(prefixIndex(src))
		}
	}
	for _, refs := range c.byFirst {
		for _, r := range refs {
			add(r)
		}
	}
	for _, refs := range c.prefixes {
		for _, r := range refs {
			add(r)
		}
	}
	for _, refs := range c.literals {
		for _, r := range refs {
			add(r)
		}
	}
}

// mayBe reports whether an entry whose signature is sig may be of kind k.
func (c *kindCatalog) mayBe(k int32, sig *signature) bool {
	for _, m := range c.masks[k] {
		if m.open {
			continue
		}
		hit := false
		for i := range sig {
			if sig[i]&m.bits[i] != 0 {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// parseKinds reads every kinds/*.txt of fsys.
func parseKinds(fsys fs.FS) (*kindCatalog, error) {
	names, err := fs.Glob(fsys, "kinds/*.txt")
	if err != nil {
		return nil, err
	}
	c := &kindCatalog{
		byFirst:  map[string][]kindTermRef{},
		prefixes: map[string][]kindTermRef{},
		literals: map[string][]kindTermRef{},
	}
	seen := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if err := c.parseFile(name, string(data), seen); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *kindCatalog) parseFile(name, data string, seen map[string]string) error {
	cur := -1
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := func() string { return fmt.Sprintf("%s:%d", name, n+1) }
		if k, ok := strings.CutPrefix(line, "== "); ok {
			k = strings.TrimSpace(k)
			if prev, dup := seen[k]; dup {
				return fmt.Errorf("%s: kind %q already defined at %s", at(), k, prev)
			}
			seen[k] = at()
			c.kinds = append(c.kinds, lessonKind{name: k, file: name})
			cur = len(c.kinds) - 1
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok || cur < 0 {
			return fmt.Errorf("%s: want \"== name\" or \"key: value\" inside a kind, got %q", at(), line)
		}
		val = strings.TrimSpace(val)
		k := &c.kinds[cur]
		switch key {
		case "about":
			k.about = val
		case "ex":
			k.ex = append(k.ex, val)
		case "no":
			k.no = append(k.no, val)
		case "all", "none":
			g := int8(-1)
			if key == "all" {
				if k.groups == 8 {
					return fmt.Errorf("%s: at most 8 \"all\" groups", at())
				}
				g = int8(k.groups)
				k.groups++
			}
			for _, t := range strings.Split(val, ",") {
				if t = strings.TrimSpace(t); t == "" {
					continue
				}
				if err := c.addTerm(int32(cur), g, t); err != nil {
					return fmt.Errorf("%s: %w", at(), err)
				}
			}
		default:
			return fmt.Errorf("%s: unknown key %q (want about, all, none, ex or no)", at(), key)
		}
	}
	for i := range c.kinds {
		if c.kinds[i].groups == 0 {
			return fmt.Errorf("%s: kind %q has no \"all\" group", name, c.kinds[i].name)
		}
	}
	return nil
}

func (c *kindCatalog) addTerm(kind int32, group int8, t string) error {
	ref := kindTermRef{kind: kind, group: group}
	literal := strings.ContainsFunc(t, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ' ' || r == '-' || r == '*' || r > 127)
	}) || innerCapital(t)
	if literal {
		ref.lit = strings.ToLower(t)
		if len(ref.lit) < 2 {
			return fmt.Errorf("literal term %q is shorter than two characters", t)
		}
		key := ref.lit[:2]
		c.literals[key] = append(c.literals[key], ref)
		x := uint16(key[0]) | uint16(key[1])<<8
		c.litStart[x>>6] |= 1 << (x & 63)
		return nil
	}
	ref.words = kindStems(t, true)
	if len(ref.words) == 0 {
		return fmt.Errorf("term %q has only stop words", t)
	}
	for _, w := range ref.words[:len(ref.words)-1] {
		if strings.HasSuffix(w, "*") {
			return fmt.Errorf("term %q: only its last word may end in *", t)
		}
	}
	ref.stems = make([]string, len(ref.words))
	for k, w := range ref.words {
		if p, ok := strings.CutSuffix(w, "*"); ok {
			ref.stems[k] = stem(p)
		}
	}
	if p, ok := strings.CutSuffix(ref.words[0], "*"); ok {
		if p == "" {
			return fmt.Errorf("term %q: * needs a prefix", t)
		}
		keys := []string{p[:min(3, len(p))]}
		if st := stem(p); st[:min(3, len(st))] != keys[0] {
			keys = append(keys, st[:min(3, len(st))])
		}
		for _, k := range keys {
			c.prefixes[k] = append(c.prefixes[k], ref)
		}
		return nil
	}
	c.byFirst[ref.words[0]] = append(c.byFirst[ref.words[0]], ref)
	return nil
}

// innerCapital reports a camelCase word (WaitGroup, SetLimit): the text
// splits such identifiers into words, so the term is matched as written.
func innerCapital(t string) bool {
	for i := 1; i < len(t); i++ {
		if t[i] >= 'A' && t[i] <= 'Z' && t[i-1] >= 'a' && t[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// kindStems are the stems of the words of s in order, stop words left out;
// identifiers count by their parts. In a term (pattern), a trailing * is
// kept, unstemmed.
func kindStems(s string, pattern bool) []string {
	var out []string
	var buf []byte
	word := func(w string) {
		buf = appendLower(buf[:0], w)
		if pattern && strings.HasSuffix(w, "*") {
			out = append(out, string(buf))
			return
		}
		if stopWords()[string(buf)] || len(buf) < 2 && !isDigits(w) {
			return
		}
		if syn, ok := synonyms()[string(buf)]; ok {
			buf = append(buf[:0], syn...)
		}
		out = append(out, kindStem(buf))
	}
	if pattern {
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' }) {
			word(w)
		}
		return out
	}
	forEachToken(s, func(tok string) {
		if isAnchor(tok) {
			splitIdent(tok, word)
			return
		}
		word(tok)
	})
	return out
}

// kindStemMemo keeps the stems kindStems worked out: a catalog's terms
// and a memory's lessons use the same few thousand words over and over,
// and the stemmer is most of the cost of reading either.
var kindStemMemo struct {
	sync.Mutex
	m map[string]string
}

func kindStem(lw []byte) string {
	kindStemMemo.Lock()
	defer kindStemMemo.Unlock()
	st, ok := kindStemMemo.m[string(lw)]
	if !ok {
		if kindStemMemo.m == nil || len(kindStemMemo.m) > 1<<16 {
			kindStemMemo.m = make(map[string]string, 4096)
		}
		w := string(lw)
		st = stem(w)
		kindStemMemo.m[w] = st
	}
	return st
}

// kindsOf returns the indexes of the kinds text is of, in catalog order.
func (c *kindCatalog) kindsOf(text string) []int32 {
	stems := kindStems(text, false)
	// The groups met of each kind (bit 15: vetoed), and the kinds met.
	bits := make([]uint16, len(c.kinds))
	var touched []int32
	mark := func(r kindTermRef) {
		bit := uint16(1) << 15
		if r.group >= 0 {
			bit = 1 << r.group
		}
		if bits[r.kind] == 0 {
			touched = append(touched, r.kind)
		}
		bits[r.kind] |= bit
	}
	for i, s := range stems {
		for _, r := range c.byFirst[s] {
			if r.at(stems, i) {
				mark(r)
			}
		}
	}
	if len(c.prefixes) > 0 {
		for i, s := range stems {
			for n := 1; n <= 3 && n <= len(s); n++ {
				for _, r := range c.prefixes[s[:n]] {
					if r.at(stems, i) {
						mark(r)
					}
				}
			}
		}
	}
	if len(c.literals) > 0 {
		lower := strings.ToLower(text)
		for i := 0; i+1 < len(lower); i++ {
			x := uint16(lower[i]) | uint16(lower[i+1])<<8
			if c.litStart[x>>6]&(1<<(x&63)) == 0 {
				continue
			}
			for _, r := range c.literals[lower[i:i+2]] {
				if strings.HasPrefix(lower[i:], r.lit) {
					mark(r)
				}
			}
		}
	}
	var out []int32
	for _, k := range touched {
		if bits[k] == uint16(1)<<c.kinds[k].groups-1 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// at reports whether the term's words start at stems[i].
func (r *kindTermRef) at(stems []string, i int) bool {
	if i+len(r.words) > len(stems) {
		return false
	}
	for k, w := range r.words {
		if p, ok := strings.CutSuffix(w, "*"); ok {
			if !strings.HasPrefix(stems[i+k], r.stems[k]) && !strings.HasPrefix(stems[i+k], p) {
				return false
			}
			continue
		}
		if stems[i+k] != w {
			return false
		}
	}
	return true
}

// sameKinds tells whether two lessons are of the same kinds, all of them.
// Sharing one is not enough: a near miss (same subject, other lesson) often
// shares the subject's kind and differs in another, and on the labelled
// sets the lift for any shared kind cost five false merges for each three
// more folds, the lift for the same kinds one for eleven
// (testdata/capture/recurrence/README.md, eighth round).
func sameKinds(a, b []int32) bool {
	return len(a) > 0 && slices.Equal(a, b)
}

// KindNames names the kinds of the lesson with this issue and fix, for
// `flowmem capture --explain`.
func KindNames(issue, fix string) []string {
	c := kinds()
	var out []string
	for _, k := range c.kindsOf(issue + "\n" + fix) {
		out = append(out, c.kinds[k].name)
	}
	return out
}
