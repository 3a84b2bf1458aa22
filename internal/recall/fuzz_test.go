package recall

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// FuzzQuery feeds arbitrary text to the tokenizer and the query parser and
// through Rank, Format and Prime: nothing panics and every output stays
// within its bound.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		"", "fn-12.3: Add retry to webhook delivery", "useEffect HTTPServer max_retries",
		"internal/mdstore/entry.go http.Client{Timeout: 10}", "naïve ÉcoleNormale 東京タワー",
		"--repo-root C++ don't", "dying lying tying", "\xff\xfe\x00bad", strings.Repeat("aB_", 100),
		"ǅungla ϒpsilon İstanbul", "a\u0301b\u0301c", "x-----y....z",
	} {
		f.Add(s)
	}
	entries := []mdstore.Entry{
		pit("a", "Webhook retries hammer the endpoint", "Back off with jitter", "pkg/webhook/deliver.go"),
		pit("b", "useEffect fetch without cleanup", "Abort in cleanup", "src/pages/Orders.tsx"),
		note(mdstore.Convention, "c", "Barrel exports in index.ts; naïve École 東京タワー"),
		note(mdstore.Decision, "d", "chi over gin for HTTPServer routing"),
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 16<<10 {
			t.Skip("long inputs only slow the fuzzer down; BenchmarkRank covers size")
		}
		toks := Tokens(s)
		if len(toks) > len(s) {
			t.Fatalf("%d tokens from %d bytes", len(toks), len(s))
		}
		total := 0
		for _, tok := range toks {
			total += len(tok)
			if utf8.RuneCountInString(tok) < minTokenRunes || !utf8.ValidString(tok) {
				t.Fatalf("bad token %q", tok)
			}
			if strings.ToLower(tok) != tok {
				t.Fatalf("token not lower-case: %q", tok)
			}
		}
		if total > 4*len(s) {
			t.Fatalf("%d token bytes from %d bytes", total, len(s))
		}

		q := parseQuery(s)
		if len(q.groupWhole) > maxQueryGroups || len(q.terms) > maxQueryTerms {
			t.Fatalf("query too large: %d groups, %d terms", len(q.groupWhole), len(q.terms))
		}
		for _, e := range entries {
			// A term of the query must be found in an entry holding the
			// query text itself.
			e.Issue = s
			if len(q.terms) > 0 && len(rank([]mdstore.Entry{e}, q, Options{}, 1)) == 0 {
				t.Fatalf("query %q does not match an entry that contains it", s)
			}
		}

		hits := Rank(append(entries, pit("s", s, s, s)), s, Options{Limit: 3})
		if len(hits) > 3 {
			t.Fatalf("%d hits over limit", len(hits))
		}
		for _, max := range []int{1, 60, 300} {
			var b bytes.Buffer
			var be *BudgetError
			if err := Format(&b, hits, Options{MaxChars: max}); err != nil && !(errors.As(err, &be) && b.Len() == 0 && be.Need > max) {
				t.Fatal(err)
			}
			if len(hits) > 0 && b.Len() > max {
				t.Fatalf("Format wrote %d bytes over %d", b.Len(), max)
			}
			if p := Prime(entries, s, Options{MaxChars: max}); len(p) > max {
				t.Fatalf("Prime wrote %d bytes over %d", len(p), max)
			}
		}
	})
}
