//go:build quality

package recall

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Quality gates (make quality). Each fails below a threshold that is true
// of the ranker as committed, with a margin for rounding;
// testdata/recall/README.md has the history.
const (
	// gateNothing: the share of requests no lesson bears on that get
	// nothing back from prime and a single read --relevant
	// (norelevant_*.jsonl; StrictFloor).
	gateNothing = 0.85 // 0.892 over 480 once norelevant_blind15 (30 fresh, round 17: first score 0.933, the same with round 16's ranker) joined; 0.889 over 450 once norelevant_blind14 (30 fresh, round 16: first score 1.000, the same with round 15's ranker) joined; 0.881 over 420 once norelevant_blind13 (30 fresh, round 16: first score 1.000, the same with round 15's ranker) joined; 0.872 over 390 once norelevant_blind12 (30 fresh, round 15: first score 0.967, the same with round 14's ranker) joined; 0.864 over 360 once norelevant_blind11 (30 fresh, round 14: first score 1.000 with round 14's final ranker and with round 13's) joined; 0.852 over 330 once round 14 (ablate14) deleted the scattered-words floor, which emptied its own sets (norelevant_blind2, blind6: 190 -> 185 of 210) and one of norelevant_blind7-10 (97 -> 96) at the cost of one labelled request there (blind11): 0.870 -> 0.852, said plainly: the older sets' five were the rule fitting the sets it was written on; 0.870 over 330 once norelevant_blind10 (30 fresh, round 13: first score 0.867 with round 13's final ranker and with round 12's) joined; 0.840 -> 0.870 over 300 with a word said only in a lesson's fix counting half towards the floor (round 13, recall15: the older sets 186 -> 190 of 210, norelevant_blind7-9 66 -> 71 of 90); 0.840 over 300 once norelevant_blind9 (30 fresh, round 11: first score 0.667 with round 11's ranker and with round 10's) joined; 0.859 over 270 with the scattered-words floor restored (recall12: norelevant_blind8 0.733 → 0.767, and its own norelevant_blind2/6 back); 0.837 over 270 once norelevant_blind8 (30 fresh, first score 0.733 with round 10's ranker; 0.800 with round 9's) joined; 0.850 over 240 once round 10 (recall11) deleted the floor rules that paid only on the sets they were written on (scattered words, numbers and negations half a word: norelevant_blind2/4/5/6 lose 9); 0.887 over 240 once norelevant_blind7 (30 fresh, 0.767; 0.767 without recall10's rule too) joined; 0.905 over 210 with scattered words (round 9, recall10: norelevant_blind6 0.667 → 0.800); 0.881 over 210 once norelevant_blind6 (30 fresh, 0.667) joined; 0.917 over 180 before it (round 9: numbers and negations half a word of a pair), 0.894 before that (the issue asks 0.9)
	// gateHit5: the share of labelled requests with a labelled lesson in
	// the first 5 of `memory read --relevant REQUEST` (StrictFloor).
	gateHit5 = 0.72 // 0.726 over 1420 once blind19 (60 fresh, round 17: first score 0.600, the same with round 16's ranker; scout searches by a fresh model, scoutwriter19) joined; 0.732 over 1360 once blind17 (60 fresh, round 16: first score 0.583; its scout searches, by a fresh model in round 17, came late) joined; 0.738 over 1300 once blind18 (60 fresh, round 16: first score 0.783) joined; 0.736 over 1240 once blind16 (60 fresh, round 15: first score 0.533, the same with round 14's ranker) joined; 0.747 over 1180 once blind15 (60 fresh, round 14: first score 0.650 with round 14's final ranker, 0.633 with round 13's; searches by a fresh model from the unchanged scout brief) joined; 0.738 over 1120 once round 14 (ablate14) deleted proximity, which paid only on the sets it was tuned on in the tenth round (development..blind5: 478 -> 471 of 580 at hit@5) and on blind6-14, written after it, moved one request (357 -> 356 of 540): 0.746 -> 0.738, said plainly; 0.745 over 1120 once blind14 (60 fresh, round 13: first score 0.633, the same with round 12's ranker) joined; 0.756 -> 0.751 over 1060 with a fix's words counting half towards the floor (round 13, recall15: the older sets 655 -> 652 of 820, blind10-13 146 -> 144 of 240); 0.756 over 1060 once blind13 (60 fresh, round 11: first score 0.550, the same with round 10's ranker) joined; 0.768 over 1000 with the scattered-words floor restored (recall12: blind11 −1, blind12 =); 0.769 over 1000 once blind12 (60 fresh, first score 0.617, the same with round 9's ranker) joined; 0.779 over 940 after round 10's deletions (recall11); 0.780 over 940 once blind11 (60 fresh, 0.550; 0.567 before recall10) joined; 0.795 over 880 once blind10 (60 fresh, 0.700) joined; 0.802 over 820 with adjacent words joined (round 9), 0.799 before (the issue asks 0.8)
	// gateRecall5: the share of a request's labelled lessons (up to 5) in
	// those first 5, averaged over requests.
	gateRecall5 = 0.48 // 0.483 over 1420 once blind19 (0.372) joined; 0.487 over 1360 once blind17 (0.405) joined; 0.491 over 1300 once blind18 (0.573) joined; 0.487 over 1240 once blind16 (0.361, the same with round 14's ranker) joined; 0.494 over 1180 once blind15 (0.438; 0.421 with round 13's ranker) joined; 0.496 over 1120 once round 14 (ablate14) deleted proximity (0.501 -> 0.496; blind6-14, written after it, 0.332 -> 0.330); 0.501 over 1120 once blind14 (0.336, the same with round 12's ranker) joined; 0.513 -> 0.510 over 1060 with a fix's words counting half towards the floor (round 13, recall15); 0.513 over 1060 once blind13 (0.242) joined; 0.529 over 1000 with the scattered-words floor restored (recall12); 0.530 over 1000 once blind12 (0.267) joined; 0.546 over 940 after round 10's deletions (recall11); 0.545 over 940 once blind11 (0.276) joined; 0.564 over 880 once blind10 (0.347) joined; 0.580 over 820 in round 9, 0.578 before it
	// gateScout30: the share of a request's labelled lessons (up to 5)
	// among the scout's 30 candidates for its searches
	// (`memory read --limit 30 -r Q1 -r Q2 …`, scout_*.jsonl; no floor
	// beyond one specific word).
	gateScout30 = 0.93 // 0.941 over 1420 once blind19 (60 fresh, round 17: first score 0.961, the same with round 16's ranker) joined; 0.941 over 1360 once blind17 (60 fresh, round 16; first scout@30 0.938 in round 17 with searches by a fresh model, scoutwriter17c, from the brief and the request texts only) joined; 0.941 over 1300 once blind18 (60 fresh, round 16: first score 0.992, the same with round 15's ranker; searches by a fresh model, scoutwriter18, from the brief and the request texts only) joined; 0.938 over 1240 once blind16 (60 fresh, round 15: first score 0.982; 0.974 with round 15's keepPerSearch merge, which moved +3 lessons of 2019 on design and +3 of 1188 on blind10-15 and was reverted for it; searches by a fresh model from the brief) joined; 0.936 over 1180 once blind15 (0.962; 0.957 with round 13's ranker) joined; 0.935 over 1120 once round 14 (ablate14) deleted proximity (0.936 -> 0.935: design sets 0.956 -> 0.954, check sets 0.881 -> 0.882); 0.936 over 1120 once blind14 (60 fresh, round 13: first score 0.863, the same with round 12's ranker; searches by a fresh model from the unchanged scout brief, who saw neither memory nor labels) joined; 0.940 over 1060 once blind13 (60 fresh, first score 0.860; 0.834 with round 10's ranker; searches by a fresh model from the unchanged scout brief) joined; 0.945 over 1000 with generic words weighed as any word in the scout's searches (round 11, recall13: the older sets +7 lessons, blind10–12 +5 as the check); 0.941 over 1000 once blind12 (60 fresh, 0.873, searches by a fresh model from the unchanged scout brief) joined; 0.946 over 940 after round 10's deletions too (recall11); 0.946 over 940 once blind11 (60 fresh, 0.876) joined; 0.951 over 880 once blind10 (60 fresh, 0.900) joined; 0.954 over 820 before it (the issue asks 0.97)
)

