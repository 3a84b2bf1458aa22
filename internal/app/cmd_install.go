package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/doctor"
	"github.com/flowmem/flowmem/internal/install"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/flowmem/flowmem/internal/regfile"
	"github.com/urfave/cli/v2"
)

// settingsFlags are the flags install and uninstall share: the settings
// file (at most one scope flag), then extra, then how to write.
func settingsFlags(extra ...cli.Flag) []cli.Flag {
	flags := []cli.Flag{
		&cli.BoolFlag{Name: "local", Usage: "use .claude/settings.local.json (this checkout only, not committed)"},
		&cli.BoolFlag{Name: "user", Usage: "use ~/.claude/settings.json (every project of this user)"},
		&cli.BoolFlag{Name: "codex", Usage: "use .codex/hooks.json (OpenAI Codex CLI)"},
	}
	return append(append(flags, extra...),
		&cli.BoolFlag{Name: "dry-run", Usage: "print the changes as a diff; write nothing"},
		&cli.BoolFlag{Name: "no-scout", Usage: "leave the memory-scout and memory-curator agents and the permission rules alone"},
		jsonFlag(),
	)
}

// settingsOptions reads the shared flags and finds the scope's folders:
// the project (from the working directory) except for --user, and HOME.
func (e *env) settingsOptions(c *cli.Context) (install.Options, project.Dir, error) {
	opts := install.Options{Scope: install.Project, Home: e.Getenv("HOME"), Command: strings.TrimSpace(c.String("command")),
		Force: c.Bool("force"), DryRun: c.Bool("dry-run"), NoScout: c.Bool("no-scout"), Exe: e.exe()}
	n := 0
	for _, s := range []install.Scope{install.Local, install.User, install.Codex} {
		if c.Bool(string(s)) {
			opts.Scope = s
			n++
		}
	}
	if n > 1 {
		return opts, "", usagef("give at most one of --local, --user, --codex")
	}
	if opts.Scope == install.User {
		return opts, "", nil // install.PathsFor refuses an empty HOME
	}
	p, err := e.project()
	opts.Project = string(p)
	return opts, p, err
}

// personal scopes are one person's files: their hooks run this binary by
// absolute path. The files a team shares run flowmem by name.
func personal(s install.Scope) bool { return s == install.Local || s == install.User }

func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "register the capture hook with Claude Code and install the memory-scout and memory-curator agents",
		Description: `Merges PostToolUse and PostToolUseFailure hook entries (matcher Bash|Agent)
running flowmem-hook into .claude/settings.json, allows the agents their
commands (permissions.allow: Bash(flowmem memory read:*) for the memory-scout;
Bash(flowmem memory curate:*), Bash(flowmem memory show:*) and
Bash(flowmem memory merge:*) for the memory-curator;
Bash(flowmem memory judge:*), which only prints, for the model to judge the
lessons the hook has just recorded), and writes both agents
to .claude/agents/ (memory-scout.md, memory-curator.md). Everything else in the settings file stays as it was;
running it again changes nothing. An agent file you edited is kept unless
--force.

.claude/settings.json is shared with the team, so its hook runs flowmem by
name from each machine's PATH, never this machine's absolute path. install
checks that the hook on PATH records with this build and says how to fix it
if not.
--local and --user are yours alone: their hook runs this binary by absolute
path.

Examples:
   flowmem install                      hook in .claude/settings.json (shared with the team)
   flowmem install --prime              also prime each session (SessionStart: flowmem memory prime --session-start)
   flowmem install --local              hook in .claude/settings.local.json (only you)
   flowmem install --user               hook and agents in ~/.claude (every project)
   flowmem install --codex              hook in .codex/hooks.json for Codex CLI
   flowmem install --dry-run            show the change as a diff, write nothing`,
		Flags: settingsFlags(
			&cli.StringFlag{Name: "command", Usage: "hook `COMMAND` to register (default: '" + install.HookCmd + "'; with --local or --user, this binary by absolute path)"},
			&cli.IntFlag{Name: "timeout", Value: install.DefaultTimeout, Usage: "hook timeout in `SECONDS`"},
			&cli.BoolFlag{Name: "prime", Usage: "also add a SessionStart hook that primes each session with the lessons for FLOW_TASK_ID"},
			&cli.BoolFlag{Name: "force", Usage: "replace an agent file (memory-scout.md, memory-curator.md) that differs from flowmem's copy"},
		),
		Action: args(0, "no arguments", func(c *cli.Context) error {
			if c.Int("timeout") <= 0 {
				return usagef("--timeout must be a positive number of seconds")
			}
			opts, p, err := e.settingsOptions(c)
			if err != nil {
				return err
			}
			opts.Timeout = c.Int("timeout")
			if opts.Command == "" {
				opts.Command = install.HookCmd
				if personal(opts.Scope) {
					if opts.Command, err = e.hookCommand(); err != nil {
						return err
					}
				}
			}
			if c.Bool("prime") {
				if opts.Scope == install.Codex {
					return usagef("--prime adds a Claude Code SessionStart hook; Codex CLI has none")
				}
				if opts.Prime, err = e.primeCommand(opts.Scope); err != nil {
					return err
				}
			}
			res, err := e.install(c.Context, opts, p)
			if err != nil {
				return err
			}
			// A dry run says them too: they are what a look before the
			// install is for.
			var notes []string
			if p != "" {
				notes = append(notes, e.warnDisabled(p)...)
			}
			notes = append(notes, e.warnTwice(opts.Scope, opts.Prime != "", opts.DryRun)...)
			if opts.Scope == install.Codex {
				notes = append(notes, e.warnCodexHooks(res.Settings.Changed())...)
			}
			if c.Bool("json") {
				return e.writeJSON(struct {
					install.Result
					Notes []string `json:"notes,omitempty"`
				}{res, notes})
			}
			e.reportInstall(p, res)
			e.sayNotes(notes)
			return nil
		}),
	}
}

func uninstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Usage: "remove what 'flowmem install' added",
		Description: `Removes flowmem's hook entries (any command that runs flowmem-hook,
'flowmem hook' or 'flowmem memory prime --session-start', plus --command if you installed with
one) and the agents' permissions from the settings file, along with the lists
and objects left empty by that, and the memory-scout and memory-curator agents
when they are still flowmem's copies. Nothing else in the file changes. Memory
in .flow/ is kept.

Examples:
   flowmem uninstall                    from .claude/settings.json
   flowmem uninstall --user             from ~/.claude
   flowmem uninstall --dry-run          show what would be removed`,
		Flags: settingsFlags(
			&cli.StringFlag{Name: "command", Usage: "also remove hook entries running exactly `COMMAND`"},
			&cli.BoolFlag{Name: "force", Usage: "remove memory-scout.md and memory-curator.md even if they were edited"},
		),
		Action: args(0, "no arguments", func(c *cli.Context) error {
			opts, p, err := e.settingsOptions(c)
			if err != nil {
				return err
			}
			// Besides any command that ends in "flowmem hook", recognise
			// what this binary's install would add, whatever it is named.
			if opts.Command == "" {
				opts.Command, _ = e.hookCommand()
			}
			if opts.Scope != install.Codex {
				opts.Prime, _ = e.primeCommand(opts.Scope)
			}
			res, err := install.Uninstall(opts)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return e.writeJSON(res)
			}
			e.reportInstall(p, res)
			return nil
		}),
	}
}

// primeCommand is the SessionStart command for a scope, by name or by
// absolute path as the scope's hook is.
func (e *env) primeCommand(scope install.Scope) (string, error) {
	if !personal(scope) {
		return install.PrimeCmd, nil
	}
	exe, err := e.absExe()
	if err == nil {
		exe, err = install.FlowmemPath(exe, e.Getenv("PATH"))
	}
	if err != nil {
		return "", err
	}
	return install.ShellQuote(filepath.ToSlash(exe)) + " " + install.PrimeArgs, nil
}

// absExe is the running binary's absolute path.
func (e *env) absExe() (string, error) {
	if e.Exe == nil {
		return "", errors.New("cannot tell where the flowmem binary is; pass --command")
	}
	exe, err := e.Exe()
	if err == nil {
		exe, err = filepath.Abs(exe)
	}
	if err != nil {
		return "", fmt.Errorf("locate flowmem binary: %w", err)
	}
	return exe, nil
}

