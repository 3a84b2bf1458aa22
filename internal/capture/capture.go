// Package capture is flowmem's PostToolUse hook: it reads the event Claude
// Code (or Codex CLI) writes on stdin, recognises review runs — a Bash
// command matching the configured review patterns, or a reviewer
// subagent's result — and records the learnable findings of a NEEDS_WORK or
// MAJOR_RETHINK review in .flow/memory/pitfalls.md, folding a lesson seen
// before into its existing entry.
//
// The hook runs after every tool call of the agent, so it is built to be
// cheap and harmless: the decision "not a review" is made from the decoded
// payload alone (tool name, command, a substring check for a verdict word)
// before any file is read, markdown is parsed or the store is touched; and
// whatever happens it never fails the tool call — errors become one line on
// stderr and the caller exits 0.
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/flowmem/flowmem/internal/config"
	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/project"
	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/review"
)

// Defaults for Options.
const (
	// DefaultLockTimeout bounds the wait for the memory lock: a hook never
	// hangs behind a stuck writer.
	DefaultLockTimeout = 3 * time.Second
	// DefaultReadTimeout bounds the wait for a complete JSON object on
	// stdin, for a client that opens the pipe and never writes. With the
	// lock wait it stays under the 10 s timeout flowmem install sets, so
	// the hook gives up before Claude Code kills it.
	DefaultReadTimeout = 5 * time.Second
	// MaxOutput bounds the review text read from persistedOutputPath.
	MaxOutput = 8 << 20
	// maxContext bounds additionalContext (Claude Code moves anything over
	// 10,000 characters to a file).
	maxContext = 1000
)

// Options are the hook's inputs besides stdin. Zero values mean the
// process environment, the real clock and the defaults above.
type Options struct {
	Getenv      func(string) string
	Now         func() time.Time
	LockTimeout time.Duration
	ReadTimeout time.Duration
	// MaxPayload bounds stdin; 0 means MaxPayload.
	MaxPayload int64
}

func (o *Options) defaults() {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = defaultLockTimeout
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.MaxPayload <= 0 {
		o.MaxPayload = hookevent.MaxPayload
	}
}

// Result says what one hook run did: Skip names why nothing was recorded,
// or Outcomes lists what was.
type Result struct {
	Event    string
	Skip     string
	Project  project.Dir
	Kind     string // impl-review, plan-review, completion-review, review
	Task     string
	Verdict  review.Verdict
	Findings int
	Kept     int
	Outcomes []mdstore.Outcome
}

// Recorded reports whether the run wrote to memory.
func (r *Result) Recorded() bool { return len(r.Outcomes) > 0 }

// Run is the whole hook: it handles one event from in, prints the hook
// output JSON on out when something was recorded, and reports an internal
// error as one line on errOut. It never fails: the caller exits 0.
func Run(ctx context.Context, in io.Reader, out, errOut io.Writer, opt Options) {
	res, err := Handle(ctx, in, opt)
	if err != nil {
		fmt.Fprintf(errOut, "flowmem hook: %s\n", mdstore.OneLine(err.Error()))
		return
	}
	if !res.Recorded() {
		return
	}
	if err := writeOutput(out, res); err != nil {
		fmt.Fprintf(errOut, "flowmem hook: %s\n", mdstore.OneLine(err.Error()))
	}
}

