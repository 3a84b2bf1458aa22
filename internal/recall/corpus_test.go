package recall

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// corpusNow is the reference date of the quality corpus: its entries were
// last seen between May 2025 and February 2026.
var corpusNow = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

type labelledQuery struct {
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
}

// readJSONL decodes one value per line of a file under testdata/recall.
func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "recall", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func loadCorpus(t testing.TB) []mdstore.Entry {
	return readJSONL[mdstore.Entry](t, "memory.jsonl")
}

// loadQueries reads the queries the ranker was developed against.
func loadQueries(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries.jsonl")
}

// loadHoldout reads queries written after the ranker was tuned and run
// against it once, to show how far the tuning carries to new requests.
func loadHoldout(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_holdout.jsonl")
}

// loadBlind reads queries written and labelled from the entries alone,
// committed before the ranker changes they measure, and scored only before
// and after them (see testdata/recall/README.md).
func loadBlind(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_blind.jsonl")
}

// loadBlind2 reads the second blind set, written and labelled the same way
// before the third tuning round and scored only before and after it.
func loadBlind2(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_blind2.jsonl")
}

// loadBlind3 reads the third blind set: queries phrased as feature requests
// and task titles, written before the fifth round and scored only before
// and after it; development data from the sixth round on.
func loadBlind3(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_blind3.jsonl")
}

// loadBlind4 reads the fourth blind set (feature requests, like blind3),
// written before the sixth round and scored only before and after it.
func loadBlind4(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_blind4.jsonl")
}

// loadBlind5 reads the fifth blind set (planner requests and task titles),
// written from the memory alone before the seventh round and scored only
// before and after it.
func loadBlind5(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_blind5.jsonl")
}

// loadBlind6 reads the sixth blind set (planner requests and task titles),
// written from the memory alone at the end of round 6 (after its ranker
// changes), with the scout's searches simulated from its instructions and
// the requests alone; scored once, then development data.
func loadBlind6(t testing.TB) []labelledQuery {
	return readJSONL[labelledQuery](t, "queries_blind6.jsonl")
}

// TestCorpusWellFormed keeps the quality corpus honest: every label names
// an active entry, and entries are unique.
func TestCorpusWellFormed(t *testing.T) {
	entries := loadCorpus(t)
	byID := map[string]*mdstore.Entry{}
	for i := range entries {
		e := &entries[i]
		if byID[e.ID] != nil {
			t.Errorf("duplicate id %s", e.ID)
		}
		byID[e.ID] = e
		if _, ok := mdstore.ParseKind(string(e.Kind)); !ok {
			t.Errorf("%s: bad kind %q", e.ID, e.Kind)
		}
	}
	queries := append(append(append(append(append(append(append(loadQueries(t), loadHoldout(t)...), loadBlind(t)...), loadBlind2(t)...), loadBlind3(t)...), loadBlind4(t)...), loadBlind5(t)...), loadBlind6(t)...)
	if len(queries) < 60 {
		t.Errorf("only %d queries", len(queries))
	}
	for _, q := range queries {
		if len(q.Relevant) == 0 {
			t.Errorf("%q: no relevant entries", q.Query)
		}
		for _, id := range q.Relevant {
			e := byID[id]
			switch {
			case e == nil:
				t.Errorf("%q: unknown id %s", q.Query, id)
			case e.Status == mdstore.Archived:
				t.Errorf("%q: archived entry %s labelled relevant", q.Query, id)
			}
		}
	}
}
