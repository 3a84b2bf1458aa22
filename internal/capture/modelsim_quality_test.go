//go:build quality

package capture

// Model-simulation tooling for the hook's second look (issue 14): after a
// change-requesting review the hook records what the rules keep and its
// additionalContext asks the model to archive recorded lessons that only
// concern the task and to add reusable lessons that are missing. How well a
// model does that is measured by simulating it: someone playing the coding
// model sees only the review and the hook's context, and writes down what
// it archived and added. These two tests are the tooling around that
// simulation; neither is a gate. The simulated answers are one run of one
// simulated model, so their figure is reported, never held to a threshold,
// and both tests are skipped unless their variables are set.
//
// TestModelsimEmit runs the real hook (Run, then Handle on a second fresh
// project for the Result) on every labelled review of a folder, as a Bash
// PostToolUse event of a flowctl review command whose output is the review
// file verbatim, and writes for each review <out>/<slug>/:
//
//	review.txt     the tool output the model saw (the review file)
//	command.txt    the review command the event carried
//	context.txt    the hook's additionalContext ("" when it printed none)
//	project/       the project as the hook left it (run the note's
//	               commands there)
//	recorded.json  the lessons recorded: id, issue, fix, category, and
//	               finding, the 0-based index of the extracted finding they
//	               came from (as `flowmem capture --explain --json` lists them)
//
// Nothing in them comes from the labels, which only choose the files and
// the plan-review command. The project has the default settings
// (capture.nudge on) and the clock a fixed day, and lesson ids are hashes
// of the lesson text, so every run gives the same ids. It is run, with
// paths relative to the repository root, as
//
//	FLOWMEM_MODELSIM_SET=testdata/review/real/<folder> FLOWMEM_MODELSIM_EMIT=<out> \
//	  go test -tags quality -count=1 -run '^TestModelsimEmit$' -v ./internal/capture/
//
// TestModelsimScore re-runs the hook the same way and reads the simulated
// model's actions from <actions>/<slug>.json:
//
//	{"archived": ["<id>", ...], "added": [{"lesson": "...", "fix": "...", "label": N}]}
//
// where label is the labelled finding a separate judge matched the added
// lesson to (0: none). It scores three rows against the first annotator's
// labels (and the second's where *.labels2.json exist), with the review
// quality harness's matching: a recorded lesson matches a learnable label
// when the label's anchor is in the whole text of the finding it came from.
// The rows are what the rules recorded, that less what was archived, and
// that plus what was added (an added lesson is a true positive when its
// label is a learnable finding of a change-requesting review not already
// matched). Each row prints as
//
//	[<folder>, second look] precision 0.xxx (a/b)  recall 0.xxx (c/d)  zero-yield N  (...)
//
// The rules-only row must equal internal/review's harness on the same
// folder; where they can differ, the hook is right: it lets a wrapper's
// verdict win over one written in the text, reads the review redacted and
// records a lesson repeated within a review once. It is run as
//
//	FLOWMEM_MODELSIM_SET=testdata/review/real/<folder> FLOWMEM_MODELSIM_ACTIONS=<actions> \
//	FLOWMEM_MODELSIM_EMIT=<out> \
//	  go test -tags quality -count=1 -run '^TestModelsimScore$' -v ./internal/capture/
//
// FLOWMEM_MODELSIM_EMIT is optional there: when given, the ids recorded now
// are compared with the emitted recorded.json and reviews whose ids changed
// are reported (the emitter does not run while FLOWMEM_MODELSIM_ACTIONS is
// set, so the emitted folder is never rewritten by a scoring run). A
// malformed action file, an action file for a review not in the folder, a
// missing action file for a review the hook spoke to the model about, and
// an archived id the hook did not record all fail the test: a broken
// simulation must not pass as a figure.
//
// The label anchors are matched against each finding's whole text, before
// its fields were cut to review.MaxFieldLen, exactly as
// internal/review/quality_test.go does. The helpers that give that text and
// normalise severities are unexported in internal/review and this tool
// must use the very same ones, so they are linked by name below; the build
// fails to link, loudly, if they are renamed.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/review"
)

