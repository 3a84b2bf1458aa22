package app

import (
	"fmt"
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/urfave/cli/v2"
)

func memoryReadCommand(e *env, typeFlag cli.Flag) *cli.Command {
	return &cli.Command{
		Name:  "read",
		Usage: "print active entries, or only the most relevant ones",
		Description: `Without --relevant every active entry is printed. With --relevant, entries are
ranked by how well they match QUERY and only the best are printed. Give
--relevant more than once to search the same work from several sides (the
task, its technical terms, what usually goes wrong in it): the lists are
merged by rank, so an entry found by several queries comes first.

Examples:
   flowmem memory read --type pitfall
   flowmem memory read --relevant "fn-4.1: migrate auth middleware to chi" --limit 5
   flowmem memory read --relevant "webhook retries" --json
   flowmem memory read -r "fn-2.3: nightly sales report email" -r "cron time zone daylight saving"
   flowmem memory read --limit 30 --max-chars 9000 -r "fn-5.1: add image upload" -r "file size limit content type"`,
		Flags: []cli.Flag{
			typeFlag,
			&cli.StringSliceFlag{Name: "relevant", Aliases: []string{"r"}, Usage: "rank entries by relevance to `QUERY` (repeat to merge several queries)"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Usage: "at most `N` entries (default: recall.limit with --relevant, all otherwise)"},
			&cli.IntFlag{Name: "max-chars", Usage: "with --relevant, at most `N` characters of the printed block (default: recall.max_chars; --json is bounded by --limit alone)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, "no arguments (quote the query: --relevant \"...\")"); err != nil {
				return err
			}
			if c.IsSet("limit") && c.Int("limit") < 1 {
				return usagef("--limit must be at least 1")
			}
			if c.IsSet("max-chars") {
				if !c.IsSet("relevant") {
					return usagef("--max-chars bounds ranked output: use it with --relevant")
				}
				if c.Int("max-chars") < 1 {
					return usagef("--max-chars must be at least 1")
				}
			}
			kinds, err := kindsFlag(c)
			if err != nil {
				return err
			}
			_, cfg, s, err := e.memoryStore()
			if err != nil {
				return err
			}
			entries, err := s.Load(kinds...)
			if err != nil {
				return err
			}
			if c.IsSet("relevant") {
				limit := cfg.Int("recall.limit")
				if c.IsSet("limit") {
					limit = c.Int("limit")
				}
				maxChars := cfg.Int("recall.max_chars")
				if c.IsSet("max-chars") {
					maxChars = c.Int("max-chars")
				}
				return e.printRelevant(c, entries, c.StringSlice("relevant"), limit, maxChars, kinds)
			}
			active := entries[:0]
			for _, en := range entries {
				if en.Status != mdstore.Archived {
					active = append(active, en)
				}
			}
			if c.IsSet("limit") && len(active) > c.Int("limit") {
				active = active[:c.Int("limit")]
			}
			if c.Bool("json") {
				return e.writeJSON(map[string]any{"entries": nonNil(active), "count": len(active)})
			}
			var b strings.Builder
			size := 0
			for i := range active {
				en := &active[i]
				size += 80 + len(en.Issue) + len(en.Fix) + len(en.Context) + len(en.Body)
			}
			b.Grow(size)
			var last mdstore.Kind
			for i := range active {
				en := &active[i]
				if en.Kind != last {
					if last != "" {
						b.WriteByte('\n')
					}
					fmt.Fprintf(&b, "# %s\n", en.Kind.Title())
					last = en.Kind
				}
				b.WriteByte('\n')
				display(&b, en)
			}
			if len(active) == 0 {
				e.say("no entries in memory yet")
			}
			_, err = fmt.Fprint(e.Out, b.String())
			return err
		},
	}
}

// display is an entry as people read it: the heading and fields, without
// the hidden metadata line, plus a note of how often it was seen.
func display(b *strings.Builder, en *mdstore.Entry) {
	b.WriteString("## ")
	b.WriteString(en.Date)
	b.WriteByte(' ')
	b.WriteString(en.Task)
	if en.Source != "" && en.Source != en.Task {
		b.WriteByte(' ')
		b.WriteString(en.Source)
	}
	b.WriteString(" [")
	b.WriteString(orKind(en))
	b.WriteString("]\n")
	if en.Seen > 1 {
		where := ""
		if len(en.Tasks) > 0 {
			where = ", in " + strings.Join(en.Tasks, ", ")
		}
		fmt.Fprintf(b, "_seen %dx, last %s%s_\n", en.Seen, en.LastSeen, where)
	}
	for _, f := range [...]struct{ label, val string }{{"Issue", en.Issue}, {"Fix", en.Fix}, {"Context", en.Context}} {
		if f.val != "" {
			// Plain writes, not fmt: read prints every entry of memory.
			b.WriteString("**")
			b.WriteString(f.label)
			b.WriteString("**: ")
			b.WriteString(f.val)
			b.WriteByte('\n')
		}
	}
	// A flow-next entry's body may span several lines, and its
	// **Issue**/**Fix** lines are read into the fields above.
	if body := strings.TrimRight(en.Body, "\n"); body != "" {
		b.WriteString(body)
		b.WriteByte('\n')
	}
}

func orKind(en *mdstore.Entry) string {
	if en.Category != "" {
		return en.Category
	}
	return string(en.Kind)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
