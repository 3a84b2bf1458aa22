package capture

import (
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Recurrence: a lesson is "the same" as one in memory when a later review
// makes the same point in other words, about another task or file. Exact
// repeats (a review re-run) have the same content id; paraphrases are found
// by comparing the lessons' terms:
//
//   - terms are the words of the issue and fix, lower-cased, with stop words
//     dropped, a few review synonyms folded (absent/missing, folder/dir …)
//     and a light suffix stemmer, so "retries"/"retry", "cached"/"cache"
//     meet;
//   - identifiers and literals (`t.TempDir`, HOME, --workdir, 37, %w, paths)
//     are anchors: they weigh more than words, and both their whole form
//     and their parts count, so "docker exec --user agent" and "docker exec
//     with --user" meet on docker, exec, user and agent;
//   - generic review vocabulary (test, code, file, function, error …) weighs
//     little, so two lessons about tests do not match merely for being
//     about tests;
//   - character trigrams of the content words let "serialize" meet
//     "serialization" where the stemmer stops short.
//
// The score is the mean of the weighted Jaccard index of the terms and the
// Jaccard index of the trigrams, scaled up for long lessons (two long
// findings sharing a third of their terms is stronger evidence than two
// short ones). A lesson folds into the best-scoring entry at or above
// foldThreshold.
//
// Lexical overlap cannot tell every paraphrase from a near miss (a lesson
// that shares most words but differs in the one that matters, HOME vs
// --workdir): the threshold leans towards keeping lessons apart, because a
// false merge loses a lesson while a missed fold only leaves a duplicate.
// It was chosen on testdata/capture/recurrence/corpus.txt and reviews.txt;
// holdout.txt was written afterwards. TestQualityFolding (go test -tags
// quality) reports all three.

const (
	// foldThreshold is the score at which a lesson folds into an existing
	// one.
	foldThreshold = 0.40
	// sizeNorm is the term weight of a typical short lesson (one sentence
	// of issue, one of fix); larger lessons get their score scaled up.
	sizeNorm = 12

	weightWord    = 1.0
	weightGeneric = 0.35
	weightAnchor  = 2.0
	weightFix     = 0.8 // fix terms count a little less than issue terms
)

// term is one hashed feature with its weight.
type term struct {
	h uint64
	w float32
}

// lessonFeatures is the comparable form of a lesson.
type lessonFeatures struct {
	terms []term   // sorted by h, unique
	grams []uint64 // character trigrams of the content words, sorted, unique
	total float32  // sum of term weights
}

var seed = maphash.MakeSeed()

// featuresOf extracts the features of a lesson from its issue and fix.
func featuresOf(issue, fix string) lessonFeatures {
	var b featureBuilder
	b.add(issue, 1)
	b.add(fix, weightFix)
	return b.finish()
}

type featureBuilder struct {
	terms []term
	grams []uint64
	buf   []byte
}

func (b *featureBuilder) add(text string, scale float32) {
	forEachToken(text, func(tok string) {
		if isAnchor(tok) {
			whole := strings.ToLower(strings.Trim(tok, "-./:"))
			if len(whole) >= 2 {
				b.terms = append(b.terms, term{maphash.String(seed, "§"+whole), weightAnchor * scale})
			}
			splitIdent(tok, func(part string) { b.word(part, scale) })
			return
		}
		b.word(tok, scale)
	})
}

func (b *featureBuilder) word(w string, scale float32) {
	if len(w) < 2 && !isDigits(w) {
		return
	}
	b.buf = appendLower(b.buf[:0], w)
	lw := string(b.buf)
	if stopWords()[lw] {
		return
	}
	if s, ok := synonyms()[lw]; ok {
		lw = s
	}
	st := stem(lw)
	wt := float32(weightWord)
	if genericStems()[st] || genericWords()[lw] {
		wt = weightGeneric
	} else {
		b.trigrams(lw)
	}
	b.terms = append(b.terms, term{maphash.String(seed, st), wt * scale})
}

// trigrams adds the character trigrams of a word, padded at both ends:
// they let "serialize" meet "serialization" and "idempotent" meet
// "idempotency" where the stemmer stops short.
func (b *featureBuilder) trigrams(w string) {
	b.buf = append(append(append(b.buf[:0], '^'), w...), '$')
	for i := 0; i+3 <= len(b.buf); i++ {
		b.grams = append(b.grams, maphash.Bytes(seed, b.buf[i:i+3]))
	}
}

func (b *featureBuilder) finish() lessonFeatures {
	slices.SortFunc(b.terms, func(x, y term) int {
		switch {
		case x.h < y.h:
			return -1
		case x.h > y.h:
			return 1
		case x.w > y.w: // heaviest first, so dedup keeps it
			return -1
		case x.w < y.w:
			return 1
		}
		return 0
	})
	terms := slices.CompactFunc(b.terms, func(x, y term) bool { return x.h == y.h })
	var total float32
	for _, t := range terms {
		total += t.w
	}
	slices.Sort(b.grams)
	return lessonFeatures{terms: terms, grams: slices.Compact(b.grams), total: total}
}

// similarity is the weighted Jaccard index of two lessons' terms.
func similarity(a, b *lessonFeatures) float32 {
	var inter float32
	i, j := 0, 0
	for i < len(a.terms) && j < len(b.terms) {
		switch {
		case a.terms[i].h < b.terms[j].h:
			i++
		case a.terms[i].h > b.terms[j].h:
			j++
		default:
			inter += min(a.terms[i].w, b.terms[j].w)
			// The union counts the heavier weight once; add the difference.
			i++
			j++
		}
	}
	union := a.total + b.total - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// gramSimilarity is the Jaccard index of two lessons' trigram sets.
func gramSimilarity(a, b *lessonFeatures) float32 {
	inter := 0
	i, j := 0, 0
	for i < len(a.grams) && j < len(b.grams) {
		switch {
		case a.grams[i] < b.grams[j]:
			i++
		case a.grams[i] > b.grams[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	union := len(a.grams) + len(b.grams) - inter
	if union == 0 {
		return 0
	}
	return float32(inter) / float32(union)
}

// score combines word and trigram similarity and scales it by the lessons'
// size: two long texts that share a third of their terms say more than two
// short ones that do, and real reviewers write long findings.
func score(a, b *lessonFeatures) float32 {
	s := (similarity(a, b) + gramSimilarity(a, b)) / 2
	size := float32(math.Sqrt(float64(a.total*b.total))) / sizeNorm
	return s * float32(math.Sqrt(float64(size)))
}

// Matcher finds the entry in memory that a new lesson repeats. It caches the
// features of existing entries across calls, so one Upsert of several
// lessons extracts each entry's features once.
type Matcher struct {
	cache []cachedFeatures
}

type cachedFeatures struct {
	id string
	f  lessonFeatures
}

// Match implements mdstore.MatchFunc: the index of the existing entry e
// repeats, or -1. An entry with the same content id always matches; among
// paraphrases the most similar one wins.
func (m *Matcher) Match(existing []mdstore.Entry, e *mdstore.Entry) int {
	for i := range existing {
		if existing[i].ID == e.ID && existing[i].Kind == e.Kind {
			return i
		}
	}
	fe := featuresOf(e.Text(), e.Fix)
	if len(fe.terms) == 0 {
		return -1
	}
	best, bestScore := -1, float32(0)
	for i := range existing {
		if existing[i].Kind != e.Kind || existing[i].Status == mdstore.Archived {
			continue
		}
		fx := m.features(i, &existing[i])
		if s := score(&fe, fx); s >= foldThreshold && s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

func (m *Matcher) features(i int, e *mdstore.Entry) *lessonFeatures {
	if i >= len(m.cache) {
		m.cache = slices.Grow(m.cache, i+1-len(m.cache))
		m.cache = m.cache[:i+1]
	}
	c := &m.cache[i]
	if c.id != e.ID || c.id == "" {
		c.id = e.ID
		c.f = featuresOf(e.Text(), e.Fix)
	}
	return &c.f
}

// forEachToken calls fn for every token of s: runs of letters and digits,
// joined across the inner punctuation of identifiers, paths, flags and
// versions (t.TempDir, --user, /home/agent, fn-1.2, HOME=/x splits at =).
func forEachToken(s string, fn func(string)) {
	start := -1
	for i := 0; i <= len(s); {
		var r rune
		size := 1
		if i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		inWord := i < len(s) && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
		joiner := i < len(s) && (r == '.' || r == '-' || r == '/' || r == ':')
		switch {
		case inWord:
			if start < 0 {
				start = i
				// Keep a leading "--", "/" or "%" so flags, paths and format
				// verbs (%w) stay anchors.
				for start > 0 && (s[start-1] == '-' || s[start-1] == '/' || s[start-1] == '%') && i-start < 2 {
					start--
				}
			}
		case joiner && start >= 0 && i+size < len(s) && isWordByte(s[i+size]):
			// inner punctuation: keep going
		default:
			if start >= 0 {
				fn(s[start:i])
				start = -1
			}
		}
		i += size
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= utf8.RuneSelf
}

// isAnchor: a token that names something exact rather than being an English
// word — it has inner punctuation, digits, an underscore, a leading dash or
// slash, inner capitals (camelCase) or is an all-caps name of 2+ letters.
func isAnchor(tok string) bool {
	if strings.HasPrefix(tok, "-") || strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, "%") {
		return true
	}
	upper, lower, digit := 0, 0, 0
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c == '.' || c == '-' || c == '/' || c == ':' || c == '_':
			return true
		case c >= '0' && c <= '9':
			digit++
		case c >= 'A' && c <= 'Z':
			upper++
			if i > 0 && lower > 0 {
				return true // camelCase
			}
		case c >= 'a' && c <= 'z':
			lower++
		}
	}
	return digit > 0 || upper >= 2 && lower == 0
}

// splitIdent calls fn for the parts of an identifier: split at punctuation,
// at lower→upper case changes and at letter/digit changes.
func splitIdent(tok string, fn func(string)) {
	start := -1
	prevLower, prevDigit := false, false
	for i := 0; i <= len(tok); i++ {
		var c byte
		if i < len(tok) {
			c = tok[i]
		}
		isL := c >= 'a' && c <= 'z' || c >= utf8.RuneSelf
		isU := c >= 'A' && c <= 'Z'
		isD := c >= '0' && c <= '9'
		if !(isL || isU || isD) {
			if start >= 0 {
				fn(tok[start:i])
				start = -1
			}
			prevLower, prevDigit = false, false
			continue
		}
		if start >= 0 && (isU && prevLower || isD != prevDigit) {
			fn(tok[start:i])
			start = i
		}
		if start < 0 {
			start = i
		}
		prevLower, prevDigit = isL, isD
	}
}

func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(dst, strings.ToLower(s[i:])...)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// stem strips common English suffixes. It is deliberately light (no
// dictionary, no allocation beyond the result): lessons are short and the
// matcher only needs "retries"/"retry" and "cached"/"caching" to meet.
func stem(w string) string {
	if len(w) <= 3 || isDigits(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ations", "ation", "ingly", "ings", "ing", "edly", "ed", "ly", "ment", "ness", "able", "ible", "ion", "er", "or", "e", "y"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	// Undouble a final consonant left by -ing/-ed: "running" → "run".
	if n := len(w); n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}
