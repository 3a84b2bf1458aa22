//go:build quality

package curate

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Targets (issue 15): the true duplicate of an entry is in its curate
// group or among the 3 entries curate proposes beside it (Near: its 3
// nearest outside its group, another group counting once and shown whole,
// Neighbour.With) for this share
// of paraphrase pairs, and curate proposes no near-miss pair for this
// share. The raw 3 nearest neighbours are reported too.
const (
	targetFound  = 0.95
	targetNoPair = 0.90
)

// The sets of testdata/capture/recurrence (see its README): each group
// holds a lesson (A), a paraphrase a later reviewer wrote (S), heavier
// rewrites (H) and near misses (N): other lessons about the same code.
var qualitySets = []string{"corpus.txt", "reviews.txt", "holdout.txt", "blind.txt", "blind2.txt", "blind3.txt", "blind4.txt"}

// realHeldOut is the set of real recurrences gathered in round 5 from the
// development reviews (testdata/review/real): two reviewers of one change,
// or a re-review, raising one lesson in their own words. Its lines are in
// the memory with every other set's, but it is scored on its own row,
// outside the totals, and its misses are never printed: nothing is chosen
// looking at it.
const realHeldOut = "reviews2.txt"

// freshReal is round 6's set of real recurrences, from reviews no earlier
// round used (testdata/review/real/blind5). Its lines join the memory only
// for its own row, so the other figures stay those of the memory without
// it; its misses are never printed.
const freshReal = "reviews3.txt"

// freshReal8 is round 8's set of real recurrences (53 groups, 58 pairs,
// 77 near misses from 6 repositories no earlier set used), written before
// any round-8 curate change was scored and scored once at its end by the
// coordinator: group or 3-NN 53/58 (0.914), group or near 52/58 (0.897),
// near misses apart 75/77 (0.974). Scored like freshReal from then on.
const freshReal8 = "real4.txt"

// freshReal8b is round 8's second real set (33 groups, 40 pairs, 44 near
// misses from 5 other repositories), written while curate7 worked and
// scored once after it stopped (curate unchanged since real4): group or
// 3-NN 36/40 (0.900), group or near 38/40 (0.950), near misses apart
// 44/44. Scored like freshReal from then on.
const freshReal8b = "real5.txt"

// freshReal9 is round 9's real set (44 groups, 51 pairs, 43 near misses
// from 5 repositories no earlier set used), written while curate8 worked
// and scored once after it froze (0e43598): group or 3-NN 46/51 (0.902),
// group or near 47/51 (0.922), near misses apart 43/43; round 8's curate
// (cffd793) on it: 45/51, 46/51, 43/43. Scored like freshReal from then on.
const freshReal9 = "real6.txt"

// freshReal10 is round 10's real set (44 groups, 59 pairs, 44 near misses
// from 5 repositories no earlier set used), written while curate9 deleted
// rules and scored once after it froze (f11e8fa): group or 3-NN 48/59
// (0.814), group or near 52/59 (0.881), S in A's group 25/59, near misses
// apart 44/44; round 9's curate (6b65cfc) on it: 50/59, 52/59, 22/59,
// 44/44 — curate9's deletions cost it two pairs among the 3 nearest and
// gave three more inside A's group. Scored like freshReal from then on.
const freshReal10 = "real7.txt"

// freshReal11 is round 11's real set (30 groups, 36 pairs, 43 near misses
// from 6 repositories no earlier set used), written while curate11 worked
// and scored once after it froze (c1ff719): group or 3-NN 22/36 (0.611),
// group or near 22/36, S in A's group 9/36, near misses apart 43/43;
// round 10's curate (4bd6282) on it: the same 22/36, 22/36, 9/36, 43/43
// — curate11's crowd-scaled neighbours moved nothing on it. Scored like
// freshReal from then on.
const freshReal11 = "real8.txt"

// freshReal12 is round 12's real set (33 groups, 43 pairs, 41 near misses
// from 5 repositories no earlier set used), written in round 12 and scored
// once (d4d3777; curate unchanged since c724764): group or 3-NN 41/43
// (0.953), group or near 41/43, S in A's group 27/43, near misses apart
// 40/41 (0.976). Its writer notes some pairs share much wording (a
// re-review raising a point again, one review run's shared template), so
// it may be easier than real8. Scored like freshReal from then on.
const freshReal12 = "real9.txt"

