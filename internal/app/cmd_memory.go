package app

import (
	"bufio"
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowmem/flowmem/internal/capture"
	"github.com/flowmem/flowmem/internal/curate"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/review"
	"github.com/urfave/cli/v2"
)

func memoryCommand(e *env) *cli.Command {
	typeFlag := &cli.StringFlag{Name: "type", Aliases: []string{"t"}, Usage: "only `TYPE`: pitfall, convention or decision"}
	cmd := &cli.Command{
		Name:  "memory",
		Usage: "read and add lessons in .flow/memory/",
		Description: `All memory commands need memory enabled (flowmem config set memory.enabled true).

Examples:
   flowmem memory add --type pitfall "go test caches results" --fix "use -count=1"
   flowmem memory read --relevant "fn-3.2: add retries to the webhook sender"
   flowmem memory search 'webhook|retry'
   flowmem memory list --json`,
		Subcommands: []*cli.Command{
			{
				Name:  "init",
				Usage: "create any missing memory files from templates",
				Description: `Existing files are left alone.

Example:
   flowmem memory init`,
				Flags: []cli.Flag{jsonFlag()},
				Action: args(0, "no arguments", func(c *cli.Context) error {
					p, _, s, err := e.memoryStore()
					if err != nil {
						return err
					}
					created, err := s.Init()
					if err != nil {
						return err
					}
					created = e.relAll(p, created)
					if c.Bool("json") {
						return e.writeJSON(map[string]any{"path": s.Dir, "created": created})
					}
					if len(created) == 0 {
						e.say("memory already initialized in %s", e.rel(p, s.Dir))
					}
					for _, f := range created {
						e.say("created %s", f)
					}
					return nil
				}),
			},
			memoryAddCommand(e),
			memoryReadCommand(e, typeFlag),
			memoryPrimeCommand(e),
			{
				Name:  "list",
				Usage: "count entries per file and in total",
				Description: `Example:
   flowmem memory list`,
				Flags:  []cli.Flag{jsonFlag()},
				Action: args(0, "no arguments", e.runList),
			},
			{
				Name:      "search",
				Usage:     "case-insensitive regular expression search over entries",
				ArgsUsage: "PATTERN",
				Description: `Prints each matching line with its file, line number and entry id.

Examples:
   flowmem memory search 'retry|backoff'
   flowmem memory search --type pitfall --json 'go test'`,
				Flags:  []cli.Flag{typeFlag, jsonFlag()},
				Action: args(1, "PATTERN", e.runSearch),
			},
		},
	}
	cmd.Subcommands = append(cmd.Subcommands, curationCommands(e)...)
	cmd.Subcommands = append(cmd.Subcommands, insightCommands(e)...)
	return cmd
}

func memoryAddCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "add a lesson by hand",
		ArgsUsage: "TEXT",
		Description: `The same lesson added again is not duplicated: its entry's seen count goes up.
Secrets and <private>…</private> blocks are redacted before anything is written.
With capture.approval on, a lesson the model adds (Claude Code runs its
commands with CLAUDECODE=1) waits for memory approve; a person's is active.
--replaces ID retires an entry this lesson words better (a captured lesson
filed under the wrong category, say): it is merged into the lesson as memory
merge ID --into <lesson> does, so its sightings and tasks carry over and a
review that finds it again counts for the lesson. Every ID is checked first.

Examples:
   flowmem memory add --type pitfall "sqlc ignores views" --fix "declare the view in schema.sql"
   flowmem memory add --type pitfall --category api "sqlc skips views unless schema.sql declares them" --fix "declare each view in schema.sql" --replaces p-3f2a
   flowmem memory add --type convention "Errors are wrapped as 'verb noun: %w'"
   flowmem memory add --type decision "SQLite over Postgres: single binary, no server" --task fn-2`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "type", Aliases: []string{"t"}, Usage: "the entry's `TYPE`: pitfall, convention or decision (required)"},
			&cli.StringFlag{Name: "fix", Usage: "what to do instead, as `TEXT` (pitfalls)"},
			&cli.StringFlag{Name: "context", Usage: "where it applies or how it was found, as `TEXT`"},
			&cli.StringFlag{Name: "task", Usage: "the task `ID` it came from (default: manual)"},
			&cli.StringFlag{Name: "category", Usage: "its `CATEGORY`: framework, convention, api, build, edge-case, security or general"},
			&cli.StringSliceFlag{Name: "replaces", Usage: "the entry `ID` this lesson replaces: merged into it, archived (repeatable)"},
			jsonFlag(),
		},
		Action: args(1, "TEXT (quote it)", func(c *cli.Context) error {
			if c.String("type") == "" {
				return usagef("--type is required (pitfall, convention or decision)")
			}
			kinds, err := kindsFlag(c)
			if err != nil {
				return err
			}
			text := strings.TrimSpace(c.Args().First())
			if text == "" {
				return usagef("TEXT is empty")
			}
			// Text in another encoding (Latin-1, say) would lose bytes
			// silently on its way to the file.
			for _, f := range []struct{ name, val string }{{"TEXT", text}, {"--fix", c.String("fix")}, {"--context", c.String("context")}} {
				if i := invalidUTF8(f.val); i >= 0 {
					return usagef("%s is not valid UTF-8 (byte %d); save it as UTF-8; nothing was written", f.name, i+1)
				}
			}
			// Only a secret or a <private> block, or no word at all, would
			// be a bare mask in memory that no request ever finds.
			if masked := redact.String(text); !keepsWords(masked) {
				return usagef("TEXT has no words to keep (it reads %q once secrets and <private> blocks are masked): write the lesson itself and leave the secret out; nothing was written", masked)
			}
			task, category := c.String("task"), strings.ToLower(strings.TrimSpace(c.String("category")))
			if err := checkTask(task); err != nil {
				return err
			}
			if category != "" && !slices.Contains(categories, category) {
				return usagef("--category must be one of %s; nothing was written", strings.Join(categories, ", "))
			}
			p, cfg, s, err := e.memoryStore()
			if err != nil {
				return err
			}
			k := kinds[0]
			replaced, err := replacedEntries(s, k, text, c.StringSlice("replaces"))
			if err != nil {
				return err
			}
			// What a person typed is redacted before it can reach the file.
			entry := mdstore.Entry{
				Kind: k, Task: task, Source: "manual", Category: category,
				Fix: redact.String(c.String("fix")), Context: redact.String(c.String("context")),
			}
			if task != "" { // Normalize makes an empty one "manual"
				entry.Tasks = []string{task}
			}
			// The model adds what the hook's note asks it to through this
			// command (Claude Code sets CLAUDECODE=1 for every Bash tool
			// call): with approval on, that waits for a person like the
			// hook's own captures.
			pending := cfg.Bool("capture.approval") && e.Getenv("CLAUDECODE") == "1"
			if pending {
				entry.Status = mdstore.Pending
			}
			if k == mdstore.Pitfall {
				entry.Issue = redact.String(text)
			} else {
				entry.Body = redact.String(text)
			}
			for _, f := range []struct{ name, val string }{{"TEXT", text}, {"--fix", entry.Fix}, {"--context", entry.Context}} {
				if len(f.val) > mdstore.MaxField {
					// Kept, but not whole: the user should know.
					e.say("note: %s is %d bytes; memory keeps the first %d (cut at a word)", f.name, len(f.val), mdstore.MaxField)
				}
			}
			out, err := s.Record(c.Context, k, []mdstore.Entry{entry}, e.Now())
			if err != nil {
				return err
			}
			o := out[0]
			ids := []string{}
			if len(replaced) > 0 {
				for _, r := range replaced {
					ids = append(ids, r.ID)
				}
				m, err := curate.Merge(c.Context, s, ids, o.Entry.ID)
				if err != nil {
					return fmt.Errorf("memory add: %s is in memory, but %s not merged into it: %w", o.Entry.ID, strings.Join(ids, ", "), err)
				}
				o.Entry = m.Into
			}
			file := e.rel(p, s.Path(k))
			if c.Bool("json") {
				return e.writeJSON(map[string]any{"file": file, "entry": o.Entry, "recurred": !o.New, "replaces": ids})
			}
			if !o.New {
				// A repeat keeps its entry's status: the person adding it
				// must learn that it is not recalled, and what changes that.
				state := ""
				switch o.Entry.Status {
				case mdstore.Archived:
					state = fmt.Sprintf(", archived (never recalled; flowmem memory restore %s brings it back)", o.Entry.ID)
				case mdstore.Pending:
					state = fmt.Sprintf(", waiting for approval (flowmem memory approve %s)", o.Entry.ID)
				}
				e.say("already in %s as %s%s; now seen %dx", file, o.Entry.ID, state, o.Entry.Seen)
				// Told in other words (same content words, another fix):
				// the entry keeps its own, and the person should know that
				// theirs went nowhere.
				given := entry
				given.Normalize()
				if o.Entry.Text() != given.Text() || given.Fix != "" && o.Entry.Fix != given.Fix {
					e.say("note: it keeps its own words, not these: flowmem memory show %s", o.Entry.ID)
				}
			} else if o.Entry.Status == mdstore.Pending {
				e.say("added %s %s to %s, waiting for approval (capture.approval is on and Claude Code ran this: flowmem memory approve %s)", k, o.Entry.ID, file, o.Entry.ID)
			} else {
				e.say("added %s %s to %s", k, o.Entry.ID, file)
			}
			if len(ids) > 0 {
				e.say("it replaces %s: archived, merged into %s (now seen %dx)", strings.Join(ids, ", "), o.Entry.ID, o.Entry.Seen)
			}
			return nil
		}),
	}
}

