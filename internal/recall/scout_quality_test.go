//go:build quality

package recall

import (
	"testing"
)

// scoutSearch is one request as the memory scout would search it: the
// request and the 2–3 queries agents/memory-scout.md tells it to build.
type scoutSearch struct {
	Query    string   `json:"query"`
	Searches []string `json:"searches"`
}

// TestQualityScout reports recall as the memory scout gets it, not as one
// query gets it. The scout (agents/memory-scout.md) runs two or three
// searches per request: the request itself, its technical terms, and what
// usually goes wrong in that kind of work in a reviewer's words. Those
// searches were written, for every request of a query set, by a model
// that followed the scout's instructions without seeing the memory or the
// labels (testdata/recall/README.md, "Seventh round"). The scout runs them
// as one `flowmem memory read --relevant Q1 --relevant Q2 …`, which merges
// the lists (RankAll), and then keeps what bears on the request; with no
// model here to choose, the merged list's first 5 and 8 (the scout answers
// at most 8) are scored, which is what a scout that could not judge at all
// would answer. The request alone through Rank is the baseline beside it.
//
//	go test -tags quality -run QualityScout -v ./internal/recall/
func TestQualityScout(t *testing.T) {
	entries := loadCorpus(t)
	opt := Options{Limit: 10, Now: corpusNow}
	rank := func(q string) []Hit { return Rank(entries, q, opt) }
	t.Logf("%-22s %9s %9s %9s %8s", "", "Rank@5", "scout@5", "scout@8", "searches")
	for _, set := range []struct {
		name, labels, searches string
	}{
		{"blind3", "queries_blind3.jsonl", "scout_blind3.jsonl"},
		{"blind4", "queries_blind4.jsonl", "scout_blind4.jsonl"},
		{"blind5", "queries_blind5.jsonl", "scout_blind5.jsonl"},
	} {
		if !corpusFileExists(set.searches) {
			t.Logf("%-22s (no %s)", set.name, set.searches)
			continue
		}
		queries := readJSONL[labelledQuery](t, set.labels)
		searches := readJSONL[scoutSearch](t, set.searches)
		if len(searches) != len(queries) {
			t.Fatalf("%s: %d requests, %s has %d", set.name, len(queries), set.searches, len(searches))
		}
		byQuery := map[string][]string{}
		n := 0
		for i, s := range searches {
			if s.Query != queries[i].Query {
				t.Fatalf("%s:%d: request %q, searches for %q", set.searches, i+1, queries[i].Query, s.Query)
			}
			if len(s.Searches) == 0 {
				t.Fatalf("%s:%d: no searches", set.searches, i+1)
			}
			byQuery[s.Query] = s.Searches
			n += len(s.Searches)
		}
		scout := func(q string) []Hit { return RankAll(entries, byQuery[q], opt) }
		single := measure(t, queries, rank, false)
		at5 := measure(t, queries, scout, false)
		at8 := measureAt(queries, scout, 8)
		t.Logf("%-22s %9.3f %9.3f %9.3f %8.1f", set.name, single.recall5, at5.recall5, at8, float64(n)/float64(len(queries)))
	}
}

// measureAt is recall@k: the share of a query's labels (at most k of them)
// among its first k hits, averaged over queries.
func measureAt(queries []labelledQuery, rank func(string) []Hit, k int) float64 {
	var sum float64
	for _, q := range queries {
		hits := rank(q.Query)
		top := map[string]bool{}
		for i := 0; i < len(hits) && i < k; i++ {
			top[hits[i].Entry.ID] = true
		}
		found := 0
		for _, id := range q.Relevant {
			if top[id] {
				found++
			}
		}
		den := min(len(q.Relevant), k)
		sum += float64(min(found, den)) / float64(den)
	}
	return sum / float64(len(queries))
}
