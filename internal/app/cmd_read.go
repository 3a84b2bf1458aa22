package app

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/recall"
	"github.com/flowmem/flowmem/internal/sanitize"
	"github.com/urfave/cli/v2"
)

// staleEntry is one entry of read --json: its fields, and whether it reads
// as stale (computed from its last sighting, never stored).
type staleEntry struct {
	mdstore.Entry
	Stale bool `json:"stale,omitempty"`
}

func memoryReadCommand(e *env, typeFlag cli.Flag) *cli.Command {
	return &cli.Command{
		Name:  "read",
		Usage: "print active entries, or only the most relevant ones",
		Description: `Without --relevant every active entry is printed. With --relevant, entries are
ranked by how well they match QUERY and only the best are printed. Give
--relevant more than once to search the same work from several sides (the
task, its technical terms, what usually goes wrong in it): the lists are
merged by rank, so an entry found by several queries comes first. An entry is
ranked only when it says specific words of a query itself (task ids, generic
words such as add, fix, page or client do not count): with one
query, most of its specific words, as prime wants; with several, one of them
is enough. When no entry qualifies, nothing is printed and stderr says so
(exit 0).

With --json, "score" orders the entries of that one answer and means
different things by mode: with one query, the entry's relevance (its fix's
words weigh half), lifted by recurrence and recency; with several, the
merged rank over the queries. Compare scores within one answer only, not
between the two modes, stores or days.

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
			noRecordFlag(),
			jsonFlag(),
		},
		Action: args(0, "no arguments (quote the query: --relevant \"...\")", func(c *cli.Context) error {
			if c.IsSet("limit") && c.Int("limit") < 1 {
				return usagef("--limit must be at least 1")
			}
			if c.IsSet("relevant") && !slices.ContainsFunc(c.StringSlice("relevant"), func(q string) bool { return strings.TrimSpace(q) != "" }) {
				// An empty variable in a script: "nothing relevant" would
				// hide the mistake.
				return usagef("--relevant is empty: give the request to rank lessons by")
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
			p, cfg, s, err := e.memoryStore()
			if err != nil {
				return err
			}
			if c.IsSet("relevant") {
				return e.printRelevant(c, s, c.StringSlice("relevant"), recallLimits(c, cfg), kinds)
			}
			if c.Bool("json") {
				entries, err := s.Load(kinds...)
				if err != nil {
					return err
				}
				active := slices.DeleteFunc(entries, func(en mdstore.Entry) bool { return !en.Live() })
				if c.IsSet("limit") && len(active) > c.Int("limit") {
					active = active[:c.Int("limit")]
				}
				out := make([]staleEntry, len(active))
				for i, en := range active {
					out[i] = staleEntry{en, en.Stale(e.Now(), e.staleAfter)}
				}
				return e.writeJSON(map[string]any{"entries": out, "count": len(out)})
			}
			// Entries are printed as they are read: the memory is never
			// held whole.
			files, err := recall.Load(s, kinds...)
			if err != nil {
				return err
			}
			// Lines already known plain skip the terminal's sanitizing
			// writer, the rest are cleaned a line at a time, as it would
			// (no escape sequence runs past a newline).
			out, checked := sanitize.Unwrap(e.Out)
			if !checked {
				out = e.Out
			}
			w := bufio.NewWriterSize(out, 64<<10)
			var last mdstore.Kind
			n, limit := 0, -1
			if c.IsSet("limit") {
				limit = c.Int("limit")
			}
			err = recall.EachLive(files, e.Now(), e.staleAfter, func(k mdstore.Kind, line []byte, plain bool) bool {
				if k != last {
					if last != "" {
						w.WriteByte('\n')
					}
					fmt.Fprintf(w, "# %s\n", k.Title())
					last = k
				}
				if checked && !plain {
					w.WriteString(sanitize.Text(string(line)))
				} else {
					w.Write(line)
				}
				n++
				return n != limit
			})
			if err != nil {
				return err
			}
			if n == 0 && len(files) == 0 {
				if len(kinds) == 1 {
					e.say("no %s in %s: flowmem memory init creates it", kinds[0].File(), e.rel(p, s.Dir))
				} else {
					e.say("no memory files in %s: flowmem memory init creates them", e.rel(p, s.Dir))
				}
			} else if n == 0 {
				// Archived and pending entries, or other types, may be
				// there: "empty" would send the user looking for a loss.
				what := "entries"
				if len(kinds) == 1 {
					what = string(kinds[0]) + " entries"
				}
				e.say("no active %s (memory list counts the archived and pending ones)", what)
			}
			return w.Flush()
		}),
	}
}