// simLabels is the part of a label file the tools read.
type simLabels struct {
	Source struct {
		Kind string `json:"kind"`
	} `json:"source"`
	Verdict  string       `json:"verdict"`
	Findings []simFinding `json:"findings"`
}

type simFinding struct {
	N         int    `json:"n"`
	Anchor    string `json:"anchor"`
	Learnable bool   `json:"learnable"`
	Category  string `json:"category"`
}

// simLesson is one recorded lesson, as recorded.json holds it.
type simLesson struct {
	ID       string `json:"id"`
	Issue    string `json:"issue"`
	Fix      string `json:"fix"`
	Category string `json:"category"`
	// Finding is the index, in the hook's extracted findings, of the
	// finding the lesson was built from.
	Finding int `json:"finding"`
	// whole is that finding's whole text, normalised for anchor matching.
	whole string
}

// simRun is what the hook did with one review.
type simRun struct {
	slug, raw, command, context string
	project                     string // the project the shown hook run wrote to
	verdict                     review.Verdict
	recorded                    []simLesson
}

// simAdded is a lesson the simulated model added.
type simAdded struct {
	Lesson string `json:"lesson"`
	Fix    string `json:"fix"`
	// Category is the --category the model gave memory add ("" when it
	// gave none, which counts as a wrong category).
	Category string `json:"category,omitempty"`
	Label    *int   `json:"label"`
}

type simActions struct {
	Archived []string   `json:"archived"`
	Added    []simAdded `json:"added"`
}

