package app

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"
)

// walkCommands calls fn for every command with its path of names.
func walkCommands(cmds []*cli.Command, path []string, fn func(path []string, c *cli.Command)) {
	for _, c := range cmds {
		p := append(append([]string{}, path...), c.Name)
		fn(p, c)
		walkCommands(c.Subcommands, p, fn)
	}
}

// TestShortFlagsMeanOneThing: a one-letter flag means the same long flag
// in every command that has it.
func TestShortFlagsMeanOneThing(t *testing.T) {
	t.Parallel()
	var nf usageError
	meaning := map[string]string{} // -x → --long
	where := map[string]string{}
	walkCommands(newApp(IO{}, &nf).Commands, nil, func(path []string, c *cli.Command) {
		for _, f := range c.Flags {
			names := f.Names()
			for _, n := range names[1:] {
				if len(n) != 1 {
					continue
				}
				if m, ok := meaning[n]; ok && m != names[0] {
					t.Errorf("-%s is --%s in %s but --%s in %s", n, m, where[n], names[0], strings.Join(path, " "))
				}
				meaning[n], where[n] = names[0], strings.Join(path, " ")
			}
		}
	})
}

// TestUsageErrors: unknown flags, bad flag values and missing arguments
// get one line in flowmem's words naming the command, then its usage;
// exit 64.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args      string
		line, use string
	}{
		{"memory add --bogus x", "flowmem memory add: unknown flag --bogus", "usage: flowmem memory add [options] TEXT"},
		{"memory add -q x", "flowmem memory add: unknown flag -q", "usage: flowmem memory add [options] TEXT"},
		{"memory add", "flowmem memory add: expected TEXT", "usage: flowmem memory add [options] TEXT"},
		{"config get", "flowmem config get: expected KEY", "usage: flowmem config get [options] KEY"},
		{"memory read --limit x", `flowmem memory read: --limit: "x" is not a valid value`, "usage: flowmem memory read [options]"},
		{"memory read --limit", "flowmem memory read: --limit needs a value", "usage: flowmem memory read [options]"},
		{"config set recall.limit -5", "flowmem config set: recall.limit: must be at least 1", "usage: flowmem config set [options] KEY VALUE"},
		{"install --local --user", "flowmem install: give at most one of --local, --user, --codex", "usage: flowmem install [options]"},
		{"memory --bogus", "flowmem memory: unknown flag --bogus", "usage: flowmem memory COMMAND [options]"},
		{"memory nope", `flowmem memory: unknown command "nope"`, "usage: flowmem memory COMMAND [options]"},
		{"--bogus", "flowmem: unknown flag --bogus", "usage: flowmem COMMAND [options]"},
		// Text in another encoding would lose its bytes silently.
		{"memory add --type pitfall caf\xe9-au-lait", "flowmem memory add: TEXT is not valid UTF-8 (byte 4); save it as UTF-8; nothing was written", "usage: flowmem memory add [options] TEXT"},
		{"memory add --type pitfall lesson --fix \xc3", "flowmem memory add: --fix is not valid UTF-8 (byte 1)", "usage: flowmem memory add [options] TEXT"},
		{"memory approve --all p-1234", "flowmem memory approve: give IDs or --all, not both", "usage: flowmem memory approve [options] ID... | --all"},
		// A value flag given twice with two values: which one was meant?
		{"memory add --type pitfall --type convention x", "flowmem memory add: --type given twice (pitfall, convention): give it once", "usage: flowmem memory add [options] TEXT"},
		{"memory add x -t pitfall --fix a --type=decision", "flowmem memory add: --type given twice (pitfall, decision): give it once", "usage: flowmem memory add [options] TEXT"},
		{"memory read --limit 3 -n 5", "flowmem memory read: --limit given twice (3, 5): give it once", "usage: flowmem memory read [options]"},
		{"nope", `flowmem: unknown command "nope"`, "usage: flowmem COMMAND [options]"},
		// A slip of the keyboard gets the command it most likely meant;
		// a start that fits several gets none.
		{"memroy list", `flowmem: unknown command "memroy"; did you mean memory?`, "usage: flowmem COMMAND [options]"},
		{"version", `flowmem: unknown command "version"; did you mean --version?`, "usage: flowmem COMMAND [options]"},
		{"memory lst", `flowmem memory: unknown command "lst"; did you mean list?`, "usage: flowmem memory COMMAND [options]"},
		{"memory cur", `flowmem memory: unknown command "cur"; did you mean curate?`, "usage: flowmem memory COMMAND [options]"},
		// The error quotes the pattern given, not the (?i) put before it.
		{"memory search a(b", "flowmem memory search: invalid pattern \"a(b\": error parsing regexp: missing closing ): `a(b`", "usage: flowmem memory search [options] PATTERN"},
	}
	for _, tt := range tests {
		std, out, errb := testIO(t.TempDir())
		code := Main(context.Background(), append([]string{"flowmem"}, strings.Fields(tt.args)...), std)
		lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
		if code != exitUsage || len(lines) != 2 || !strings.HasPrefix(lines[0], tt.line) || !strings.HasPrefix(lines[1], tt.use) || out.Len() > 0 {
			t.Errorf("flowmem %s: exit %d, stdout %q, stderr:\n%s\nwant exit 64, nothing on stdout, and\n%s…\n%s…", tt.args, code, out, errb, tt.line, tt.use)
		}
	}
}

