// Package capture is flowmem's capture hook: it reads the event Claude
// Code (or Codex CLI) writes on stdin after a tool call, recognises review
// runs — a Bash command matching the configured review patterns, or a
// reviewer subagent's result — and records the learnable findings of a
// NEEDS_WORK or MAJOR_RETHINK review in .flow/memory/pitfalls.md, a lesson
// seen before counting as a sighting of its entry.
//
// The hook runs after every tool call of the agent, so it is one straight,
// synchronous pipeline (run) that turns most events away at its second
// stage, on the decoded payload alone, before any file is read; and
// whatever happens it never fails the tool call — errors become one line
// on stderr and the caller exits 0. `flowmem capture --explain` runs the
// same pipeline on a review text with writing switched off.
package capture

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/review"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// Defaults for Options.
const (
	// DefaultDeadline bounds one hook run from its start: reading stdin,
	// waiting for the memory lock and everything else. It is below the
	// 10 s timeout flowmem install sets and the 9 s after which
	// flowmem-hook stops its child, so the hook ends by itself, having
	// written nothing partial, before anyone kills it.
	DefaultDeadline = 8 * time.Second
	// DefaultLockTimeout bounds the wait for the memory lock: a hook never
	// hangs behind a stuck writer.
	DefaultLockTimeout = 3 * time.Second
	// maxContext bounds additionalContext (Claude Code moves anything over
	// 10,000 characters to a file).
	maxContext = 1000
	// MaxLessons bounds the lessons one review records. Real reviews keep a
	// handful to a few dozen findings; a text of thousands of
	// finding-shaped blocks is a log or an attack, and recording it all
	// would outlast the hook's deadline and bury memory. The most severe
	// are kept.
	MaxLessons = 30
)

// Options are the hook's inputs besides stdin. Zero values mean the
// process environment, the real clock and the defaults above.
type Options struct {
	Getenv      func(string) string
	Now         func() time.Time
	Deadline    time.Duration
	LockTimeout time.Duration
	// DryRun runs every stage but the writes: what --explain shows.
	DryRun bool
	// Dir is the folder the hook process runs in, where the project is
	// looked for when the event names no cwd and CLAUDE_PROJECT_DIR is
	// unset; "" looks nowhere.
	Dir string
}

func (o *Options) defaults() {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
}

// Result says what one run did: Skip names why nothing was recorded, or
// Outcomes lists what was.
type Result struct {
	Event   string
	Skip    string
	Project project.Dir
	Kind    string // impl-review, plan-review, completion-review, review
	Task    string
	Verdict review.Verdict
	// Analysis holds every finding of the review with its decision, read
	// from the redacted text.
	Analysis review.Analysis
	Findings int
	Kept     int
	// Lessons are the kept findings as entries, as they are (or, in a dry
	// run, would be) recorded.
	Lessons  []mdstore.Entry
	Outcomes []mdstore.Outcome
	// Nudge: the review asks for changes and capture.nudge is on, so the
	// model is invited to record what the rules missed.
	Nudge bool
	// Unrecorded is why lessons that were found could not be written (the
	// memory lock was busy, the folder is read-only); the user is told.
	Unrecorded string
	// Pending: capture.approval is on, so new lessons wait for a person's
	// approval before they are recalled.
	Pending bool
	// Capped counts the findings the rules kept that went over MaxLessons.
	Capped int
}

// Recorded reports whether the run wrote to memory.
func (r *Result) Recorded() bool { return len(r.Outcomes) > 0 }

// Run is the whole hook: it handles one event from in, prints the hook
// output JSON on out when there is something to say, and reports an
// internal error as one line on errOut. It never fails: the caller exits 0.
func Run(ctx context.Context, in io.Reader, out, errOut io.Writer, opt Options) {
	res, err := Handle(ctx, in, opt)
	if err != nil {
		fmt.Fprintf(errOut, "flowmem hook: %s\n", mdstore.OneLine(err.Error()))
	}
	if res == nil || !res.speaks() {
		return
	}
	if err := writeOutput(out, res); err != nil {
		fmt.Fprintf(errOut, "flowmem hook: %s\n", mdstore.OneLine(err.Error()))
	}
}

