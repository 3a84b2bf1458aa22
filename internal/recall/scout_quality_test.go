//go:build quality

package recall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// scoutSearch is one request as the memory scout would search it: the
// request and the 2–3 queries agents/memory-scout.md tells it to build.
type scoutSearch struct {
	Query    string   `json:"query"`
	Searches []string `json:"searches"`
}

// scoutAnswer is what a scout kept, in its order, from the candidates
// flowmem printed for one request.
type scoutAnswer struct {
	Query string   `json:"query"`
	Kept  []string `json:"kept"`
}

// scoutCandidates is how many lessons the scout asks for
// (agents/memory-scout.md: --limit 30): enough that a lesson worded unlike
// the request still reaches it, few enough to read in one answer.
const scoutCandidates = 30

// TestQualityScout reports recall as the memory scout gets it, not as one
// query gets it. The scout (agents/memory-scout.md) runs two or three
// searches per request: the request itself, its technical terms, and what
// usually goes wrong in that kind of work in a reviewer's words. Those
// searches were written, for every request of a query set, by a model
// that followed the scout's instructions without seeing the memory or the
// labels (testdata/recall/README.md: for blind3–5 in the seventh round,
// for the other sets in the eighth). The scout runs them as one
// `flowmem memory read --limit 30 --relevant Q1 --relevant Q2 …`, which
// merges the lists (RankAll), and then keeps what bears on the request, at
// most 8. One row per set, and "all" over every request. Columns:
//
//   - Rank@5: the request alone through Rank, the baseline;
//   - merged@5, merged@8: the first 5 and 8 of the merged list the scout
//     asked for before the eighth round (--limit 10), what a scout that
//     could not judge at all would answer;
//   - in 10, in 30: the labels among the first 10 (the scout's list before
//     the eighth round) and 30 candidates, out of at most 5: the most a
//     scout that judged perfectly could answer from them;
//   - judged@5, judged@8: what a model acting as the scout kept from the 30
//     candidates (scout_judged_*.jsonl, "Eighth round"), first 5 and all.
//
// Run with
//
//	go test -tags quality -run QualityScout -v ./internal/recall/
func TestQualityScout(t *testing.T) {
	entries := loadCorpus(t)
	byID := map[string]*mdstore.Entry{}
	for i := range entries {
		byID[entries[i].ID] = &entries[i]
	}
	opt := Options{Limit: scoutCandidates, Now: corpusNow}
	rank := func(q string) []Hit { return Rank(entries, q, opt) }
	t.Logf("%-8s %7s %9s %9s %7s %7s %9s %9s %6s %8s", "", "Rank@5", "merged@5", "merged@8", "in 10", "in 30", "judged@5", "judged@8", "kept", "searches")
	// all sums every column over every request, so its row weighs each set
	// by its size; the judged columns count only when every set is judged.
	var all scoutRow
	allJudged := true
	for _, set := range scoutSets {
		queries := readJSONL[labelledQuery](t, set.labels)
		byQuery, n := scoutSearches(t, set.searches, queries)
		// Before the eighth round the scout asked for the default 10; the
		// limit is also the depth of each list RankAll merges.
		merged10 := func(q string) []Hit { return RankAll(entries, byQuery[q], Options{Limit: 10, Now: corpusNow}) }
		merged := func(q string) []Hit { return RankAll(entries, byQuery[q], opt) }
		nq := float64(len(queries))
		row := scoutRow{
			requests: nq, searches: float64(n),
			v: [8]float64{
				measureAt(queries, rank, 5) * nq,
				measureAt(queries, merged10, 5) * nq, measureAt(queries, merged10, 8) * nq,
				measureWithin(queries, merged10, 10) * nq, measureWithin(queries, merged, scoutCandidates) * nq,
			},
		}
		if corpusFileExists(set.judged) {
			row.judged = true
			answers := readJSONL[scoutAnswer](t, set.judged)
			if len(answers) != len(queries) {
				t.Fatalf("%s: %d requests, %s has %d", set.name, len(queries), set.judged, len(answers))
			}
			kept := map[string][]string{}
			stale := 0
			for i, a := range answers {
				if a.Query != queries[i].Query {
					t.Fatalf("%s:%d: request %q, answer for %q", set.judged, i+1, queries[i].Query, a.Query)
				}
				if len(a.Kept) > 8 {
					t.Fatalf("%s:%d: %d lessons kept; the scout answers at most 8", set.judged, i+1, len(a.Kept))
				}
				kept[a.Query] = a.Kept
				row.v[7] += float64(len(a.Kept))
				cands := map[string]bool{}
				for _, h := range merged(a.Query) {
					cands[h.Entry.ID] = true
				}
				for _, id := range a.Kept {
					if !cands[id] {
						stale++
					}
				}
			}
			answer := func(q string) []Hit {
				var hs []Hit
				for _, id := range kept[q] {
					e, ok := byID[id]
					if !ok {
						t.Fatalf("%s: the answer for %q keeps %q, which is not in the memory", set.judged, q, id)
					}
					hs = append(hs, Hit{Entry: *e})
				}
				return hs
			}
			row.v[5] = measureAt(queries, answer, 5) * nq
			row.v[6] = measureAt(queries, answer, 8) * nq
			if stale > 0 {
				// The answers were judged on the candidates of the ranker
				// of their day; a lesson that no longer reaches the 30
				// makes the figure stale, not wrong by itself.
				t.Logf("%s: %d kept lessons are no longer among the %d candidates", set.name, stale, scoutCandidates)
			}
		} else {
			allJudged = false
		}
		t.Log(row.String(set.name))
		all.add(row)
	}
	all.judged = allJudged
	t.Log(all.String("all"))
}