// freshReal13 is round 13's real set (41 groups, 54 pairs, 62 near misses
// from 4 repositories no earlier set used), written while curate13 worked
// and scored once after it froze (be97a82): group or 3-NN 48/54 (0.889),
// group or near 51/54 (0.944), near misses apart 59/62 (0.952); round 12's
// curate (c5eba89) on it: 47/54, 49/54, 59/62. Its writer notes one
// repository's audits share a template and some headings are alike.
// Scored like freshReal from then on.
const freshReal13 = "real10.txt"

// freshReal14 is round 14's real set (33 groups, 67 pairs, 51 near misses
// from 4 repositories no earlier set used; each finding one file of an
// automated reviewer's todo folder), written while no one worked on curate
// and scored once at the round's end with round 13's curate: group or
// 3-NN 46/67 (0.687), group or near 50/67 (0.746), S in A's group 17/67,
// near misses apart 51/51. Scored like freshReal from then on.
const freshReal14 = "real11.txt"

// freshReal15 is round 15's real set (33 groups, 56 pairs, 53 near misses
// from 4 repositories no earlier set used; compound-engineering review
// todos again), written while curate16 worked on curate without it and
// scored once at the round's end: group or 3-NN 37/56 (0.661), group or
// near 37/56, S in A's group 12/56, near misses apart 51/53 (0.962) —
// the same with round 14's curate. Scored like freshReal from then on.
const freshReal15 = "real12.txt"

// freshReal16 is round 16's real set (40 groups, 84 pairs, 79 near misses
// from 4 repositories no earlier set used; compound-engineering review
// todos again), written while no one worked on curate and scored once at
// the round's end: group or 3-NN 67/84 (0.798), group or near 68/84
// (0.810), S in A's group 25/84, near misses apart 78/79 (0.987) — the
// same with round 15's curate. Scored like freshReal from then on.
const freshReal16 = "real13.txt"

// freshReal17 is round 17's real set (33 groups, 56 pairs, 61 near misses
// from 4 repositories no earlier set used, review todos mostly), written
// while no one worked on curate and scored once at the round's end: group
// or 3-NN 39/56 (0.696), group or near 42/56 (0.750), near misses apart
// 58/61 (0.951) — the same with round 16's curate. Scored like freshReal
// from then on.
const freshReal17 = "real14.txt"

// freshReal18 is round 18's real set (42 groups, 70 pairs, 84 near misses
// from 4 repositories no earlier set used), written while no one worked
// on curate and scored once at the round's end: group or 3-NN 40/70
// (0.571), group or near 43/70 (0.614), near misses apart 79/84 (0.940) —
// the same with round 17's curate. Scored like freshReal from then on.
const freshReal18 = "real15.txt"

// freshReal19 is round 19's real set (42 groups, 71 pairs, 60 near misses
// from 4 repositories no earlier set used), written while no one worked
// on curate and scored once at the round's end: group or 3-NN 49/71
// (0.690), group or near 50/71 (0.704), near misses apart 59/60 (0.983) —
// the same with round 18's curate. Scored like freshReal from then on.
const freshReal19 = "real16.txt"

// freshReal20 is round 20's real set (16 groups, 30 pairs, 32 near misses
// from 3 repositories no earlier set used), scored once at the round's
// end: group or 3-NN 13/30 (0.433), group or near 10/30 (0.333), near
// misses apart 31/32 — round 19's curate (3 near, b413c45) gives 13/30 and
// 9/30. Scored like freshReal from then on.
const freshReal20 = "real17.txt"

// freshReal21 is round 21's real set (37 groups, 57 pairs, 58 near misses
// from 4 repositories no earlier set used), written while no one worked
// on curate and scored once at the round's end: group or 3-NN 25/57
// (0.439), group or near 28/57 (0.491), near misses apart 58/58 — the same
// with round 20's curate. Scored like freshReal from then on.
const freshReal21 = "real18.txt"

// freshReal22 is round 22's real set (44 groups, 93 pairs, 79 near misses
// from 4 repositories no earlier set used), scored once at the round's
// end: group or 3-NN 60/93 (0.645), group or near 74/93 (0.796), shown
// in a group 71/93 (round 21's curate: 64/93), near misses apart 78/79
// (79/79). Scored like freshReal from then on.
const freshReal22 = "real19.txt"

