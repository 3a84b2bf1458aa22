// Package doctor checks that flowmem is set up to work end to end — project,
// config, memory files, the hook in Claude Code's settings, the binary the
// hook runs, the scout — and says for each problem how to fix it. Each check
// is independent: one broken part does not hide the state of the others.
package doctor

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/install"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/flowmem/flowmem/internal/regfile"
)

// Status of one check.
type Status string

// Check outcomes. Only Fail makes the report fail.
const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
	Skip Status = "skip"
)

// Check is one finding: what was checked, what was found, how to fix it.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Report is every check, in a fixed order.
type Report struct {
	Project string  `json:"project,omitempty"`
	OK      bool    `json:"ok"`
	Checks  []Check `json:"checks"`
}

// Count returns how many checks have status s.
func (r Report) Count(s Status) int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == s {
			n++
		}
	}
	return n
}

// Options is what doctor looks at besides the files.
type Options struct {
	Dir     string // working directory
	Home    string // $HOME
	PathEnv string // $PATH
	Exe     string // the running flowmem binary, for fixes; may be ""
	// Command is the hook command this binary installs, recognised as
	// flowmem's even when the binary is not named flowmem.
	Command string
	// Version names the running build (flowmem.BuildVersion): reported first, so a
	// report says which flowmem wrote it.
	Version string
	// RunVersion runs `prog --version`; nil means exec with a timeout.
	RunVersion func(ctx context.Context, prog string) (string, error)
}

// UnionLine is the .gitattributes line that lets git merge memory files.
const UnionLine = ".flow/memory/*.md merge=union"

// LogUnionLine does the same for the reviews log (internal/reviewlog).
const LogUnionLine = ".flow/memory/reviews.jsonl merge=union"

// Run performs every check.
func Run(ctx context.Context, opts Options) Report {
	if opts.RunVersion == nil {
		opts.RunVersion = RunVersion
	}
	d := &doctor{opts: opts, ctx: ctx}
	d.checkVersion()
	d.checkProject()
	if d.proj == "" {
		for _, name := range []string{"config", "memory enabled", "memory files", "duplicate ids", "entries whole", "gitattributes"} {
			d.add(name, Skip, "no project", "")
		}
	} else {
		d.checkConfig()
		d.checkMemory()
		d.checkGitattributes()
	}
	d.checkHooks()
	d.checkHookBinary()
	d.checkScout()
	d.checkPermission("scout permission", install.ScoutPermission, d.allowed, "Claude Code asks before each scout search")
	d.checkPermission("judge permission", install.JudgePermission, d.judgeAllowed, "the model asks before each second look at a review's lessons")
	d.checkCurator()
	d.checkPath()
	rep := Report{Project: string(d.proj), OK: true, Checks: d.checks}
	rep.OK = rep.Count(Fail) == 0
	return rep
}

type doctor struct {
	opts   Options
	ctx    context.Context
	checks []Check
	proj   project.Dir
	cfg    *config.Config
	// hooks found, per place ("project", "local", "user", "codex", "plugin").
	hooks  map[string][]string
	places []string
	plugin bool
	// allowed are the settings files that allow the scout its command.
	allowed []string
	// judgeAllowed are those that allow the command the hook's note asks
	// the model to run after a review.
	judgeAllowed []string
	// curatorAllowed holds each curator rule some settings file allows.
	curatorAllowed map[string]bool
	// codexOnly: the only hook is Codex CLI's, which has no subagents and
	// no Claude Code permissions to miss.
	codexOnly bool
}

// forCodex is the detail of a Claude Code check a Codex-only setup skips.
const forCodex = "Codex CLI only: it has no subagents or Claude Code permissions"

func (d *doctor) add(name string, s Status, detail, fix string) {
	d.checks = append(d.checks, Check{Name: name, Status: s, Detail: detail, Fix: fix})
}

func (d *doctor) checkVersion() {
	detail := "flowmem " + cmp.Or(d.opts.Version, "unknown")
	if d.opts.Exe != "" {
		detail += " at " + d.opts.Exe
	}
	d.add("version", OK, detail, "")
}