// scoutRow is one line of TestQualityScout's report, as sums over its
// requests: Rank@5, merged@5, merged@8, in 10, in 30, then (when judged)
// judged@5, judged@8 and lessons kept.
type scoutRow struct {
	requests, searches float64
	v                  [8]float64
	judged             bool
}

func (r *scoutRow) add(o scoutRow) {
	r.requests += o.requests
	r.searches += o.searches
	for i := range r.v {
		r.v[i] += o.v[i]
	}
}

func (r scoutRow) String(name string) string {
	n := r.requests
	judged := fmt.Sprintf("%9s %9s %6s", "-", "-", "-")
	if r.judged {
		judged = fmt.Sprintf("%9.3f %9.3f %6.1f", r.v[5]/n, r.v[6]/n, r.v[7]/n)
	}
	return fmt.Sprintf("%-8s %7.3f %9.3f %9.3f %7.3f %7.3f %s %8.1f", name, r.v[0]/n, r.v[1]/n, r.v[2]/n, r.v[3]/n, r.v[4]/n, judged, r.searches/n)
}

// scoutSets are the query sets with the scout's searches written for them.
var scoutSets = []struct{ name, labels, searches, judged string }{
	{"dev", "queries.jsonl", "scout_development.jsonl", "scout_judged_development.jsonl"},
	{"held-out", "queries_holdout.jsonl", "scout_holdout.jsonl", "scout_judged_holdout.jsonl"},
	{"blind", "queries_blind.jsonl", "scout_blind.jsonl", "scout_judged_blind.jsonl"},
	{"blind2", "queries_blind2.jsonl", "scout_blind2.jsonl", "scout_judged_blind2.jsonl"},
	{"blind3", "queries_blind3.jsonl", "scout_blind3.jsonl", "scout_judged_blind3.jsonl"},
	{"blind4", "queries_blind4.jsonl", "scout_blind4.jsonl", "scout_judged_blind4.jsonl"},
	{"blind5", "queries_blind5.jsonl", "scout_blind5.jsonl", "scout_judged_blind5.jsonl"},
}