// labelledSets are the requests with labelled lessons, each with the
// scout's searches for it.
var labelledSets = []struct{ name, labels, searches string }{
	{"development", "queries.jsonl", "scout_development.jsonl"},
	{"held-out", "queries_holdout.jsonl", "scout_holdout.jsonl"},
	{"blind", "queries_blind.jsonl", "scout_blind.jsonl"},
	{"blind2", "queries_blind2.jsonl", "scout_blind2.jsonl"},
	{"blind3", "queries_blind3.jsonl", "scout_blind3.jsonl"},
	{"blind4", "queries_blind4.jsonl", "scout_blind4.jsonl"},
	{"blind5", "queries_blind5.jsonl", "scout_blind5.jsonl"},
	{"blind6", "queries_blind6.jsonl", "scout_blind6.jsonl"},
	{"blind7", "queries_blind7.jsonl", "scout_blind7.jsonl"},
	{"blind8", "queries_blind8.jsonl", "scout_blind8.jsonl"},
	{"blind9", "queries_blind9.jsonl", "scout_blind9.jsonl"},
	{"blind10", "queries_blind10.jsonl", "scout_blind10.jsonl"},
	{"blind11", "queries_blind11.jsonl", "scout_blind11.jsonl"},
	{"blind12", "queries_blind12.jsonl", "scout_blind12.jsonl"},
	{"blind13", "queries_blind13.jsonl", "scout_blind13.jsonl"},
	{"blind14", "queries_blind14.jsonl", "scout_blind14.jsonl"},
	{"blind15", "queries_blind15.jsonl", "scout_blind15.jsonl"},
	{"blind16", "queries_blind16.jsonl", "scout_blind16.jsonl"},
	{"blind17", "queries_blind17.jsonl", "scout_blind17.jsonl"},
	{"blind18", "queries_blind18.jsonl", "scout_blind18.jsonl"},
	{"blind19", "queries_blind19.jsonl", "scout_blind19.jsonl"},
}

