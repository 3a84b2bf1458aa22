// Package install registers flowmem with Claude Code (and Codex CLI): it
// merges the capture hook into a settings file without disturbing anything
// else in it, removes exactly that again, and writes the memory-scout
// subagent from the copy embedded in the binary. It knows nothing about the
// command line; the CLI and `flowmem init --install` both call Run.
package install

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/internal/atomicfile"
	"github.com/flowmem/flowmem/internal/regfile"
)

// Scope is where the hook is registered.
type Scope string

// The settings files flowmem can register its hook in.
const (
	Project Scope = "project" // .claude/settings.json, shared with the team
	Local   Scope = "local"   // .claude/settings.local.json, this checkout only
	User    Scope = "user"    // ~/.claude/settings.json, every project
	Codex   Scope = "codex"   // .codex/hooks.json, OpenAI Codex CLI
)

// Scopes lists every scope, in the order doctor reports them.
var Scopes = []Scope{Project, Local, User, Codex}

// DefaultTimeout bounds one hook run, in seconds. The hook answers in
// milliseconds; a short timeout keeps a stuck run from stalling a turn.
const DefaultTimeout = 10

// ScoutFile is the subagent's file name under .claude/agents/.
const ScoutFile = "memory-scout.md"

// The commands a settings file meant to be committed runs. They name
// flowmem, found on each machine's PATH, never one machine's absolute
// path, so the file works for every teammate and stays put between them.
const (
	// HookCmd is the capture hook: the flowmem-hook front end, which ends
	// the ordinary tool call in a fraction of flowmem's start-up and hands
	// a possible review to the flowmem beside it (or on PATH).
	HookCmd = FrontName
	// PrimeArgs follow the flowmem program in the SessionStart hook that
	// `install --prime` adds.
	PrimeArgs = "memory prime --session-start"
	// PrimeCmd is that hook by name.
	PrimeCmd = "flowmem " + PrimeArgs
	// ScoutPermission lets the memory-scout run its one command without
	// asking (it runs flowmem by name in every scope).
	ScoutPermission = "Bash(flowmem memory read:*)"
)

// CuratorPermissions let the memory-curator run its commands without
// asking: curate proposes, show reads one entry whole, merge joins. Claude
// Code asks before any Bash command without a rule, reading or not, and
// claude -p refuses it.
var CuratorPermissions = []string{"Bash(flowmem memory curate:*)", "Bash(flowmem memory show:*)", "Bash(flowmem memory merge:*)"}

// JudgePermission lets the main model run the command the hook's note
// names after a review that asks for changes: it only prints, and without
// a rule each run would stop on a question (claude -p refuses it, and the
// second look is lost). memory archive and memory add change memory, so
// they keep Claude Code's question: the user sees what the model drops.
const JudgePermission = "Bash(flowmem memory judge:*)"

// allowRules are every permission rule install adds and uninstall removes.
func allowRules() []string {
	return append(append([]string{ScoutPermission}, CuratorPermissions...), JudgePermission)
}

// Options says what to install where.
type Options struct {
	Project string // project root (the folder holding .flow/); needed except for User
	Home    string // home directory; needed for User
	Scope   Scope  // "" means Project
	Command string // hook command (see HookCommand)
	Timeout int    // seconds; 0 means DefaultTimeout
	Force   bool   // replace a scout file that differs from the embedded one
	DryRun  bool   // compute and report the changes, write nothing
	NoScout bool   // leave the agents and the permission rules alone
	// Prime is the SessionStart command to register (PrimeCmd, or an
	// absolute path's in the personal scopes); "" adds none.
	Prime string
	// Exe is the running flowmem binary: handlers that run it count as
	// flowmem's whatever it is named. May be "".
	Exe string
}

// IsOurs recognises flowmem's handlers: a command ending in "flowmem hook",
// the command being installed, or one that runs this very binary.
func (o Options) IsOurs(cmd string) bool {
	return IsFlowmemCommand(cmd) || (o.Command != "" && cmd == o.Command) || RunsBinary(cmd, o.Exe)
}

// isPrime recognises flowmem's SessionStart prime handlers.
func (o Options) isPrime(cmd string) bool {
	return IsPrimeCommand(cmd) || (o.Prime != "" && cmd == o.Prime)
}

// hasScout reports whether the scope has a scout, and so its permission.
func (o Options) hasScout() bool { return o.Scope != Codex && !o.NoScout }

// Change is what happened, or would happen, to one file.
type Change struct {
	Path   string `json:"path"`
	Action string `json:"action"` // created, updated, unchanged, removed, absent, kept
	Reason string `json:"reason,omitempty"`
	Diff   string `json:"diff,omitempty"` // dry runs: unified diff of the change
}