// Handle runs the pipeline on the event in `in`. A nil error with
// Result.Skip set means the event was not for flowmem.
func Handle(ctx context.Context, in io.Reader, opt Options) (*Result, error) {
	opt.defaults()
	// The deadline is on the real clock; Now may be a fixed day in tests.
	ctx, cancel := context.WithTimeout(ctx, opt.Deadline)
	defer cancel()
	if hookevent.Disabled(opt.Getenv("FLOWMEM_DISABLE")) {
		// The event is still read, as at any other end: a writer still
		// writing it to a hook that exited gets EPIPE, a failed hook.
		decode(ctx, source{event: in})
		return &Result{Skip: "FLOWMEM_DISABLE is set"}, nil
	}
	return run(ctx, source{event: in, dir: opt.Dir}, opt)
}

// Explain runs the same pipeline on a review text, as if a review command
// run in dir had printed it, with writing switched off: what the hook
// would record, finding by finding. Outside a project it uses the default
// settings.
func Explain(ctx context.Context, text, dir string, opt Options) (*Result, error) {
	opt.defaults()
	opt.DryRun = true
	return run(ctx, source{text: text, dir: dir}, opt)
}

// source is what the pipeline reads: a hook event, or (for --explain) a
// review text and the folder it is explained for.
type source struct {
	event io.Reader
	text  string
	dir   string
}

// run is the pipeline. Each stage either hands on to the next or ends the
// run with the reason; nothing is written before the last stages.
func run(ctx context.Context, src source, opt Options) (*Result, error) {
	res := &Result{Kind: "review"}
	skip := func(reason string) (*Result, error) {
		res.Skip = reason
		return res, nil
	}

	// 1. Decode the event: one JSON object, read until the deadline.
	ev, err := decode(ctx, src)
	if err != nil {
		return nil, err
	}

	// 2. Screen: the decision every tool call gets, on the payload alone.
	text := src.text
	var persisted bool
	if ev != nil {
		res.Event = ev.Event()
		c, why := hookevent.Screen(ev)
		if why != "" {
			return skip(why)
		}
		text, persisted = c.Text, c.Persisted
	}

	// 3. Project and config: memory must be on, and the tool call a
	// review run by the project's settings.
	cfg, err := projectConfig(res, ev, src, opt)
	if err != nil || cfg == nil {
		return res, err
	}
	if ev != nil {
		if why := recognise(res, ev, cfg); why != "" {
			return skip(why)
		}
	}

	// 4. Unwrap and read the review: the persisted output when the payload
	// held a preview, the review inside a Codex stream, receipt or claude
	// -p result, and what the wrapper says of verdict and task.
	preview := false
	if persisted {
		full, err := hookevent.ReadRegular(ev.PersistedOutputPath(), hookevent.MaxPersisted)
		if err == nil {
			text = full + "\n" + ev.Stderr()
		}
		preview = err != nil
	}
	u := review.Unwrap(text)

	// 5. Redact once: everything after this — extraction, the lessons, the
	// store, the reviews log, --explain's report — only ever sees the
	// masked text, and a secret or <private> block that spans findings is
	// masked whole. Only what the reader reads is masked: at most
	// review.MaxReviewLen bytes, cut at line ends so no secret is cut in two.
	masked := redact.String(readable(u.Text, review.MaxReviewLen))

	// 6. Extract and classify; the verdict is parsed here, once, unless
	// the wrapper stated it. A review with ranked findings and no verdict
	// asks for changes — unless all we have is a truncated preview.
	res.Analysis = review.AnalyzeWith(masked, review.Options{
		MinSeverity:  cfg.String("capture.min_severity"),
		InferVerdict: !preview,
	})
	res.Verdict = res.Analysis.Verdict
	if v := review.Verdict(u.Verdict); v != review.None {
		res.Verdict = v
	}
	res.Task = taskID(opt.Getenv("FLOW_TASK_ID"), ev, u.Task, masked)
	res.Findings = len(res.Analysis.Findings)
	res.Capped = capKept(res.Analysis.Decisions, MaxLessons)
	kept := res.Analysis.Kept()
	res.Kept = len(kept)
	res.Lessons = lessonsFrom(kept, res.Kind, res.Task)
	// A review whose findings come with no verdict the rules can read (no
	// verdict word, another language) may still ask for changes: the model
	// that has just read it is asked to decide, and nothing is recorded.
	unread := res.Verdict == review.None && res.Findings > 0 && !preview
	res.Nudge = (res.Verdict.Actionable() || unread) && cfg.Bool("capture.nudge")
	switch {
	case !res.Verdict.Actionable():
		res.Skip = fmt.Sprintf("verdict %q asks for no changes", res.Verdict)
	case len(res.Lessons) == 0:
		res.Skip = fmt.Sprintf("none of %d findings is a learnable lesson", res.Findings)
	}
	// 7. Record and log, once per tool call, under one hold of the lock;
	// a review with no verdict read leaves no trace.
	if opt.DryRun || res.Verdict == review.None {
		return res, nil
	}
	return res, commit(ctx, res, ev.Identity(), cfg.Bool("capture.approval"), opt)
}