func (d *doctor) checkProject() {
	p, err := project.Find(d.opts.Dir)
	if err != nil {
		d.add("project", Fail, fmt.Sprintf("no .flow/ folder in %s or above", d.opts.Dir),
			"run in the project root: flowmem init --enable --install")
		return
	}
	d.proj = p
	d.add("project", OK, string(p), "")
}

func (d *doctor) checkConfig() {
	cfg, err := config.Load(d.proj.ConfigPath())
	if err != nil {
		fix := "fix .flow/config.json by hand at the place named; the hook writes nothing while it is broken"
		d.add("config", Fail, err.Error(), fix)
		d.add("memory enabled", Skip, "config unreadable", "")
		d.cfg = new(config.Config) // the defaults, for the checks after this one
		return
	}
	d.cfg = cfg
	unknown := cfg.Unknown()
	switch {
	case len(unknown) > 0:
		d.add("config", Warn, d.rel(cfg.Path)+" has settings flowmem does not read: "+list(unknown, "; "),
			"remove them, or set the setting meant with flowmem config set KEY VALUE")
	case cfg.Exists:
		d.add("config", OK, d.rel(cfg.Path)+" is valid", "")
	default:
		d.add("config", OK, d.rel(cfg.Path)+" is missing: defaults apply", "")
	}
	if cfg.Bool("memory.enabled") {
		d.add("memory enabled", OK, "memory.enabled is true", "")
	} else {
		d.add("memory enabled", Fail, "memory.enabled is false: the hook records nothing and memory commands refuse",
			"flowmem config set memory.enabled true")
	}
}

func (d *doctor) checkMemory() {
	store := mdstore.Open(d.proj.MemoryDir())
	var (
		problems []string
		missing  []string
		entries  int
		stale    int // active, not seen for memory.stale_after_days
		pending  int // waiting for memory approve
		docs     []*mdstore.Doc
	)
	for _, k := range mdstore.Kinds {
		path := store.Path(k)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, k.File())
			continue
		}
		doc, err := store.ReadDoc(k)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, e := range doc.Folded() {
			entries++
			switch {
			case e.Status == mdstore.Pending:
				pending++
			case e.Live() && e.Stale(time.Now(), d.cfg.Int("memory.stale_after_days")):
				stale++
			}
		}
		docs = append(docs, doc)
	}
	switch {
	case len(problems) > 0:
		d.add("memory files", Fail, list(problems, "; "),
			"fix the entry at the line named (compare with 'flowmem memory add' output), or move the file aside and run: flowmem memory init")
	case len(missing) > 0:
		d.add("memory files", Warn, "missing: "+list(missing, ", "), "flowmem memory init")
	default:
		d.add("memory files", OK, fmt.Sprintf("%d files parse, %d entries (%d stale, %d pending approval)", len(docs), entries, stale, pending), "")
	}
	d.checkDuplicates(docs)
	d.checkWhole(docs)
	d.checkMerges(docs)
}

// checkMerges looks for entries merged into each other: two teammates
// merged one pair opposite ways (X into W, W into X), git's union merge
// kept both sides' metadata lines, and a retire wins on each entry, so
// each is archived into the other and the lesson reaches no prompt.
// Restoring one (the smallest id, as a reader picks of two survivors)
// makes it the survivor of the rest.
func (d *doctor) checkMerges(docs []*mdstore.Doc) {
	var cycles []string
	fix := ""
	for _, doc := range docs {
		into := map[string]string{}
		for _, e := range doc.Folded() {
			if e.Status == mdstore.Archived && e.MergedInto != "" {
				into[e.ID] = e.MergedInto
			}
		}
		done := map[string]bool{}
		for _, id := range slices.Sorted(maps.Keys(into)) {
			var path []string
			cur := id
			for cur != "" && !done[cur] && !slices.Contains(path, cur) {
				path = append(path, cur)
				cur = into[cur]
			}
			if i := slices.Index(path, cur); cur != "" && i >= 0 {
				cycle := slices.Sorted(slices.Values(path[i:]))
				cycles = append(cycles, doc.Kind.File()+": "+strings.Join(cycle, ", "))
				if fix == "" {
					fix = "keep the lesson: flowmem memory restore " + cycle[0] + " (the others stay merged into it)"
				}
			}
			for _, p := range path {
				done[p] = true
			}
		}
	}
	if len(cycles) > 0 {
		d.add("merges", Warn, "entries merged into each other (two teammates merged them opposite ways), so none reaches a prompt: "+list(cycles, "; "), fix)
		return
	}
	d.add("merges", OK, "no entry is merged into one merged back into it", "")
}