type fileCount struct {
	File     string `json:"file"`
	Type     string `json:"type"`
	Entries  int    `json:"entries"` // active, stale ones included
	Stale    int    `json:"stale"`   // active but not seen for memory.stale_after_days
	Pending  int    `json:"pending"` // waiting for memory approve
	Archived int    `json:"archived"`
}

func (e *env) runList(c *cli.Context) error {
	p, cfg, s, err := e.memoryStore()
	if err != nil {
		return err
	}
	days, now := cfg.Int("memory.stale_after_days"), e.Now()
	var files []fileCount
	total, stale, pending := 0, 0, 0
	for _, k := range mdstore.Kinds {
		// Counted from headings and metadata lines: list reads no lesson
		// text.
		t, err := s.Tally(k, now, days)
		if err != nil {
			return err
		}
		fc := fileCount{File: e.rel(p, s.Path(k)), Type: string(k),
			Entries: t.Active, Stale: t.Stale, Pending: t.Pending, Archived: t.Archived}
		total += fc.Entries
		stale += fc.Stale
		pending += fc.Pending
		files = append(files, fc)
	}
	if c.Bool("json") {
		return e.writeJSON(map[string]any{"files": files, "total": total, "stale": stale, "pending": pending})
	}
	for _, f := range files {
		var extra []string
		if f.Stale > 0 {
			extra = append(extra, fmt.Sprintf("%d stale", f.Stale))
		}
		if f.Pending > 0 {
			extra = append(extra, fmt.Sprintf("+%d pending", f.Pending))
		}
		if f.Archived > 0 {
			extra = append(extra, fmt.Sprintf("+%d archived", f.Archived))
		}
		more := ""
		if len(extra) > 0 {
			more = " (" + strings.Join(extra, ", ") + ")"
		}
		fmt.Fprintf(e.Out, "%-16s %s%s\n", filepath.Base(f.File)+":", plural(f.Entries, "entry", "entries"), more)
	}
	fmt.Fprintf(e.Out, "%-16s %s\n", "total:", plural(total, "entry", "entries"))
	if stale > 0 {
		e.say("%s not seen for %d days: still recalled, ranked lower (memory show ID, memory archive ID)", plural(stale, "entry", "entries"), days)
	}
	if pending > 0 {
		e.say("%s waiting for approval: flowmem memory pending", plural(pending, "captured lesson", "captured lessons"))
	}
	return nil
}

