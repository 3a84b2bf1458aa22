package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/redact/secrettest"
	"github.com/gofrs/flock"
)

var testNow = time.Date(2026, 1, 10, 9, 30, 0, 0, time.UTC)

// newProject makes a flowmem project in a temp folder with memory on or off.
func newProject(t testing.TB, enabled bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".flow"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("{\n  \"memory\": {\n    \"enabled\": %v\n  }\n}\n", enabled)
	if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func optsFor(dir string, env ...string) Options {
	vars := map[string]string{"CLAUDE_PROJECT_DIR": dir}
	for i := 0; i+1 < len(env); i += 2 {
		vars[env[i]] = env[i+1]
	}
	return Options{
		Getenv:      func(k string) string { return vars[k] },
		Now:         func() time.Time { return testNow },
		LockTimeout: 2 * time.Second,
		// The run's deadline is tested on its own (TestDeadline); here it
		// must not depend on how loaded the machine is.
		Deadline: time.Minute,
	}
}

func handle(t testing.TB, dir string, payload []byte, env ...string) (*Result, error) {
	t.Helper()
	return Handle(context.Background(), bytes.NewReader(payload), optsFor(dir, env...))
}

func TestRelativeCwdIgnored(t *testing.T) {
	// Relative to the test's working folder, "." would walk up into this
	// repository's own .flow/.
	for _, cwd := range []string{".", "0", "internal"} {
		res, err := handle(t, "", withField(t, fixture(t, "bash_review"), "cwd", cwd))
		if err != nil || res.Skip != "no flowmem project" {
			t.Fatalf("cwd %q: %+v %v", cwd, res, err)
		}
	}
	res, err := handle(t, "relative/dir", fixture(t, "bash_review"))
	if err != nil || res.Skip != "no flowmem project" {
		t.Fatalf("relative CLAUDE_PROJECT_DIR: %+v %v", res, err)
	}
}

func pitfalls(t testing.TB, dir string) []mdstore.Entry {
	t.Helper()
	es, err := mdstore.Open(filepath.Join(dir, ".flow", "memory")).Load(mdstore.Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func countOutcomes(r *Result) (added, recurred int) {
	for _, o := range r.Outcomes {
		if !o.New {
			recurred++
		} else {
			added++
		}
	}
	return
}

func TestHandleFixtures(t *testing.T) {
	tests := []struct {
		name     string
		skip     string // substring of Result.Skip; "" means something was recorded
		added    int
		kind     string
		task     string
		findings int
	}{
		{name: "bash_nonreview", skip: "no verdict"},
		{name: "bash_grep_verdict", skip: "not a review command"},
		{name: "bash_review", added: 3, kind: "impl-review", task: "fn-1.2", findings: 4},
		{name: "bash_review_failure", added: 3, kind: "impl-review", task: "fn-1.2", findings: 4},
		{name: "bash_review_ship", skip: "asks for no changes"},
		{name: "bash_review_rerun", added: 2, kind: "impl-review", task: "fn-2.1", findings: 2},
		{name: "scout_readback", skip: "memory-scout"},
		{name: "scout_flowmem_read", skip: "memory-scout"},
		{name: "main_cat_memory", skip: "reads memory back"},
		{name: "agent_reviewer", added: 2, kind: "impl-review", task: "fn-2.1", findings: 2},
		{name: "agent_scout_result", skip: "memory-scout"},
		{name: "task_reviewer_legacy", added: 2, kind: "plan-review", task: "fn-3", findings: 2},
		{name: "bash_mid2025", added: 2, kind: "review", task: "fn-2.1", findings: 2},
		{name: "codex_string_response", added: 3, kind: "impl-review", task: "fn-1.2", findings: 4},
		{name: "invalid_utf8", added: 3, kind: "impl-review", task: "fn-1.2", findings: 4},
		{name: "session_start", skip: "event SessionStart"},
		{name: "wrong_types", skip: "no verdict"},
		{name: "trailing_garbage", skip: "no verdict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newProject(t, true)
			res, err := handle(t, dir, fixture(t, tt.name))
			if err != nil {
				t.Fatal(err)
			}
			if tt.skip != "" {
				if !strings.Contains(res.Skip, tt.skip) {
					t.Fatalf("skip = %q, want %q", res.Skip, tt.skip)
				}
				// A review that asks for nothing is only logged (in a
				// memory folder made as init makes it, .gitignore
				// included); anything else leaves the memory folder alone.
				files, _ := filepath.Glob(filepath.Join(dir, ".flow", "memory", "*"))
				for _, f := range files {
					if b := filepath.Base(f); b != "reviews.jsonl" && b != mdstore.LockName && b != ".gitignore" {
						t.Errorf("a skipped event wrote %s", b)
					}
				}
				if _, err := os.Stat(filepath.Join(dir, ".flow", "memory", "reviews.jsonl")); (err == nil) != (res.Verdict != "") {
					t.Errorf("verdict %q, reviews log: %v", res.Verdict, err)
				}
				return
			}
			if res.Skip != "" {
				t.Fatalf("skipped: %s", res.Skip)
			}
			added, recurred := countOutcomes(res)
			if added != tt.added || recurred != 0 {
				t.Errorf("added %d, recurred %d; want %d new", added, recurred, tt.added)
			}
			if res.Kind != tt.kind || res.Task != tt.task || res.Findings != tt.findings {
				t.Errorf("kind %q task %q findings %d; want %q %q %d", res.Kind, res.Task, res.Findings, tt.kind, tt.task, tt.findings)
			}
			es := pitfalls(t, dir)
			if len(es) != tt.added {
				t.Fatalf("pitfalls.md holds %d entries, want %d", len(es), tt.added)
			}
			for _, e := range es {
				if e.Source != tt.kind || e.Issue == "" || e.Fix == "" || e.Category == "" || e.Date != "2026-01-10" {
					t.Errorf("incomplete entry: %+v", e)
				}
				if tt.task != "" && (e.Task != tt.task || len(e.Tasks) != 1 || e.Tasks[0] != tt.task) {
					t.Errorf("entry task %q tasks %v, want %q", e.Task, e.Tasks, tt.task)
				}
			}
		})
	}
}

func TestHandleRejectsBrokenPayloads(t *testing.T) {
	for _, name := range []string{"malformed", "truncated", "not_object"} {
		t.Run(name, func(t *testing.T) {
			dir := newProject(t, true)
			var out, errOut bytes.Buffer
			Run(context.Background(), bytes.NewReader(fixture(t, name)), &out, &errOut, optsFor(dir))
			if out.Len() != 0 {
				t.Errorf("stdout: %q", out.String())
			}
			if lines := strings.Count(errOut.String(), "\n"); lines != 1 || !strings.HasPrefix(errOut.String(), "flowmem hook: decode hook payload") {
				t.Errorf("want one stderr line, got %q", errOut.String())
			}
			if _, err := os.Stat(filepath.Join(dir, ".flow", "memory")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("memory touched: %v", err)
			}
		})
	}
}

func TestHandleGates(t *testing.T) {
	review := fixture(t, "bash_review")
	t.Run("memory disabled", func(t *testing.T) {
		dir := newProject(t, false)
		res, err := handle(t, dir, review)
		if err != nil || res.Skip != "memory is disabled" {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("config file missing means disabled", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".flow"), 0o755); err != nil {
			t.Fatal(err)
		}
		res, err := handle(t, dir, review)
		if err != nil || res.Skip != "memory is disabled" {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("no project", func(t *testing.T) {
		res, err := handle(t, "", review)
		if err != nil || res.Skip != "no flowmem project" {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("FLOWMEM_DISABLE", func(t *testing.T) {
		dir := newProject(t, true)
		res, err := handle(t, dir, review, "FLOWMEM_DISABLE", "1")
		if err != nil || !strings.Contains(res.Skip, "FLOWMEM_DISABLE") {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("FLOWMEM_DISABLE=0 keeps it on", func(t *testing.T) {
		dir := newProject(t, true)
		res, err := handle(t, dir, review, "FLOWMEM_DISABLE", "0")
		if err != nil || !res.Recorded() {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("broken config", func(t *testing.T) {
		dir := newProject(t, true)
		cfg := filepath.Join(dir, ".flow", "config.json")
		if err := os.WriteFile(cfg, []byte("{\"memory\": {\"enabled\": true,}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		Run(context.Background(), bytes.NewReader(review), &out, &errOut, optsFor(dir))
		if out.Len() != 0 || !strings.Contains(errOut.String(), "config.json:1:") || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
		}
		if _, err := os.Stat(filepath.Join(dir, ".flow", "memory")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("memory touched: %v", err)
		}
	})
	t.Run("invalid review pattern", func(t *testing.T) {
		dir := newProject(t, true)
		cfg := `{"memory": {"enabled": true}, "capture": {"review_patterns": ["(impl"]}}`
		if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := handle(t, dir, review); err == nil || !strings.Contains(err.Error(), "capture.review_patterns") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("custom review pattern", func(t *testing.T) {
		dir := newProject(t, true)
		cfg := `{"memory": {"enabled": true}, "capture": {"review_patterns": ["^make audit\\b"]}}`
		if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := handle(t, dir, review)
		if err != nil || res.Skip != "command is not a review command" {
			t.Fatalf("default pattern still used: %+v %v", res, err)
		}
		p := bytes.Replace(review, []byte("flowctl codex impl-review fn-1.2 --receipt /tmp/fn-1.2-receipt.json"), []byte("make audit TASK=fn-1.2"), 1)
		if res, err := handle(t, dir, p); err != nil || !res.Recorded() {
			t.Fatalf("custom pattern not used: %+v %v", res, err)
		}
	})
	t.Run("min severity from config", func(t *testing.T) {
		dir := newProject(t, true)
		cfg := `{"memory": {"enabled": true}, "capture": {"min_severity": "critical"}}`
		if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := handle(t, dir, review)
		if err != nil || len(res.Outcomes) != 1 {
			t.Fatalf("want only the critical finding: %+v %v", res, err)
		}
	})
}

// TestHandleFindsProjectFromCwd: the payload's cwd (a subfolder) wins over
// CLAUDE_PROJECT_DIR.
func TestHandleFindsProjectFromCwd(t *testing.T) {
	dir := newProject(t, true)
	other := newProject(t, true)
	sub := filepath.Join(dir, "pkg", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := withField(t, fixture(t, "bash_review"), "cwd", sub)
	res, err := handle(t, other, p)
	if err != nil || !res.Recorded() || string(res.Project) != dir {
		t.Fatalf("res %+v err %v", res, err)
	}
	if len(pitfalls(t, other)) != 0 {
		t.Error("recorded in CLAUDE_PROJECT_DIR although cwd is in another project")
	}
}

// withField returns the payload with one top-level field replaced.
func withField(t testing.TB, payload []byte, key string, value any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	m[key] = value
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rerun is payload as another tool call reports it: the same command run
// again, under a call id of its own.
func rerun(t testing.TB, payload []byte, n int) []byte {
	t.Helper()
	return withField(t, payload, "tool_use_id", fmt.Sprintf("toolu_rerun%d", n))
}

func TestHandlePersistedOutput(t *testing.T) {
	dir := newProject(t, true)
	full, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "reviews", "impl-review-fn-1.2.md"))
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "toolu_01Persist.txt")
	if err := os.WriteFile(saved, full, 0o644); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(fixture(t, "bash_persisted_preview"), &m); err != nil {
		t.Fatal(err)
	}
	resp := m["tool_response"].(map[string]any)
	if strings.Contains(resp["stdout"].(string), "verdict") {
		t.Fatal("fixture preview should not hold the verdict")
	}
	resp["persistedOutputPath"] = saved
	p, _ := json.Marshal(m)
	res, err := handle(t, dir, p)
	if err != nil || len(res.Outcomes) != 3 {
		t.Fatalf("res %+v err %v", res, err)
	}

	// A persisted file that is gone leaves only the preview: no verdict.
	resp["persistedOutputPath"] = filepath.Join(t.TempDir(), "gone.txt")
	p, _ = json.Marshal(m)
	res, err = handle(t, newProject(t, true), p)
	if err != nil || res.Recorded() {
		t.Fatalf("res %+v err %v", res, err)
	}
}

func TestRecurrenceThroughTheHook(t *testing.T) {
	dir := newProject(t, true)
	review := fixture(t, "bash_review")
	if res, err := handle(t, dir, review); err != nil || len(res.Outcomes) != 3 {
		t.Fatalf("first run: %+v %v", res, err)
	}
	// The same review run again: everything folds, nothing is added.
	res, err := handle(t, dir, rerun(t, review, 1))
	if err != nil {
		t.Fatal(err)
	}
	if added, recurred := countOutcomes(res); added != 0 || recurred != 3 {
		t.Fatalf("re-run: added %d recurred %d", added, recurred)
	}
	// A later review of another task says the docker HOME point in other
	// words and raises a new lock lesson: a paraphrase is a new entry (the
	// hook folds exact repeats only; curation joins paraphrases later).
	res, err = handle(t, dir, fixture(t, "bash_review_rerun"))
	if err != nil {
		t.Fatal(err)
	}
	if added, recurred := countOutcomes(res); added != 2 || recurred != 0 {
		t.Fatalf("later review: added %d recurred %d", added, recurred)
	}
	es := pitfalls(t, dir)
	if len(es) != 5 {
		t.Fatalf("%d entries, want 5", len(es))
	}
	var docker *mdstore.Entry
	for i := range es {
		if strings.Contains(es[i].Issue, "docker exec") {
			docker = &es[i]
			break
		}
	}
	if docker == nil || docker.Seen != 2 || strings.Join(docker.Tasks, ",") != "fn-1.2" {
		t.Fatalf("docker lesson: %+v", docker)
	}
}

func TestOutputContract(t *testing.T) {
	dir := newProject(t, true)
	failure := fixture(t, "bash_review_failure")
	var out, errOut bytes.Buffer
	Run(context.Background(), bytes.NewReader(failure), &out, &errOut, optsFor(dir))
	if errOut.Len() != 0 {
		t.Fatalf("stderr: %s", errOut.String())
	}
	first := decodeOutput(t, out.Bytes())
	if !strings.Contains(first.SystemMessage, "impl-review of fn-1.2: recorded 3 new lessons") || first.HookSpecificOutput == nil {
		t.Fatalf("first run output: %+v", first)
	}
	// The second look: each lesson recorded, by the id memory judge
	// takes, and the one command that judges them all.
	c := first.HookSpecificOutput.AdditionalContext
	var ids []string
	for _, e := range pitfalls(t, dir) {
		ids = append(ids, e.ID)
		if !strings.Contains(c, "["+e.ID+"] \"") {
			t.Errorf("first run additionalContext lacks lesson %s: %s", e.ID, c)
		}
	}
	if !strings.Contains(c, "run "+JudgeCommand(ids)+" (") || !strings.Contains(c, "archive those that fail, keep those") || len(c) > maxContext {
		t.Errorf("first run additionalContext: %s", c)
	}

	out.Reset()
	Run(context.Background(), bytes.NewReader(rerun(t, failure, 1)), &out, &errOut, optsFor(dir))
	second := decodeOutput(t, out.Bytes())
	h := second.HookSpecificOutput
	if h == nil || h.HookEventName != "PostToolUseFailure" {
		t.Fatalf("recurrence output: %s", out.String())
	}
	// Nothing new: the repeats are named, and there is nothing to archive.
	if c := h.AdditionalContext; strings.Count(c, "] seen 2 times, in tasks fn-1.2: ") != 3 || strings.Contains(c, "archive") {
		t.Errorf("additionalContext: %s", c)
	}
	if !strings.Contains(second.SystemMessage, "3 seen before") {
		t.Errorf("systemMessage: %s", second.SystemMessage)
	}
}

type hookOutput struct {
	SystemMessage      string `json:"systemMessage"`
	HookSpecificOutput *struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

func decodeOutput(t testing.TB, b []byte) hookOutput {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("{")) || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("hook output must be one JSON line starting with '{': %q", b)
	}
	var o hookOutput
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestAdditionalContextBounded: many long recurring lessons still give at
// most 1,000 bytes of context, and every lesson's id is in it.
func TestAdditionalContextBounded(t *testing.T) {
	var b strings.Builder
	for i, l := range loadRecurrenceCorpus(t, "corpus.txt")[:12] {
		// Long findings: the lesson followed by its heavy rewrite.
		fmt.Fprintf(&b, "%d. **Severity: Major**\n   **File:Line:** `pkg/f%d.go:%d`\n   **Problem:** %s. In other words: %s\n   **Suggestion:** %s\n\n", i+1, i, i+10, l.a.issue, l.hard[0].issue, l.a.fix)
	}
	b.WriteString("<verdict>NEEDS_WORK</verdict>\n")
	p := withField(t, fixture(t, "bash_review"), "tool_response", map[string]any{"stdout": b.String(), "stderr": ""})
	dir := newProject(t, true)
	for run := 0; run < 2; run++ {
		var out, errOut bytes.Buffer
		Run(context.Background(), bytes.NewReader(rerun(t, p, run)), &out, &errOut, optsFor(dir))
		if errOut.Len() != 0 {
			t.Fatal(errOut.String())
		}
		o := decodeOutput(t, out.Bytes())
		if run == 1 {
			if o.HookSpecificOutput == nil {
				t.Fatalf("no recurrence context: %s", out.String())
			}
			ctx := o.HookSpecificOutput.AdditionalContext
			if n := len(ctx); n > maxContext || n < 200 {
				t.Errorf("additionalContext is %d bytes: %s", n, ctx)
			}
			es := pitfalls(t, dir)
			for _, e := range es {
				if !strings.Contains(ctx, e.ID) {
					t.Errorf("additionalContext lacks %s: %s", e.ID, ctx)
				}
			}
			if len(es) < 10 {
				t.Errorf("%d lessons recorded; the test wants enough to overflow the context", len(es))
			}
		}
	}
}

func TestLockTimeoutLeavesMemoryUntouched(t *testing.T) {
	dir := newProject(t, true)
	if res, err := handle(t, dir, fixture(t, "bash_review")); err != nil || !res.Recorded() {
		t.Fatalf("%+v %v", res, err)
	}
	file := filepath.Join(dir, ".flow", "memory", "pitfalls.md")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	held := flock.New(filepath.Join(dir, ".flow", "memory", mdstore.LockName))
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()

	opt := optsFor(dir)
	opt.LockTimeout = 50 * time.Millisecond
	var out, errOut bytes.Buffer
	Run(context.Background(), bytes.NewReader(fixture(t, "bash_review_rerun")), &out, &errOut, opt)
	if !strings.Contains(errOut.String(), "timed out waiting for the memory lock") || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("stderr %q", errOut.String())
	}
	// The user is told, not only the debug log: lessons were found and
	// are not in memory.
	o := decodeOutput(t, out.Bytes())
	if !strings.Contains(o.SystemMessage, "2 lessons NOT recorded") || !strings.Contains(o.SystemMessage, "memory lock") || o.HookSpecificOutput != nil {
		t.Errorf("output %+v", o)
	}
	if _, err := Handle(context.Background(), bytes.NewReader(fixture(t, "bash_review_rerun")), opt); !errors.Is(err, mdstore.ErrLockTimeout) {
		t.Errorf("err = %v, want ErrLockTimeout", err)
	}
	after, _ := os.ReadFile(file)
	if !bytes.Equal(before, after) {
		t.Error("memory changed while the lock was held elsewhere")
	}
}

// TestUnwritableMemorySaysSo: when the store cannot be written (here its
// lock file is a folder; a read-only .flow does the same), the user is told
// the lessons were not recorded, and the model is not told that the review
// held no lesson worth keeping.
func TestUnwritableMemorySaysSo(t *testing.T) {
	dir := newProject(t, true)
	if err := os.MkdirAll(filepath.Join(dir, ".flow", "memory", mdstore.LockName), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	Run(context.Background(), bytes.NewReader(fixture(t, "bash_review")), &out, &errOut, optsFor(dir))
	if strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("stderr %q, want one line", errOut.String())
	}
	o := decodeOutput(t, out.Bytes())
	if !strings.Contains(o.SystemMessage, "3 lessons NOT recorded") || o.HookSpecificOutput != nil {
		t.Errorf("output %+v", o)
	}
}

// TestSecretsNeverReachDisk writes a review quoting each secret of the
// corpus through the hook into a fresh store and greps every file under
// .flow for it. Each run must record something, or the test proves nothing.
func TestSecretsNeverReachDisk(t *testing.T) {
	for _, c := range secrettest.Corpus(t) {
		dir := newProject(t, true)
		review := fmt.Sprintf(`Checked the deploy changes.

1. **Severity: Critical**
   **File:Line:** `+"`scripts/deploy.sh:12`"+`
   **Problem:** The deploy script hard-codes a credential in the repository (%s), so `+"`git log`"+` exposes it to everyone with read access.
   **Suggestion:** Load the value from the environment with `+"`os.Getenv`"+` in `+"`scripts/deploy.sh`"+`, rotate it, and add the file to the secret scanner's allow list only after removal.

2. **Severity: Major**
   **File:Line:** `+"`internal/client/http.go:40`"+`
   **Problem:** The HTTP client logs the full request, including the header %s, on every retry in `+"`retryLoop`"+`.
   **Suggestion:** Redact the `+"`Authorization`"+` header in `+"`httpLog`"+` before logging requests.

<verdict>NEEDS_WORK</verdict>
`, c.Text, c.Text)
		p := withField(t, fixture(t, "bash_review"), "tool_response", map[string]any{"stdout": review, "stderr": c.Text})
		res, err := handle(t, dir, p)
		if err != nil {
			t.Fatalf("corpus line %d: %v", c.Line, err)
		}
		// An unclosed <private> hides the rest of the review, verdict
		// included: nothing is recorded, which is the safe outcome.
		unclosed := strings.Contains(c.Text, "<private>") && !strings.Contains(c.Text, "</private>")
		if !res.Recorded() && !unclosed {
			t.Fatalf("corpus line %d: nothing recorded (%s), so the test would prove nothing", c.Line, res.Skip)
		}
		secrettest.Absent(t, filepath.Join(dir, ".flow"), []secrettest.Case{c})
	}
}

// FuzzHandle runs the whole hook on arbitrary payloads against a real
// project: it must never panic, and whatever it records must read back.
func FuzzHandle(f *testing.F) {
	entries, err := os.ReadDir(filepath.Join("..", "..", "testdata", "capture", "payloads"))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// A payload that names a folder could reach a real project on this
		// machine (this repository has one); only CLAUDE_PROJECT_DIR, the
		// temp project, may be used.
		if p, err := hookevent.Decode(bytes.NewReader(b)); err == nil && p.Cwd != "" {
			return
		}
		dir := newProject(t, true)
		res, err := handle(t, dir, b)
		if err != nil || !res.Recorded() {
			return
		}
		if len(pitfalls(t, dir)) == 0 {
			t.Fatalf("recorded %d outcomes but pitfalls.md reads back empty", len(res.Outcomes))
		}
	})
}

// TestVerdictMaskedAway: a review whose verdict asks for changes only as
// written — the verdict sits in a <private> block — has the memory loaded
// while it is masked, then records nothing: the file is as it was, and the
// lock is released for the next capture.
func TestVerdictMaskedAway(t *testing.T) {
	dir := newProject(t, true)
	if res, err := handle(t, dir, fixture(t, "bash_review")); err != nil || !res.Recorded() {
		t.Fatalf("first capture: %+v %v", res, err)
	}
	file := filepath.Join(dir, ".flow", "memory", "pitfalls.md")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// A minor finding: a major one would make the review ask for changes
	// even without a verdict.
	writeConfig(t, dir, `{"memory": {"enabled": true}, "capture": {"min_severity": "minor"}}`)
	review := "1. **Severity: Minor**\n   **File:Line:** `src/a.go:3`\n   **Problem:** The cache key ignores the tenant, so tenants read each other's entries.\n" +
		"   **Suggestion:** Add the tenant id to the cache key.\n\n<private>internal notes <verdict>NEEDS_WORK</verdict></private>\n"
	p := withField(t, fixture(t, "bash_review"), "tool_response", map[string]any{"stdout": review, "stderr": ""})
	res, err := handle(t, dir, p)
	if err != nil || res.Recorded() {
		t.Fatalf("masked verdict: %+v %v", res, err)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Error("the memory changed")
	}
	p = withField(t, rerun(t, p, 1), "tool_response", map[string]any{"stdout": strings.Replace(review, "<private>internal notes ", "", 1), "stderr": ""})
	if res, err := handle(t, dir, p); err != nil || !res.Recorded() {
		t.Fatalf("next capture: %+v %v", res, err)
	}
}

func writeConfig(t testing.TB, dir, cfg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}