// TestUnknownCommandStartOfSeveral: a start that fits several commands
// (read, reject, report, restore) suggests none of them.
func TestUnknownCommandStartOfSeveral(t *testing.T) {
	t.Parallel()
	std, _, errb := testIO(t.TempDir())
	Main(context.Background(), []string{"flowmem", "memory", "re"}, std)
	if line, _, _ := strings.Cut(errb.String(), "\n"); line != `flowmem memory: unknown command "re"` {
		t.Errorf("flowmem memory re: %q", line)
	}
}

// TestHelpNamesTheCommand: "flowmem help memory add" is the help of
// memory add, not of the memory group.
func TestHelpNamesTheCommand(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"memory add", "memory", "config set", "install"} {
		std, want, _ := testIO(t.TempDir())
		Main(context.Background(), append(append([]string{"flowmem"}, strings.Fields(path)...), "--help"), std)
		std, got, _ := testIO(t.TempDir())
		if code := Main(context.Background(), append([]string{"flowmem", "help"}, strings.Fields(path)...), std); code != 0 {
			t.Errorf("flowmem help %s: exit %d", path, code)
		}
		if got.String() != want.String() {
			t.Errorf("flowmem help %s:\n%s\nwant (as %s --help):\n%s", path, got, path, want)
		}
	}
	// After a command that takes arguments, help shows its page and runs
	// nothing; a word that names no subcommand of a group is that group's
	// usage error (it showed the group's help, exit 0).
	for _, tt := range []struct{ args, page string }{
		{"memory add some-lesson", "memory add"},
		{"config set memory.enabled true", "config set"},
		{"memory add --type pitfall", "memory add"},
	} {
		std, want, _ := testIO(t.TempDir())
		Main(context.Background(), append(append([]string{"flowmem"}, strings.Fields(tt.page)...), "--help"), std)
		dir := t.TempDir()
		std, got, errb := testIO(dir)
		if code := Main(context.Background(), append([]string{"flowmem", "help"}, strings.Fields(tt.args)...), std); code != 0 || got.String() != want.String() || errb.Len() > 0 {
			t.Errorf("flowmem help %s: exit %d, stderr %q, stdout:\n%s\nwant %s --help", tt.args, code, errb, got, tt.page)
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("flowmem help %s ran the command: %s", tt.args, ents[0].Name())
		}
	}
	for _, tt := range []struct{ args, want string }{
		{"help memory nosuch", "flowmem memory: unknown command \"nosuch\"\n"},
		{"help config nosuch", "flowmem config: unknown command \"nosuch\"\n"},
		{"help memory nosuch add", "flowmem memory: unknown command \"nosuch\"\n"},
		{"help nosuch", "flowmem: unknown command \"nosuch\"\n"},
	} {
		std, out, errb := testIO(t.TempDir())
		if code := Main(context.Background(), append([]string{"flowmem"}, strings.Fields(tt.args)...), std); code != exitUsage || !strings.HasPrefix(errb.String(), tt.want) || out.Len() != 0 {
			t.Errorf("flowmem %s: exit %d, stdout %q, stderr %q; want 64 and %q", tt.args, code, out, errb, tt.want)
		}
	}
}