// Changed reports whether the file is (or would be) written or removed.
func (c Change) Changed() bool {
	return c.Action == "created" || c.Action == "updated" || c.Action == "removed"
}

// Result reports an install or uninstall.
type Result struct {
	Scope   Scope    `json:"scope"`
	Command string   `json:"command,omitempty"`
	Events  []string `json:"events"`
	DryRun  bool     `json:"dry_run"`
	Prime   string   `json:"prime,omitempty"` // the SessionStart command
	Allow   string   `json:"allow,omitempty"` // the scout's permission rule added, kept or removed
	// AllowRules are every permission rule added or kept (install) or
	// removed (uninstall): the scout's and the curator's.
	AllowRules []string `json:"allow_rules,omitempty"`
	Settings   Change   `json:"settings"`
	Scout      *Change  `json:"scout,omitempty"`
	Curator    *Change  `json:"curator,omitempty"`
	// Ignore is the clone's git exclude file, when install --local made git
	// ignore the local settings there (uninstall --local: took that out).
	Ignore *Change `json:"ignore,omitempty"`
	// Warnings say why the hook may not run here, each with its fix.
	Warnings []string `json:"warnings,omitempty"`
}

// Paths are the files a scope uses; Scout is "" when the scope has none.
type Paths struct {
	Settings string
	Scout    string
}

// PathsFor returns the settings and scout files of a scope.
func PathsFor(s Scope, project, home string) (Paths, error) {
	dir, settings := project, "settings.json"
	switch s {
	case Project, "":
	case Local:
		settings = "settings.local.json"
	case User:
		if home == "" {
			return Paths{}, errors.New("HOME is not set; cannot find ~/.claude")
		}
		dir = home
	case Codex:
		// Codex CLI has no Claude Code subagents, so no scout.
		if project == "" {
			return Paths{}, errors.New("no project folder given")
		}
		return Paths{Settings: filepath.Join(project, ".codex", "hooks.json")}, nil
	default:
		return Paths{}, fmt.Errorf("unknown scope %q", s)
	}
	if dir == "" {
		return Paths{}, errors.New("no project folder given")
	}
	return Paths{
		Settings: filepath.Join(dir, ".claude", settings),
		Scout:    filepath.Join(dir, ".claude", "agents", ScoutFile),
	}, nil
}

// HookFor returns the hook flowmem registers in a scope. Codex CLI only
// fires PostToolUse, and only for its shell tool, which it calls Bash.
func HookFor(s Scope, command string, timeout int) Hook {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if s == Codex {
		return Hook{Events: []string{"PostToolUse"}, Matcher: "Bash", Command: command, Timeout: timeout}
	}
	return Hook{
		Events:  []string{"PostToolUse", "PostToolUseFailure"},
		Matcher: "Bash|Agent",
		Command: command,
		Timeout: timeout,
	}
}

// Run installs the hook and the scout as opts says.
func Run(opts Options) (Result, error) {
	// Plan both files before writing either, so a broken settings file
	// leaves the scout untouched too.
	opts, paths, before, exists, err := opts.settings()
	if err != nil {
		return Result{Scope: opts.Scope}, err
	}
	h := HookFor(opts.Scope, opts.Command, opts.Timeout)
	res := Result{Scope: opts.Scope, Command: h.Command, Events: h.Events, DryRun: opts.DryRun}
	after, err := Merge(before, h, opts.IsOurs)
	if err == nil && opts.Prime != "" { // never for Codex CLI, which has no SessionStart
		res.Prime = opts.Prime
		after, err = Merge(after, Hook{Events: []string{"SessionStart"}, Command: opts.Prime, Timeout: h.Timeout}, opts.isPrime)
	}
	if err == nil && opts.hasScout() {
		res.Allow = ScoutPermission
		res.AllowRules = allowRules()
		// Rules there before flowmem's first install here are the
		// user's: noted, so uninstall leaves them. The note is written
		// at that first install even when it names none, as the mark
		// that flowmem's own rules are in the file: a user who removed
		// flowmem's hooks by hand left those behind, and installing
		// again must not take them for the user's.
		// An install from before the mark, whose hooks are still
		// there, noted the user's rules only when there were some: it
		// gets the mark, naming none.
		var theirs []string
		if _, marked := leftRules(before); !marked {
			theirs = []string{}
			if inst, ierr := Installed(before, opts.IsOurs); ierr == nil && len(inst) == 0 {
				for _, rule := range res.AllowRules {
					if HasAllow(before, rule) {
						theirs = append(theirs, rule)
					}
				}
			}
		}
		for _, rule := range res.AllowRules {
			if err == nil {
				after, err = AddAllow(after, rule)
			}
		}
		if err == nil && theirs != nil {
			after, err = setLeftRules(after, theirs)
		}
	}
	if err != nil {
		return res, withPath(err, paths.Settings)
	}
	res.Settings = planChange(paths.Settings, opts.label(paths.Settings), before, after, exists, opts.DryRun)

	agents := res.agents(paths, opts)
	for _, a := range agents {
		c, err := a.plan(a.path, opts.label(a.path), opts.Force, opts.DryRun)
		if err != nil {
			return res, err
		}
		*a.change = &c
	}
	if opts.DryRun {
		return res, res.keepOutOfGit(opts, paths.Settings)
	}
	if res.Settings.Changed() {
		if err := atomicfile.Write(paths.Settings, after, 0o644); err != nil {
			return res, fmt.Errorf("write %s: %w", paths.Settings, err)
		}
	}
	for _, a := range agents {
		if (*a.change).Changed() {
			if err := atomicfile.Write(a.path, a.body, 0o644); err != nil {
				return res, fmt.Errorf("write %s: %w", a.path, err)
			}
		}
	}
	return res, res.keepOutOfGit(opts, paths.Settings)
}

