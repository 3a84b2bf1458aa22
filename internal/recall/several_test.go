package recall

import (
	"slices"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestRankAllGenericNeverQualifies: in several searches (the scout's) a
// generic word weighs as any word, and still no lesson qualifies by
// generic words alone, however many searches say them (SPEC §6).
func TestRankAllGenericNeverQualifies(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("generic", "Add a page to the client", "Update the user", ""),
		pit("webhook", "Webhook sender drops events", "Persist first", ""),
	}
	for _, tc := range []struct {
		queries []string
		want    []string
	}{
		{[]string{"Fix the client page for new users", "update the user page", "add a page"}, nil},
		{[]string{"add a page", "update the user", "webhook events"}, []string{"webhook"}},
	} {
		if got := ids(RankAll(t, entries, tc.queries, Options{Limit: 30})); !slices.Equal(got, tc.want) {
			t.Errorf("RankAll(%q) = %q, want %q", tc.queries, got, tc.want)
		}
	}
}