// TestHelpWithUnknownFlag: a flag mistake after "help" is flowmem's own
// one-line usage error for the command asked about (exit 64), not the
// help command's "Incorrect Usage" page with exit 1.
func TestHelpWithUnknownFlag(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ args, cmd string }{
		{"help --nope", "flowmem:"},
		{"memory help --nope", "flowmem memory:"},
		{"help memory add --nope", "flowmem memory add:"},
	} {
		std, out, errb := testIO(t.TempDir())
		if code := Main(context.Background(), append([]string{"flowmem"}, strings.Fields(tt.args)...), std); code != exitUsage {
			t.Errorf("flowmem %s: exit %d, want %d (stderr %q)", tt.args, code, exitUsage, errb)
		}
		if want := tt.cmd + " unknown flag --nope\n"; !strings.HasPrefix(errb.String(), want) || strings.Count(errb.String(), "\n") != 2 || out.Len() != 0 {
			t.Errorf("flowmem %s: stdout %q, stderr %q; want stderr %q and a usage line", tt.args, out, errb, want)
		}
	}
	// Known flags after help are still help: the command never runs.
	for _, args := range []string{"help memory -h", "help install --local", "help memory add --type=pitfall"} {
		std, out, _ := testIO(t.TempDir())
		if code := Main(context.Background(), append([]string{"flowmem"}, strings.Fields(args)...), std); code != 0 || !strings.Contains(out.String(), "USAGE:") {
			t.Errorf("flowmem %s: exit %d:\n%s", args, code, out)
		}
	}
}

// TestHelpShowsEachDefaultOnce: no flag's help line gives its default
// twice, or a default that says nothing (false, 0).
func TestHelpShowsEachDefaultOnce(t *testing.T) {
	t.Parallel()
	var nf usageError
	walkCommands(newApp(IO{}, &nf).Commands, nil, func(path []string, c *cli.Command) {
		std, out, _ := testIO(t.TempDir())
		Main(context.Background(), append(append([]string{"flowmem"}, path...), "--help"), std)
		_, opts, _ := strings.Cut(out.String(), "OPTIONS:")
		for _, l := range strings.Split(opts, "\n") {
			if strings.Count(l, "default") > 1 || strings.Contains(l, "(default: false)") || strings.Contains(l, "(default: 0)") {
				t.Errorf("flowmem %s --help: %s", strings.Join(path, " "), strings.TrimSpace(l))
			}
		}
	})
}

// TestHelpAfterArguments: --help (or -h) at the end of a full command line
// shows that command's help, exit 0, and runs nothing; urfave/cli read the
// first argument as a subcommand to show help for ("unknown command").
func TestHelpAfterArguments(t *testing.T) {
	t.Parallel()
	for _, args := range []string{"memory show p-1234 --help", "config get memory.enabled -h", "memory add --type pitfall some-lesson --help", "memory add --help some-lesson"} {
		fields := strings.Fields(args)
		std, want, _ := testIO(t.TempDir())
		Main(context.Background(), []string{"flowmem", fields[0], fields[1], "--help"}, std)
		std, got, errb := testIO(t.TempDir())
		if code := Main(context.Background(), append([]string{"flowmem"}, fields...), std); code != 0 || got.String() != want.String() || errb.Len() > 0 {
			t.Errorf("flowmem %s: exit %d, stderr %q, stdout:\n%s\nwant exit 0 and %s %s --help:\n%s", args, code, errb, got, fields[0], fields[1], want)
		}
	}
}

// TestHelpListsOnlyRealCommands: a command with no subcommands lists none
// in its help (urfave/cli's own "help, h" is not one), and the hook's help
// says the event comes on stdin, not as an argument: it ignores arguments.
func TestHelpListsOnlyRealCommands(t *testing.T) {
	t.Parallel()
	var nf usageError
	walkCommands(newApp(IO{}, &nf).Commands, nil, func(path []string, c *cli.Command) {
		if hasSubcommands(c) || c.Name == "help" {
			return
		}
		std, out, _ := testIO(t.TempDir())
		Main(context.Background(), append(append([]string{"flowmem"}, path...), "--help"), std)
		if strings.Contains(out.String(), "COMMANDS:") {
			t.Errorf("flowmem %s --help lists commands it does not have:\n%s", strings.Join(path, " "), out)
		}
	})
	std, out, _ := testIO(t.TempDir())
	Main(context.Background(), []string{"flowmem", "hook", "--help"}, std)
	if !strings.Contains(out.String(), "flowmem hook [command options] < EVENT.json\n") {
		t.Errorf("flowmem hook --help:\n%s\nwant the usage line to read the event from stdin", out)
	}
}

// TestHelpLinesEndInText: no line of any help page ends in a space (the
// usage line of a command without arguments did, twice).
func TestHelpLinesEndInText(t *testing.T) {
	t.Parallel()
	var nf usageError
	walkCommands(newApp(IO{}, &nf).Commands, nil, func(path []string, c *cli.Command) {
		std, out, _ := testIO(t.TempDir())
		Main(context.Background(), append(append([]string{"flowmem"}, path...), "--help"), std)
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.TrimRight(l, " ") != l {
				t.Errorf("flowmem %s --help: %q ends in a space", strings.Join(path, " "), l)
			}
		}
	})
}