func TestModelsimEmit(t *testing.T) {
	set, out := simPath("FLOWMEM_MODELSIM_SET"), simPath("FLOWMEM_MODELSIM_EMIT")
	if set == "" || out == "" || os.Getenv("FLOWMEM_MODELSIM_ACTIONS") != "" {
		t.Skip("a tool, not a gate: set FLOWMEM_MODELSIM_SET and FLOWMEM_MODELSIM_EMIT (and not FLOWMEM_MODELSIM_ACTIONS) to emit")
	}
	files := simLabelFiles(t, set, "*.labels.json")
	for _, lf := range files {
		l := readSimLabels(t, lf)
		r := simulate(t, lf, l)
		dir := filepath.Join(out, r.slug)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		rec, err := json.MarshalIndent(nonNil(r.recorded), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		for name, body := range map[string][]byte{
			"review.txt":    []byte(r.raw),
			"command.txt":   []byte(r.command + "\n"),
			"context.txt":   []byte(r.context),
			"recorded.json": append(rec, '\n'),
		} {
			if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// The project as the hook left it, so the commands the note names
		// (flowmem memory judge …) can be run on it for the simulation.
		if err := os.CopyFS(filepath.Join(dir, "project"), os.DirFS(r.project)); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: verdict %s, %d recorded, context %d bytes", r.slug, r.verdict, len(r.recorded), len(r.context))
	}
	t.Logf("emitted %d reviews of %s to %s", len(files), set, out)
}

func TestModelsimScore(t *testing.T) {
	set, actDir := simPath("FLOWMEM_MODELSIM_SET"), simPath("FLOWMEM_MODELSIM_ACTIONS")
	if set == "" || actDir == "" {
		t.Skip("a tool, not a gate: set FLOWMEM_MODELSIM_SET and FLOWMEM_MODELSIM_ACTIONS to score a simulated second look")
	}
	emitted := simPath("FLOWMEM_MODELSIM_EMIT")
	files := simLabelFiles(t, set, "*.labels.json")
	slugs := map[string]bool{}
	var runs []simRun
	var acts []simActions
	var changed []string
	for _, lf := range files {
		l := readSimLabels(t, lf)
		r := simulate(t, lf, l)
		slugs[r.slug] = true
		if emitted != "" && !sameIDs(t, filepath.Join(emitted, r.slug, "recorded.json"), r.recorded) {
			changed = append(changed, r.slug)
		}
		a, ok := readActions(t, filepath.Join(actDir, r.slug+".json"), r, l)
		if !ok && r.context != "" {
			t.Fatalf("%s: no action file for a review the hook spoke to the model about (write {} for a model that did nothing)", r.slug)
		}
		runs = append(runs, r)
		acts = append(acts, a)
	}
	stray, err := filepath.Glob(filepath.Join(actDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range stray {
		if !slugs[strings.TrimSuffix(filepath.Base(f), ".json")] {
			t.Fatalf("action file %s names no labelled review of %s", f, set)
		}
	}
	if len(changed) > 0 {
		t.Logf("[%s] recorded ids differ from the emitted ones (the simulated model saw other lessons) for %d reviews: %s",
			filepath.Base(set), len(changed), strings.Join(changed, ", "))
	} else if emitted != "" {
		t.Logf("[%s] recorded ids are the emitted ones for all %d reviews", filepath.Base(set), len(runs))
	}

	name := filepath.Base(filepath.Clean(set))
	simReport(t, name, files, runs, acts, ".labels.json", true)
	if a2 := simLabelFiles(t, set, "*.labels2.json"); len(a2) > 0 {
		simReport(t, name+", second annotator", files, runs, acts, ".labels2.json", false)
	}
}

// simReport scores and logs the three rows against one annotator's labels.
// Reviews without that annotator's label file are left out.
func simReport(t *testing.T, name string, files []string, runs []simRun, acts []simActions, suffix string, strict bool) {
	t.Helper()
	var rules, archived, second simRow
	for i, lf := range files {
		lf = strings.TrimSuffix(lf, ".labels.json") + suffix
		if _, err := os.Stat(lf); err != nil {
			continue
		}
		l := readSimLabels(t, lf)
		r, a := runs[i], acts[i]
		rules.add(l, r.recorded, nil)
		kept := slices.DeleteFunc(slices.Clone(r.recorded), func(s simLesson) bool { return slices.Contains(a.Archived, s.ID) })
		archived.add(l, kept, nil)
		second.add(l, kept, a.Added)
	}
	archivedN, addedN := 0, 0
	for _, a := range acts {
		archivedN += len(a.Archived)
		addedN += len(a.Added)
	}
	t.Logf("[%s] reviews %d, learnable findings %d", name, rules.reviews, rules.learnable)
	rules.log(t, name+", rules only", fmt.Sprintf("  category accuracy %.3f (%d/%d)", ratioOf(rules.catOK, rules.tp), rules.catOK, rules.tp))
	archived.log(t, name+", after archive", fmt.Sprintf("  (%d ids archived: %d recorded lessons gone, %d of them true)",
		archivedN, rules.kept-archived.kept, rules.tp-archived.tp))
	second.log(t, name+", second look", fmt.Sprintf("  category accuracy %.3f (%d/%d)  (%d lessons added: %d true, %d false)",
		ratioOf(second.catOK, second.tp), second.catOK, second.tp,
		addedN, second.tp-archived.tp, second.kept-archived.kept-(second.tp-archived.tp)))
}

// simRow is one row of figures.
type simRow struct {
	reviews, learnable, kept, tp, catOK int
	zeroYield                           int
}

// add scores one review: its recorded lessons are matched to learnable
// labels as the review quality harness matches kept findings, then each
// added lesson counts as true when the judge matched it to a learnable
// label of a change-requesting review not matched already.
func (s *simRow) add(l simLabels, recorded []simLesson, added []simAdded) {
	s.reviews++
	s.kept += len(recorded) + len(added)
	actionable := review.Verdict(l.Verdict).Actionable()
	used := make([]bool, len(recorded))
	matched := map[int]bool{}
	learnable := 0
	for _, lb := range l.Findings {
		if !lb.Learnable || !actionable {
			continue // an approving review's lessons are outside recall, as in the harness
		}
		learnable++
		for i, r := range recorded {
			if !used[i] && review.AnchorIn(lb.Anchor, r.whole) {
				used[i], matched[lb.N] = true, true
				s.tp++
				if r.Category == lb.Category {
					s.catOK++
				}
				break
			}
		}
	}
	for _, a := range added {
		n := *a.Label
		if n <= 0 || matched[n] || !actionable {
			continue
		}
		for _, lb := range l.Findings {
			if lb.N == n && lb.Learnable {
				matched[n] = true
				s.tp++
				if a.Category == lb.Category {
					s.catOK++
				}
				break
			}
		}
	}
	s.learnable += learnable
	if learnable > 0 && len(recorded)+len(added) == 0 {
		s.zeroYield++
	}
}

func (s *simRow) log(t *testing.T, name, extra string) {
	t.Helper()
	t.Logf("[%s] precision %.3f (%d/%d)  recall %.3f (%d/%d)  zero-yield %d%s",
		name, ratioOf(s.tp, s.kept), s.tp, s.kept, ratioOf(s.tp, s.learnable), s.tp, s.learnable, s.zeroYield, extra)
}

func ratioOf(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// simulate runs the hook on one labelled review: Run in a fresh project
// for the output the model reads, and Handle on the same event in another
// fresh project for the Result, whose recorded ids must be the ones the
// first run wrote.
func simulate(t *testing.T, lf string, l simLabels) simRun {
	t.Helper()
	rf, err := review.ReviewFile(lf)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(rf)
	if err != nil {
		t.Fatalf("read review: %v", err)
	}
	r := simRun{slug: strings.TrimSuffix(filepath.Base(lf), ".labels.json"), raw: string(raw),
		command: "flowctl codex impl-review fn-1.1"}
	if l.Source.Kind == "plan-review" {
		r.command = "flowctl codex plan-review fn-1"
	}

	shown := simProject(t)
	r.project = shown
	var out, errOut bytes.Buffer
	Run(context.Background(), bytes.NewReader(simPayload(t, shown, r.command, r.raw)), &out, &errOut, simOptions(shown))
	if errOut.Len() > 0 {
		t.Fatalf("%s: hook error: %s", r.slug, errOut.String())
	}
	if out.Len() > 0 {
		var o struct {
			HookSpecificOutput struct {
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out.Bytes(), &o); err != nil {
			t.Fatalf("%s: hook output: %v", r.slug, err)
		}
		r.context = o.HookSpecificOutput.AdditionalContext
	}

	dir := simProject(t)
	ev := simPayload(t, dir, r.command, r.raw)
	res, err := Handle(context.Background(), bytes.NewReader(ev), simOptions(dir))
	if err != nil {
		t.Fatalf("%s: %v", r.slug, err)
	}
	r.verdict = res.Verdict
	r.recorded = traceLessons(t, r.slug, ev, res)

	stored, err := mdstore.Open(filepath.Join(shown, ".flow", "memory")).Load(mdstore.Pitfall)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var want, got []string
	for _, e := range stored {
		want = append(want, e.ID)
	}
	for _, s := range r.recorded {
		if !slices.Contains(got, s.ID) {
			got = append(got, s.ID)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Fatalf("%s: the hook's run wrote %v, its Result says %v", r.slug, want, got)
	}
	return r
}

// traceLessons pairs each recorded lesson with the finding it was built
// from and that finding's whole text, read as the hook read the review.
func traceLessons(t *testing.T, slug string, ev []byte, res *Result) []simLesson {
	t.Helper()
	if !res.Recorded() {
		return nil
	}
	p, err := hookevent.Decode(bytes.NewReader(ev))
	if err != nil {
		t.Fatal(err)
	}
	c, why := hookevent.Screen(p)
	if why != "" {
		t.Fatalf("%s: screened out after recording: %s", slug, why)
	}
	masked := redact.String(readable(review.Unwrap(c.Text).Text, review.MaxReviewLen))
	cut, whole := review.ExtractWhole(masked)
	if !slices.Equal(cut, res.Analysis.Findings) || len(whole) != len(cut) {
		t.Fatalf("%s: the findings re-read from the review are not the hook's (%d vs %d)", slug, len(cut), len(res.Analysis.Findings))
	}
	if len(res.Outcomes) != len(res.Lessons) {
		t.Fatalf("%s: %d outcomes for %d lessons", slug, len(res.Outcomes), len(res.Lessons))
	}
	var out []simLesson
	j := 0
	for i, d := range res.Analysis.Decisions {
		if !d.Keep || j == len(res.Lessons) {
			continue
		}
		one := lessonsFrom([]review.Decision{d}, res.Kind, res.Task)
		if len(one) == 0 || one[0].ID != res.Lessons[j].ID || one[0].Issue != res.Lessons[j].Issue {
			continue // dropped by the hook as a repeat within the review, or empty
		}
		o := res.Outcomes[j]
		out = append(out, simLesson{ID: o.ID, Issue: res.Lessons[j].Issue, Fix: res.Lessons[j].Fix,
			Category: res.Lessons[j].Category, Finding: i, whole: review.NormMatch(whole[i])})
		j++
	}
	if j != len(res.Lessons) {
		t.Fatalf("%s: traced %d of %d lessons to their findings", slug, j, len(res.Lessons))
	}
	return out
}

// readActions reads and checks one review's action file; ok is false when
// there is none.
func readActions(t *testing.T, path string, r simRun, l simLabels) (simActions, bool) {
	t.Helper()
	var a simActions
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return a, false
	}
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("%s: malformed action file: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("%s: malformed action file: data after the object", path)
	}
	var seen []string
	for _, id := range a.Archived {
		if !slices.ContainsFunc(r.recorded, func(s simLesson) bool { return s.ID == id }) {
			t.Fatalf("%s: archived id %q is not one the hook recorded for %s (ids changed since emitting, or a bad simulation)", path, id, r.slug)
		}
		if slices.Contains(seen, id) {
			t.Fatalf("%s: id %q archived twice", path, id)
		}
		seen = append(seen, id)
	}
	for i, x := range a.Added {
		if strings.TrimSpace(x.Lesson) == "" {
			t.Fatalf("%s: added lesson %d has no text", path, i+1)
		}
		if x.Label == nil || *x.Label < 0 {
			t.Fatalf("%s: added lesson %d needs a label: the judged finding number, 0 for none", path, i+1)
		}
		if *x.Label > 0 && !slices.ContainsFunc(l.Findings, func(f simFinding) bool { return f.N == *x.Label }) {
			t.Fatalf("%s: added lesson %d names label %d, which %s has not", path, i+1, *x.Label, r.slug)
		}
	}
	return a, true
}

// sameIDs reports whether an emitted recorded.json holds the ids recorded now.
func sameIDs(t *testing.T, path string, now []simLesson) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("emitted lessons: %v", err)
	}
	var then []simLesson
	if err := json.Unmarshal(b, &then); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return slices.EqualFunc(then, now, func(a, b simLesson) bool { return a.ID == b.ID })
}

// simPath is a folder named by an environment variable; a relative one is
// relative to the repository root, not to this package's folder where go
// test runs.
func simPath(key string) string {
	p := os.Getenv(key)
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join("..", "..", p)
}

func simProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".flow"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(`{"memory": {"enabled": true}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// simPayload is a PostToolUse event of a Bash review command that printed
// the review verbatim, run in dir.
func simPayload(t *testing.T, dir, command, stdout string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"session_id":      "modelsim",
		"cwd":             dir,
		"hook_event_name": "PostToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command, "description": "Run review"},
		"tool_response":   map[string]any{"stdout": stdout, "stderr": "", "interrupted": false, "isImage": false},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func simOptions(dir string) Options {
	return Options{
		Getenv:      func(k string) string { return map[string]string{"CLAUDE_PROJECT_DIR": dir}[k] },
		Now:         func() time.Time { return time.Date(2026, 1, 10, 9, 30, 0, 0, time.UTC) },
		Deadline:    time.Minute,
		LockTimeout: 10 * time.Second,
	}
}

func simLabelFiles(t *testing.T, set, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(set, pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 && pattern == "*.labels.json" {
		t.Fatalf("no labelled reviews in %s", set)
	}
	sort.Strings(files)
	return files
}

func readSimLabels(t *testing.T, path string) simLabels {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read labels: %v", err)
	}
	var l simLabels
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return l
}

func nonNil(s []simLesson) []simLesson {
	if s == nil {
		return []simLesson{}
	}
	return s
}
