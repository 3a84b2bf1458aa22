package app

import (
	"context"
	"fmt"
	"io"

	"github.com/flowmem/flowmem/internal/capture"
	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/urfave/cli/v2"
)

// hookCommand is `flowmem hook`, the command Claude Code's PostToolUse and
// PostToolUseFailure hooks run. It takes no flags on purpose: whatever the
// hook entry passes, it must read stdin and exit 0, since exit 2 would
// show an error to the model.
func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "Claude Code hook: learn from review output in the event on stdin (always exits 0)",
		ArgsUsage: "< EVENT.json",
		// Its help lists no "help" subcommand: the hook has none.
		HideHelpCommand: true,
		Description: `Reads one PostToolUse or PostToolUseFailure event (JSON) from stdin. When it
is a review run (a Bash command matching capture.review_patterns, or a reviewer
subagent's result) with a NEEDS_WORK or MAJOR_RETHINK verdict, the learnable
findings are redacted and recorded in .flow/memory/pitfalls.md; a lesson seen
before updates its entry instead. Anything else exits at once. The project is
found from the event's cwd, else CLAUDE_PROJECT_DIR, else the folder the hook
runs in. FLOWMEM_DISABLE=1 turns the hook off. Arguments are ignored (a hook
entry's extra words must not make it fail): give the event on stdin. Errors
are one line on stderr; the exit code is always 0.

Claude Code usually runs flowmem-hook, the small front end flowmem install
registers: it ends ordinary tool calls itself and hands possible reviews,
byte for byte, to this command. 'flowmem capture --explain' runs the same
pipeline on a review text without writing.

Example (what flowmem install writes into .claude/settings.json):
   {"hooks": {"PostToolUse": [{"matcher": "Bash|Agent",
     "hooks": [{"type": "command", "command": "flowmem-hook", "timeout": 10}]}]}}`,
		// Arguments and flags are ignored rather than rejected: a usage
		// error would exit 64 and Claude Code would show a hook error.
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			// Flags are not parsed, so help is asked for by hand; a hook
			// entry never passes it.
			if a := c.Args().First(); a == "--help" || a == "-h" || a == "help" {
				return cli.ShowCommandHelp(c.Lineage()[1], c.Command.Name)
			}
			runHook(c.Context, e.raw)
			return nil
		},
	}
}

// runHook is the hook with the process's IO. A panic anywhere in it is
// reported as one line and the process still exits 0: Go's own crash exit
// code is 2, which Claude Code would show the model as a hook error.
func runHook(ctx context.Context, std IO) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(std.Err, "flowmem hook: internal error: %s\n", mdstore.OneLine(fmt.Sprint(r)))
		}
	}()
	opt := capture.Options{Getenv: std.Getenv, Now: std.Now}
	if std.Getwd != nil {
		// Only for an event that names no cwd (capture.Options.Dir).
		opt.Dir, _ = std.Getwd()
	}
	capture.Run(ctx, std.In, std.Out, std.Err, opt)
}

// captureCommand is `flowmem capture --explain`: what the hook would learn
// from a review text, finding by finding, without writing anything. It runs
// the hook's own pipeline (capture.Explain), so the two cannot drift.
func captureCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "capture",
		Usage:     "explain what the hook would record from a review text",
		ArgsUsage: "--explain [--json] [FILE|-]",
		Description: `Reads a review (a file, or stdin when FILE is -, or missing and stdin is
not a terminal) as the hook would read a review command's output —
unwrapping a Codex event stream, a flow-next receipt or a claude -p result —
and prints the verdict, the task and every finding with KEEP or DROP, the
reason and the category, using this project's capture settings. Secrets are
redacted as the hook would. Nothing is written.

--json prints {"verdict", "task", "findings": [{"keep", "reason", "severity",
"category", "issue", "fix", "context"}]}.

Examples:
   flowmem capture --explain review.md
   flowctl codex impl-review fn-1.2 | flowmem capture --explain --json -`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "explain", Usage: "print each finding's keep/drop decision, reason and category"},
			jsonFlag(),
		},
		Action: func(c *cli.Context) error {
			if !c.Bool("explain") {
				return usagef("capture needs --explain; see 'flowmem capture --help'")
			}
			if c.NArg() > 1 {
				return usagef("capture --explain takes at most one FILE (or - for stdin)")
			}
			text, err := e.readReview(c.Args().First())
			if err != nil {
				return err
			}
			dir, err := e.cwd()
			if err != nil {
				return err
			}
			res, err := capture.Explain(c.Context, text, dir, capture.Options{Getenv: e.Getenv, Now: e.Now})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return e.writeJSON(res.JSON())
			}
			return capture.WriteExplain(e.Out, res)
		},
	}
}

// readReview reads a review text from a file or stdin, bounded like the
// hook's persisted-output read; a file must be a regular one.
func (e *env) readReview(name string) (string, error) {
	if name != "" && name != "-" {
		text, err := hookevent.ReadRegular(name, hookevent.MaxPersisted)
		if err != nil {
			return "", fmt.Errorf("read review: %w", err)
		}
		return text, nil
	}
	// With no FILE and a terminal (a character device) on stdin, reading
	// would wait, silent, for text the user never meant to type: say what
	// the command wants instead. "-" reads the terminal as asked.
	if name == "" && toDevice(e.In) {
		return "", usagef("no review to read: name its FILE, or pipe it in (... | flowmem capture --explain -)")
	}
	b, err := io.ReadAll(io.LimitReader(e.In, hookevent.MaxPersisted))
	if err != nil {
		return "", fmt.Errorf("read review: %w", err)
	}
	return string(b), nil
}