// TestHelpNamesValues: every value flag's help names what it takes
// (--limit N, --type TYPE), never urfave/cli's bare placeholder "value".
func TestHelpNamesValues(t *testing.T) {
	t.Parallel()
	var nf usageError
	walkCommands(newApp(IO{}, &nf).Commands, nil, func(path []string, c *cli.Command) {
		std, out, _ := testIO(t.TempDir())
		Main(context.Background(), append(append([]string{"flowmem"}, path...), "--help"), std)
		_, opts, _ := strings.Cut(out.String(), "OPTIONS:")
		for _, l := range strings.Split(opts, "\n") {
			if strings.Contains(l, " value ") || strings.Contains(l, " value,") {
				t.Errorf("flowmem %s --help: %s", strings.Join(path, " "), strings.TrimSpace(l))
			}
		}
	})
}

// TestBadConfigSetChangesNothing: a config set that is refused (a bad key,
// a value of the wrong type, text that is not UTF-8) leaves a folder with
// no project as it was: no .flow/ made for a setting that was never saved.
func TestBadConfigSetChangesNothing(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"config", "set", "a..b", "1"},
		{"config", "set", "capture.approval", "maybe"},
		{"config", "set", "team.name", "caf\xe9"},
		{"config", "set", "k\xff", "1"},
	} {
		dir := t.TempDir()
		std, _, errb := testIO(dir)
		if code := Main(context.Background(), append([]string{"flowmem"}, args...), std); code != exitUsage {
			t.Errorf("%q: exit %d, want 64\n%s", args, code, errb)
		}
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			t.Errorf("%q left %s behind", args, ents[0].Name())
		}
	}
}

// TestMainRunsSideBySide: runs of Main share nothing, so the in-process
// tests can run in parallel. Under -race (make test) this fails when a
// flag or command urfave/cli writes into on each run is shared between
// runs: its package-level --help and --version flags, its help command,
// and once app's own --json flag. Each run here also checks its answer.
func TestMainRunsSideBySide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if std, _, errb := testIO(dir); Main(context.Background(), []string{"flowmem", "init", "--enable"}, std) != 0 {
		t.Fatal(errb)
	}
	calls := []struct {
		args []string
		want string
	}{
		{[]string{"flowmem", "--version"}, "flowmem version "},
		{[]string{"flowmem", "help"}, "COMMANDS:"},
		{[]string{"flowmem", "memory", "help"}, "flowmem memory - "},
		{[]string{"flowmem", "memory", "list", "--help"}, "flowmem memory list - "},
		{[]string{"flowmem", "config", "get", "recall.limit", "--json"}, `"key": "recall.limit"`},
		{[]string{"flowmem", "memory", "stats", "--json"}, `"total": 0`},
	}
	var wg sync.WaitGroup
	for range 4 {
		for _, c := range calls {
			wg.Go(func() {
				std, out, errb := testIO(dir)
				if code := Main(context.Background(), c.args, std); code != 0 || !strings.Contains(out.String(), c.want) {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", strings.Join(c.args, " "), code, out, errb, c.want)
				}
			})
		}
	}
	wg.Wait()
}

// TestHelpAsAFlagValue: "help" right after a flag that takes a value is
// that value, as it was before a trailing "help" became a help request:
// "memory read --relevant help" recalls lessons about help, and "memory
// add --type pitfall help" adds a lesson; a bool flag takes no value, so
// "memory read --json help" is still read's help.
func TestHelpAsAFlagValue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) { return runIn(t, dir, args...) }
	if code, _, errb := run("init", "--enable"); code != 0 {
		t.Fatal(errb)
	}
	if code, _, errb := run("memory", "add", "--type", "pitfall", "help"); code != 0 || !strings.Contains(errb, "added pitfall") {
		t.Fatalf("memory add --type pitfall help: exit %d, stderr %q; want the lesson added", code, errb)
	}
	if code, out, errb := run("memory", "read", "--relevant", "help", "--json"); code != 0 || !strings.Contains(out, `"help"`) || strings.Contains(out, "USAGE") {
		t.Errorf("memory read --relevant help --json: exit %d, stdout %q, stderr %q; want the lesson", code, out, errb)
	}
	if code, out, errb := run("memory", "read", "--json", "--relevant", "help"); code != 0 || !strings.Contains(out, `"help"`) || strings.Contains(out, "USAGE") {
		t.Errorf("memory read --json --relevant help: exit %d, stdout %q, stderr %q; want the lesson", code, out, errb)
	}
	if code, out, _ := run("memory", "read", "--json", "help"); code != 0 || !strings.Contains(out, "flowmem memory read - ") {
		t.Errorf("memory read --json help: exit %d, stdout %q; want read's help", code, out)
	}
}
