package text

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

var (
	//go:embed stop.txt
	stopData string
	//go:embed stems.txt
	stemData string
	//go:embed abbrev.txt
	abbrevData string
	//go:embed stemmed.txt
	stemmedData string
)

//go:generate go run gen_stems.go

// dataStems is stemmed.txt: the Snowball stem of every word of the data
// files, written by go generate.
var dataStems = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	lines(stemmedData, func(ws []string) {
		if len(ws) == 2 {
			m[ws[0]] = ws[1]
		}
	})
	return m
})

// snowball is english.Stem, looked up for the data files' words: building
// the tables from them on first use stemmed some 600 words, a tenth of
// the instructions of a capture.
func snowball(w string) string {
	if s, ok := dataStems()[w]; ok {
		return s
	}
	return english.Stem(w, true)
}

// lines yields the words of each non-empty, non-comment line of a data
// file, in one slice that the next line reuses.
func lines(data string, fn func(words []string)) {
	var ws []string
	for line := range strings.Lines(data) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		ws = ws[:0]
		for w := range strings.FieldsSeq(line) {
			ws = append(ws, w)
		}
		if len(ws) > 0 {
			fn(ws)
		}
	}
}

// The tables are built on first use: the hook's non-review path never
// needs them and should not pay for them at start.
var stopWords = sync.OnceValue(func() map[string]struct{} {
	m := map[string]struct{}{}
	lines(stopData, func(ws []string) {
		for _, w := range ws {
			m[w] = struct{}{}
		}
	})
	return m
})

// IsStop reports whether w (a lower-case token) is a stop word: an English
// function word that says nothing about a lesson's topic. Negations are
// not stop words, so "validate" and "never validate" stay apart.
func IsStop(w string) bool {
	if len(w) > 10 {
		return false
	}
	_, ok := stopWords()[w]
	return ok
}

// stemOverrides maps words whose Snowball stem would mislead to the stem
// they should have (stems.txt).
var stemOverrides = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	lines(stemData, func(ws []string) {
		if ws[0] == "=" {
			// Kept whole: every form stems to the first.
			for _, f := range ws[1:] {
				m[f] = ws[1]
			}
			return
		}
		// An irregular verb: its forms stem as the base form does.
		base := snowball(ws[0])
		for _, f := range ws[1:] {
			m[f] = base
		}
	})
	return m
})

// Stem reduces a lower-case token to its Snowball English stem, except for
// the few words in stems.txt: irregular verb forms (thrown → throw) and
// technical words Snowball would merge with an unrelated common one
// (settings would become "set").
func Stem(w string) string {
	if len(w) <= 2 || allDigits(w) {
		// Snowball leaves these as they are; skip its rune conversion for
		// the many numbers in a memory.
		return w
	}
	if s, ok := stemOverrides()[w]; ok {
		return s
	}
	return snowball(w)
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// abbrevs maps the stem of every abbreviation and spelling in abbrev.txt to
// the stem of its line's first word.
var abbrevs = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	lines(abbrevData, func(ws []string) {
		head := Stem(ws[0])
		for _, w := range ws[1:] {
			if s := Stem(w); s != head {
				m[s] = head
			}
		}
	})
	return m
})

// Fold is Stem, then the abbreviation folded into the word it stands for
// (ctx → context, k8s → kubernetes): two spellings of one thing give one
// word.
func Fold(w string) string {
	s := Stem(w)
	if f, ok := abbrevs()[s]; ok {
		return f
	}
	return s
}

// forms maps a folded stem to the words of stems.txt and abbrev.txt that
// fold to it.
var forms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	add := func(ws []string) {
		for _, w := range ws {
			if w == "=" {
				continue
			}
			if f := Fold(w); f != w && !slices.Contains(m[f], w) {
				m[f] = append(m[f], w)
			}
		}
	}
	lines(stemData, add)
	lines(abbrevData, add)
	return m
})

// Forms returns the words of the tables that fold to the folded stem s
// (ran for run, ctx and contexts for context, db for database): a caller
// that looks for a stem by its prefix in raw text must look for these
// too, since they need not start like it. The slice must not be modified.
func Forms(s string) []string {
	return forms()[s]
}
