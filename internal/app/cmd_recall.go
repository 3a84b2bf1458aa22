package app

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/flowmem/flowmem/internal/recall"
	"github.com/urfave/cli/v2"
)

// scoredEntry is one --json result of a ranked read: the entry's fields
// plus its score.
type scoredEntry struct {
	mdstore.Entry
	Score float64 `json:"score"`
	// Stale: not seen for memory.stale_after_days (computed, never stored),
	// so a script knows why the entry ranks lower.
	Stale bool `json:"stale,omitempty"`
}

// printRelevant ranks the memory for one query or, merged, for several.
// With several, --json gives each entry's merged score. When nothing
// qualifies it prints nothing and says so on stderr: an empty block is the
// answer, not a failure.
func (e *env) printRelevant(c *cli.Context, s *mdstore.Store, queries []string, opt recall.Options, kinds []mdstore.Kind) error {
	files, err := recall.Load(s, kinds...)
	if err != nil {
		return err
	}
	opt.Now, opt.StaleAfterDays = e.Now(), e.staleAfter
	if len(queries) == 1 {
		// One request, read as it is: the floor prime uses. The scout's
		// several searches keep every lesson that says a specific word of
		// one of them, and the scout chooses.
		opt.Floor = recall.StrictFloor
	}
	hits, err := recall.Search(files, queries, opt)
	if err != nil {
		return err
	}
	ids := make([]string, len(hits))
	for i := range hits {
		ids[i] = hits[i].Entry.ID
	}
	if !c.Bool("no-record") {
		e.noteInjected(s, "read", queries, ids)
	}
	if c.Bool("json") {
		out := make([]scoredEntry, 0, len(hits))
		for _, h := range hits {
			out = append(out, scoredEntry{h.Entry, h.Score, h.Entry.Stale(opt.Now, opt.StaleAfterDays)})
		}
		// "queries" always, so scripts read one shape; "query" too for one,
		// as earlier versions gave it.
		res := map[string]any{"entries": out, "count": len(out), "queries": queries}
		if len(queries) == 1 {
			res["query"] = queries[0]
		}
		return e.writeJSON(res)
	}
	err = recall.Format(e.Out, hits, opt)
	if errors.Is(err, recall.ErrNothing) {
		e.say("flowmem: %s", e.nothingNote(s, kinds, false))
		return nil
	}
	return err
}

// nothingNote is the note for a recall that found nothing. A memory with
// no active lesson of the kinds asked for is told apart from one where
// none bears on the request: a new user's first prime should not read as
// a miss. bare is a prime without a task. Counted only on this path, so a
// found lesson costs nothing.
func (e *env) nothingNote(s *mdstore.Store, kinds []mdstore.Kind, bare bool) string {
	if len(kinds) == 0 {
		kinds = mdstore.Kinds
	}
	var active, pending int
	for _, k := range kinds {
		t, err := s.Tally(k, e.Now(), e.staleAfter)
		if err != nil {
			return recall.ErrNothing.Error()
		}
		active, pending = active+t.Active, pending+t.Pending
	}
	what := "lessons"
	if len(kinds) < len(mdstore.Kinds) {
		names := make([]string, len(kinds))
		for i, k := range kinds {
			names[i] = string(k) + "s"
		}
		what = strings.Join(names, " or ")
	}
	switch {
	case active == 0 && pending > 0:
		return fmt.Sprintf("memory has no active %s yet: %s waiting for approval (flowmem memory pending)", what, plural(pending, "is", "are"))
	case active == 0:
		return fmt.Sprintf("memory has no %s yet: the hook records them from reviews that ask for changes, and flowmem memory add writes one", what)
	case bare:
		// Prime without a task lists confirmed lessons only.
		return "no lesson in memory is confirmed yet (seen in two reviews, or added by hand); prime with a TASK to find the others"
	}
	return recall.ErrNothing.Error()
}

func memoryPrimeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "prime",
		Usage:     "print a bounded, prompt-ready block of the lessons that matter most for a task",
		ArgsUsage: "[TASK]",
		Description: `Confirmed lessons (seen in two or more reviews, or added by hand) come first.
A lesson is printed only when it says most of TASK's specific words; when none
does, prime prints nothing and says so on stderr (exit 0): a prompt is better
without lessons than with unrelated ones. Without TASK (or with only a task
id) it lists the top confirmed lessons. For Ralph loop prompts and
for a SessionStart hook (--session-start prints the hook's JSON and never
fails, so it is safe as a hook command; a config it cannot read is one
line on stderr, which Claude Code keeps in its debug log).

Examples:
   flowmem memory prime "fn-3.2: add retries to the webhook sender"
   flowmem memory prime --max-chars 2000 "$(cat task.md)"
   flowmem memory prime --no-record "fn-3.2: add retries to the webhook sender" | less   # a look, not a hand-over
   flowmem memory prime --session-start     # in .claude/settings.json SessionStart`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Usage: "at most `N` lessons (default: recall.limit)"},
			&cli.IntFlag{Name: "max-chars", Usage: "a budget of `N` characters (default: recall.max_chars; always capped well under Claude Code's 10,000-character limit)"},
			&cli.BoolFlag{Name: "session-start", Usage: "print Claude Code SessionStart hook JSON; task from FLOW_TASK_ID"},
			noRecordFlag(),
			jsonFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("expected one TASK argument (quote it)")
			}
			task := c.Args().First()
			if c.Bool("session-start") {
				return e.primeSessionStart(c, task)
			}
			_, cfg, s, err := e.memoryStore()
			if err != nil {
				return err
			}
			block, err := e.prime(c, cfg, s, task)
			if nf := (*recall.NoFitError)(nil); errors.As(err, &nf) && c.Bool("json") {
				block, err = "", nil // "chars": 0 says it
			}
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return e.writeJSON(map[string]any{"task": task, "prime": block, "chars": len([]rune(block))})
			}
			if block == "" {
				e.say("flowmem: %s", e.nothingNote(s, nil, strings.TrimSpace(task) == ""))
				return nil
			}
			_, err = fmt.Fprint(e.Out, block)
			return err
		},
	}
}

func (e *env) prime(c *cli.Context, cfg *config.Config, s *mdstore.Store, task string) (string, error) {
	files, err := recall.Load(s)
	if err != nil {
		return "", err
	}
	opt := recallLimits(c, cfg)
	if opt.Limit < 1 || opt.MaxChars < 1 {
		return "", usagef("--limit and --max-chars must be at least 1")
	}
	opt.Now, opt.StaleAfterDays = e.Now(), cfg.Int("memory.stale_after_days")
	block, ids, err := recall.PrimeIDs(files, task, opt)
	if err != nil {
		return "", err
	}
	// The injection record tells the SessionStart hook from a prime
	// command (a Ralph loop's prompt).
	by := "prime"
	if c.Bool("session-start") {
		by = "session-start"
	}
	if !c.Bool("no-record") {
		e.noteInjected(s, by, []string{task}, ids)
	}
	return block, nil
}

// recallLimits are --limit and --max-chars, or recall.limit and
// recall.max_chars where they are not given.
func recallLimits(c *cli.Context, cfg *config.Config) recall.Options {
	opt := recall.Options{Limit: cfg.Int("recall.limit"), MaxChars: cfg.Int("recall.max_chars")}
	if c.IsSet("limit") {
		opt.Limit = c.Int("limit")
	}
	if c.IsSet("max-chars") {
		opt.MaxChars = c.Int("max-chars")
	}
	return opt
}

// primeSessionStart is the SessionStart hook form: any problem means no
// context rather than an error, because a failing hook would show the user
// an error at every session start. A config or memory file that cannot be
// read is said in one line on stderr, as the capture hook says it (Claude
// Code keeps a hook's stderr in its debug log at exit 0): every session
// would otherwise start without its lessons and nothing say why.
func (e *env) primeSessionStart(c *cli.Context, task string) error {
	task = cmp.Or(task, e.Getenv("FLOW_TASK_ID"))
	dir := e.Getenv("CLAUDE_PROJECT_DIR")
	if dir == "" {
		var err error
		if dir, err = e.cwd(); err != nil {
			return nil
		}
	}
	p, err := project.Find(dir)
	if err != nil {
		return nil
	}
	unread := func(err error) error {
		e.say("flowmem memory prime --session-start: no lessons primed: %v", err)
		return nil
	}
	cfg, err := config.Load(p.ConfigPath())
	if err != nil {
		return unread(err)
	}
	if !cfg.Bool("memory.enabled") {
		return nil
	}
	block, err := e.prime(c, cfg, mdstore.Open(p.MemoryDir()), task)
	if nf := (*recall.NoFitError)(nil); err != nil && !errors.As(err, &nf) {
		return unread(err)
	}
	if err != nil || strings.TrimSpace(block) == "" {
		return nil
	}
	return e.writeJSON(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":     "SessionStart",
		"additionalContext": block,
	}})
}