// Handle decodes one event and records what it teaches. A nil error with
// Result.Skip set means the event was not for flowmem.
func Handle(ctx context.Context, in io.Reader, opt Options) (*Result, error) {
	opt.defaults()
	if hookevent.Disabled(opt.Getenv("FLOWMEM_DISABLE")) {
		return &Result{Skip: "FLOWMEM_DISABLE is set"}, nil
	}
	p, err := hookevent.DecodeWithin(in, opt.MaxPayload, opt.ReadTimeout)
	if err != nil {
		return nil, err
	}
	res := &Result{Event: p.Event()}
	skip := func(reason string) (*Result, error) {
		res.Skip = reason
		return res, nil
	}

	// The path every non-review tool call takes ends here, on the decoded
	// payload alone.
	c, why := hookevent.Screen(p)
	if why != "" {
		return skip(why)
	}
	text, persisted := c.Text, c.Persisted

	dir, err := findProject(p.Cwd, opt.Getenv("CLAUDE_PROJECT_DIR"))
	if err != nil {
		return skip("no flowmem project")
	}
	res.Project = dir
	cfg, err := config.Load(dir.ConfigPath())
	if err != nil {
		return nil, fmt.Errorf("memory untouched: %w", err)
	}
	if !cfg.Bool("memory.enabled") {
		return skip("memory is disabled")
	}
	switch c.Tool {
	case hookevent.ToolShell:
		ok, err := matchesAny(cfg.Strings("capture.review_patterns"), p.Command())
		if err != nil {
			return nil, err
		}
		if !ok {
			return skip("command is not a review command")
		}
		res.Kind = kindFromCommand(p.Command())
	case hookevent.ToolAgent:
		if !matchesGlob(cfg.Strings("capture.agent_types"), p.SubagentType()) {
			return skip("subagent " + p.SubagentType() + " is not a reviewer")
		}
		res.Kind = kindFromAgent(p.SubagentType(), p.Description())
	}
	if persisted {
		full, err := readBounded(p.PersistedOutputPath(), MaxOutput)
		if err == nil {
			text = full + "\n" + p.Stderr()
		}
		if !hookevent.VerdictHint(text) {
			return skip("no verdict in the output")
		}
	}

	// Redact before anything else reads the review: extraction, dedupe
	// and the store only ever see the masked text.
	text = redact.String(text)
	if v := review.ParseVerdict(text); !v.Actionable() {
		res.Verdict = v
		return skip(fmt.Sprintf("verdict %q asks for no changes", v))
	}
	opts := review.Options{MinSeverity: cfg.String("capture.min_severity"), PlanReview: res.Kind == "plan-review"}
	a := review.AnalyzeWith(text, opts)
	res.Verdict = a.Verdict
	res.Task = taskID(opt.Getenv("FLOW_TASK_ID"), p.Command(), p.Description(), p.Prompt(), text)
	res.Findings = len(a.Findings)
	kept := a.Kept()
	res.Kept = len(kept)
	if len(kept) == 0 {
		return skip(fmt.Sprintf("none of %d findings is a learnable lesson", len(a.Findings)))
	}
	store := mdstore.Open(dir.MemoryDir())
	store.LockTimeout = opt.LockTimeout
	outcomes, err := store.Record(ctx, mdstore.Pitfall, lessonsFrom(kept, res.Kind, res.Task), opt.Now())
	if err != nil {
		return nil, fmt.Errorf("record lessons: %w", err)
	}
	res.Outcomes = outcomes
	return res, nil
}

// defaultLockTimeout is DefaultLockTimeout, but for the process tests
// under the race detector, which makes a hook's work under the lock
// several times slower than a hook ever is (TestMain).
var defaultLockTimeout = DefaultLockTimeout

// lessonsFrom turns kept findings into pitfall entries, redacted, with
// repeats inside one review dropped (a reviewer that makes one point twice
// has not seen it twice).
func lessonsFrom(kept []review.Decision, kind, task string) []mdstore.Entry {
	var out []mdstore.Entry
	for _, d := range kept {
		f := d.Finding
		e := mdstore.Entry{
			Kind:     mdstore.Pitfall,
			Task:     taskOrUnknown(task),
			Source:   kind,
			Category: d.Category,
			Issue:    redact.String(f.Problem),
			Fix:      redact.String(f.Fix),
			Context:  redact.String(joinNonEmpty(" — ", f.Location, f.Evidence)),
		}
		if task != "" {
			e.Tasks = []string{task}
		}
		e.Normalize()
		if e.Issue == "" {
			continue
		}
		if !repeats(out, &e) {
			out = append(out, e)
		}
	}
	return out
}

func repeats(lessons []mdstore.Entry, e *mdstore.Entry) bool {
	for i := range lessons {
		if lessons[i].ID == e.ID && mdstore.SameText(lessons[i].Issue, e.Issue) {
			return true
		}
	}
	return false
}

