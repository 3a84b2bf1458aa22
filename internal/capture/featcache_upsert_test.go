package capture

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// matchInTurn matches lessons one after another as Upsert does, each one
// not folded joining the memory the next is matched against.
func matchInTurn(m *Matcher, mem []mdstore.Entry, lessons []mdstore.Entry) []int {
	var out []int
	for _, l := range lessons {
		i := m.Match(mem, &l)
		out = append(out, i)
		if i < 0 {
			mem = append(mem, l)
		}
	}
	return out
}

// TestFeatureCacheAcrossUpsert: a review's lessons are matched in turn, and
// every one appended moves the word counts. An entry's features must not
// follow them differently whether its analysis came from the match cache
// or was made here: a warm cache once rebuilt them for every lesson while
// a cold matcher kept the first ones, and some of these sequences
// (a near miss of A, then a paraphrase of A or a prefix of one) folded
// differently.
func TestFeatureCacheAcrossUpsert(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of matchers; run without -short")
	}
	withCacheSettings(t, 1, 0)
	var groups []recurrenceGroup
	for _, n := range []string{"corpus.txt", "reviews.txt", "holdout.txt", "blind.txt"} {
		groups = append(groups, loadRecurrenceCorpus(t, n)...)
	}
	base := generatedEntries(fillerEntries)
	tries := 0
	for _, g := range groups {
		mem := append(slices.Clone(base), g.a.entry())
		path := filepath.Join(t.TempDir(), "pitfalls.match")
		warm := Matcher{CachePath: path}
		warm.sync(mem)
		warm.featuresOf(mem, seq(0, len(mem)))
		warm.SaveCache()
		var firsts, seconds []mdstore.Entry
		for _, l := range g.near {
			firsts = append(firsts, l.entry())
		}
		for _, l := range append(slices.Clone(g.same), g.hard...) {
			seconds = append(seconds, l.entry())
			w := strings.Fields(l.issue)
			for k := 3; k < len(w); k += 2 {
				seconds = append(seconds, lesson{strings.Join(w[:k], " "), l.fix}.entry(), lesson{strings.Join(w[:k], " "), ""}.entry())
			}
		}
		for _, l1 := range firsts {
			for _, l2 := range seconds {
				tries++
				lessons := []mdstore.Entry{l1, l2}
				cold, cached := Matcher{}, Matcher{CachePath: path}
				want := matchInTurn(&cold, slices.Clone(mem), lessons)
				if got := matchInTurn(&cached, slices.Clone(mem), lessons); !slices.Equal(got, want) {
					t.Errorf("%s: with the match cache %v, without %v\n first  %q\n second %q | %q", g.name, got, want, l1.Issue, l2.Issue, l2.Fix)
				}
			}
		}
	}
	if tries < 1000 {
		t.Fatalf("only %d sequences tried", tries)
	}
}

// fillerEntries around each group's lesson: enough for the counts to move
// with every appended lesson (the old code folded 4 sequences differently
// at 60, 7 at 120), few enough for the race detector's run.
const fillerEntries = 60
