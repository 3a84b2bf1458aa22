package app

import (
	"fmt"
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/urfave/cli/v2"
)

// printRelevant is a plain substring filter until ranking lands.
func (e *env) printRelevant(c *cli.Context, entries []mdstore.Entry, query string, limit, maxChars int, kinds []mdstore.Kind) error {
	var hits []mdstore.Entry
	q := strings.ToLower(query)
	for _, en := range entries {
		if en.Status != mdstore.Archived && strings.Contains(strings.ToLower(en.Text()+" "+en.Fix), q) {
			hits = append(hits, en)
		}
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	if c.Bool("json") {
		return e.writeJSON(map[string]any{"query": query, "entries": nonNil(hits)})
	}
	for _, h := range hits {
		fmt.Fprintf(e.Out, "- [%s] %s\n", h.Kind, h.Text())
	}
	return nil
}