// checkDuplicates looks for ids used by more than one entry. Copies of one
// lesson (a git union merge of two branches that both learned it) are
// folded by every reader, so they are only worth a note; two different
// lessons under one id mean an entry was edited by hand, and readers would
// hide one of them.
func (d *doctor) checkDuplicates(docs []*mdstore.Doc) {
	var copies, conflicts []string
	for _, doc := range docs {
		byID := map[string][]*mdstore.Entry{}
		var order []string
		for i := range doc.Entries {
			e := &doc.Entries[i]
			if byID[e.ID] == nil {
				order = append(order, e.ID)
			}
			byID[e.ID] = append(byID[e.ID], e)
		}
		for _, id := range order {
			same := byID[id]
			if len(same) < 2 {
				continue
			}
			var lines []string
			conflict, first := false, same[0].Text()
			for _, e := range same {
				lines = append(lines, fmt.Sprint(e.Line))
				text := e.Text()
				conflict = conflict || text != "" && first != "" && text != first
			}
			where := fmt.Sprintf("%s in %s (lines %s)", id, doc.Kind.File(), listN(lines, ", ", 5))
			if conflict {
				conflicts = append(conflicts, where)
			} else {
				copies = append(copies, where)
			}
		}
	}
	switch {
	case len(conflicts) > 0:
		d.add("duplicate ids", Fail, "different lessons share an id, so readers show only one: "+list(conflicts, "; "),
			"edit one of them by hand: delete its metadata line (<!-- flowmem ... -->) so it gets a fresh id, or delete the entry")
	case len(copies) > 0:
		d.add("duplicate ids", Warn, "copies of one lesson (readers fold them into one): "+list(copies, "; "),
			"nothing needed; to tidy, delete the extra copies by hand")
	default:
		d.add("duplicate ids", OK, "every id is used once", "")
	}
}

// checkGitattributes reads .gitattributes' lines, spaces normalised.
func (d *doctor) checkGitattributes() {
	b, err := regfile.Read(filepath.Join(string(d.proj), ".gitattributes"), regfile.MaxText)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.add("gitattributes", Fail, err.Error(), "")
		return
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		have[strings.Join(strings.Fields(l), " ")] = true
	}
	switch {
	case !have[UnionLine]:
		d.add("gitattributes", Fail, fmt.Sprintf("%q missing: two branches that add lessons will conflict when merged", UnionLine),
			"flowmem init (adds it), or: echo '"+UnionLine+"' >> .gitattributes")
	case !have[LogUnionLine]:
		// Older setups lack it; only the reviews log (insight) suffers.
		d.add("gitattributes", Warn, fmt.Sprintf("%q missing: two branches that both log reviews will conflict in reviews.jsonl", LogUnionLine),
			"flowmem init (adds it), or: echo '"+LogUnionLine+"' >> .gitattributes")
	default:
		d.add("gitattributes", OK, fmt.Sprintf("%q and %q present", UnionLine, LogUnionLine), "")
	}
}