// freshReal23 is round 23's real set (38 groups, 59 pairs, 69 near misses
// from 5 repositories no earlier set used), scored once at the round's
// end: group or 3-NN 29/59 (0.492; round 22's curate 30/59), group or
// near 33/59 (31/59), shown in a group 31/59 (27/59), near misses apart
// 66/69 (67/69). Scored like freshReal from then on.
const freshReal23 = "real20.txt"

// extraSet names one more set of real recurrences to score the way
// freshReal is (FLOWMEM_CURATE_EXTRA=<file in testdata/capture/recurrence>):
// its lines join the memory only for its own row, outside the totals and
// the gates, and its misses are never printed. A set written blind is
// scored this way once, by whoever may open it.
var extraSet = os.Getenv("FLOWMEM_CURATE_EXTRA")

func isReal(set string) bool {
	return set == realHeldOut || set == freshReal || set == freshReal8 || set == freshReal8b || set == freshReal9 || set == freshReal10 || set == freshReal11 || set == freshReal12 || set == freshReal13 || set == freshReal14 || set == freshReal15 || set == freshReal16 || set == freshReal17 || set == freshReal18 || set == freshReal19 || set == freshReal20 || set == freshReal21 || set == freshReal22 || set == freshReal23 || extraSet != "" && set == extraSet
}

type lessonGroup struct {
	set, name string
	held      bool  // in the held-out part: reported only in aggregate
	a         int   // index of the lesson in the memory
	s, h, n   []int // its paraphrases, heavy rewrites and near misses
}

