// Package app is flowmem's command line: the command tree, flag parsing,
// output formatting and the single place where errors become exit codes. It
// is the only package that imports urfave/cli, so the CLI library can be
// swapped without touching the rest.
package app

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/sanitize"
	"github.com/urfave/cli/v2"
)

// Exit codes. 2 is never used: Claude Code reads exit 2 from a hook as
// "block and show stderr to the model".
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 64
)

// IO is everything the commands touch outside the project files: streams,
// environment, working directory and clock. Tests pass their own.
type IO struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	Getenv func(string) string
	Getwd  func() (string, error)
	Now    func() time.Time
	// Exe is the path of the running flowmem binary, for hook commands.
	Exe func() (string, error)
}

// SystemIO is the real process's IO.
func SystemIO() IO {
	return IO{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		Getenv: os.Getenv, Getwd: os.Getwd, Now: time.Now, Exe: os.Executable,
	}
}

// usageError marks a mistake in how a command was called (exit 64). Main
// prints it as one line naming the command, then the command's usage.
type usageError struct {
	msg string
	cmd *cli.Command // the command called wrongly; nil for flowmem itself
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// report is the error line and the usage line.
func (e *usageError) report() string {
	name, args := "flowmem", "COMMAND [options]"
	if e.cmd != nil {
		name, args = cmp.Or(e.cmd.HelpName, "flowmem "+e.cmd.Name), "[options]"
		if hasSubcommands(e.cmd) {
			args = "COMMAND [options]"
		} else if a := strings.TrimSpace(e.cmd.ArgsUsage); a != "" {
			args += " " + a
		}
	}
	return fmt.Sprintf("%s: %s\nusage: %s %s (more: %s --help)", name, e.msg, name, args, name)
}

// nearCommand is the command (or, at the top, the flag) a mistyped
// command name most likely meant: one or two letters off, or the start of
// exactly one command's name.
func nearCommand(name string, cmds []*cli.Command, top bool) string {
	var names []string
	for _, c := range cmds {
		if c.Name != "help" {
			names = append(names, c.Name)
		}
	}
	if top {
		names = append(names, "--version", "--help")
	}
	if near := nearName(name, names); near != "" || !top {
		return near
	}
	// "flowmem read" for "flowmem memory read": the README and help show
	// most commands under a group, and a user who remembers the verb alone
	// should be told the group, not only that the verb is unknown.
	for _, c := range cmds {
		for _, s := range c.Subcommands {
			if s.Name == name && s.Name != "help" {
				return c.Name + " " + s.Name
			}
		}
	}
	return ""
}

// nearName is the one of names that name, mistyped, most likely meant: one
// or two letters off, or the start of exactly one of them.
func nearName(name string, names []string) string {
	var prefixed []string
	for _, n := range names {
		if len(name) >= 2 && strings.HasPrefix(n, name) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return config.Nearest(name, names, min(2, len(name)/3))
}

// hasSubcommands: urfave/cli gives every command a "help" subcommand.
func hasSubcommands(c *cli.Command) bool {
	return slices.ContainsFunc(c.Subcommands, func(s *cli.Command) bool { return s.Name != "help" })
}

// flagError rewords the flag package's errors in flowmem's words; an
// unknown flag comes with the one of flags it most likely meant.
func flagError(err error, flags []cli.Flag) string {
	msg := err.Error()
	dashes := func(name string) string {
		name = strings.TrimLeft(name, "-")
		if len(name) == 1 {
			return "-" + name
		}
		return "--" + name
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg := "unknown flag " + dashes(name)
		if name = strings.TrimLeft(name, "-"); len(name) > 1 {
			var names []string
			for _, f := range append(slices.Clip(flags), cli.HelpFlag) {
				for _, n := range f.Names() {
					if len(n) > 1 && !slices.Contains(names, n) {
						names = append(names, n)
					}
				}
			}
			if near := nearName(name, names); near != "" {
				msg += "; did you mean --" + near + "?"
			}
		}
		return msg
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return dashes(name) + " needs a value"
	}
	var value, name string
	if n, _ := fmt.Sscanf(msg, "invalid value %q for flag %s", &value, &name); n == 2 {
		return fmt.Sprintf("%s: %q is not a valid value", dashes(strings.TrimSuffix(name, ":")), value)
	}
	return msg
}

// errSilent reports failure after the command already explained it.
var errSilent = errors.New("silent failure")

// Main runs flowmem with args (args[0] is the program name) and returns the
// process exit code. It never calls os.Exit.
//
// A panic becomes exit 1 and one line on stderr: left alone, the Go runtime
// exits 2, which Claude Code reads from a hook as "block".
func Main(ctx context.Context, args []string, std IO) (code int) {
	defer func() {
		if r := recover(); r != nil {
			if std.Err != nil {
				fmt.Fprintf(std.Err, "flowmem: internal error: %s (please report it)\n", mdstore.OneLine(fmt.Sprint(r)))
			}
			code = exitError
		}
	}()
	if std.Getenv == nil {
		std.Getenv = func(string) string { return "" }
	}
	if std.Now == nil {
		std.Now = time.Now
	}
	if std.In == nil {
		std.In = strings.NewReader("")
	}
	if len(args) == 2 && args[1] == "hook" {
		// What flowmem-hook runs for a possible review: urfave's command
		// tree, built for nothing else, was a twentieth of its start.
		runHook(ctx, std)
		return exitOK
	}
	var notFound usageError
	a := newApp(std, &notFound)
	args, err := permute(a.Commands, helpArgs(a.Commands, args))
	if err == nil {
		err = a.RunContext(ctx, args)
	}
	if err == nil && notFound.msg != "" {
		err = &notFound
	}
	var ue *usageError
	std.Err = sanitize.Writer(std.Err) // errors quote paths and file content
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errSilent):
		return exitError
	case errors.As(err, &ue):
		fmt.Fprintln(std.Err, ue.report())
		return exitUsage
	default:
		fmt.Fprintf(std.Err, "flowmem: %v\n", err)
		return exitError
	}
}

