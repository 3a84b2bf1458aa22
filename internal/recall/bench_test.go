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

func BenchmarkRank(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		entries := genEntries(b, n)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			opt := Options{Now: corpusNow}
			for b.Loop() {
				if len(Rank(entries, benchQuery, opt)) == 0 {
					b.Fatal("no hits")
				}
			}
		})
	}
}

// benchScout is what the scout asks: the request, its technical terms, and
// what usually goes wrong in that kind of work.
var benchScout = []string{
	benchQuery,
	"webhook delivery retry backoff maxRetries sender",
	"duplicate deliveries on retry, no jitter, timeout, idempotency key",
}

func BenchmarkRankAll(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		entries := genEntries(b, n)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			opt := Options{Now: corpusNow, Limit: 30}
			for b.Loop() {
				if len(RankAll(entries, benchScout, opt)) == 0 {
					b.Fatal("no hits")
				}
			}
		})
	}
}

func BenchmarkPrime(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		entries := genEntries(b, n)
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			opt := Options{Now: corpusNow}
			for b.Loop() {
				if Prime(entries, benchQuery, opt) == "" {
					b.Fatal("empty prime")
				}
			}
		})
	}
}

// BenchmarkTokenize measures the scanner alone, the bulk of Rank's work.
func BenchmarkTokenize(b *testing.B) {
	entries := genEntries(b, 1000)
	var z tokenizer
	var c countSink
	b.ReportAllocs()
	for b.Loop() {
		for i := range entries {
			z.scan(entries[i].Issue, &c)
			z.scan(entries[i].Fix, &c)
			z.scan(entries[i].Context, &c)
		}
	}
}

type countSink struct{ n int }

func (c *countSink) token([]byte, tokenKind) { c.n++ }
