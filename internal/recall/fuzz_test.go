package recall

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// FuzzQuery feeds arbitrary text to the query parser and through Search,
// Format and Prime: nothing panics, every output stays within its bound,
// and a lesson holding the request's own words qualifies for it.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{
		"", "fn-12.3: Add retry to webhook delivery", "useEffect HTTPServer max_retries",
		"internal/mdstore/entry.go http.Client{Timeout: 10}", "naïve ÉcoleNormale 東京タワー",
		"--repo-root C++ don't", "dying lying tying", "\xff\xfe\x00bad", strings.Repeat("aB_", 100),
		"ǅungla ϒpsilon İstanbul", "a\u0301b\u0301c", "x-----y....z", "ran thrown ctx k8s",
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
			t.Skip("long inputs only slow the fuzzer down; BenchmarkSearch covers size")
		}
		q := parseQuery(s)
		if len(q.terms) > maxTerms {
			t.Fatalf("query too large: %d terms", len(q.terms))
		}
		e := pit("s", mdstore.OneLine(s), "", "")
		// The request's own words are what is left once its task ids are
		// taken out ("0:aA" asks for aA; a lesson saying "0:aA" names the
		// one identifier 0aA). Runes whose lower case is ASCII (İ, the
		// Kelvin sign) are the one known gap of the byte scan: it
		// lower-cases ASCII only.
		own := taskIDs().ReplaceAllString(s, " ")
		if mine := pit("s", mdstore.OneLine(own), "", ""); mine.Issue == own && q.specificWords() > 0 && !lowersToASCII(s) {
			if hits := Rank(t, []mdstore.Entry{mine}, s, Options{}); len(hits) != 1 {
				t.Fatalf("query %q does not find the lesson that says it", s)
			}
		}
		hits := Rank(t, append(entries, e), s, Options{Limit: 3})
		if len(hits) > 3 {
			t.Fatalf("%d hits over limit", len(hits))
		}
		// Several searches: merged and given feedback, still bounded.
		if merged := RankAll(t, append(entries, e), []string{s, "retry cleanup", s + " backoff"}, Options{Limit: 3}); len(merged) > 3 {
			t.Fatalf("%d merged hits over limit", len(merged))
		}
		for _, max := range []int{1, 60, 300} {
			var b bytes.Buffer
			if err := Format(&b, hits, Options{MaxChars: max}); err != nil && !errors.Is(err, ErrNothing) {
				if _, need, ok := budgetError(err); !ok || b.Len() != 0 || need <= max {
					t.Fatal(err)
				}
			}
			if b.Len() > max {
				t.Fatalf("Format wrote %d bytes over %d", b.Len(), max)
			}
			p, err := Prime(FilesOf(t, entries), s, Options{MaxChars: max})
			if nf := (*NoFitError)(nil); err != nil && !(errors.As(err, &nf) && p == "" && nf.Need > max) {
				t.Fatal(err)
			}
			if len(p) > max {
				t.Fatalf("Prime wrote %d bytes over %d", len(p), max)
			}
		}
	})
}

func lowersToASCII(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && unicode.ToLower(r) < utf8.RuneSelf {
			return true
		}
	}
	return false
}

// FuzzHasBreak: the byte scan finds a line break exactly when
// strings.ContainsAny does, invalid UTF-8 included.
func FuzzHasBreak(f *testing.F) {
	for _, s := range []string{"plain", "a\nb", "x\u0085y", "\u2028", "\u2029z", "\xe2\x80", "\xc2", "\xf0\x9f\xe2\x80\xa8", "\xe2\xc2\x85", "\u00a0 nbsp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasBreak(s), strings.ContainsAny(s, breaks); got != want {
			t.Fatalf("hasBreak(%q) = %v, ContainsAny says %v", s, got, want)
		}
	})
}

// FuzzCommentEnd: commentEnd finds what bytes.Index finds.
func FuzzCommentEnd(f *testing.F) {
	for _, s := range []string{"<!-- flowmem: id=p-1 last=2026-01-01 -->", "<!-->", "-->", "->->-->", "<!-- a > b --->x-->", "", "--", ">"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		if got, want := commentEnd(s), bytes.Index(s, commentClose); got != want {
			t.Fatalf("commentEnd(%q) = %d, want %d", s, got, want)
		}
	})
}