// helpArgs reads "flowmem help memory add" (and "flowmem memory help add",
// "flowmem memory add help") as "flowmem memory add --help", so help names
// the command asked about, at any depth; urfave/cli's own help command is
// not used (see fixCommands). A flag that command does not know is its
// usage error (exit 64), as it would be without "help", and so is a word
// that names no subcommand of a group; known flags (and, after "flowmem
// help", the command's arguments) are left out, so help never runs the
// command. A "help" that is a flag's value is left alone (valueFollows).
func helpArgs(cmds []*cli.Command, args []string) []string {
	i := slices.Index(args, "help")
	if i < 1 || valueFollows(cmds, args[1:i]) {
		return args
	}
	// Everything around "help" must be command names, in one path, or flags.
	var path, flags []string
	var last *cli.Command
	for _, w := range append(slices.Clone(args[1:i]), args[i+1:]...) {
		if strings.HasPrefix(w, "-") {
			flags = append(flags, w)
			continue
		}
		c := find(cmds, w)
		switch {
		case c != nil:
		case last == nil || hasSubcommands(last):
			// "help memory nosuch" is memory's unknown-command error, as
			// "memory nosuch" is, not memory's help and exit 0; "help
			// nosuch" is flowmem's.
			return append(append([]string{args[0]}, path...), w)
		case last != nil && i == 1:
			continue // "help memory add TEXT": add's argument, not run
		default:
			return args
		}
		path, last, cmds = append(path, w), c, c.Subcommands
	}
	for _, f := range flags {
		if !knowsFlag(last, f) {
			return append(append([]string{args[0]}, path...), f)
		}
	}
	return append(append([]string{args[0]}, path...), "--help")
}

// valueFollows says whether the last of words is a flag of the command the
// words before it name that takes a value: the word after it is that value
// ("memory read --relevant help" asks about help), not the help command.
func valueFollows(cmds []*cli.Command, words []string) bool {
	if len(words) == 0 {
		return false
	}
	f := words[len(words)-1]
	if !strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
		return false
	}
	var last *cli.Command
	for _, w := range words[:len(words)-1] {
		if c := find(cmds, w); c != nil {
			last, cmds = c, c.Subcommands
		}
	}
	if last == nil {
		return false
	}
	return takesValue(last, strings.TrimLeft(f, "-"))
}

// knowsFlag says whether command c (nil: flowmem itself) has flag f, given
// as -x, --name or --name=value.
func knowsFlag(c *cli.Command, f string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
	if slices.Contains([]string{"h", "help", "v", "version"}, name) && (c == nil || name == "h" || name == "help") {
		return true
	}
	return c != nil && flagNamed(c, name) != nil
}

