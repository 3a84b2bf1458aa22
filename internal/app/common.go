package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/urfave/cli/v2"
)

// jsonFlag is made for each command tree: urfave/cli writes into a flag
// as it applies it, so one flag shared by two runs in one process (the
// in-process tests run in parallel) would be a data race.
func jsonFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "print machine-readable JSON on stdout"}
}

// noRecordFlag leaves a recall out of the injection record: a look (a
// person's, or a Ralph dry run's) that reads flowmem through a pipe is not
// a hand-over to a model, and memory audit would count it as one.
func noRecordFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-record", Usage: "a look, not a hand-over to a model: leave it out of .flow/memory/injections.jsonl (memory audit)"}
}

// writeJSON prints v as indented JSON: the stable --json contract. Lessons
// and commands hold <, > and & often (generics, "&&", placeholders); a
// model or a person reads them as written, not as \u003c.
func (e *env) writeJSON(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode json: %w", err)
	}
	_, err := e.raw.Out.Write(b.Bytes())
	return err
}

// say prints a message for people on stderr.
func (e *env) say(format string, a ...any) {
	fmt.Fprintf(e.Err, format+"\n", a...)
}

// sayNotes prints notes for people on stderr, each as "note: ...".
func (e *env) sayNotes(notes []string) {
	for _, n := range notes {
		e.say("note: %s", n)
	}
}

func (e *env) cwd() (string, error) {
	if e.Getwd == nil {
		return ".", nil
	}
	dir, err := e.Getwd()
	if err != nil {
		return "", fmt.Errorf("find working directory: %w", err)
	}
	return dir, nil
}

// projectOrRoot is the project found from the working directory or, when
// there is none yet, where a new one belongs (project.NewRoot).
func (e *env) projectOrRoot() (p project.Dir, found bool, err error) {
	dir, err := e.cwd()
	if err != nil {
		return "", false, err
	}
	if p, err = project.Find(dir); !errors.Is(err, project.ErrNotFound) {
		return p, err == nil, err
	}
	p, err = project.NewRoot(dir)
	return p, false, err
}

// project finds the project from the working directory.
func (e *env) project() (project.Dir, error) {
	dir, err := e.cwd()
	if err != nil {
		return "", err
	}
	return project.Find(dir)
}

// errDisabled is returned by memory commands while memory.enabled is false.
var errDisabled = errors.New("memory is disabled for this project; enable it with: flowmem config set memory.enabled true")

// memoryStore finds the project, checks the memory switch and opens the
// store.
func (e *env) memoryStore() (project.Dir, *config.Config, *mdstore.Store, error) {
	p, err := e.project()
	if err != nil {
		return "", nil, nil, err
	}
	cfg, err := config.Load(p.ConfigPath())
	if err != nil {
		return "", nil, nil, err
	}
	if !cfg.Bool("memory.enabled") {
		return "", nil, nil, errDisabled
	}
	e.staleAfter = cfg.Int("memory.stale_after_days")
	return p, cfg, mdstore.Open(p.MemoryDir()), nil
}

// kindsFlag parses --type into kinds; empty means all.
func kindsFlag(c *cli.Context) ([]mdstore.Kind, error) {
	v := c.String("type")
	if v == "" {
		return nil, nil
	}
	k, ok := mdstore.ParseKind(v)
	if !ok {
		return nil, usagef("--type must be pitfall, convention or decision (singular or plural), not %q", v)
	}
	return []mdstore.Kind{k}, nil
}

// args checks that a command got n positional arguments (described as
// what in the usage error) before act runs.
func args(n int, what string, act cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() != n {
			return usagef("expected %s, got %d argument(s)", what, c.NArg())
		}
		return act(c)
	}
}