// loadQualityMemory reads every set into one memory, every line of every
// group an entry (A, S and N; H only when withHeavy), so that each
// paraphrase competes with every other lesson, its own near misses first.
func loadQualityMemory(t *testing.T, withHeavy bool, extra ...string) ([]mdstore.Entry, []lessonGroup) {
	t.Helper()
	var entries []mdstore.Entry
	var groups []lessonGroup
	for _, set := range append(append(qualitySets[:len(qualitySets):len(qualitySets)], realHeldOut), extra...) {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "capture", "recurrence", set))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var g *lessonGroup
		ordinal := 0
		for sc.Scan() {
			line := sc.Text()
			if name, ok := strings.CutPrefix(line, "== "); ok {
				// Every third group of each set is held out: split off by
				// a fixed rule before the round-4 similarity changes, so
				// that one figure was never looked into while tuning.
				groups = append(groups, lessonGroup{set: set, name: name, a: -1, held: ordinal%3 == 2 || isReal(set)})
				ordinal++
				g = &groups[len(groups)-1]
				continue
			}
			if g == nil || len(line) < 3 || line[1:3] != ": " || !strings.Contains("ASHN", line[:1]) {
				continue
			}
			if line[0] == 'H' && !withHeavy {
				continue
			}
			issue, fix := line[3:], ""
			if i := strings.LastIndex(issue, " | "); i >= 0 {
				issue, fix = issue[:i], issue[i+3:]
			}
			e := mdstore.Entry{Kind: mdstore.Pitfall, Issue: issue, Fix: fix, Date: "2026-01-01"}
			e.Normalize()
			e.ID = fmt.Sprintf("p-%d", len(entries))
			i := len(entries)
			entries = append(entries, e)
			switch line[0] {
			case 'A':
				g.a = i
			case 'S':
				g.s = append(g.s, i)
			case 'H':
				g.h = append(g.h, i)
			case 'N':
				g.n = append(g.n, i)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return entries, groups
}

type setScore struct {
	pairs, inGroup, found int // paraphrase pairs; S in A's group; S in A's group or 3 nearest
	foundInSet            int // S in A's group or among A's 3 nearest of its own set
	foundKnown            int // S in A's group or among A's 3 nearest, other sets' wordings of A's lesson taking no place
	proposed              int // S in A's group or among the 3 entries proposed beside it (Near)
	shown                 int // what curate shows: S with A in a group, or beside the group of either
	near, noPair          int // near-miss pairs; of them not grouped with A
	nearUnshown           int // of them neither grouped with A nor shown beside A's group or N's
	heavy, heavyFound     int
}

// scoreQuality scores the memory of entries; with show it prints the misses
// FLOWMEM_CURATE_MISSES asks for (only the first memory's: the others hold
// the same lines and more).
func scoreQuality(t *testing.T, entries []mdstore.Entry, groups []lessonGroup, threshold float64, show bool) map[string]*setScore {
	x := NewIndex(entries)
	clusters, _ := x.Clusters(threshold)
	groupOf := map[int]int{}
	for g, c := range clusters {
		for _, i := range c {
			groupOf[i] = g
		}
	}
	together := func(a, b int) bool {
		ga, okA := groupOf[a]
		gb, okB := groupOf[b]
		return okA && okB && ga == gb
	}
	near3 := func(a, b int) bool {
		for _, p := range x.Neighbours(a, 3, rescore) {
			if p.J == b {
				return true
			}
		}
		return false
	}
	owner := map[int]*lessonGroup{}
	for gi := range groups {
		g := &groups[gi]
		for _, i := range append(append(append([]int{g.a}, g.s...), g.h...), g.n...) {
			owner[i] = g
		}
	}
	// near3InSet ranks only the lines of A's own set: the sets were
	// written apart and draw on the same common mistakes, so another set's
	// wording of A's lesson is often a true duplicate that no label names.
	near3InSet := func(a, b int) bool {
		n := 0
		for _, p := range x.Neighbours(a, 256, 256) {
			if owner[p.J].set != owner[a].set {
				continue
			}
			if p.J == b {
				return true
			}
			if n++; n == 3 {
				break
			}
		}
		return false
	}
	// near3Known ranks every line but the A and S lines of other sets'
	// groups judged to teach A's lesson (same-lesson.txt): with four
	// wordings of one lesson in memory, three of them fill A's 3 nearest
	// places, and a curator who merges them frees the places for the next.
	same := sameLessons(t)
	byName := map[string]*lessonGroup{}
	for gi := range groups {
		byName[groups[gi].set+"/"+groups[gi].name] = &groups[gi]
	}
	near3Known := func(g *lessonGroup, b int) bool {
		n := 0
		for _, p := range x.Neighbours(g.a, 256, 256) {
			o := owner[p.J]
			if o.set != g.set && same[g.set+"/"+g.name][o.set+"/"+o.name] && !slices.Contains(o.n, p.J) {
				continue
			}
			if p.J == b {
				return true
			}
			if n++; n == 3 {
				break
			}
		}
		return false
	}
	for k := range same {
		if byName[k] == nil {
			t.Fatalf("same-lesson.txt names %s, which no set has", k)
		}
	}
	// proposedNear: what curate shows beside A's group (Near), or would
	// show beside A alone when it is in no group.
	// A near entry is shown with members of its own group (Neighbour.With),
	// so b is beside when it is one of them.
	beside := func(members []int, b int) bool {
		for _, p := range x.Near(members, groupOf, nearK, threshold*nearFloor) {
			if p.J == b {
				return true
			}
			if g, ok := groupOf[p.J]; ok && slices.Contains(withOf(clusters[g], p.J), b) {
				return true
			}
		}
		return false
	}
	shownBeside := func(a, b int) bool {
		g, ok := groupOf[a]
		return ok && beside(clusters[g], b)
	}
	proposedNear := func(a, b int) bool {
		members := []int{a}
		if g, ok := groupOf[a]; ok {
			members = clusters[g]
		}
		return beside(members, b)
	}
	out := map[string]*setScore{}
	tookPlace := map[string]int{} // with FLOWMEM_CURATE_MISSES=1: what holds the 3 places of a missed S
	defer func() {
		if len(tookPlace) > 0 {
			t.Logf("the 3 nearest of the printed misses: %v", tookPlace)
		}
	}()
	for _, g := range groups {
		if g.a < 0 {
			t.Fatalf("%s %s: no A line", g.set, g.name)
		}
		key := g.set
		if g.held && !isReal(g.set) {
			key = heldOut
		}
		// A group counts under its key and under "whole <set>", so that a
		// set split into development and held-out parts can be pooled whole.
		sc := &setScore{}
		for _, s := range g.s {
			sc.pairs++
			if together(g.a, s) {
				sc.inGroup++
			}
			if together(g.a, s) || proposedNear(g.a, s) {
				sc.proposed++
			}
			if together(g.a, s) || shownBeside(g.a, s) || shownBeside(s, g.a) {
				sc.shown++
			}
			if together(g.a, s) || near3InSet(g.a, s) {
				sc.foundInSet++
			}
			if together(g.a, s) || near3Known(&g, s) {
				sc.foundKnown++
			} else if show && os.Getenv("FLOWMEM_CURATE_MISSES") == "known" && !g.held && !isReal(g.set) {
				t.Logf("known-miss %s %s: %q\n    S %q", g.set, g.name, entries[g.a].Text(), entries[s].Text())
				n := 0
				for _, p := range x.Neighbours(g.a, 256, 256) {
					o := owner[p.J]
					if o.set != g.set && same[g.set+"/"+g.name][o.set+"/"+o.name] && !slices.Contains(o.n, p.J) {
						continue
					}
					t.Logf("    %.3f %s/%s %q", p.Score, o.set, o.name, entries[p.J].Text())
					if n++; n == 3 {
						break
					}
				}
				t.Logf("    S %.3f", x.Similarity(g.a, s))
			}
			if together(g.a, s) || near3(g.a, s) {
				sc.found++
			} else if show && showMisses && !g.held && (os.Getenv("FLOWMEM_CURATE_MISSES_INSET") == "" || !near3InSet(g.a, s)) {
				rank := slices.IndexFunc(x.Neighbours(g.a, 256, 256), func(p Pair) bool { return p.J == s })
				t.Logf("miss %s %s: %q\n    S %q (%.3f alike, rank %d)", g.set, g.name, entries[g.a].Text(), entries[s].Text(), x.Similarity(g.a, s), rank+1)
				for _, p := range x.Neighbours(g.a, 3, rescore) {
					o := owner[p.J]
					// What took S's place: another set's wording of A's
					// lesson (a true duplicate no label names), a near
					// miss, a line of A's own group, or another lesson.
					rel := "another lesson"
					switch {
					case o.set == g.set && o.name == g.name:
						rel = "A's own group"
					case slices.Contains(o.n, p.J):
						rel = "a near miss"
					case same[g.set+"/"+g.name][o.set+"/"+o.name]:
						rel = "A's lesson elsewhere"
					}
					tookPlace[rel]++
					t.Logf("    %.3f %s/%s (%s) %q", p.Score, o.set, o.name, rel, entries[p.J].Text())
				}
			}
		}
		for _, h := range g.h {
			sc.heavy++
			if together(g.a, h) || near3(g.a, h) {
				sc.heavyFound++
			}
		}
		for _, n := range g.n {
			sc.near++
			if !together(g.a, n) {
				sc.noPair++
			}
			if !together(g.a, n) && !shownBeside(g.a, n) && !shownBeside(n, g.a) {
				sc.nearUnshown++
			}
		}
		for _, k := range []string{key, "whole " + g.set} {
			if out[k] == nil {
				out[k] = &setScore{}
			}
			out[k].add(sc)
		}
	}
	return out
}

// sameLessons reads same-lesson.txt: pairs of groups of different sets
// that teach one lesson, closed under "same as", keyed "set/name".
func sameLessons(t *testing.T) map[string]map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "recurrence", "same-lesson.txt"))
	if err != nil {
		t.Fatal(err)
	}
	class := map[string]map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		a, b, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		ca, cb := class[a], class[b]
		if ca == nil {
			ca = map[string]bool{a: true}
		}
		if cb == nil {
			cb = map[string]bool{b: true}
		}
		for k := range cb {
			ca[k] = true
		}
		for k := range ca {
			class[k] = ca
		}
	}
	return class
}

