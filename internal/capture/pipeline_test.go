package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/review"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// reviewText is the four-finding review of the fixtures (three kept), with
// its verdict tag removed so each test can say how the verdict arrives.
func reviewText(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "reviews", "impl-review-fn-1.2.md"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), "<verdict>NEEDS_WORK</verdict>", "", 1)
}

func bashPayload(t testing.TB, command, stdout string) []byte {
	t.Helper()
	return withField(t, withField(t, fixture(t, "bash_review"), "tool_input", map[string]any{"command": command}),
		"tool_response", map[string]any{"stdout": stdout, "stderr": ""})
}

func jsonString(t testing.TB, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWrappedReviews: a review inside a Codex exec --json stream (verdict
// only in flowctl's VERDICT= trailer) and inside a flow-next receipt (task
// only in its "id") is recorded as the bare review would be.
func TestWrappedReviews(t *testing.T) {
	text := reviewText(t)
	stream := `{"type":"thread.started","thread_id":"t1"}
{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"reading the diff"}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":` + jsonString(t, text) + `}}
{"type":"turn.completed","usage":{"input_tokens":1}}
VERDICT=NEEDS_WORK
`
	receipt := `{"type":"impl_review","id":"fn-17-axl.8","mode":"codex","verdict":"NEEDS_WORK","review":` + jsonString(t, text) + `}`
	for _, tt := range []struct {
		name, command, stdout, task string
	}{
		{"codex stream", "flowctl codex impl-review fn-3.1", stream, "fn-3.1"},
		{"receipt", "cat /tmp/review-receipt.json | ./scripts/impl-review", receipt, "fn-17-axl.8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := newProject(t, true)
			res, err := handle(t, dir, bashPayload(t, tt.command, tt.stdout))
			if err != nil || res.Skip != "" {
				t.Fatalf("res %+v err %v", res, err)
			}
			if res.Task != tt.task || len(res.Outcomes) != 3 || res.Verdict != "NEEDS_WORK" {
				t.Errorf("task %q, %d outcomes, verdict %q; want %q, 3, NEEDS_WORK", res.Task, len(res.Outcomes), res.Verdict, tt.task)
			}
			for _, e := range pitfalls(t, dir) {
				if strings.Contains(e.Issue, `"type"`) || e.Task != tt.task {
					t.Errorf("entry %+v", e)
				}
			}
		})
	}
}

// TestExplainIsTheHook: --explain runs the hook's pipeline, so for the same
// review it finds the same verdict, task and lessons (same ids) that the
// hook records, and it writes nothing.
func TestExplainIsTheHook(t *testing.T) {
	text := reviewText(t) + "\n<verdict>NEEDS_WORK</verdict>\n"
	dir := newProject(t, true)
	ex, err := Explain(context.Background(), text, dir, optsFor(dir, "FLOW_TASK_ID", "fn-8.8"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".flow", "memory")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("explain wrote memory: %v", err)
	}
	res, err := handle(t, dir, bashPayload(t, "./bin/reviewer", text), "FLOW_TASK_ID", "fn-8.8")
	if err != nil || !res.Recorded() {
		t.Fatalf("%+v %v", res, err)
	}
	if ex.Verdict != res.Verdict || ex.Task != "fn-1.2" || ex.Task != res.Task || len(ex.Lessons) != len(res.Outcomes) {
		t.Fatalf("explain %q %q %d lessons; hook %q %q %d", ex.Verdict, ex.Task, len(ex.Lessons), res.Verdict, res.Task, len(res.Outcomes))
	}
	for i, l := range ex.Lessons {
		if l.ID != res.Outcomes[i].ID {
			t.Errorf("lesson %d: explain id %s, hook id %s", i, l.ID, res.Outcomes[i].ID)
		}
	}
	out, err := json.Marshal(ex.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Verdict  string
		Task     string
		Findings []map[string]any
	}
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatal(err)
	}
	if j.Verdict != "NEEDS_WORK" || j.Task != "fn-1.2" || len(j.Findings) != 4 {
		t.Fatalf("json %s", out)
	}
	for _, k := range []string{"keep", "reason", "severity", "category", "issue", "fix", "context"} {
		if _, ok := j.Findings[0][k]; !ok {
			t.Errorf("finding without %q: %v", k, j.Findings[0])
		}
	}
}