// settings finds the scope's files (Project when none is given) and reads
// its settings file.
func (o Options) settings() (_ Options, _ Paths, src []byte, exists bool, err error) {
	o.Scope = cmp.Or(o.Scope, Project)
	paths, err := PathsFor(o.Scope, o.Project, o.Home)
	if err == nil {
		src, exists, err = readFile(paths.Settings)
	}
	return o, paths, src, exists, err
}

// keepOutOfGit: a local scope's settings hold this machine's hook path.
func (r *Result) keepOutOfGit(opts Options, settings string) error {
	if opts.Scope != Local {
		return nil
	}
	ch, warning, err := keepOutOfGit(settings, opts.DryRun)
	r.Ignore = ch
	if warning != "" {
		r.Warnings = append(r.Warnings, warning)
	}
	return err
}

// placedAgent is an agent file of a scope and the Result field that
// reports it.
type placedAgent struct {
	Agent
	path   string
	change **Change
}

// agents are the agent files of the scope (none for Codex or with
// NoScout), beside one another in its agents folder.
func (r *Result) agents(paths Paths, opts Options) []placedAgent {
	if paths.Scout == "" || opts.NoScout {
		return nil
	}
	dir := filepath.Dir(paths.Scout)
	return []placedAgent{
		{Scout, filepath.Join(dir, Scout.File), &r.Scout},
		{Curator, filepath.Join(dir, Curator.File), &r.Curator},
	}
}