// commit is the last stage, under one hold of the memory lock. Unless the
// reviews log already names this tool call — the hook is registered in two
// places and Claude Code runs both for one call, often at the same moment
// — the lessons are recorded (a lesson memory holds is a sighting of its
// entry, any other a new entry; with approval the new ones wait, pending)
// and the review gets its line in the log: every review with a verdict,
// SHIP included, and also when its lessons could not be written, so that
// nothing is lost silently. The run that finds its call logged says
// nothing: Claude Code hands the model every hook's note, and the first
// run's note already tells it what was recorded.
func commit(ctx context.Context, res *Result, event string, approval bool, opt Options) error {
	what := "reviews log"
	if res.Skip == "" {
		what = "record lessons"
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("memory untouched: the hook's deadline passed before recording (%w)", err)
		}
	}
	dir := res.Project.MemoryDir()
	store := mdstore.Open(dir)
	store.LockTimeout = opt.LockTimeout
	unlock, err := store.Lock(ctx)
	if err != nil {
		if res.Skip == "" {
			// The user must hear that found lessons were lost, and the
			// model must not be told the review held none worth keeping.
			res.Unrecorded = unrecorded(err, opt)
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	defer unlock()
	// A log that cannot be read does not stop the recording: a lesson
	// counted twice is better than one lost.
	logged, readErr := reviewlog.Logged(dir, event)
	if logged {
		res.Skip = "this tool call is recorded already (the hook ran twice for it; flowmem doctor names the second registration)"
		res.Nudge = false
		return nil
	}
	var recordErr error
	if res.Skip == "" {
		if approval {
			// The team reviews what the hook learned before it reaches a
			// prompt: new lessons wait for flowmem memory approve.
			res.Pending = true
			for i := range res.Lessons {
				res.Lessons[i].Status = mdstore.Pending
			}
		}
		res.Outcomes, err = store.RecordLocked(ctx, mdstore.Pitfall, res.Lessons, opt.Now())
		if err != nil {
			res.Unrecorded = unrecorded(err, opt)
			recordErr = fmt.Errorf("record lessons: %w", err)
		}
	}
	r := reviewlog.Review{Time: opt.Now(), Task: res.Task, Kind: res.Kind, Verdict: string(res.Verdict),
		Findings: res.Findings, Kept: res.Kept, Event: event}
	for _, o := range res.Outcomes {
		if o.New {
			r.New++
		} else {
			r.Recurred++
		}
		r.IDs = append(r.IDs, o.ID)
	}
	var logErr error
	if _, err := reviewlog.AppendLine(reviewlog.Path(dir), reviewlog.Line(r)); err != nil {
		logErr = fmt.Errorf("reviews log: %w", err)
	}
	return errors.Join(readErr, recordErr, logErr)
}

// unrecorded is why found lessons were not written, for the user.
func unrecorded(err error, opt Options) string {
	if errors.Is(err, mdstore.ErrLockTimeout) {
		return fmt.Sprintf("another flowmem process held the memory lock for more than %v", opt.LockTimeout)
	}
	return mdstore.Clip(mdstore.OneLine(err.Error()), 200)
}

// decode is stage 1: the event, bounded in size and by the run's
// deadline; nil for --explain, which starts from a review text.
func decode(ctx context.Context, src source) (*hookevent.Payload, error) {
	if src.event == nil {
		return nil, nil
	}
	d, _ := ctx.Deadline() // Handle sets one; Until ignores a zero time
	return hookevent.Decode(hookevent.Until(src.event, d))
}

// projectConfig is stage 3: the project and its config. A nil config with
// a nil error ends the run (res.Skip says why).
func projectConfig(res *Result, ev *hookevent.Payload, src source, opt Options) (*config.Config, error) {
	dir, found := findProject(ev, src.dir, opt.Getenv("CLAUDE_PROJECT_DIR"))
	switch {
	case !found && ev == nil:
		return config.Load("") // --explain outside a project: the defaults
	case !found && ev.Cwd == "" && opt.Getenv("CLAUDE_PROJECT_DIR") == "":
		// Said, not skipped in silence: whoever sent a review without a
		// cwd is left wondering why nothing was recorded. Events that
		// are no review never get here (Screen).
		where := "it was given no folder"
		if src.dir != "" {
			where = "no flowmem project holds " + src.dir + ", the folder it runs in"
		}
		return nil, fmt.Errorf("the event names no cwd and CLAUDE_PROJECT_DIR is unset, and %s: nothing recorded", where)
	case !found:
		res.Skip = "no flowmem project"
		return nil, nil
	}
	res.Project = dir
	cfg, err := config.Load(dir.ConfigPath())
	if err != nil {
		return nil, fmt.Errorf("memory untouched: %w", err)
	}
	if !cfg.Bool("memory.enabled") && !opt.DryRun {
		res.Skip = "memory is disabled"
		return nil, nil
	}
	return cfg, nil
}

// recognise decides whether the tool call ran a review, by the project's
// patterns for commands and globs for subagents (config.Load has checked
// both), and names its kind; a non-empty reason ends the run.
func recognise(res *Result, ev *hookevent.Payload, cfg *config.Config) string {
	switch hookevent.KindOf(ev.ToolName) {
	case hookevent.ToolShell:
		if !matchesAny(cfg.Strings("capture.review_patterns"), ev.Command()) {
			return "command is not a review command"
		}
		res.Kind = kindFromCommand(ev.Command())
	case hookevent.ToolAgent:
		if !matchesGlob(cfg.Strings("capture.agent_types"), ev.SubagentType()) {
			return "subagent " + ev.SubagentType() + " is not a reviewer"
		}
		res.Kind = kindFromAgent(ev.SubagentType(), ev.Description())
	}
	return ""
}

// capKept drops kept decisions beyond the first max by severity (most
// severe first, unranked last, review order among equals), saying why, and
// returns how many it dropped. The hook and --explain both see the result.
func capKept(ds []review.Decision, max int) int {
	var kept []int
	for i, d := range ds {
		if d.Keep {
			kept = append(kept, i)
		}
	}
	if len(kept) <= max {
		return 0
	}
	order := []string{review.SevNit, review.SevMinor, review.SevMajor, review.SevCritical}
	slices.SortStableFunc(kept, func(a, b int) int {
		return slices.Index(order, ds[b].Finding.Severity) - slices.Index(order, ds[a].Finding.Severity)
	})
	for _, i := range kept[max:] {
		ds[i].Keep = false
		ds[i].Reason = fmt.Sprintf("over the %d lessons one review may record (the most severe are kept)", max)
	}
	return len(kept) - max
}

// lessonsFrom turns kept findings (already redacted) into pitfall entries,
// with repeats inside one review dropped (a reviewer that makes one point
// twice has not seen it twice).
func lessonsFrom(kept []review.Decision, kind, task string) []mdstore.Entry {
	var out []mdstore.Entry
	for _, d := range kept {
		f := d.Finding
		// An entry's heading needs a task; "manual" would claim a person
		// added it, so a review with no task id says "unknown", as
		// flow-next's hook did.
		e := mdstore.Entry{
			Kind:     mdstore.Pitfall,
			Task:     cmp.Or(task, "unknown"),
			Source:   kind,
			Category: d.Category,
			Issue:    f.Problem,
			Fix:      f.Fix,
			Context:  findingContext(f),
		}
		if task != "" {
			e.Tasks = []string{task}
		}
		e.Normalize()
		if e.Issue == "" {
			continue
		}
		if !slices.ContainsFunc(out, func(o mdstore.Entry) bool { return o.ID == e.ID && mdstore.SameText(o.Issue, e.Issue) }) {
			out = append(out, e)
		}
	}
	return out
}

// readable is what of a review the reader reads, at most n bytes: all of
// it, or its beginning (where findings start) and its last lines (where
// the verdict is written), each cut at a line end.
func readable(s string, n int) string {
	if len(s) <= n {
		return s
	}
	tail := s[len(s)-n/16:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	head := s[:n-len(tail)-1]
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i]
	}
	return head + "\n" + tail
}

