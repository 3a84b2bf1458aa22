package recall

import (
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestParallelScanMatchesOnePass: splitting a large memory across cores
// gives exactly the hits and scores of a single pass.
func TestParallelScanMatchesOnePass(t *testing.T) {
	entries := genEntries(t, 4*parallelMin+17)
	opt := Options{Limit: 50, Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	queries := []string{"add retry with backoff to the webhook worker", "fn-12.3: context deadline in http client", "sql migration lock"}
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	var parallel [][]Hit
	for _, q := range queries {
		parallel = append(parallel, Rank(entries, q, opt))
	}
	runtime.GOMAXPROCS(1)
	for i, q := range queries {
		one := Rank(entries, q, opt)
		if len(one) == 0 {
			t.Fatalf("query %q found nothing; the test needs hits", q)
		}
		if !reflect.DeepEqual(one, parallel[i]) {
			t.Errorf("query %q: parallel ranking differs from one pass", q)
		}
	}
}

// TestSharedScanMatchesSeparate: the scout's queries ranked in one shared
// pass get exactly the hits and scores each would get alone, on the quality
// corpus with every search the scout wrote for it, and on a memory large
// enough to be split across cores.
func TestSharedScanMatchesSeparate(t *testing.T) {
	type searches struct {
		Searches []string `json:"searches"`
	}
	var sets [][]string
	for _, s := range readJSONL[searches](t, "scout_development.jsonl") {
		sets = append(sets, s.Searches)
	}
	// Queries of every shape at once: an identifier whose parts another
	// query names alone, a phrase head, stop words only, a risk-only request.
	sets = append(sets, []string{"useEffect cleanup", "use effect", "the and of", "rate limit login", "cache the product catalog"})
	check := func(t *testing.T, entries []mdstore.Entry, opt Options, set []string) {
		t.Helper()
		qs := make([]*query, len(set))
		for i, q := range set {
			qs[i] = parseQuery(q)
		}
		shared := rankMany(entries, qs, opt, opt.Limit)
		for i, q := range set {
			alone := rank(entries, parseQuery(q), opt, opt.Limit)
			if !reflect.DeepEqual(alone, shared[i]) {
				t.Errorf("query %q: shared scan ranks %d hits, alone %d (or scores differ)", q, len(shared[i]), len(alone))
			}
		}
	}
	opt := Options{Limit: 60, Now: corpusNow}
	// A phrase split across two fields must not count for any query.
	corpus := append(loadCorpus(t), mdstore.Entry{ID: "split", Issue: "Login requests need a rate", Fix: "limit them per account"})
	sets = append(sets, []string{"login requests", "rate limit"})
	hits := 0
	for _, set := range sets {
		check(t, corpus, opt, set)
		hits += len(Rank(corpus, set[0], opt))
	}
	if hits == 0 {
		t.Fatal("no query found anything; the test needs hits")
	}
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	large := genEntries(t, 4*parallelMin+17)
	for _, set := range sets[:5] {
		check(t, large, opt, set)
	}
	check(t, large, opt, sets[len(sets)-1])
}