func scoutSearches(t *testing.T, name string, queries []labelledQuery) (map[string][]string, int) {
	searches := readJSONL[scoutSearch](t, name)
	if len(searches) != len(queries) {
		t.Fatalf("%d requests, %s has %d", len(queries), name, len(searches))
	}
	byQuery := map[string][]string{}
	n := 0
	for i, s := range searches {
		if s.Query != queries[i].Query {
			t.Fatalf("%s:%d: request %q, searches for %q", name, i+1, queries[i].Query, s.Query)
		}
		if len(s.Searches) == 0 {
			t.Fatalf("%s:%d: no searches", name, i+1)
		}
		byQuery[s.Query] = s.Searches
		n += len(s.Searches)
	}
	return byQuery, n
}

// measureAt is recall@k: the share of a query's labels (at most k of them)
// among its first k hits, averaged over queries.
func measureAt(queries []labelledQuery, rank func(string) []Hit, k int) float64 {
	return measureShare(queries, rank, k, k)
}

// measureWithin is the share of a query's labels, at most 5 of them, among
// its first k hits: what a reader choosing 5 from those k could find.
func measureWithin(queries []labelledQuery, rank func(string) []Hit, k int) float64 {
	return measureShare(queries, rank, k, 5)
}

func measureShare(queries []labelledQuery, rank func(string) []Hit, k, want int) float64 {
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
		den := min(len(q.Relevant), want)
		sum += float64(min(found, den)) / float64(den)
	}
	return sum / float64(len(queries))
}

// TestScoutSimulationInput writes, for each scout set, what a scout would
// read: every request with the candidates `flowmem memory read --limit 30`
// prints for its searches, numbered, and beside it (in a separate file, so
// the judging model never sees it) the entry ids behind the numbers. It is
// how scout_judged_*.jsonl were made; run it to judge a new ranker:
//
//	FLOWMEM_SCOUT_SIM=/tmp/scoutsim go test -tags quality -run ScoutSimulationInput ./internal/recall/
func TestScoutSimulationInput(t *testing.T) {
	dir := os.Getenv("FLOWMEM_SCOUT_SIM")
	if dir == "" {
		t.Skip("set FLOWMEM_SCOUT_SIM to a directory to write the simulation's input")
	}
	entries := loadCorpus(t)
	opt := Options{Limit: scoutCandidates, MaxChars: 9000, Now: corpusNow}
	for _, set := range scoutSets {
		queries := readJSONL[labelledQuery](t, set.labels)
		byQuery, _ := scoutSearches(t, set.searches, queries)
		var doc, key bytes.Buffer
		fmt.Fprintf(&doc, "# The scout's candidates: %s\n\n", set.name)
		for i, q := range queries {
			hits := RankAll(entries, byQuery[q.Query], opt)
			var out bytes.Buffer
			if err := Format(&out, hits, opt); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&doc, "=== Request %d: %s\n", i+1, q.Query)
			// Format drops a line that does not fit; match lines to hits
			// by their text so the numbers name the right entries.
			var ids []string
			next := 0
			for _, l := range strings.Split(out.String(), "\n") {
				if !strings.HasPrefix(l, "- [") {
					continue
				}
				for next < len(hits) && Line(hits[next].Entry) != l {
					next++
				}
				if next == len(hits) {
					t.Fatalf("%s: line %q matches no hit", set.name, l)
				}
				ids = append(ids, hits[next].Entry.ID)
				next++
				fmt.Fprintf(&doc, "%d. %s\n", len(ids), l[2:])
			}
			doc.WriteString("\n")
			b, err := json.Marshal(map[string]any{"n": i + 1, "query": q.Query, "ids": ids})
			if err != nil {
				t.Fatal(err)
			}
			key.Write(b)
			key.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, set.name+"_candidates.md"), doc.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, set.name+"_ids.jsonl"), key.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