type scoutSearch struct {
	Query    string   `json:"query"`
	Searches []string `json:"searches"`
}

// TestQuality reports and gates recall over the corpus:
//
//	go test -tags quality -count=1 -run Quality -v ./internal/recall/
func TestQuality(t *testing.T) {
	entries := loadCorpus(t)
	files := FilesOf(t, entries)
	opt := Options{Limit: 10, Now: corpusNow, Floor: StrictFloor}
	loose := Options{Limit: 10, Now: corpusNow}
	scoutOpt := Options{Limit: 30, Now: corpusNow}
	verbose := testing.Verbose()

	var all struct{ n, hit5, recall5, scout30, looseHit5, looseRecall5 float64 }
	t.Logf("%-12s %5s %7s %9s %8s %14s %17s", "set", "n", "hit@5", "recall@5", "scout@30", "hit@5 no floor", "recall@5 no floor")
	for _, set := range labelledSets {
		queries := readJSONL[labelledQuery](t, set.labels)
		searches := readJSONL[scoutSearch](t, set.searches)
		if len(searches) != len(queries) {
			t.Fatalf("%s: %d requests, %d searches", set.name, len(queries), len(searches))
		}
		var hit5, recall5, scout30, looseHit5, looseRecall5 float64
		for i, q := range queries {
			if searches[i].Query != q.Query {
				t.Fatalf("%s:%d: searches for %q, request %q", set.labels, i+1, searches[i].Query, q.Query)
			}
			hits := must(Search(files, []string{q.Query}, opt))
			h, r := share(hits, q.Relevant, 5)
			hit5 += h
			recall5 += r
			scouted := must(Search(files, searches[i].Searches, scoutOpt))
			_, s := share(scouted, q.Relevant, 30)
			scout30 += s
			if verbose && s < 1 {
				logScoutMisses(t, files, set.name, q, searches[i].Searches, scouted)
			}
			lh, lr := share(must(Search(files, []string{q.Query}, loose)), q.Relevant, 5)
			looseHit5 += lh
			looseRecall5 += lr
			if verbose && h == 0 && set.name == "development" {
				t.Logf("  miss %q: want %s; got %s", q.Query, strings.Join(q.Relevant, " "), strings.Join(idsOf(hits, 5), " "))
			}
		}
		n := float64(len(queries))
		t.Logf("%-12s %5.0f %7.3f %9.3f %8.3f %14.3f %17.3f", set.name, n, hit5/n, recall5/n, scout30/n, looseHit5/n, looseRecall5/n)
		all.n += n
		all.hit5 += hit5
		all.recall5 += recall5
		all.scout30 += scout30
		all.looseHit5 += looseHit5
		all.looseRecall5 += looseRecall5
	}
	t.Logf("%-12s %5.0f %7.3f %9.3f %8.3f %14.3f %17.3f", "all", all.n, all.hit5/all.n, all.recall5/all.n, all.scout30/all.n, all.looseHit5/all.n, all.looseRecall5/all.n)

	var nothing, nothingRead, n float64
	for _, name := range []string{"norelevant_dev.jsonl", "norelevant_blind.jsonl", "norelevant_blind2.jsonl", "norelevant_blind3.jsonl", "norelevant_blind4.jsonl", "norelevant_blind5.jsonl", "norelevant_blind6.jsonl", "norelevant_blind7.jsonl", "norelevant_blind8.jsonl", "norelevant_blind9.jsonl", "norelevant_blind10.jsonl", "norelevant_blind11.jsonl", "norelevant_blind12.jsonl", "norelevant_blind13.jsonl", "norelevant_blind14.jsonl", "norelevant_blind15.jsonl"} {
		queries := readJSONL[labelledQuery](t, name)
		var empty, emptyRead float64
		for _, q := range queries {
			if p := must(Prime(files, q.Query, opt)); p == "" {
				empty++
			} else if verbose && name != "norelevant_blind2.jsonl" {
				t.Logf("  %s: prime %q got %s", name, q.Query, strings.Join(idsOf(must(Search(files, []string{q.Query}, opt)), 5), " "))
			}
			if len(must(Search(files, []string{q.Query}, opt))) == 0 {
				emptyRead++
			}
		}
		t.Logf("%-24s %3d requests get nothing: %.3f from prime, %.3f from read --relevant", name, len(queries), empty/float64(len(queries)), emptyRead/float64(len(queries)))
		nothing += empty
		nothingRead += emptyRead
		n += float64(len(queries))
	}

	for _, g := range []struct {
		name       string
		got, floor float64
	}{
		{"no-relevant requests that get nothing (prime)", nothing / n, gateNothing},
		{"no-relevant requests that get nothing (read --relevant)", nothingRead / n, gateNothing},
		{"labelled requests with a labelled lesson in the first 5", all.hit5 / all.n, gateHit5},
		{"labelled lessons in the first 5 (recall@5)", all.recall5 / all.n, gateRecall5},
		{"labelled lessons among the scout's 30 candidates", all.scout30 / all.n, gateScout30},
	} {
		status := "ok"
		if g.got < g.floor {
			status = "FAIL"
			t.Errorf("%s: %.3f, gate %.3f", g.name, g.got, g.floor)
		}
		t.Logf("gate %-58s %.3f ≥ %.3f %s", g.name, g.got, g.floor, status)
	}
}

