package app

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/doctor"
	"github.com/flowmem/flowmem/internal/install"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/regfile"
	"github.com/urfave/cli/v2"
)

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "set up flowmem in this project (.flow/config.json, .flow/memory/, .gitattributes)",
		Description: `Creates what is missing and leaves everything else alone, so running it
again changes nothing. Memory stays off until enabled.

Examples:
   flowmem init                      set up, memory disabled
   flowmem init --enable             set up and turn memory on
   flowmem init --enable --install   also install the Claude Code hook and agents`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "enable", Usage: "turn memory on (memory.enabled = true)"},
			&cli.BoolFlag{Name: "install", Usage: "also run 'flowmem install' (hooks in .claude/settings.json, the memory-scout and memory-curator agents)"},
			jsonFlag(),
		},
		Action: args(0, "no arguments", e.runInit),
	}
}

type initResult struct {
	Project       string   `json:"project"`
	Created       []string `json:"created"`
	Enabled       bool     `json:"enabled"`
	Gitattributes string   `json:"gitattributes"`
	Install       any      `json:"install,omitempty"`
}

func (e *env) runInit(c *cli.Context) error {
	p, _, err := e.projectOrRoot()
	if err != nil {
		return err
	}
	res := initResult{Project: string(p), Created: []string{}}
	if err := os.MkdirAll(p.FlowDir(), 0o755); err != nil {
		return fmt.Errorf("create .flow: %w", err)
	}
	cfg, err := config.Load(p.ConfigPath())
	if err != nil {
		return err
	}
	if !cfg.Exists {
		if err := config.WriteDefault(p.ConfigPath()); err != nil {
			return err
		}
		res.Created = append(res.Created, p.ConfigPath())
	}
	if c.Bool("enable") && !cfg.Bool("memory.enabled") {
		if err := cfg.Set("memory.enabled", true); err != nil {
			return err
		}
		if err := cfg.Save(); err != nil {
			return err
		}
	}
	res.Enabled = cfg.Bool("memory.enabled")
	created, err := mdstore.Open(p.MemoryDir()).Init()
	res.Created = append(res.Created, created...)
	if err != nil {
		return err
	}
	var added []string
	if res.Gitattributes, added, err = ensureUnion(string(p)); err != nil {
		return err
	}
	res.Created = e.relAll(p, res.Created)
	// What init did is said before install's lines, in the order it
	// happened.
	if !c.Bool("json") {
		for _, f := range res.Created {
			e.say("created %s", f)
		}
		for _, l := range added {
			e.say("added %q to .gitattributes", l)
		}
	}
	if c.Bool("install") {
		// The default install into the project just set up; people get
		// its report on stderr, --json carries the result.
		inst, err := e.install(c.Context, install.Options{Scope: install.Project, Project: string(p),
			Home: e.Getenv("HOME"), Command: install.HookCmd, Exe: e.exe()}, p)
		if err != nil {
			return err
		}
		e.reportInstall(p, inst)
		res.Install = inst
	}
	if c.Bool("json") {
		return e.writeJSON(res)
	}
	if res.Enabled {
		e.say("flowmem is set up in %s; memory is enabled", p)
	} else {
		e.say("flowmem is set up in %s; memory is disabled (enable it: flowmem config set memory.enabled true)", p)
	}
	return nil
}

// ensureUnion adds the merge=union lines to .gitattributes once and
// returns "added" or "present" and the lines it added. They let git merge
// the memory files and the reviews log by keeping both sides' lines, so two
// branches that each add lessons never conflict; doctor checks the same two.
func ensureUnion(root string) (string, []string, error) {
	var added []string
	for _, l := range []string{doctor.UnionLine, doctor.LogUnionLine} {
		if ok, err := regfile.EnsureLine(filepath.Join(root, ".gitattributes"), l, ""); err != nil {
			return "", nil, fmt.Errorf("update .gitattributes: %w", err)
		} else if ok {
			added = append(added, l)
		}
	}
	if added == nil {
		return "present", nil, nil
	}
	return "added", added, nil
}