func newApp(std IO, notFound *usageError) *cli.App {
	// People's output loses terminal escapes and invisible characters from
	// entries (a hand edit or a teammate's merge can carry them); JSON and
	// the hook's protocol output keep the raw streams.
	e := &env{IO: std, raw: std}
	e.Out, e.Err = sanitize.Writer(std.Out), sanitize.Writer(std.Err)
	a := &cli.App{
		Name:      "flowmem",
		Usage:     "a project memory for coding agents that learns from code review",
		Version:   flowmem.BuildVersion(),
		Reader:    std.In,
		Writer:    std.Out,
		ErrWriter: std.Err,
		// A query is free text: "--relevant 'retries, timeouts'" is one query,
		// not two.
		DisableSliceFlagSeparator: true,
		HideHelpCommand:           true, // see fixCommands
		// urfave/cli v2 would call os.Exit itself for errors that carry a
		// code; exits belong to Main alone.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{msg: flagError(err, []cli.Flag{cli.VersionFlag})}
		},
		CommandNotFound: func(c *cli.Context, name string) {
			*notFound = usageError{msg: fmt.Sprintf("unknown command %q", name)}
			cmds := c.App.Commands
			if c.Command != nil && c.Command.Name != "" && c.Command.HelpName != "flowmem" {
				notFound.cmd, cmds = c.Command, c.Command.Subcommands
			}
			if near := nearCommand(name, cmds, notFound.cmd == nil); near != "" {
				notFound.msg += "; did you mean " + near + "?"
			}
		},
		Description: `flowmem captures NEEDS_WORK feedback from code reviews run inside Claude Code,
keeps the lessons worth keeping in .flow/memory/*.md, and hands the relevant
ones back when planning and working.

Examples:
   flowmem init --enable --install     set up memory and the Claude Code hook here
   flowmem memory add --type pitfall "Run go generate before go test" --fix "make gen"
   flowmem memory read --relevant "add retry to webhook delivery"`,
		Commands: []*cli.Command{
			initCommand(e),
			configCommand(e),
			memoryCommand(e),
			installCommand(e),
			uninstallCommand(e),
			doctorCommand(e),
			hookCommand(e),
			captureCommand(e),
		},
	}
	fixCommands(a.Commands)
	return a
}

// fixCommands makes every command report flag mistakes as usage errors
// (exit 64) instead of urfave's default exit code handling, and ties each
// usage error to the command it is about, for its usage line. It also
// keeps urfave/cli's help command out: urfave/cli v2 adds one shared
// command to every command and writes into it on each run (two runs in one
// process, as in the tests, race), and helpArgs serves "help" instead.
func fixCommands(cmds []*cli.Command) {
	for _, c := range cmds {
		c.HideHelpCommand = true
		if c.OnUsageError == nil {
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
				return &usageError{msg: flagError(err, c.Flags), cmd: c}
			}
		}
		if act := c.Action; act != nil {
			c.Action = func(ctx *cli.Context) error {
				err := act(ctx)
				var ue *usageError
				if errors.As(err, &ue) && ue.cmd == nil {
					ue.cmd = c
				}
				return err
			}
		}
		fixCommands(c.Subcommands)
	}
}

// env is what every command shares: the IO and lazily found project paths.
type env struct {
	IO
	// raw is IO with the unfiltered streams, for machine-readable output.
	raw IO
	// staleAfter is memory.stale_after_days, read with the config by
	// memoryStore.
	staleAfter int
}

// perRun is urfave/cli's package-level --help or --version flag, applied
// as a copy: BoolFlag.Apply writes the flag's default back into it on every
// run, so two runs in one process (the in-process tests, in parallel) would
// race on the one value urfave/cli v2 shares. Wrapped once, before any run.
type perRun struct{ *cli.BoolFlag }

func (f perRun) Apply(set *flag.FlagSet) error {
	c := *f.BoolFlag
	return c.Apply(set)
}

func init() {
	for _, f := range []*cli.Flag{&cli.HelpFlag, &cli.VersionFlag} {
		if b, ok := (*f).(*cli.BoolFlag); ok {
			*f = perRun{b}
		}
	}
	// Help shows a flag's default once: where the usage text already says
	// it ("default: recall.limit"), urfave/cli's "(default: 0)" would say it
	// again (and wrongly); an off switch or a zero says nothing.
	base := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string {
		s := base(f)
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			return s
		}
		def := df.GetDefaultText()
		_, isBool := f.(*cli.BoolFlag)
		if strings.Contains(df.GetUsage(), "default") || isBool || def == "0" || def == "" {
			s = strings.TrimSuffix(s, " (default: "+def+")")
		}
		return s
	}
}
