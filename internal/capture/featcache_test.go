package capture

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestFeatureCacheExact: the features rebuilt from the analyses a match
// cache kept are exactly the plain computation's, for entries of a large
// generated memory and every lesson of the corpora, whatever the counts
// are when they are rebuilt (the memory as cached, or grown since); an
// entry edited since, or analysed by another build, is not rebuilt.
func TestFeatureCacheExact(t *testing.T) {
	withCacheSettings(t, 1, 0)
	memory := generatedEntries(2500)
	for _, name := range []string{"corpus.txt", "reviews.txt", "holdout.txt", "blind.txt"} {
		for _, g := range loadRecurrenceCorpus(t, name) {
			for _, l := range append(append(append([]lesson{g.a}, g.same...), g.near...), g.hard...) {
				memory = append(memory, l.entry())
			}
		}
	}
	memory = append(memory, entry("Use `t.TempDir()` with --workdir /home/agent, HOME=/x, %w, sign-in, e-mail and fn-1.2 in a_b-c.d:e",
		"x y 42 Ünïcode naïve-café, sign-in and SIGN-IN again, t.TempDir twice: t.TempDir"))
	rng := rand.New(rand.NewPCG(3, 4))
	path := filepath.Join(t.TempDir(), mdstore.CacheDir, "pitfalls.match")
	w := Matcher{CachePath: path}
	w.sync(memory)
	var analysed []int
	for i := range memory {
		if rng.IntN(3) != 0 || i == len(memory)-1 {
			analysed = append(analysed, i)
		}
	}
	w.featuresOf(memory, analysed)
	w.SaveCache()

	more := append(slices.Clone(memory), generatedEntries(3000)[2500:]...)
	edited := rng.IntN(len(memory) - 1)
	more[edited].Issue += " (edited)"
	for _, tc := range []struct {
		name   string
		memory []mdstore.Entry
	}{{"same memory", memory}, {"grown memory", more}} {
		m := Matcher{CachePath: path}
		m.sync(tc.memory)
		if m.fc == nil {
			t.Fatalf("%s: no analyses read", tc.name)
		}
		m.weighCached(analysed)
		var f lessonFeatures
		var ts []term
		for _, i := range analysed {
			if tc.name == "grown memory" && i == edited {
				if m.cached(i) {
					t.Fatalf("%s: the edited entry %d is rebuilt from its old analysis", tc.name, i)
				}
				continue
			}
			if !m.cached(i) {
				t.Fatalf("%s: entry %d was analysed but is not in the cache", tc.name, i)
			}
			ts = m.rebuild(i, &f, ts)
			want := referenceFeatures(&m, tc.memory[i].Text(), tc.memory[i].Fix)
			if !slices.Equal(f.terms, want.terms) || f.grams != want.grams || f.total != want.total || f.fixTotal != want.fixTotal {
				t.Fatalf("%s: entry %d: rebuilt features differ from the plain computation", tc.name, i)
			}
		}
		for i := range tc.memory {
			if m.cached(i) && !slices.Contains(analysed, i) {
				t.Fatalf("%s: entry %d is in the cache but was never analysed", tc.name, i)
			}
		}
	}

	old := featStamp
	featStamp = func() string { return "another build" }
	defer func() { featStamp = old }()
	m := Matcher{CachePath: path}
	m.sync(memory)
	if m.fc != nil || m.cached(analysed[0]) {
		t.Error("analyses written by another build are used")
	}
}

// TestFeatureCacheGrows: each capture keeps the analyses it made, with
// those the cache had, once they are more than matchCacheRewrite; the
// sources are kept once each however many captures wrote them.
func TestFeatureCacheGrows(t *testing.T) {
	withCacheSettings(t, 1, 10)
	memory := generatedEntries(1200)
	path := filepath.Join(t.TempDir(), mdstore.CacheDir, "pitfalls.match")
	for round, idx := range [][]int{seq(0, 300), seq(300, 305), seq(200, 600), seq(0, 600)} {
		m := Matcher{CachePath: path}
		m.sync(memory)
		before := 0
		for i := range memory {
			if m.cached(i) {
				before++
			}
		}
		var todo []int
		for _, i := range idx {
			if !m.cached(i) {
				todo = append(todo, i)
			}
		}
		m.featuresOf(memory, todo)
		rewrite := len(todo) > matchCacheRewrite
		m.SaveCache()
		c := Matcher{CachePath: path}
		c.sync(memory)
		after := 0
		for i := range memory {
			if c.cached(i) {
				after++
			}
		}
		want := before
		if rewrite {
			want += len(todo)
		}
		if after != want {
			t.Errorf("round %d: %d analyses kept, want %d (%d before, %d made)", round, after, want, before, len(todo))
		}
	}
	// Every source once, though the words of the first round's entries
	// were analysed again in the third.
	c := Matcher{CachePath: path}
	c.sync(memory)
	f := c.fc.featSection
	seen := map[string]bool{}
	for s := range f.srcH {
		k := fmt.Sprint(f.srcH[s], f.srcBG[s], f.cells[f.srcCell[s]:f.srcCell[s+1]], f.grams[f.srcGram[s]:f.srcGram[s+1]])
		if seen[k] {
			t.Fatalf("source %d kept twice", s)
		}
		seen[k] = true
	}
}

func seq(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}