func (e *env) runSearch(c *cli.Context) error {
	kinds, err := kindsFlag(c)
	if err != nil {
		return err
	}
	pattern := c.Args().First()
	if pattern == "" {
		// An empty pattern matches every line, metadata included: that
		// is cat, not a search.
		return usagef("empty pattern: give a word or regular expression to look for (memory read prints every entry)")
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		// Compiled alone only now, so the error quotes the user's pattern
		// and not the case-insensitive flag put before it.
		_, alone := regexp.Compile(pattern)
		return usagef("invalid pattern %q: %v", pattern, cmp.Or(alone, err))
	}
	p, _, s, err := e.memoryStore()
	if err != nil {
		return err
	}
	// Hits are handled as they are found, so a search of any store takes
	// the same little memory; text goes out through a buffer, since a
	// write per hit is a system call per hit.
	asJSON, hits, n := c.Bool("json"), []mdstore.Hit{}, 0
	file, rel := "", ""
	w := bufio.NewWriterSize(e.Out, 64<<10)
	err = s.SearchEach(re, func(h mdstore.Hit) error {
		n++
		if h.File != file {
			file, rel = h.File, e.rel(p, h.File)
		}
		if h.File = rel; asJSON {
			hits = append(hits, h)
			return nil
		}
		// The id, as the hook's note writes it, for memory show and the
		// commands that act on an entry.
		_, err := fmt.Fprintf(w, "%s:%d: [%s] %s\n", h.File, h.Line, h.ID, h.Text)
		return err
	}, kinds...)
	// What was found before an error is still shown.
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	switch {
	case err != nil:
		return err
	case asJSON:
		return e.writeJSON(map[string]any{"pattern": pattern, "matches": hits, "count": n})
	case n == 0:
		e.say("no matches for %q", pattern)
	}
	return nil
}

func (e *env) relAll(p project.Dir, paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, path := range paths {
		out = append(out, e.rel(p, path))
	}
	return out
}

// replacedEntries resolves the ids of memory add --replaces before
// anything is written: each must name one entry of the lesson's type that
// is not archived and does not hold the lesson's own text (it would be
// merged into itself).
func replacedEntries(s *mdstore.Store, k mdstore.Kind, text string, ids []string) ([]mdstore.Entry, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	entries, err := curate.Lookup(s, ids)
	if err != nil {
		return nil, fmt.Errorf("memory add --replaces: %w; nothing was written", err)
	}
	for _, en := range entries {
		switch {
		case en.Kind != k:
			return nil, fmt.Errorf("memory add --replaces: %s is a %s, not a %s: only a lesson of its type replaces it (to file this lesson as a %s instead, add it without --replaces, then: flowmem memory archive %s); nothing was written", en.ID, en.Kind, k, k, en.ID)
		case en.Status == mdstore.Archived:
			return nil, fmt.Errorf("memory add --replaces: %s is archived already (memory restore %s first to replace it); nothing was written", en.ID, en.ID)
		case mdstore.SameText(en.Text(), redact.String(text)):
			return nil, fmt.Errorf("memory add --replaces: %s says this lesson already: it cannot replace itself; nothing was written", en.ID)
		}
	}
	return entries, nil
}

// keepsWords says whether s, masked by redact.String, holds a letter or a
// digit outside its masks.
func keepsWords(s string) bool {
	return strings.IndexFunc(redact.Unmasked(s), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// categories are the values of memory add --category, as the review
// reader files findings.
var categories = []string{review.CatFramework, review.CatConvention, review.CatAPI, review.CatBuild, review.CatEdgeCase, review.CatSecurity, review.CatGeneral}

// checkTask refuses a --task that is not a task id (capture.TaskShaped).
// The value is not echoed, in case it is a secret.
func checkTask(task string) error {
	if task == "" {
		return nil
	}
	if !capture.TaskShaped(task) {
		return usagef("--task must be a task id like fn-3.2 (letters, digits and . _ - : / #, at most 80); nothing was written")
	}
	if redact.String(task) != task {
		return usagef("--task looks like a secret, not a task id like fn-3.2; nothing was written")
	}
	return nil
}

// invalidUTF8 is the offset of s's first byte that is not UTF-8, or -1.
func invalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return -1
}