// checkByName checks, for a hook that runs flowmem by name, that the
// program on PATH leads to this build (flowmem-hook hands reviews to the
// flowmem beside it, else on PATH), and says exactly how to fix it if not.
// The install stands either way: the file is right for the team, and only
// this machine's PATH is wrong.
func (e *env) checkByName(ctx context.Context, opts install.Options, p project.Dir) []string {
	prog := install.HookProgram(opts.Command)
	if opts.DryRun || prog == "" || strings.ContainsAny(prog, `/\`) {
		return nil
	}
	exe, err := e.absExe()
	if err != nil {
		return nil // a test or an unusual platform: nothing to compare with
	}
	paths, err := install.PathsFor(opts.Scope, opts.Project, opts.Home)
	if err != nil {
		return nil
	}
	file, dir, pathEnv := e.rel(p, paths.Settings), filepath.Dir(exe), e.Getenv("PATH")
	// This build by path: flowmem by name may be the very build at fault.
	// Uninstall edits the shared settings, so it is for a project no one
	// else uses.
	// Codex has no file of one's own to move the hook to.
	local := "."
	if opts.Scope == install.Project {
		local = fmt.Sprintf("; or, if no one else uses this project's settings, keep its hook to yourself with this binary's absolute path: %s uninstall && %s install --local", exe, exe)
	}
	found, err := install.LookPath(prog, pathEnv)
	// This build's folder on PATH fixes the hook only when the hook's
	// program is there too: a flowmem built or copied alone has none.
	_, notBeside := install.LookPath(prog, dir)
	if err != nil && notBeside != nil {
		return []string{fmt.Sprintf("no %s on PATH, nor beside %s: the hook in %s runs '%s' by name, so it cannot run here. Fix: from a checkout of flowmem, make install (it puts flowmem and flowmem-hook in %s), and put that folder on PATH in your shell profile, then restart Claude Code%s",
			prog, exe, file, opts.Command, install.GoBin, local)}
	}
	if err != nil {
		return []string{fmt.Sprintf("no %s on PATH: the hook in %s runs '%s' by name, so it cannot run here. Fix: put %s on PATH (export PATH=\"%s:$PATH\" in your shell profile, then restart Claude Code; from a checkout, make install puts flowmem and flowmem-hook in %s)%s",
			prog, file, opts.Command, dir, dir, install.GoBin, local)}
	}
	flowmemBin, err := install.Recorder(found, pathEnv)
	if err != nil {
		return []string{fmt.Sprintf("%s is on PATH but no flowmem is beside it or on PATH, so the hook in %s records nothing. Fix: put %s on PATH (export PATH=\"%s:$PATH\")%s",
			found, file, dir, dir, local)}
	}
	if install.SameFile(flowmemBin, exe) {
		return nil
	}
	if out, err := doctor.RunVersion(ctx, flowmemBin); err == nil && out == "flowmem version "+flowmem.BuildVersion() {
		return nil // another copy of this very build
	} else if err == nil {
		flowmemBin += " (" + out + ")"
	}
	putFirst := fmt.Sprintf("put %s first on PATH (export PATH=\"%s:$PATH\"), or ", dir, dir)
	if notBeside != nil {
		putFirst = ""
	}
	return []string{fmt.Sprintf("the hook in %s (%s) would record with %s, not this build (%s, flowmem version %s). Fix: %sreplace that one with this build (from a checkout: make install)%s",
		file, opts.Command, flowmemBin, exe, flowmem.BuildVersion(), putFirst, local)}
}

// exe is the running binary's path, or "" when unknown.
func (e *env) exe() string {
	p, _ := e.absExe()
	return p
}

// hookCommand is the command that runs this very binary's hook.
func (e *env) hookCommand() (string, error) {
	exe, err := e.absExe()
	if err != nil {
		return "", err
	}
	return install.HookCommand(exe, e.Getenv("PATH"))
}

// install runs an install and checks that the hook it wrote can record
// with this build.
func (e *env) install(ctx context.Context, opts install.Options, p project.Dir) (install.Result, error) {
	res, err := install.Run(opts)
	if err == nil {
		res.Warnings = append(res.Warnings, e.checkByName(ctx, opts, p)...)
	}
	return res, err
}

// reportInstall tells people what changed, on stderr; dry-run diffs are the
// command's data and go to stdout.
func (e *env) reportInstall(p project.Dir, res install.Result) {
	changes := []install.Change{res.Settings}
	for _, ch := range []*install.Change{res.Scout, res.Curator, res.Ignore} {
		if ch != nil {
			changes = append(changes, *ch)
		}
	}
	verb := ""
	if res.DryRun {
		verb = "would be "
	}
	for i, ch := range changes {
		if res.DryRun {
			fmt.Fprint(e.Out, ch.Diff) // the command's data: stdout
		}
		what := e.rel(p, ch.Path)
		switch ch.Action {
		case "unchanged":
			e.say("%s: already up to date", what)
		case "absent":
			e.say("%s: not there; nothing to remove", what)
		case "kept":
			e.say("%s: kept: %s", what, ch.Reason)
		default:
			msg := fmt.Sprintf("%s: %s%s", what, verb, ch.Action)
			if i == 0 && res.Command != "" && ch.Changed() {
				msg += fmt.Sprintf(" (%s → %s", strings.Join(res.Events, ", "), res.Command)
				if res.Prime != "" {
					msg += "; SessionStart → " + res.Prime
				}
				if len(res.AllowRules) > 0 {
					msg += "; allow " + strings.Join(res.AllowRules, ", ")
				}
				msg += ")"
			}
			if i == 0 && res.Command == "" && len(res.Events) > 0 {
				msg += fmt.Sprintf(" (flowmem hooks removed from %s", strings.Join(res.Events, ", "))
				if len(res.AllowRules) > 0 {
					msg += "; allow rules removed: " + strings.Join(res.AllowRules, ", ")
				}
				msg += ")"
			}
			if res.Ignore != nil && ch.Path == res.Ignore.Path {
				msg += " (" + ch.Reason + ")"
			}
			e.say("%s", msg)
		}
	}
	if res.DryRun {
		e.say("dry run: nothing was written")
	}
	for _, w := range res.Warnings {
		e.say("warning: %s", w)
	}
}

// warnTwice returns the notes that say, after an install, which other Claude Code settings
// file already runs flowmem's hook: every place runs it on each tool call
// (the reviews log keeps a review from being recorded twice), and doctor
// would warn about it only later. With prime (install --prime), a session
// prime there runs twice too: each session gets its lessons twice. A
// folder outside a project has only the user's file to compare with. A
// dry run says what would happen.
func (e *env) warnTwice(scope install.Scope, prime, dry bool) (notes []string) {
	if scope == install.Codex {
		return nil
	}
	runs, run, starts := "now runs", "now run", "now starts"
	if dry {
		runs, run, starts = "would run", "would run", "would start"
	}
	p, err := e.project()
	if err != nil {
		p = ""
	}
	flags := map[install.Scope]string{install.Project: "", install.Local: " --local", install.User: " --user"}
	for _, other := range []install.Scope{install.Project, install.Local, install.User} {
		if other == scope || (p == "" && other != install.User) {
			continue
		}
		paths, err := install.PathsFor(other, string(p), e.Getenv("HOME"))
		if err != nil {
			continue
		}
		b, err := regfile.Read(paths.Settings, regfile.MaxText)
		if err != nil {
			continue
		}
		hooks, err := install.Installed(b, install.IsFlowmemCommand)
		if err != nil {
			continue
		}
		primes, _ := install.Installed(b, install.IsPrimeCommand)
		switch twice := prime && len(primes) > 0; {
		case len(hooks) > 0 && twice:
			notes = append(notes, fmt.Sprintf("%s runs flowmem's hook and its session prime too, so both %s twice (a review is still recorded once, but each session starts with its lessons twice); keep one: flowmem uninstall%s (that one) or flowmem uninstall%s (this one)",
				e.rel(p, paths.Settings), run, flags[other], flags[scope]))
		case len(hooks) > 0:
			notes = append(notes, fmt.Sprintf("%s runs flowmem's hook too, so it %s twice on every tool call (a review is still recorded once); keep one: flowmem uninstall%s (that one) or flowmem uninstall%s (this one)",
				e.rel(p, paths.Settings), runs, flags[other], flags[scope]))
		case twice:
			notes = append(notes, fmt.Sprintf("%s primes each session too, so each session %s with its lessons twice; keep one: flowmem uninstall%s (that one) or flowmem uninstall%s (this one)",
				e.rel(p, paths.Settings), starts, flags[other], flags[scope]))
		}
	}
	return notes
}

// warnCodexHooks returns the note that says, after install --codex, what Codex CLI asks before
// the hook written runs, since nothing else would say why nothing is
// recorded. Codex CLI runs hooks by default since 0.124, unless
// [features] hooks (before, codex_hooks) is false in its config.toml, which
// this names; but it loads a project's .codex/hooks.json only in a project
// it trusts, and skips a new or changed hook until it is trusted in /hooks
// (said when the file changed); releases before 0.124 also need the
// feature switched on (said when the config does not set it).
func (e *env) warnCodexHooks(changed bool) []string {
	dir, shown := e.Getenv("CODEX_HOME"), "$CODEX_HOME/config.toml"
	if dir == "" {
		dir, shown = filepath.Join(e.Getenv("HOME"), ".codex"), "~/.codex/config.toml"
	}
	b, _ := regfile.Read(filepath.Join(dir, "config.toml"), regfile.MaxText)
	key, on := codexHooksFeature(string(b))
	switch {
	case key != "" && !on:
		return []string{fmt.Sprintf("%s switches Codex CLI's hooks off (%s = false under [features]), so this hook never runs: remove that line, then trust the hook in /hooks", shown, key)}
	case changed && key == "":
		return []string{fmt.Sprintf("Codex CLI runs a new or changed hook only once you trust it (/hooks in codex), and .codex/hooks.json only in a project it trusts; before Codex CLI 0.124, also add codex_hooks = true under [features] in %s", shown)}
	case changed:
		return []string{"Codex CLI runs a new or changed hook only once you trust it (/hooks in codex), and .codex/hooks.json only in a project it trusts"}
	}
	return nil
}

// codexHooksFeature reads Codex CLI's hooks feature from its config.toml:
// the key that sets it under [features] (hooks, or codex_hooks, its older
// name that hooks overrides), or "", and whether it is true.
func codexHooksFeature(toml string) (key string, on bool) {
	table := ""
	for _, l := range strings.Split(toml, "\n") {
		l = strings.TrimSpace(l)
		if name, ok := strings.CutPrefix(l, "["); ok {
			name, _, _ = strings.Cut(name, "]")
			table = strings.TrimSpace(name)
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if table == "" {
			k, ok = strings.CutPrefix(k, "features.")
		}
		v, _, _ = strings.Cut(v, "#")
		if ok && (table == "" || table == "features") && (k == "hooks" || k == "codex_hooks" && key != "hooks") {
			key, on = k, strings.TrimSpace(v) == "true"
		}
	}
	return key, on
}

// warnDisabled returns the note that reminds people that the hook records nothing while memory is
// off: the most common reason an install seems not to work.
func (e *env) warnDisabled(p project.Dir) []string {
	cfg, err := config.Load(p.ConfigPath())
	if err == nil && !cfg.Bool("memory.enabled") {
		return []string{"memory is disabled in this project, so the hook records nothing; enable it: flowmem config set memory.enabled true"}
	}
	return nil
}

// rel shows path as doctor does: in the project, or under ~/; with
// slashes, as --json gives it on every system.
func (e *env) rel(p project.Dir, path string) string {
	return filepath.ToSlash(install.Rel(string(p), e.Getenv("HOME"), path))
}

func doctorCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check that flowmem is set up to work, and say how to fix what is not",
		Description: `Checks the project and config, that memory is enabled, that the memory files
parse and have no conflicting ids, the .gitattributes union line, the hook in
Claude Code's settings (project, local, user, or the plugin), that the binary
the hook runs exists and runs, the memory-scout and memory-curator agents and
the commands they and the hook's note need allowed, and flowmem on PATH.
Exits 1 when something is wrong; warnings alone exit 0.

Examples:
   flowmem doctor
   flowmem doctor --json`,
		Flags: []cli.Flag{jsonFlag()},
		Action: args(0, "no arguments", func(c *cli.Context) error {
			dir, err := e.cwd()
			if err != nil {
				return err
			}
			command, _ := e.hookCommand()
			rep := doctor.Run(c.Context, doctor.Options{Dir: dir, Home: e.Getenv("HOME"), PathEnv: e.Getenv("PATH"),
				Version: flowmem.BuildVersion(), Exe: e.exe(), Command: command})
			if c.Bool("json") {
				if err := e.writeJSON(rep); err != nil {
					return err
				}
			} else {
				e.printDoctor(rep)
			}
			if !rep.OK {
				e.say("flowmem doctor: %d problem(s), %d warning(s)", rep.Count(doctor.Fail), rep.Count(doctor.Warn))
				return errSilent
			}
			return nil
		}),
	}
}

func (e *env) printDoctor(rep doctor.Report) {
	width := 0
	for _, c := range rep.Checks {
		width = max(width, len(c.Name))
	}
	label := map[doctor.Status]string{doctor.OK: "ok", doctor.Warn: "warn", doctor.Fail: "FAIL", doctor.Skip: "skip"}
	for _, c := range rep.Checks {
		fmt.Fprintf(e.Out, "%-4s  %-*s  %s\n", label[c.Status], width, c.Name, c.Detail)
		if c.Fix != "" && (c.Status == doctor.Fail || c.Status == doctor.Warn) {
			fmt.Fprintf(e.Out, "      %-*s  fix: %s\n", width, "", c.Fix)
		}
	}
	if rep.OK {
		fmt.Fprintf(e.Out, "flowmem is set up correctly (%d warning(s))\n", rep.Count(doctor.Warn))
	}
}
