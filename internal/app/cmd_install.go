package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/doctor"
	"github.com/flowmem/flowmem/internal/install"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/urfave/cli/v2"
)

// scopeFlags choose the settings file; at most one may be given.
func scopeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "local", Usage: "use .claude/settings.local.json (this checkout only, not committed)"},
		&cli.BoolFlag{Name: "user", Usage: "use ~/.claude/settings.json (every project of this user)"},
		&cli.BoolFlag{Name: "codex", Usage: "use .codex/hooks.json (OpenAI Codex CLI)"},
	}
}

func scopeOf(c *cli.Context) (install.Scope, error) {
	scope := install.Project
	n := 0
	for _, s := range []install.Scope{install.Local, install.User, install.Codex} {
		if c.Bool(string(s)) {
			scope = s
			n++
		}
	}
	if n > 1 {
		return "", usagef("%s: give at most one of --local, --user, --codex", c.Command.HelpName)
	}
	return scope, nil
}

func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "register the capture hook with Claude Code and install the memory-scout agent",
		ArgsUsage: " ",
		Description: `Merges PostToolUse and PostToolUseFailure hook entries (matcher Bash|Agent)
that run this flowmem binary by absolute path into .claude/settings.json, and
writes the memory-scout subagent to .claude/agents/memory-scout.md. Everything
else in the settings file stays as it was; running it again changes nothing.
A scout file you edited is kept unless --force.

Examples:
   flowmem install                      hook in .claude/settings.json (shared with the team)
   flowmem install --local              hook in .claude/settings.local.json (only you)
   flowmem install --user               hook and scout in ~/.claude (every project)
   flowmem install --codex              hook in .codex/hooks.json for Codex CLI
   flowmem install --dry-run            show the change as a diff, write nothing
   flowmem install --command 'flowmem hook'   run flowmem from PATH instead`,
		Flags: append(scopeFlags(),
			&cli.StringFlag{Name: "command", Usage: "hook `COMMAND` to register (default: this binary's absolute path + ' hook')"},
			&cli.IntFlag{Name: "timeout", Value: install.DefaultTimeout, Usage: "hook timeout in `SECONDS`"},
			&cli.BoolFlag{Name: "force", Usage: "replace a memory-scout.md that differs from flowmem's copy"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the changes as a diff; write nothing"},
			&cli.BoolFlag{Name: "no-scout", Usage: "leave the memory-scout agent alone"},
			jsonFlag,
		),
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, "no arguments"); err != nil {
				return err
			}
			scope, err := scopeOf(c)
			if err != nil {
				return err
			}
			if c.Int("timeout") <= 0 {
				return usagef("--timeout must be a positive number of seconds")
			}
			opts, p, err := e.installOptions(scope, c.String("command"))
			if err != nil {
				return err
			}
			opts.Timeout = c.Int("timeout")
			opts.Force = c.Bool("force")
			opts.DryRun = c.Bool("dry-run")
			opts.NoScout = c.Bool("no-scout")
			opts.Exe = e.exe()
			res, err := install.Run(opts)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return e.writeJSON(res)
			}
			e.reportInstall(p, res)
			if !opts.DryRun && p != "" {
				e.warnDisabled(p)
			}
			return nil
		},
	}
}

func uninstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "uninstall",
		Usage:     "remove what 'flowmem install' added",
		ArgsUsage: " ",
		Description: `Removes flowmem's hook entries (any command that runs 'flowmem hook', plus
--command if you installed with one) from the settings file, along with the
lists and objects left empty by that, and the memory-scout agent when it is
still flowmem's copy. Nothing else in the file changes. Memory in .flow/ is
kept.

Examples:
   flowmem uninstall                    from .claude/settings.json
   flowmem uninstall --user             from ~/.claude
   flowmem uninstall --dry-run          show what would be removed`,
		Flags: append(scopeFlags(),
			&cli.StringFlag{Name: "command", Usage: "also remove hook entries running exactly `COMMAND`"},
			&cli.BoolFlag{Name: "force", Usage: "remove memory-scout.md even if it was edited"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the changes as a diff; write nothing"},
			&cli.BoolFlag{Name: "no-scout", Usage: "leave the memory-scout agent alone"},
			jsonFlag,
		),
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, "no arguments"); err != nil {
				return err
			}
			scope, err := scopeOf(c)
			if err != nil {
				return err
			}
			opts, p, err := e.scopeDirs(scope)
			if err != nil {
				return err
			}
			// Besides any command that ends in "flowmem hook", recognise
			// the one this binary would install, whatever it is named.
			if opts.Command = strings.TrimSpace(c.String("command")); opts.Command == "" {
				opts.Command, _ = e.hookCommand()
			}
			opts.Force = c.Bool("force")
			opts.DryRun = c.Bool("dry-run")
			opts.NoScout = c.Bool("no-scout")
			opts.Exe = e.exe()
			res, err := install.Uninstall(opts)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return e.writeJSON(res)
			}
			e.reportInstall(p, res)
			return nil
		},
	}
}