// share returns whether any of the labelled ids is among the first k hits
// (1 or 0), and the share of them (at most k counted) that are.
func share(hits []Hit, relevant []string, k int) (hit, frac float64) {
	found := 0
	for i, h := range hits {
		if i == k {
			break
		}
		for _, id := range relevant {
			if h.Entry.ID == id {
				found++
			}
		}
	}
	if found > 0 {
		hit = 1
	}
	return hit, float64(min(found, k)) / float64(min(len(relevant), k))
}

func idsOf(hits []Hit, k int) []string {
	var out []string
	for i, h := range hits {
		if i == k {
			break
		}
		out = append(out, fmt.Sprintf("%s(%.1f)", h.Entry.ID, h.Score))
	}
	return out
}

// logScoutMisses prints each labelled lesson the scout's 30 candidates
// lack, with where it was lost: its place in the merged list (deeper) or
// "none", and its place in each search's own list ("-" where that search
// does not find it). A lesson no search finds shares no specific word with
// any of them (the searches' fault or the label's); one within a search's
// first 30 was lost in the merge; one below 30 in every search was ranked
// low by each.
func logScoutMisses(t *testing.T, files []File, set string, q labelledQuery, searches []string, got []Hit) {
	const depth = 200
	deep := must(Search(files, searches, Options{Limit: depth, Now: corpusNow}))
	qs := make([]*query, 0, len(searches))
	for _, s := range searches {
		qs = append(qs, parseQuery(s))
	}
	lists := must(search(files, qs, Options{Now: corpusNow}, depth))
	for _, id := range q.Relevant {
		if slices.ContainsFunc(got, func(h Hit) bool { return h.Entry.ID == id }) {
			continue
		}
		isID := func(h Hit) bool { return h.Entry.ID == id }
		place := "none"
		if i := slices.IndexFunc(deep, isID); i >= 0 {
			place = fmt.Sprint(i + 1)
		}
		best := depth + 1
		ranks := make([]string, len(lists))
		for i, l := range lists {
			ranks[i] = "-"
			if r := slices.IndexFunc(l, isID); r >= 0 {
				ranks[i] = fmt.Sprint(r + 1)
				best = min(best, r+1)
			}
		}
		lost := "found by no search"
		switch {
		case best <= 30:
			lost = "lost in the merge"
		case best <= depth:
			lost = "low in every search"
		}
		t.Logf("  scout miss %s %q: %s at %s (searches %s): %s", set, q.Query, id, place, strings.Join(ranks, " "), lost)
	}
}