// Uninstall removes what Run added: every flowmem hook and prime handler in
// the scope's settings file, the scout's permission (and the containers left
// empty by that), and the scout when it is still the embedded copy (a
// user-edited one stays unless Force).
// opts.Command, when set, is also recognised as flowmem's, for hooks that
// were installed with --command.
func Uninstall(opts Options) (Result, error) {
	opts, paths, before, exists, err := opts.settings()
	res := Result{Scope: opts.Scope, Events: []string{}, DryRun: opts.DryRun}
	if err != nil {
		return res, err
	}
	ours := func(cmd string) bool { return opts.IsOurs(cmd) || opts.isPrime(cmd) }
	if found, err := Installed(before, ours); err != nil {
		return res, withPath(err, paths.Settings)
	} else {
		res.Events = append(res.Events, slices.Sorted(maps.Keys(found))...)
	}
	after, err := Unmerge(before, ours)
	theirs, marked := leftRules(before)
	if err == nil && marked {
		after, err = setLeftRules(after, nil)
	}
	for _, rule := range allowRules() {
		if err == nil && opts.hasScout() && HasAllow(after, rule) && !slices.Contains(theirs, rule) {
			if rule == ScoutPermission {
				res.Allow = rule
			}
			res.AllowRules = append(res.AllowRules, rule)
			after, err = RemoveAllow(after, rule)
		}
	}
	if err != nil {
		return res, withPath(err, paths.Settings)
	}
	// A file left holding only "{}" was most likely created by install: it
	// goes. A symlinked one stays, since its target belongs to someone else.
	removeFile := exists && !bytes.Equal(before, after) && isEmptyObject(after) && !isSymlink(paths.Settings)
	switch {
	case !exists:
		res.Settings = Change{Path: paths.Settings, Action: "absent"}
	case removeFile:
		res.Settings = Change{Path: paths.Settings, Action: "removed", Reason: "only flowmem's hooks were in it"}
		if opts.DryRun {
			res.Settings.Diff = Diff(opts.label(paths.Settings), before, nil)
		}
	default:
		res.Settings = planChange(paths.Settings, opts.label(paths.Settings), before, after, exists, opts.DryRun)
	}

	agents := res.agents(paths, opts)
	for _, a := range agents {
		c, err := a.planRemoval(a.path, opts.Force)
		if err != nil {
			return res, err
		}
		if c.Action == "removed" {
			// The project and local scopes share the project's agents.
			if other := opts.sharingScout(); other != "" {
				c = Change{Path: a.path, Action: "kept", Reason: "the flowmem hook in " + opts.label(other) + " still uses it"}
			}
		}
		*a.change = &c
	}
	if opts.DryRun {
		if opts.Scope == Local {
			res.Ignore, err = forgetOutOfGit(paths.Settings, true)
		}
		return res, err
	}
	switch {
	case removeFile:
		if err := os.Remove(paths.Settings); err != nil {
			return res, fmt.Errorf("remove %s: %w", paths.Settings, err)
		}
	case res.Settings.Changed():
		if err := atomicfile.Write(paths.Settings, after, 0o644); err != nil {
			return res, fmt.Errorf("write %s: %w", paths.Settings, err)
		}
	}
	removed := false
	for _, a := range agents {
		if (*a.change).Action == "removed" {
			if err := os.Remove(a.path); err != nil {
				return res, fmt.Errorf("remove %s: %w", a.path, err)
			}
			removed = true
		}
	}
	if removed {
		removeEmptyDirs(filepath.Dir(paths.Scout), filepath.Dir(filepath.Dir(paths.Scout)))
	}
	if removeFile {
		removeEmptyDirs(filepath.Dir(paths.Settings))
	}
	if opts.Scope == Local {
		res.Ignore, err = forgetOutOfGit(paths.Settings, false)
	}
	return res, err
}

// label names a file in diffs.
func (o Options) label(path string) string { return filepath.ToSlash(Rel(o.Project, o.Home, path)) }

// Rel shows path as people read it: relative to the project when inside
// it, else as ~/… when inside home.
func Rel(project, home, path string) string {
	for _, base := range []struct{ dir, prefix string }{{project, ""}, {home, "~/"}} {
		if base.dir == "" {
			continue
		}
		if r, err := filepath.Rel(base.dir, path); err == nil && !strings.HasPrefix(r, "..") {
			return base.prefix + r
		}
	}
	return path
}

// SameFile reports whether a and b name one existing file.
func SameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return a != "" && b != "" && err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func planChange(path, label string, before, after []byte, exists, dryRun bool) Change {
	c := Change{Path: path}
	switch {
	case !exists:
		c.Action = "created"
	case bytes.Equal(before, after):
		c.Action = "unchanged"
	default:
		c.Action = "updated"
	}
	if dryRun && c.Changed() {
		c.Diff = Diff(label, before, after)
	}
	return c
}

// Agent is a subagent file flowmem installs from the copy embedded in the
// binary.
type Agent struct {
	File string // name under .claude/agents/
	body []byte
	// earlier holds the SHA-256 of every copy an earlier flowmem installed:
	// a file that matches one was never edited, so install may update it
	// and uninstall remove it without --force.
	earlier map[string]bool
}

// Scout and Curator are the agents install writes.
var (
	Scout   = Agent{File: ScoutFile, body: flowmem.ScoutAgent, earlier: earlierScouts}
	Curator = Agent{File: "memory-curator.md", body: flowmem.CuratorAgent, earlier: earlierCurators}
)

// earlierCurators are the sums of the memory-curator.md copies earlier
// flowmems installed (their copies are in testdata/; TestCuratorHistory
// holds the two together). Add the old copy's sum whenever
// agents/memory-curator.md changes.
var earlierCurators = map[string]bool{
	"9ecce7dbd17611ba2c666f43110aa016352e8b521c89f518896c097e7f2085a9": true, // 83d0e8a
	"25804ad7e5a74e920da82056e8c419a341f335ba073969270dd160d965077adf": true, // d531dd3
	"ab414bd81c1bbc0ac1c9e70a2e63dfdfebc197aecfae054127c25dccf6f9ddf0": true, // 10bf617
}