// taskOrUnknown: an entry's heading needs a task; "manual" would claim a
// person added it, so a review with no task id says "unknown", as
// flow-next's hook did.
func taskOrUnknown(task string) string {
	if task == "" {
		return "unknown"
	}
	return task
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// findProject: the payload's cwd (it follows cd and worktrees), then the
// session root Claude Code exports. Both are absolute when Claude Code sends
// them; a relative one would be resolved against wherever the hook process
// happens to run, so it is ignored.
func findProject(cwd, projectDir string) (project.Dir, error) {
	var errs []error
	for _, start := range []string{cwd, projectDir} {
		if start == "" || !filepath.IsAbs(start) {
			continue
		}
		d, err := project.Find(start)
		if err == nil {
			return d, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return "", project.ErrNotFound
	}
	return "", errors.Join(errs...)
}

// readBounded reads at most limit bytes of a file.
func readBounded(name string, limit int64) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", fmt.Errorf("read persisted output: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return "", fmt.Errorf("read persisted output: %w", err)
	}
	return string(b), nil
}

// matchesAny reports whether command matches one of the patterns. An
// invalid pattern is a configuration error, reported rather than ignored.
func matchesAny(patterns []string, command string) (bool, error) {
	for _, pat := range patterns {
		re, err := regexp.Compile(pat)
		if err != nil {
			return false, fmt.Errorf("capture.review_patterns: invalid pattern %q: %w", pat, err)
		}
		if re.MatchString(command) {
			return true, nil
		}
	}
	return false, nil
}

// matchesGlob matches a subagent type against case-insensitive glob
// patterns ("*review*", "quality-auditor").
func matchesGlob(globs []string, name string) bool {
	if name == "" {
		return false
	}
	name = strings.ToLower(name)
	for _, g := range globs {
		if ok, err := path.Match(strings.ToLower(g), name); err == nil && ok {
			return true
		}
	}
	return false
}

// writeOutput prints the hook's JSON: a systemMessage for the user and,
// when lessons recurred, additionalContext stating that fact for the model.
func writeOutput(w io.Writer, r *Result) error {
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	out := struct {
		SystemMessage      string    `json:"systemMessage"`
		HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
	}{SystemMessage: systemMessage(r)}
	if ctx := recurrenceContext(r); ctx != "" {
		out.HookSpecificOutput = &specific{HookEventName: r.Event, AdditionalContext: ctx}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write hook output: %w", err)
	}
	return nil
}

func systemMessage(r *Result) string {
	added, seen := 0, 0
	for _, o := range r.Outcomes {
		if !o.New {
			seen++
		} else {
			added++
		}
	}
	var b strings.Builder
	b.WriteString("flowmem: ")
	b.WriteString(r.Kind)
	if r.Task != "" {
		b.WriteString(" of " + r.Task)
	}
	fmt.Fprintf(&b, ": recorded %d new %s in .flow/memory/pitfalls.md", added, plural(added, "lesson", "lessons"))
	if seen > 0 {
		fmt.Fprintf(&b, "; %d seen before (count updated)", seen)
	}
	if dropped := r.Findings - r.Kept; dropped > 0 {
		fmt.Fprintf(&b, "; %d %s not kept", dropped, plural(dropped, "finding", "findings"))
	}
	return b.String()
}

// recurrenceContext states, as facts, which lessons of this review were
// already in memory and how often they have come up.
func recurrenceContext(r *Result) string {
	var b strings.Builder
	n := 0
	for _, o := range r.Outcomes {
		if o.New {
			continue
		}
		if n == 0 {
			b.WriteString("flowmem: this review repeats lessons already in project memory (.flow/memory/pitfalls.md).")
		}
		n++
		e := o.Entry
		line := fmt.Sprintf(" Seen %d times, last %s, in tasks %s: %q.", e.Seen, e.LastSeen, strings.Join(e.Tasks, ", "), clip(e.Issue, 200))
		if len(e.Tasks) == 0 {
			line = fmt.Sprintf(" Seen %d times, last %s: %q.", e.Seen, e.LastSeen, clip(e.Issue, 200))
		}
		if b.Len()+len(line) > maxContext {
			more := fmt.Sprintf(" (%d more)", countRecurred(r.Outcomes)-n+1)
			if b.Len()+len(more) <= maxContext {
				b.WriteString(more)
			}
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

func countRecurred(os []mdstore.Outcome) int {
	n := 0
	for _, o := range os {
		if !o.New {
			n++
		}
	}
	return n
}

// clip shortens s to at most n bytes at a word boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
