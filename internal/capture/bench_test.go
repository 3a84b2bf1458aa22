package capture

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/review"
)

// BenchmarkHookNonReview is the path every ordinary tool call takes: decode
// the payload and decide it is not a review (memory enabled, project
// present). The process-level comparison with a decode-only program is
// `make bench` (internal/capture/testdata/decodeonly).
func BenchmarkHookNonReview(b *testing.B) {
	dir := newProject(b, true)
	p := fixture(b, "bash_nonreview")
	opt := optsFor(dir)
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		res, err := Handle(context.Background(), bytes.NewReader(p), opt)
		if err != nil || res.Skip == "" {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkCaptureReview records a 5-finding NEEDS_WORK review into a store
// of n entries: decode, recognise, redact, extract, classify, dedupe and
// append under the lock. The store is restored before each run so every run
// adds the same five new lessons.
func BenchmarkCaptureReview(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			dir := newProject(b, true)
			mem := filepath.Join(dir, ".flow", "memory")
			if err := os.MkdirAll(mem, 0o755); err != nil {
				b.Fatal(err)
			}
			store := generatedStore(n)
			file := filepath.Join(mem, "pitfalls.md")
			p := withField(b, fixture(b, "bash_review"), "tool_response", map[string]any{"stdout": fiveFindingReview(b), "stderr": ""})
			p = withField(b, p, "cwd", "/nonexistent")
			opt := optsFor(dir)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if err := os.WriteFile(file, store, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := Handle(context.Background(), bytes.NewReader(p), opt)
				if err != nil || len(res.Outcomes) != 5 {
					b.Fatalf("%+v %v", res, err)
				}
			}
		})
	}
}

// fiveFindingReview: five learnable findings, in the bold-label shape codex
// writes, taken from the recurrence corpus.
func fiveFindingReview(t testing.TB) string {
	var b strings.Builder
	b.WriteString("Reviewed the diff against the spec.\n\n**Issues**\n\n")
	n := 0
	for _, g := range loadRecurrenceCorpus(t, "holdout.txt") {
		text := fmt.Sprintf("%d. **Severity: Major**\n   **File:Line:** `src/f%d.go:%d`\n   **Problem:** %s\n   **Suggestion:** %s\n\n", n+1, n, 10+n, g.a.issue, g.a.fix)
		if len(review.AnalyzeWith(text+"<verdict>NEEDS_WORK</verdict>", review.Options{InferVerdict: true}).Kept()) != 1 {
			continue
		}
		b.WriteString(text)
		if n++; n == 5 {
			break
		}
	}
	b.WriteString("<verdict>NEEDS_WORK</verdict>\n")
	return b.String()
}

// generatedEntries makes n distinct lessons that look like a real memory:
// each entry mixes the words of two lessons picked at random from the
// recurrence corpora (so entries are about something, and a topic recurs in
// a few dozen entries of 10,000, as in a large project), with a unique
// identifier. holdout.txt is left out: fiveFindingReview takes its lessons
// from there.
func generatedEntries(n int) []mdstore.Entry {
	lessons := corpusLessons()
	r := rand.New(rand.NewPCG(1, 2))
	draw := func(k int) string {
		a, b := lessons[r.IntN(len(lessons))], lessons[r.IntN(len(lessons))]
		pool := append(append([]string{}, a...), b...)
		ws := make([]string, k)
		for i := range ws {
			ws[i] = pool[r.IntN(len(pool))]
		}
		return strings.Join(ws, " ")
	}
	out := make([]mdstore.Entry, n)
	for i := range out {
		e := mdstore.Entry{
			Kind: mdstore.Pitfall, Date: "2025-12-01", Task: fmt.Sprintf("fn-%d.%d", i/10+1, i%10+1), Source: "impl-review", Category: "general",
			Issue:   fmt.Sprintf("%s `id%d`", draw(22), i),
			Fix:     draw(12),
			Context: fmt.Sprintf("src/pkg%d/file%d.go:%d", i%97, i%13, r.IntN(500)),
		}
		e.Normalize()
		out[i] = e
	}
	return out
}

var corpusLessonsCache [][]string

// corpusLessons is every lesson line of the recurrence corpora, as words.
func corpusLessons() [][]string {
	if corpusLessonsCache != nil {
		return corpusLessonsCache
	}
	for _, name := range []string{"corpus.txt", "reviews.txt"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "recurrence", name))
		if err != nil {
			panic(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if len(line) > 3 && line[1] == ':' {
				corpusLessonsCache = append(corpusLessonsCache, strings.Fields(line[3:]))
			}
		}
	}
	return corpusLessonsCache
}

func generatedStore(n int) []byte {
	var b bytes.Buffer
	b.WriteString(mdstore.Header(mdstore.Pitfall))
	for _, e := range generatedEntries(n) {
		b.WriteByte('\n')
		b.WriteString(mdstore.Render(&e))
	}
	return b.Bytes()
}