// findingContext is where the finding is and what shows it, as one line.
func findingContext(f review.Finding) string {
	loc, ev := strings.TrimSpace(f.Location), strings.TrimSpace(f.Evidence)
	if loc != "" && ev != "" {
		return loc + " — " + ev
	}
	return loc + ev
}

// findProject: for an event, the payload's cwd (it follows cd and
// worktrees), then the session root Claude Code exports. Both are absolute
// when Claude Code sends them; a relative one would be resolved against
// wherever the hook process happens to run, so it is ignored. An event
// with neither (Claude Code always sends cwd; a payload written by hand or
// another client may not) starts from dir, the folder the hook runs in,
// which is where Claude Code starts hooks. --explain starts from dir.
func findProject(ev *hookevent.Payload, dir, projectDir string) (project.Dir, bool) {
	starts := []string{dir}
	if ev != nil && (ev.Cwd != "" || projectDir != "") {
		starts = []string{ev.Cwd, projectDir}
	}
	if ev != nil {
		starts = slices.DeleteFunc(starts, func(s string) bool { return !filepath.IsAbs(s) })
	}
	for _, s := range starts {
		if d, err := project.Find(s); err == nil {
			return d, true
		}
	}
	return "", false
}

// matchesAny reports whether command matches one of the patterns.
func matchesAny(patterns []string, command string) bool {
	return slices.ContainsFunc(patterns, func(pat string) bool {
		re, err := regexp.Compile(pat)
		return err == nil && re.MatchString(command)
	})
}

// matchesGlob matches a subagent type against case-insensitive glob
// patterns ("*review*", "quality-auditor").
func matchesGlob(globs []string, name string) bool {
	if name == "" {
		return false
	}
	name = strings.ToLower(name)
	return slices.ContainsFunc(globs, func(g string) bool {
		ok, err := path.Match(strings.ToLower(g), name)
		return err == nil && ok
	})
}