func (d *doctor) checkHooks() {
	d.hooks = map[string][]string{}
	var broken, partial, found, disabled, pinned, primed []string
	// The Claude Code settings files, and Codex's.
	for _, scope := range install.Scopes {
		paths, err := install.PathsFor(scope, string(d.proj), d.opts.Home)
		if err != nil {
			continue
		}
		path := paths.Settings
		src, err := regfile.Read(path, regfile.MaxText)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				broken = append(broken, err.Error())
			}
			continue
		}
		var s claudeSettings
		_ = json.Unmarshal(src, &s) // a member of another type reads as unset
		if scope != install.Codex && install.HasAllow(src, install.ScoutPermission) {
			d.allowed = append(d.allowed, d.rel(path))
		}
		if scope != install.Codex && install.HasAllow(src, install.JudgePermission) {
			d.judgeAllowed = append(d.judgeAllowed, d.rel(path))
		}
		for _, rule := range install.CuratorPermissions {
			if scope != install.Codex && install.HasAllow(src, rule) {
				if d.curatorAllowed == nil {
					d.curatorAllowed = map[string]bool{}
				}
				d.curatorAllowed[rule] = true
			}
		}
		inst, err := install.Installed(src, install.Options{Command: d.opts.Command, Exe: d.opts.Exe}.IsOurs)
		if err != nil {
			if se, ok := errors.AsType[*install.SyntaxError](err); ok {
				se.Path = path
			}
			broken = append(broken, err.Error())
			continue
		}
		if scope != install.Codex {
			if p, err := install.Installed(src, install.IsPrimeCommand); err == nil && len(p) > 0 {
				primed = append(primed, d.rel(path))
			}
			d.plugin = d.plugin || s.flowmemPlugin()
			if s.DisableAllHooks {
				disabled = append(disabled, d.rel(path))
			}
		}
		if len(inst) == 0 {
			continue
		}
		name, events := string(scope), slices.Sorted(maps.Keys(inst))
		d.places = append(d.places, name)
		// Files the team commits: a path exists on one machine only.
		shared := scope == install.Project || scope == install.Codex
		for _, ev := range events {
			for _, c := range inst[ev] {
				prog := install.HookProgram(c)
				if w := d.rel(path) + " runs " + prog; shared && strings.ContainsAny(prog, `/\`) && !slices.Contains(pinned, w) {
					pinned = append(pinned, w)
				}
				if !slices.Contains(d.hooks[name], c) {
					d.hooks[name] = append(d.hooks[name], c)
				}
			}
		}
		found = append(found, fmt.Sprintf("%s (%s: %s)", d.rel(path), list(events, ", "), list(d.hooks[name], " | ")))
		for _, ev := range install.HookFor(scope, "", 0).Events {
			if len(inst[ev]) == 0 {
				partial = append(partial, fmt.Sprintf("%s has no %s hook", d.rel(path), ev))
			}
		}
	}
	if d.plugin {
		d.places = append(d.places, "plugin")
		d.hooks["plugin"] = []string{"flowmem hook"}
		found = append(found, "the flowmem plugin (enabledPlugins)")
	}
	claudePlaces := len(d.places) // each place once
	if slices.Contains(d.places, string(install.Codex)) {
		claudePlaces--
	}
	switch {
	case len(broken) > 0:
		d.add("hooks", Fail, list(broken, "; ")+" — Claude Code cannot read this file either",
			"fix the JSON by hand at the place named, then: flowmem install")
	case len(disabled) > 0:
		d.add("hooks", Fail, "disableAllHooks is true in "+list(disabled, ", ")+": Claude Code runs no hooks at all",
			`remove "disableAllHooks" from that file (or set it to false)`)
	case claudePlaces == 0 && len(d.places) > 0:
		// Codex CLI alone: its hook is the whole setup.
		d.codexOnly = true
		d.add("hooks", OK, list(found, "; ")+" (Codex CLI only; flowmem install adds Claude Code's)", "")
	case claudePlaces == 0:
		d.add("hooks", Fail, "no flowmem hook in .claude/settings.json, .claude/settings.local.json or ~/.claude/settings.json, and the flowmem plugin is not enabled: reviews are not captured",
			"flowmem install (or --local / --user)")
	case len(pinned) > 0:
		d.add("hooks", Warn, list(pinned, "; ")+" by absolute path: the file is shared through git, and on a teammate's machine that path does not exist, so their hook fails (and reinstalling there rewrites it)",
			"flowmem install (the shared hook then runs '"+install.HookCmd+"', found on each machine's PATH); to keep an absolute path, use flowmem install --local")
	case len(partial) > 0:
		d.add("hooks", Warn, list(partial, "; ")+": a review command that exits non-zero is only seen by PostToolUseFailure",
			"flowmem install (same scope flag) adds the missing event")
	case claudePlaces > 1:
		also := ""
		if len(primed) > 1 {
			also = ", and so does its session prime (each session starts with its lessons twice)"
		}
		d.add("hooks", Warn, "flowmem's hook is registered in more than one place, so it runs once per place on every tool call (a review is still recorded once: the later runs find its call in the reviews log)"+also+": "+list(found, "; "),
			"keep one: "+d.keepOne())
	case len(primed) > 1:
		// The hook once, but a session prime added by hand beside
		// install --prime's: each session gets its lessons twice.
		d.add("hooks", Warn, "flowmem's session prime is registered in more than one place ("+list(primed, ", ")+"), so each session starts with its lessons twice: "+list(found, "; "),
			"keep one: remove the SessionStart hook running '"+install.PrimeCmd+"' from all but one of those files")
	default:
		d.add("hooks", OK, list(found, "; "), "")
	}
}

// keepOne names how to remove each registration but the project's, which
// the team shares.
func (d *doctor) keepOne() string {
	var fixes []string
	for _, place := range d.places {
		switch place {
		case string(install.Local), string(install.User):
			fixes = append(fixes, "flowmem uninstall --"+place)
		case "plugin":
			fixes = append(fixes, "disable the plugin (claude plugin disable flowmem@flowmem)")
		}
	}
	return strings.Join(fixes, ", or ")
}

// claudeSettings is what doctor reads of a Claude Code settings file
// besides its hooks.
type claudeSettings struct {
	DisableAllHooks bool           `json:"disableAllHooks"`
	EnabledPlugins  map[string]any `json:"enabledPlugins"`
}

// flowmemPlugin reports whether the file enables a plugin named flowmem
// from any marketplace.
func (s *claudeSettings) flowmemPlugin() bool {
	for k, v := range s.EnabledPlugins {
		if strings.HasPrefix(k, "flowmem@") && v == true {
			return true
		}
	}
	return false
}

func (d *doctor) checkHookBinary() {
	if len(d.places) == 0 {
		d.add("hook binary", Skip, "no hook installed", "")
		return
	}
	var bad, good, other, rewrite, names []string
	pinnedOther := 0 // other builds that only a reinstall can replace
	checked := map[string]bool{}
	for _, place := range d.places {
		for _, cmd := range d.hooks[place] {
			prog := d.expand(install.HookProgram(cmd))
			if prog == "" {
				if w := strings.Fields(cmd); len(w) >= 2 && w[len(w)-1] == "hook" {
					prog = d.expand(strings.Trim(w[len(w)-2], `'"`))
				}
			}
			if prog == "" || checked[prog] {
				continue
			}
			checked[prog] = true
			if !strings.ContainsAny(prog, `/\`) {
				names = append(names, prog)
			}
			// A hook by path is fixed where it is written: reinstalling
			// there rewrites it with this build's path.
			if fix := d.reinstall(place); strings.ContainsAny(prog, `/\`) && !slices.Contains(rewrite, fix) {
				rewrite = append(rewrite, fix)
			}
			resolved, err := d.resolve(prog)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s (%s hook): %v", prog, place, err))
				continue
			}
			out, err := d.opts.RunVersion(d.ctx, resolved)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s (%s hook) does not run: %v", resolved, place, err))
				continue
			}
			// What records the reviews: the program itself, or for the
			// front end the flowmem beside it, else on PATH (without one
			// it records nothing).
			recorder, err := install.Recorder(resolved, d.opts.PathEnv)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s (%s hook) finds no flowmem beside it or on PATH to record reviews with", resolved, place))
				continue
			}
			if want := "flowmem version " + d.opts.Version; d.opts.Version != "" && !install.SameFile(recorder, d.opts.Exe) {
				recOut := out
				if recorder != resolved {
					recOut, _ = d.opts.RunVersion(d.ctx, recorder)
				}
				if recOut != want {
					other = append(other, fmt.Sprintf("%s (%s hook) records with %s, which is %s, not this build (%s)", resolved, place, recorder, recOut, want))
					// A hook by path records with the flowmem beside it,
					// whatever PATH says: only a reinstall points it here.
					if strings.ContainsAny(prog, `/\`) && filepath.Dir(recorder) == filepath.Dir(resolved) {
						pinnedOther++
					}
				}
			}
			good = append(good, fmt.Sprintf("%s (%s)", resolved, strings.TrimSpace(out)))
		}
	}
	switch {
	case len(bad) > 0 && len(names) > 0:
		fix := putOnPath(d.opts.Exe, names...)
		if len(rewrite) > 0 {
			fix += "; and for a hook by path: " + list(rewrite, "; ")
		}
		d.add("hook binary", Fail, list(bad, "; "), fix)
	case len(bad) > 0:
		d.add("hook binary", Fail, list(bad, "; "),
			"reinstall so the hook runs this build: "+list(rewrite, "; ")+" (the project's hook runs '"+install.HookCmd+"' from PATH; --local and --user record this build's absolute path)")
	case len(other) > 0 && pinnedOther == len(other):
		d.add("hook binary", Warn, list(other, "; ")+": the hook records with that one",
			"point the hook at this build: "+list(rewrite, "; "))
	case len(other) > 0:
		d.add("hook binary", Warn, list(other, "; ")+": the hook records with that one",
			putOnPath(d.opts.Exe, names...)+"; or replace the other one with this build")
	default:
		d.add("hook binary", OK, list(good, "; "), "")
	}
}

// reinstall is the command that rewrites the hook in place with this
// build's absolute path; it names this build by path, since flowmem by name
// may be the other one.
func (d *doctor) reinstall(place string) string {
	exe := d.opts.Exe
	if exe == "" {
		exe = "flowmem"
	}
	cmd := exe + " install"
	if place != string(install.Project) {
		cmd += " --" + place
	}
	return cmd
}

// putOnPath says how to get this flowmem onto PATH, where hooks and the
// scout that run flowmem by name find it. Putting this build's folder on
// PATH helps only when the programs hooks run by name (names) are there
// too: a flowmem copied or built alone has no flowmem-hook beside it.
func putOnPath(exe string, names ...string) string {
	fix := "put this flowmem first on PATH: from a checkout of flowmem, make install, and add its folder (" + install.GoBin + ") to PATH in your shell profile, then restart Claude Code"
	if exe == "" {
		return fix
	}
	dir := filepath.Dir(exe)
	var absent []string
	for _, n := range names {
		if _, err := install.LookPath(n, dir); err != nil && !slices.Contains(absent, n) {
			absent = append(absent, n)
		}
	}
	if len(absent) > 0 {
		return fix + fmt.Sprintf(" (%s has no %s beside it: make install puts both programs in one folder)", exe, strings.Join(absent, " or "))
	}
	return fix + fmt.Sprintf(`; or export PATH="%s:$PATH"`, dir)
}

// expand resolves the variables hook commands commonly use.
func (d *doctor) expand(prog string) string {
	if prog == "" {
		return ""
	}
	if strings.HasPrefix(prog, "~/") {
		prog = d.opts.Home + prog[1:]
	}
	return os.Expand(prog, func(v string) string {
		switch v {
		case "HOME":
			return d.opts.Home
		case "CLAUDE_PROJECT_DIR":
			return string(d.proj)
		}
		return "$" + v
	})
}

// resolve finds prog as the hook's shell would: a bare name on PATH, a path
// as given.
func (d *doctor) resolve(prog string) (string, error) {
	if !strings.ContainsAny(prog, `/\`) {
		p, err := install.LookPath(prog, d.opts.PathEnv)
		if err != nil {
			return "", errors.New("not found on PATH")
		}
		return p, nil
	}
	fi, err := os.Stat(prog)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errors.New("no such file")
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "", errors.New("not a file")
	case fi.Mode().Perm()&0o111 == 0:
		return "", errors.New("not executable")
	}
	return prog, nil
}

// RunVersion runs `prog --version` (for at most 5 seconds) and returns the
// first line it printed.
func RunVersion(ctx context.Context, prog string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, prog, "--version")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s --version: %w", prog, err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	return first, nil
}

// agentFiles finds agent a where Claude Code looks for it (the project's
// .claude/agents/, then the user's), by state (install.Agent.State), and
// under "all" every one in order, an edited one marked so; an edited file
// whose front matter no longer names it is broken, since Claude Code
// skips it.
func (d *doctor) agentFiles(a install.Agent, name string) (map[string][]string, []string) {
	found := map[string][]string{}
	var broken []string
	for _, root := range []string{string(d.proj), d.opts.Home} {
		if root == "" {
			continue
		}
		p := filepath.Join(root, ".claude", "agents", a.File)
		state, err := a.State(p)
		switch {
		case err != nil:
			broken = append(broken, err.Error())
		case state == "absent":
		case state == "modified" && !hasName(p, name):
			broken = append(broken, d.rel(p)+" has no 'name: "+name+"' in its front matter, so Claude Code skips it")
		case state == "modified":
			found["all"] = append(found["all"], d.rel(p)+" (edited)")
			found[state] = append(found[state], d.rel(p))
		default:
			found["all"] = append(found["all"], d.rel(p))
			found[state] = append(found[state], d.rel(p))
		}
	}
	return found, broken
}

func (d *doctor) checkScout() {
	found, broken := d.agentFiles(install.Scout, "memory-scout")
	switch {
	case len(broken) > 0:
		d.add("scout", Fail, list(broken, "; "), "flowmem install --force (replaces it with flowmem's copy)")
	case len(found["current"]) > 0:
		d.add("scout", OK, list(found["current"], ", "), "")
	case len(found["outdated"]) > 0:
		d.add("scout", Warn, list(found["outdated"], ", ")+" is an earlier flowmem's copy (unedited)",
			"flowmem install (updates it)")
	case len(found["modified"]) > 0:
		d.add("scout", Warn, list(found["modified"], ", ")+" differs from this flowmem's copy (edited, or from another version)",
			"keep your edits, or take flowmem's copy: flowmem install --force (if a teammate's newer flowmem wrote it, update yours instead: --force would put an older scout in the shared file)")
	case d.plugin:
		d.add("scout", OK, "from the flowmem plugin (flowmem:memory-scout)", "")
	case d.codexOnly:
		d.add("scout", Skip, forCodex, "")
	default:
		d.add("scout", Fail, "memory-scout is not installed in .claude/agents/ or ~/.claude/agents/: nothing reads memory back at plan and work time",
			"flowmem install")
	}
}

// checkCurator: the memory-curator is optional (capture and recall work
// without it), so its absence is a warning; an edited copy is the user's
// choice, unless its front matter no longer names it.
func (d *doctor) checkCurator() {
	found, broken := d.agentFiles(install.Curator, "memory-curator")
	switch {
	case len(broken) > 0:
		d.add("curator", Warn, list(broken, "; "), "flowmem install --force (replaces it with flowmem's copy)")
	case len(found["all"]) > 0:
		d.curatorAllows(list(found["all"], ", "))
	case d.plugin:
		d.curatorAllows("from the flowmem plugin (flowmem:memory-curator)")
	case d.codexOnly:
		d.add("curator", Skip, forCodex, "")
	default:
		d.add("curator", Warn, "memory-curator is not installed in .claude/agents/ or ~/.claude/agents/: nobody but you judges the groups 'flowmem memory curate' proposes",
			"flowmem install")
	}
}

// curatorAllows reports the curator found (where) as ok when the settings
// allow each of its commands, and names the rules missing otherwise: the
// curator runs each through Bash, so Claude Code asks before every run,
// and claude -p refuses it.
func (d *doctor) curatorAllows(where string) {
	var missing []string
	for _, rule := range install.CuratorPermissions {
		if !d.curatorAllowed[rule] {
			missing = append(missing, rule)
		}
	}
	if len(missing) == 0 || d.codexOnly {
		d.add("curator", OK, where, "")
		return
	}
	d.add("curator", Warn, where+", but no settings file allows "+list(missing, ", ")+
		": Claude Code asks before the curator runs each, and claude -p refuses them",
		"flowmem install (adds the curator's rules to permissions.allow), or add them to permissions.allow by hand")
}

// checkPermission: the scout runs `flowmem memory read` through Bash, and
// after a review the hook's note asks the model to run `flowmem memory
// judge`; without a rule for each, Claude Code asks before every run, and
// claude -p (Ralph loops) refuses it.
func (d *doctor) checkPermission(check, rule string, in []string, asks string) {
	if len(in) > 0 {
		d.add(check, OK, rule+" in "+list(in, ", "), "")
		return
	}
	if d.codexOnly {
		d.add(check, Skip, forCodex, "")
		return
	}
	d.add(check, Warn, "no settings file allows "+rule+": "+asks+", and claude -p refuses it",
		"flowmem install (adds it to permissions.allow), or add it to permissions.allow by hand")
}

// hasName reports whether the front matter of the agent file at path
// names it: a top-level "name:" line, its value plain or quoted. A line
// read is enough for the one key doctor needs, and spares every flowmem
// process a YAML library's start-up.
func hasName(path, name string) bool {
	b, _ := regfile.Read(path, regfile.MaxText)
	// Cut only "---", so an empty front matter ("---\n---") closes on
	// the very next line rather than at a later fence.
	fm, ok := strings.CutPrefix(strings.ReplaceAll(string(b), "\r\n", "\n"), "---")
	end := strings.Index(fm, "\n---")
	if !ok || !strings.HasPrefix(fm, "\n") || end < 0 {
		return false
	}
	for _, line := range strings.Split(fm[:end], "\n") {
		v, ok := strings.CutPrefix(line, "name:")
		if !ok {
			continue
		}
		v, _, _ = strings.Cut(v, " #")
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		return v == name
	}
	return false
}

// checkPath: the scout (and the plugin's hook) run flowmem by name.
func (d *doctor) checkPath() {
	p, err := install.LookPath("flowmem", d.opts.PathEnv)
	if err != nil {
		// Named as they are here: a plugin's hook only with the plugin.
		who := "the memory-scout and memory-curator agents and the commands the hook's note asks the model to run (flowmem memory judge, add) run 'flowmem' by name"
		if d.plugin {
			who = "the plugin's hook, " + who
		}
		d.add("flowmem on PATH", Fail, "no flowmem on PATH: "+who, putOnPath(d.opts.Exe))
		return
	}
	// The scout and the curator run flowmem by name: another build on PATH
	// is what reads memory back, whatever the hook runs.
	if want := "flowmem version " + d.opts.Version; d.opts.Version != "" && !install.SameFile(p, d.opts.Exe) {
		if out, err := d.opts.RunVersion(d.ctx, p); err == nil && out != want {
			d.add("flowmem on PATH", Warn, fmt.Sprintf("%s is %s, not this build (%s): the memory-scout and the curator run 'flowmem' by name, so they read memory with that one", p, out, want),
				putOnPath(d.opts.Exe)+"; or replace the other one with this build")
			return
		}
	}
	d.add("flowmem on PATH", OK, p, "")
}

// maxListed bounds every list in a message, so a store with thousands of
// duplicate ids still gets a report one can read: the first few, and a
// count.
const maxListed = 3

func list(items []string, sep string) string { return listN(items, sep, maxListed) }

func listN(items []string, sep string, n int) string {
	if len(items) <= n {
		return strings.Join(items, sep)
	}
	return fmt.Sprintf("%s%s… and %d more (%d in all)", strings.Join(items[:n], sep), sep, len(items)-n, len(items))
}

// rel shows a path relative to the project, or with ~ for home.
func (d *doctor) rel(p string) string { return install.Rel(string(d.proj), d.opts.Home, p) }
