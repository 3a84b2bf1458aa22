package recall

import (
	"reflect"
	"runtime"
	"testing"
	"time"
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
