package recall

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// genEntries builds a memory of n entries from the quality corpus: each
// entry keeps the shape of a corpus entry (field lengths, identifiers,
// paths) with a third of its words swapped for words drawn from the corpus
// vocabulary, so that term statistics stay realistic at any size.
func genEntries(tb testing.TB, n int) []mdstore.Entry {
	tb.Helper()
	base := loadCorpus(tb)
	var vocab []string
	for _, e := range base {
		vocab = append(vocab, strings.Fields(e.Issue+" "+e.Fix+" "+e.Body)...)
	}
	r := rand.New(rand.NewPCG(1, 2))
	mutate := func(s string) string {
		w := strings.Fields(s)
		for i := range w {
			if r.IntN(3) == 0 {
				w[i] = vocab[r.IntN(len(vocab))]
			}
		}
		return strings.Join(w, " ")
	}
	out := make([]mdstore.Entry, n)
	for i := range out {
		e := base[i%len(base)]
		e.ID = fmt.Sprintf("%s-%d", e.ID, i)
		e.Issue, e.Fix, e.Body = mutate(e.Issue), mutate(e.Fix), mutate(e.Body)
		e.Seen = 1 + r.IntN(4)
		e.Status = mdstore.Active
		if r.IntN(50) == 0 {
			e.Status = mdstore.Archived
		}
		out[i] = e
	}
	return out
}

const benchQuery = "fn-12.3: Add retry with backoff to webhook delivery (pkg/webhook/sender.go, maxRetries)"

var scoutQueries = []string{benchQuery, "webhook delivery retry backoff HTTP client", "retry without backoff jitter idempotency duplicate delivery timeout"}

// BenchmarkSearch ranks memories of 1,000 to 100,000 entries, held as the
// files' bytes (reading them is the CLI's cost, not the ranker's).
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		files := FilesOf(b, genEntries(b, n))
		for _, c := range []struct {
			name    string
			queries []string
		}{{"one", []string{benchQuery}}, {"scout", scoutQueries}} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					must(Search(files, c.queries, Options{Limit: 30}))
				}
			})
		}
		b.Run(fmt.Sprintf("prime/%d", n), func(b *testing.B) {
			for b.Loop() {
				must(Prime(files, benchQuery, Options{}))
			}
		})
	}
}
