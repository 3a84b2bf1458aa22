package recall

import (
	"slices"
	"testing"

	"github.com/flowmem/flowmem/internal/text"
)

// TestParseQuery: task ids and stop words leave the query, generic words
// stay as generic terms, and identifiers keep their joined form and parts.
func TestParseQuery(t *testing.T) {
	t.Parallel()
	stems := func(q *query, pick func(term) bool) []string {
		var out []string
		for _, tm := range q.terms {
			if pick(tm) {
				out = append(out, tm.stem)
			}
		}
		return out
	}
	words := func(tm term) bool { return !tm.generic }
	for _, tc := range []struct {
		in   string
		want []string // specific words, folded
	}{
		{"fn-9.1: add a kubernetes helm chart", []string{text.Fold("kubernetes"), "helm", "chart"}},
		{"fn-17-axl.8: webhook retries", []string{"webhook", "retri"}},
		{"PROJ-123: webhook retries", []string{"webhook", "retri"}},
		{"#34: webhook retries, as in #12", []string{"webhook", "retri"}},
		{"utf-8 decoding of the CSV", []string{"utf8", "utf", "decod", "csv"}},
		{"fix the client page for new users", nil},
		{"useEffect cleanup", []string{"useeffect", "effect", "cleanup"}},
	} {
		if got := stems(parseQuery(tc.in), words); !slices.Equal(got, tc.want) {
			t.Errorf("parseQuery(%q) specific words = %q, want %q", tc.in, got, tc.want)
		}
	}
	if g := stems(parseQuery("add a page"), func(tm term) bool { return tm.generic }); !slices.Equal(g, []string{"add", "page"}) {
		t.Errorf("generic words = %q", g)
	}
}