// TestNudge: with capture.nudge on (the default) a review that asks for
// changes gets an invitation even when no finding was kept; with it off,
// new lessons alone give the model no context; a SHIP review never speaks.
func TestNudge(t *testing.T) {
	typoOnly := "1. **Severity: Major**\n   **File:Line:** `README.md:12`\n   **Problem:** Typo: \"recieve\" should be \"receive\".\n   **Suggestion:** Fix the spelling.\n\n<verdict>NEEDS_WORK</verdict>\n"
	run := func(dir string, p []byte) (hookOutput, string) {
		var out, errOut bytes.Buffer
		Run(context.Background(), bytes.NewReader(p), &out, &errOut, optsFor(dir))
		if errOut.Len() != 0 {
			t.Fatal(errOut.String())
		}
		if out.Len() == 0 {
			return hookOutput{}, ""
		}
		return decodeOutput(t, out.Bytes()), out.String()
	}

	dir := newProject(t, true)
	o, raw := run(dir, bashPayload(t, "flowctl codex impl-review fn-1.2", typoOnly))
	if o.HookSpecificOutput == nil {
		t.Fatalf("no nudge after a review with nothing kept: %q", raw)
	}
	c := o.HookSpecificOutput.AdditionalContext
	if !strings.Contains(c, "recorded no lesson") || !strings.Contains(c, "flowmem memory add") || len(c) > maxContext {
		t.Errorf("additionalContext %q", c)
	}
	if _, err := os.Stat(filepath.Join(dir, ".flow", "memory", "pitfalls.md")); err == nil {
		t.Error("a review with nothing kept wrote memory")
	}

	off := newProject(t, true)
	if err := os.WriteFile(filepath.Join(off, ".flow", "config.json"), []byte(`{"memory":{"enabled":true},"capture":{"nudge":false}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if o, raw := run(off, fixture(t, "bash_review")); o.HookSpecificOutput != nil || !strings.Contains(o.SystemMessage, "recorded 3 new lessons") {
		t.Errorf("nudge off: %q", raw)
	}
	if _, raw := run(off, bashPayload(t, "flowctl codex impl-review fn-1.2", typoOnly)); raw != "" {
		t.Errorf("nudge off, nothing kept: %q", raw)
	}

	if _, raw := run(newProject(t, true), fixture(t, "bash_review_ship")); raw != "" {
		t.Errorf("SHIP review: %q", raw)
	}

	// A review whose one finding comes with no verdict the rules read: the
	// model is asked to decide, nothing is written; with the nudge off the
	// hook stays silent.
	noVerdict := "Notes on the sync change.\n\n- The retry loop in `sync/worker.go:40` never backs off, so a server that is down gets hammered.\n"
	dir = newProject(t, true)
	o, raw = run(dir, bashPayload(t, "flowctl codex impl-review fn-1.2", noVerdict))
	if o.HookSpecificOutput == nil {
		t.Fatalf("no nudge after a review with no verdict: %q", raw)
	}
	c = o.HookSpecificOutput.AdditionalContext
	if !strings.HasPrefix(c, "flowmem read no verdict in this review (1 finding)") || !strings.Contains(c, "If it asks for changes") || !strings.Contains(c, "flowmem memory add --type pitfall --task fn-1.2") || len(c) > maxContext {
		t.Errorf("no verdict: additionalContext %q", c)
	}
	if !strings.Contains(o.SystemMessage, "no verdict read, nothing recorded") {
		t.Errorf("no verdict: systemMessage %q", o.SystemMessage)
	}
	if _, err := os.Stat(filepath.Join(dir, ".flow", "memory", "pitfalls.md")); err == nil {
		t.Error("a review with no verdict wrote memory")
	}
	if _, raw := run(off, bashPayload(t, "flowctl codex impl-review fn-1.2", noVerdict)); raw != "" {
		t.Errorf("nudge off, no verdict: %q", raw)
	}
}

// TestDeadline: a client that never completes the event gets the run's
// one deadline, and the hook returns having written nothing.
func TestDeadline(t *testing.T) {
	dir := newProject(t, true)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	p := fixture(t, "bash_review")
	if _, err := w.Write(p[:len(p)/2]); err != nil {
		t.Fatal(err)
	}
	opt := optsFor(dir)
	opt.Deadline = 100 * time.Millisecond
	_, err = Handle(context.Background(), r, opt)
	if !errors.Is(err, hookevent.ErrDeadline) {
		t.Fatalf("err = %v, want ErrDeadline", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".flow", "memory")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("memory written: %v", err)
	}
}

// TestTenMegabyteEvents: a 10 MB ordinary output is turned away by the
// screen, and a 10 MB output of a review command with no verdict is read
// and found to ask for nothing; the test fails by hanging (the old screen
// was quadratic: minutes at this size), not by a timing threshold.
func TestTenMegabyteEvents(t *testing.T) {
	dir := newProject(t, true)
	prose := strings.Repeat("the quick brown fox jumps over the lazy dog, then naps again. ", 10<<20/62)
	for command, skip := range map[string]string{"cat notes.txt": "no verdict in the output", "flowctl codex impl-review fn-1.2": "asks for no changes"} {
		res, err := handle(t, dir, bashPayload(t, command, prose))
		if err != nil || !strings.Contains(res.Skip, skip) {
			t.Errorf("%s: res %+v err %v", command, res.Skip, err)
		}
	}
}

// TestReviewsLog: every review with a verdict leaves one line in
// .flow/memory/reviews.jsonl — what it taught and which entries it touched,
// an approving review too — and a review seen again says so.
func TestReviewsLog(t *testing.T) {
	dir := newProject(t, true)
	for i, name := range []string{"bash_review", "bash_review", "bash_review_ship", "bash_nonreview"} {
		if _, err := handle(t, dir, rerun(t, fixture(t, name), i)); err != nil {
			t.Fatal(err)
		}
	}
	rs, skipped, err := reviewlog.Read(filepath.Join(dir, ".flow", "memory"))
	if err != nil || len(skipped) != 0 || len(rs) != 3 {
		t.Fatalf("%d reviews (%v, %v), want 3: %+v", len(rs), skipped, err, rs)
	}
	first, again, ship := rs[0], rs[1], rs[2]
	if first.Verdict != "NEEDS_WORK" || first.Task != "fn-1.2" || first.Kind != "impl-review" || first.Findings != 4 || first.Kept != 3 || first.New != 3 || len(first.IDs) != 3 {
		t.Errorf("first review: %+v", first)
	}
	if again.New != 0 || again.Recurred != 3 || !slices.Equal(again.IDs, first.IDs) {
		t.Errorf("same review again: %+v", again)
	}
	if ship.Verdict != "SHIP" || ship.New != 0 || len(ship.IDs) != 0 {
		t.Errorf("ship review: %+v", ship)
	}
}

// TestLongReviewVerdictAtTheEnd: a review longer than the reader reads
// keeps its last lines, where the verdict is written: a SHIP at the end of
// a long output that quotes major findings early records nothing.
func TestLongReviewVerdictAtTheEnd(t *testing.T) {
	log := strings.Repeat("step 4: building package internal/sync ... ok\n", (review.MaxReviewLen+review.MaxReviewLen/8)/46)
	for verdict, recorded := range map[string]bool{"SHIP": false, "NEEDS_WORK": true} {
		dir := newProject(t, true)
		text := reviewText(t) + log + "<verdict>" + verdict + "</verdict>\n"
		res, err := handle(t, dir, bashPayload(t, "flowctl codex impl-review fn-1.2", text))
		if err != nil || string(res.Verdict) != verdict || res.Recorded() != recorded {
			t.Errorf("%s at the end: verdict %q, recorded %v, err %v", verdict, res.Verdict, res.Recorded(), err)
		}
	}
	if got := readable("a\nb\nc\n", 100); got != "a\nb\nc\n" {
		t.Errorf("short text changed: %q", got)
	}
}

// TestApprovalSaysPending: with capture.approval on, the user is told the
// new lessons wait for approval.
func TestApprovalSaysPending(t *testing.T) {
	dir := newProject(t, true)
	writeConfig(t, dir, `{"memory": {"enabled": true}, "capture": {"approval": true}}`)
	var out, errOut bytes.Buffer
	Run(context.Background(), bytes.NewReader(fixture(t, "bash_review")), &out, &errOut, optsFor(dir))
	if o := decodeOutput(t, out.Bytes()); !strings.Contains(o.SystemMessage, "recorded 3 new lessons in .flow/memory/pitfalls.md, waiting for approval (flowmem memory pending)") {
		t.Errorf("systemMessage %q (stderr %q)", o.SystemMessage, errOut.String())
	} else if c := o.HookSpecificOutput.AdditionalContext; !strings.Contains(c, "new ones wait for approval") || !strings.Contains(c, "approve those that hold, reject the rest") {
		t.Errorf("additionalContext does not tell the model the lessons wait for approval: %q", c)
	}
}

// TestContextQuotesLessonsOnce: a lesson ending in a full stop is quoted
// without it, so the model reads `"… stop".` and not `"… stop.".`
func TestContextQuotesLessonsOnce(t *testing.T) {
	dir := newProject(t, true)
	var out, errOut bytes.Buffer
	Run(context.Background(), bytes.NewReader(fixture(t, "bash_review")), &out, &errOut, optsFor(dir))
	c := decodeOutput(t, out.Bytes()).HookSpecificOutput.AdditionalContext
	if c == "" || strings.Contains(c, `."`) {
		t.Errorf("additionalContext quotes a lesson with its own full stop (or is empty): %q", c)
	}
}

// TestWriteExplainReport: the human report of capture --explain names the
// verdict, counts, and each finding's mark, severity, fix and reason; a
// failed write is an error that says what failed.
func TestWriteExplainReport(t *testing.T) {
	dir := newProject(t, true)
	text := "**Issue**: `rows.Close()` is never called, leaking pooled connections.\n**Fix**: `defer rows.Close()` after the error check.\n\n" +
		"**Issue**: Typo in a comment.\n**Fix**: Fix the typo.\n\nVERDICT: NEEDS_WORK\n"
	ex, err := Explain(context.Background(), text, dir, optsFor(dir))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteExplain(&b, ex); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"verdict: NEEDS_WORK",
		"findings: 2 (keep 1, drop 1)",
		"1. KEEP [unranked] `rows.Close()` is never called",
		"   fix:      `defer rows.Close()` after the error check.",
		"2. DROP [unranked] Typo in a comment.",
		"   reason:   about how text looks",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	ex, err = Explain(context.Background(), "Thanks, merged.", dir, optsFor(dir))
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := WriteExplain(&b, ex); err != nil || !strings.Contains(b.String(), "verdict: none found") || !strings.Contains(b.String(), "findings: 0") {
		t.Errorf("report on a non-review (%v):\n%s", err, b.String())
	}
	if err := WriteExplain(failWriter{}, ex); err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "explanation") {
		t.Errorf("a failed write: err = %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestTaskFromEnvMustBeATaskID: FLOW_TASK_ID names the task only when it
// is a task id; anything else (a pasted token, shell text) is not written
// into the entry's heading.
func TestTaskFromEnvMustBeATaskID(t *testing.T) {
	text := "1. **Severity: Major**\n   **File:Line:** `internal/api/body.go:12`\n" +
		"   **Problem:** The handler calls `json.NewDecoder(r.Body).Decode` on untrusted input without a size limit, so a large body exhausts memory.\n" +
		"   **Suggestion:** Wrap the body in `http.MaxBytesReader` before decoding.\n\n<verdict>NEEDS_WORK</verdict>\n"
	for env, want := range map[string]string{
		"fn-8.8":                           "fn-8.8",
		"ghp_" + strings.Repeat("aB3", 12): "",
		"fn-1;$(touch pwned)":              "",
	} {
		dir := newProject(t, true)
		res, err := handle(t, dir, bashPayload(t, "./bin/reviewer", text), "FLOW_TASK_ID", env)
		if err != nil || !res.Recorded() {
			t.Fatalf("%q: %+v %v", env, res, err)
		}
		if res.Task != want {
			t.Errorf("FLOW_TASK_ID %q: task %q, want %q", env, res.Task, want)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
		if want == "" && (strings.Contains(string(raw), "ghp_") || strings.Contains(string(raw), "pwned")) {
			t.Errorf("FLOW_TASK_ID %q reached the file:\n%s", env, raw)
		}
	}
}

// TestLessonsPerReviewAreCapped: a review of more finding-shaped blocks than
// any real review raises records MaxLessons lessons, the most severe first,
// and --explain drops the same findings with the same reason.
func TestLessonsPerReviewAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("## Findings\n\n")
	n := MaxLessons + 12
	for i := 1; i <= n; i++ {
		sev := "Medium"
		if i > n-3 {
			sev = "Critical" // the last three must survive the cap
		}
		// Each finding names its own code, so none repeats another.
		k := strconv.Itoa(i)
		b.WriteString("### " + k + ". `loadTable" + k + "` ignores `closeErr" + k + "`\n")
		b.WriteString("**Severity:** " + sev + "\n")
		b.WriteString("**File:** `store/table" + k + ".go:12`\n")
		b.WriteString("**Problem:** `loadTable" + k + "` drops `closeErr" + k + "` of `file" + k + "`, so `rows" + k + "` stay short.\n")
		b.WriteString("**Fix:** Return `closeErr" + k + "` from `loadTable" + k + "` to `caller" + k + "`.\n\n")
	}
	b.WriteString("<verdict>NEEDS_WORK</verdict>\n")
	text := b.String()

	ex, err := Explain(context.Background(), text, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Findings != n || ex.Kept != MaxLessons || ex.Capped != n-MaxLessons {
		t.Fatalf("explain: %d findings, %d kept, %d capped; want %d, %d, %d", ex.Findings, ex.Kept, ex.Capped, n, MaxLessons, n-MaxLessons)
	}

	dir := newProject(t, true)
	res, err := handle(t, dir, bashPayload(t, "flowctl codex impl-review fn-4.2", text))
	if err != nil || res.Skip != "" {
		t.Fatalf("res %+v err %v", res, err)
	}
	if len(res.Outcomes) != MaxLessons || res.Capped != n-MaxLessons {
		t.Fatalf("%d lessons recorded, %d capped; want %d, %d", len(res.Outcomes), res.Capped, MaxLessons, n-MaxLessons)
	}
	var issues []string
	for _, e := range pitfalls(t, dir) {
		issues = append(issues, e.Issue)
	}
	for i := n - 2; i <= n; i++ {
		name := "`loadTable" + strconv.Itoa(i) + "`"
		if !slices.ContainsFunc(issues, func(s string) bool { return strings.Contains(s, name) }) {
			t.Errorf("critical finding %s was capped away", name)
		}
	}
	for i, d := range res.Analysis.Decisions {
		if d.Keep != ex.Analysis.Decisions[i].Keep {
			t.Errorf("finding %d: hook keep %v, explain keep %v", i+1, d.Keep, ex.Analysis.Decisions[i].Keep)
		}
	}
	if msg := systemMessage(res); !strings.Contains(msg, "over the limit of 30 lessons per review") {
		t.Errorf("system message does not say lessons were capped: %q", msg)
	}
}