// scopeDirs fills in the folders a scope needs: the project (found from the
// working directory) except for --user, and HOME.
func (e *env) scopeDirs(scope install.Scope) (install.Options, project.Dir, error) {
	opts := install.Options{Scope: scope, Home: e.Getenv("HOME")}
	if scope == install.User {
		if opts.Home == "" {
			return opts, "", errors.New("HOME is not set; cannot find ~/.claude/settings.json")
		}
		return opts, "", nil
	}
	p, err := e.project()
	if err != nil {
		return opts, "", err
	}
	opts.Project = string(p)
	return opts, p, nil
}

// installOptions resolves the scope's folders and the hook command.
func (e *env) installOptions(scope install.Scope, command string) (install.Options, project.Dir, error) {
	opts, p, err := e.scopeDirs(scope)
	if err != nil {
		return opts, p, err
	}
	if opts.Command = strings.TrimSpace(command); opts.Command == "" {
		opts.Command, err = e.hookCommand()
	}
	return opts, p, err
}

// exe is the running binary's path, or "" when unknown.
func (e *env) exe() string {
	if e.Exe == nil {
		return ""
	}
	p, _ := e.Exe()
	return p
}

// hookCommand is the command that runs this very binary's hook.
func (e *env) hookCommand() (string, error) {
	if e.Exe == nil {
		return "", errors.New("cannot tell where the flowmem binary is; pass --command")
	}
	exe, err := e.Exe()
	if err != nil {
		return "", fmt.Errorf("locate flowmem binary: %w (pass --command)", err)
	}
	return install.HookCommand(exe, e.Getenv("PATH"))
}

// installFromInit is `flowmem init --install`: the default install into the
// project init just set up. People get the report on stderr; init's --json
// output carries the result.
func (e *env) installFromInit(p project.Dir) (any, error) {
	cmd, err := e.hookCommand()
	if err != nil {
		return nil, err
	}
	res, err := install.Run(install.Options{
		Scope: install.Project, Project: string(p), Home: e.Getenv("HOME"), Command: cmd, Exe: e.exe(),
	})
	if err != nil {
		return nil, err
	}
	e.reportInstall(p, res)
	return res, nil
}

// reportInstall tells people what changed, on stderr; dry-run diffs are the
// command's data and go to stdout.
func (e *env) reportInstall(p project.Dir, res install.Result) {
	changes := []install.Change{res.Settings}
	if res.Scout != nil {
		changes = append(changes, *res.Scout)
	}
	for _, ch := range changes {
		if res.DryRun && ch.Diff != "" {
			fmt.Fprint(e.Out, ch.Diff)
		}
	}
	verb := ""
	if res.DryRun {
		verb = "would be "
	}
	for i, ch := range changes {
		what := rel(p, ch.Path)
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
				msg += fmt.Sprintf(" (%s → %s)", strings.Join(res.Events, ", "), res.Command)
			}
			if i == 0 && res.Command == "" && len(res.Events) > 0 {
				msg += fmt.Sprintf(" (flowmem hooks removed from %s)", strings.Join(res.Events, ", "))
			}
			e.say("%s", msg)
		}
	}
	if res.DryRun {
		e.say("dry run: nothing was written")
	}
}

// warnDisabled reminds people that the hook records nothing while memory is
// off: the most common reason an install seems not to work.
func (e *env) warnDisabled(p project.Dir) {
	cfg, err := config.Load(p.ConfigPath())
	if err == nil && !cfg.Bool("memory.enabled") {
		e.say("note: memory is disabled in this project, so the hook records nothing; enable it: flowmem config set memory.enabled true")
	}
}

// rel shows path relative to the project when it is inside it.
func rel(p project.Dir, path string) string {
	if p != "" {
		if r, err := filepath.Rel(string(p), path); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return path
}

func doctorCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that flowmem is set up to work, and say how to fix what is not",
		ArgsUsage: " ",
		Description: `Checks the project and config, that memory is enabled, that the memory files
parse and have no conflicting ids, the .gitattributes union line, the hook in
Claude Code's settings (project, local, user, or the plugin), that the binary
the hook runs exists and runs, the memory-scout agent, and flowmem on PATH.
Exits 1 when something is wrong; warnings alone exit 0.

Examples:
   flowmem doctor
   flowmem doctor --json`,
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, "no arguments"); err != nil {
				return err
			}
			dir, err := e.cwd()
			if err != nil {
				return err
			}
			opts := doctor.Options{Dir: dir, Home: e.Getenv("HOME"), PathEnv: e.Getenv("PATH"), Version: Version()}
			opts.Exe = e.exe()
			opts.Command, _ = e.hookCommand()
			rep := doctor.Run(c.Context, opts)
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
		},
	}
}

func (e *env) printDoctor(rep doctor.Report) {
	width := 0
	for _, c := range rep.Checks {
		width = max(width, len(c.Name))
	}
	for _, c := range rep.Checks {
		label := map[doctor.Status]string{doctor.OK: "ok", doctor.Warn: "warn", doctor.Fail: "FAIL", doctor.Skip: "skip"}[c.Status]
		fmt.Fprintf(e.Out, "%-4s  %-*s  %s\n", label, width, c.Name, c.Detail)
		if c.Fix != "" && (c.Status == doctor.Fail || c.Status == doctor.Warn) {
			fmt.Fprintf(e.Out, "      %-*s  fix: %s\n", width, "", c.Fix)
		}
	}
	if rep.OK {
		fmt.Fprintf(e.Out, "flowmem is set up correctly (%d warning(s))\n", rep.Count(doctor.Warn))
	}
}