// heldOut is the key under which scoreQuality counts held-out groups.
const heldOut = "held-out"

// showMisses prints the development part's missed paraphrases.
var showMisses = os.Getenv("FLOWMEM_CURATE_MISSES") == "1"

func (s *setScore) add(o *setScore) {
	s.pairs += o.pairs
	s.inGroup += o.inGroup
	s.found += o.found
	s.foundInSet += o.foundInSet
	s.foundKnown += o.foundKnown
	s.proposed += o.proposed
	s.shown += o.shown
	s.nearUnshown += o.nearUnshown
	s.near += o.near
	s.noPair += o.noPair
	s.heavy += o.heavy
	s.heavyFound += o.heavyFound
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// TestQualityCurate reports, per set and in total, how often curate's
// candidates hold a lesson's paraphrase and leave its near misses apart.
func TestQualityCurate(t *testing.T) {
	entries, groups := loadQualityMemory(t, false)
	threshold := DefaultThreshold
	if v, err := strconv.ParseFloat(os.Getenv("FLOWMEM_CURATE_THRESHOLD"), 64); err == nil {
		threshold = v // a development aid: 1.01 scores the 3 nearest alone
	}
	scores := scoreQuality(t, entries, groups, threshold, true)
	var dev, tot setScore
	t.Logf("curate candidates, one memory of %d entries (every A, S and N line of %d groups), threshold %.2f",
		len(entries), len(groups), threshold)
	t.Logf("%-12s %16s %16s %16s %16s %16s %16s %16s %16s", "set", "S in A's group", "... or 3-NN", "... or near", "shown", "... 3-NN of set", "3-NN, dups apart", "N apart", "N not shown")
	line := func(name string, s *setScore) {
		f := func(a, b int) string { return fmt.Sprintf("%4d/%-4d %.3f", a, b, ratio(a, b)) }
		t.Logf("%-12s %16s %16s %16s %16s %16s %16s %16s %16s", name, f(s.inGroup, s.pairs), f(s.found, s.pairs), f(s.proposed, s.pairs),
			f(s.shown, s.pairs), f(s.foundInSet, s.pairs), f(s.foundKnown, s.pairs), f(s.noPair, s.near), f(s.nearUnshown, s.near))
	}
	for _, set := range qualitySets {
		line(set, scores[set])
		dev.add(scores[set])
	}
	line("dev", &dev)
	line(heldOut, scores[heldOut])
	tot.add(&dev)
	tot.add(scores[heldOut])
	line("total", &tot)
	t.Logf("real recurrences, held out (outside the totals):")
	line(realHeldOut, scores[realHeldOut])
	// The real pool: every set of real recurrences, reviews.txt whole
	// (its held-out third too). Rules are judged on it before the written
	// sets, whose second wordings one author wrote. Each fresh set is
	// scored in a memory of its own lines alone, as when it was first
	// scored.
	var pool setScore
	pool.add(scores["whole reviews.txt"])
	pool.add(scores[realHeldOut])
	for _, set := range []string{freshReal, freshReal8, freshReal8b, freshReal9, freshReal10, freshReal11, freshReal12, freshReal13, freshReal14, freshReal15, freshReal16, freshReal17, freshReal18, freshReal19, freshReal20, freshReal21, freshReal22, freshReal23} {
		entries, groups := loadQualityMemory(t, false, set)
		s := scoreQuality(t, entries, groups, threshold, false)[set]
		line(set, s)
		pool.add(s)
	}
	line("REAL pool", &pool)
	if extraSet != "" {
		extraEntries, extraGroups := loadQualityMemory(t, false, extraSet)
		line(extraSet, scoreQuality(t, extraEntries, extraGroups, threshold, false)[extraSet])
	}
	found, apart := ratio(tot.proposed, tot.pairs), ratio(tot.noPair, tot.near)
	foundInSet := ratio(tot.foundInSet, tot.pairs)

	heavyEntries, heavyGroups := loadQualityMemory(t, true)
	var h setScore
	for set, s := range scoreQuality(t, heavyEntries, heavyGroups, DefaultThreshold, false) {
		if strings.HasPrefix(set, "whole ") {
			continue
		}
		h.heavy += s.heavy
		h.heavyFound += s.heavyFound
	}
	t.Logf("heavy rewrites (H, reported only): in A's group or 3-NN %d/%d = %.3f", h.heavyFound, h.heavy, ratio(h.heavyFound, h.heavy))

	if os.Getenv("FLOWMEM_CURATE_SWEEP") == "1" {
		for _, th := range []float64{0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7} {
			var sw setScore
			for set, s := range scoreQuality(t, entries, groups, th, false) {
				if set != heldOut && set != realHeldOut && !strings.HasPrefix(set, "whole ") {
					sw.add(s)
				}
			}
			t.Logf("threshold %.2f (dev part): in group %.3f, group or 3-NN %.3f, group or near %.3f, near misses apart %.3f",
				th, ratio(sw.inGroup, sw.pairs), ratio(sw.found, sw.pairs), ratio(sw.proposed, sw.pairs), ratio(sw.noPair, sw.near))
		}
	}
	if found < gateFound || foundInSet < gateFoundInSet || apart < gateNoPair {
		t.Errorf("curate quality below its gate: found %.3f (gate %.2f, target %.2f), among its set's %.3f (gate %.2f), near misses apart %.3f (gate %.2f, target %.2f)",
			found, gateFound, targetFound, foundInSet, gateFoundInSet, apart, gateNoPair, targetNoPair)
	}
	if nn := ratio(tot.found, tot.pairs); nn < gateNearest {
		t.Errorf("curate quality below its gate: S in A's group or 3 nearest %.3f (gate %.2f, target %.2f)", nn, gateNearest, targetFound)
	}
	if nn := ratio(tot.foundKnown, tot.pairs); nn < gateKnown {
		t.Errorf("curate quality below its gate: S in A's group or 3 nearest, known duplicates apart %.3f (gate %.2f, target %.2f)", nn, gateKnown, targetFound)
	}
	if f, nn, a := ratio(pool.proposed, pool.pairs), ratio(pool.found, pool.pairs), ratio(pool.noPair, pool.near); f < gateRealFound || nn < gateRealNearest || a < targetNoPair {
		t.Errorf("curate quality on the real pool below its gate: found %.3f (gate %.2f, target %.2f), group or 3 nearest %.3f (gate %.2f), near misses apart %.3f (target %.2f)",
			f, gateRealFound, targetFound, nn, gateRealNearest, a, targetNoPair)
	}
}

// The gates the test holds: the targets where they are met, else what is
// true today (see the report) less a margin, so a regression still fails.
//
// The written sets' second wordings ask for the remedy in nearly the
// words of the first (one author wrote both); real reviewers name it
// differently or not at all. Round 10 deleted the rules tuned on the
// written sets (the fix counted double, groups joined across, the issue
// alone as a second likeness) because the real pool lost nothing without
// them, so the written gates stand lower than the real ones.
const (
	gateFound      = 0.95 // S in A's group or beside it (Near, with its group), written sets: 268/277 since round 20's 5 near
	gateNearest    = 0.76 // S in A's group or among A's 3 nearest, written sets
	gateKnown      = 0.85 // the same, other sets' wordings of A's lesson (same-lesson.txt) taking no place
	gateFoundInSet = 0.95
	gateNoPair     = 0.92
	// The real pool (real4..real16): 836 pairs, 776 near misses: beside
	// 0.827, group or 3-NN 0.810, near misses apart 0.974, once real16.txt
	// (round 19, fresh, scored once: group or 3-NN 49/71, beside 50/71,
	// near misses apart 59/60, the same with round 18's curate) joined.
	// Round 20 shows 5 near entries beside a group, not 3: beside 691 ->
	// 723/836 (0.865), the rest unchanged.
	// Once real17.txt (round 20, fresh, scored once: group or 3-NN 13/30,
	// beside 10/30) joined, the pool (866 pairs, 808 near misses): beside
	// 0.846, group or 3-NN 0.797 (690/866), near misses apart 0.974;
	// gates 0.85/0.80 -> 0.84/0.79.
	// Once real18.txt (round 21, fresh, scored once: group or 3-NN 25/57,
	// beside 28/57) joined, the pool (923 pairs, 866 near misses): beside
	// 0.824 (761/923), group or 3-NN 0.775 (715/923), near misses apart
	// 0.976; gates 0.84/0.79 -> 0.82/0.77.
	// Round 22 shows 6 near entries, not 5: beside 761 -> 768/923
	// (0.832), the rest unchanged.
	// Each round's figures: testdata/capture/recurrence/README.md.
	// Once real19.txt (round 22, fresh, scored once: group or 3-NN 60/93,
	// beside 74/93, the same with round 21's curate) joined, the pool
	// (1016 pairs, 945 near misses): beside 0.833 (846/1016), group or
	// 3-NN 0.763 (775/1016), near misses apart 0.968; gate 0.77 -> 0.76.
	// Round 23 pairs each other's nearest by rank from 0.4 x the
	// threshold (by likeness from 0.7 before): beside 846 -> 854, shown
	// 745 -> 825 of 1016, group or 3-NN 775 =, near misses apart 915 ->
	// 907 of 945 (0.960); gates unchanged. Then 32 candidates scored per
	// entry, not 16: group or 3-NN 775 -> 783 (0.771), beside 854 -> 867
	// (0.853), shown 825 -> 840, near misses apart 907 =.
	// Once real20.txt (round 23, fresh, scored once: group or 3-NN 29/59,
	// beside 33/59; round 22's curate 30/59, 31/59) joined, the pool (1075
	// pairs, 1014 near misses): beside 0.837 (900/1075), group or 3-NN
	// 0.755 (812/1075), near misses apart 0.960; gate 0.76 -> 0.75.
	gateRealFound   = 0.82
	gateRealNearest = 0.75
)