// earlierScouts are the sums of the memory-scout.md copies earlier
// flowmems installed. Add the old copy's sum here whenever
// agents/memory-scout.md changes (TestScoutHistory checks the current copy
// is not listed, so the list cannot go stale silently).
var earlierScouts = map[string]bool{
	"e5ae2f4479693a6da4fa3fe0372ce9b30051178fcda3b6fbfe0d542dc23fe509": true, // c7e2b0d
	"1325c56e3485601242dda095bd139970efd254d44fbeb0880a9bd34b8dae2f2b": true, // 1eab748
	"a244d2d6c8307671cfa5635c01808e17b36bb32ba51171d227d645500afef947": true, // 0a40a07
	"091735bb838afef9c9b94e44290e4b4f40602643eeeaaea06402968b126acc89": true, // ac93206
	"1ce49685fe3575d3414bc0d1b59950167347f6072ebfe1a27ee9c6b77bb46450": true, // f03192d
	"b0d02868ec20c2c7f64bc4013fa879f31455698dc5fcc76baef92a1c6997e640": true, // e7d738a
	"f6d563c3e30c3dbe3c083987fef2aecec8e26052374a192700781cd5de59b330": true, // 4fd06aa
}

// State compares the agent file at path with the embedded copy: "absent",
// "current", "outdated" (an earlier flowmem's copy, unedited) or
// "modified".
func (a Agent) State(path string) (string, error) {
	have, exists, err := readFile(path)
	switch {
	case err != nil:
		return "", err
	case !exists:
		return "absent", nil
	}
	return a.version(have), nil
}

func (a Agent) version(have []byte) string {
	if bytes.Equal(have, a.body) {
		return "current"
	}
	sum := sha256.Sum256(have)
	if a.earlier[hex.EncodeToString(sum[:])] {
		return "outdated"
	}
	return "modified"
}

// plan plans writing the agent at path: created, unchanged, kept when a
// person edited it (unless force), else updated; with dryRun a changed
// file carries its diff.
//
// A link must lead to a file of the agent's own name (agents kept in a
// dotfiles repository): a repository can commit the agent as a link to a
// shell profile, which --force would replace.
func (a Agent) plan(path, label string, force, dryRun bool) (Change, error) {
	if _, err := atomicfile.SameName(path, "an agent file"); err != nil {
		return Change{}, fmt.Errorf("install %s: %w", label, err)
	}
	have, exists, err := readFile(path)
	if err != nil {
		return Change{}, err
	}
	if exists && !force && a.version(have) == "modified" {
		return Change{Path: path, Action: "kept", Reason: "differs from flowmem's copy (edited by hand?); use --force to replace it"}, nil
	}
	return planChange(path, label, have, a.body, exists, dryRun), nil
}

// planRemoval removes the agent when it is flowmem's copy, or with force.
func (a Agent) planRemoval(path string, force bool) (Change, error) {
	state, err := a.State(path)
	if err != nil {
		return Change{}, err
	}
	c := Change{Path: path}
	switch {
	case state == "absent":
		c.Action = "absent"
	case state == "current" || state == "outdated" || force:
		c.Action = "removed"
	default:
		c.Action = "kept"
		c.Reason = "differs from flowmem's copy (edited by hand?); use --force to remove it"
	}
	return c, nil
}

// sharingScout is the settings file of the other scope that uses this
// scope's scout (project and local share .claude/agents/) when it still has
// a flowmem hook; "" otherwise.
func (o Options) sharingScout() string {
	var other Scope
	switch o.Scope {
	case Project:
		other = Local
	case Local:
		other = Project
	default:
		return ""
	}
	paths, err := PathsFor(other, o.Project, o.Home)
	if err != nil {
		return ""
	}
	src, exists, err := readFile(paths.Settings)
	if err != nil || !exists {
		return ""
	}
	found, err := Installed(src, o.IsOurs)
	if err != nil || len(found) == 0 {
		return ""
	}
	return paths.Settings
}

func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// readFile returns the file's bytes and whether it exists.
func readFile(path string) ([]byte, bool, error) {
	b, err := regfile.Read(path, regfile.MaxText)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return b, true, nil
}

func withPath(err error, path string) error {
	if se, ok := errors.AsType[*SyntaxError](err); ok {
		se.Path = path
		return se
	}
	return fmt.Errorf("%s: %w", path, err)
}

func isEmptyObject(b []byte) bool {
	return string(bytes.Join(bytes.Fields(b), nil)) == "{}"
}

// removeEmptyDirs removes each folder that is empty, in order, so an
// uninstall does not leave behind the .claude/agents/ folders install made.
func removeEmptyDirs(dirs ...string) {
	for _, d := range dirs {
		_ = os.Remove(d) // fails, as it should, when d still holds files
	}
}
