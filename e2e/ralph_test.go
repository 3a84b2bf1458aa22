package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flowmem/flowmem/e2e/standin"
)

// The two related tasks of the Ralph test: the lesson the review teaches
// about the first (clamp paging input in a shared helper) is what the
// second needs.
const (
	ralphTask1 = "fn-1.1: add GET /users with pagination"
	ralphTask2 = "fn-1.2: add GET /orders with pagination"
)

// ralphReviewer is the project's review command. Its name matches the
// default capture.review_patterns (`impl-review`) and, like a reviewer, it
// judges the code: until the shared paging helper exists it prints the
// NEEDS_WORK review of testdata/ralph-review-needs-work.md.
const ralphReviewer = `#!/bin/sh
# scripts/impl-review TASK: this project's code review.
set -eu
task=${1:?usage: impl-review TASK}
cd "$(dirname "$0")/.."
if grep -qs 'func ParsePage' internal/api/page.go; then
	printf '## Implementation review: %s\n\nList endpoints parse paging with api.ParsePage; limits are clamped.\n\n<verdict>SHIP</verdict>\n' "$task"
else
	sed "s/@TASK@/$task/" reviews/needs-work.md
fi
`

// ralphLessonRe is the entry the hook records from that review.
var ralphLessonRe = regexp.MustCompile(`(?s)\n## \d{4}-\d\d-\d\d fn-1\.1 impl-review \[[a-z-]+\] <!-- p-[0-9a-f]{12} -->\n<!-- flowmem:[^\n]*-->\n\*\*Issue\*\*: [^\n]*strconv\.Atoi[^\n]*\n\*\*Fix\*\*: [^\n]*api\.ParsePage`)

// The loop script itself (examples/ralph/ralph.sh), two iterations, with
// the real client against the stand-in API: iteration 1's review comes back
// NEEDS_WORK and the installed hook records the lesson; iteration 2's prompt
// carries that lesson, primed by the script.
func TestRalphLoopPrimesNextTaskWithCapturedLesson(t *testing.T) {
	t.Parallel()
	claude := claudeBin(t)
	script, err := filepath.Abs(filepath.Join("..", "examples", "ralph", "ralph.sh"))
	if err != nil {
		t.Fatal(err)
	}
	p := newProject(t)
	p.flowmem("init", "--enable", "--install")
	p.write("reviews/needs-work.md", string(mustRead(t, filepath.Join("testdata", "ralph-review-needs-work.md"))), 0o644)
	p.write("scripts/impl-review", ralphReviewer, 0o755)
	p.write("internal/api/users.go", "package api\n\n// ListUsers serves GET /users.\nfunc ListUsers() {}\n", 0o644)
	// A Go module, so ralph.sh finds the project's test command (go test
	// ./...) and does not warn that the sessions may not run the tests.
	p.write("go.mod", "module example.com/proj\n\ngo 1.22\n", 0o644)
	p.write("tasks.txt", "# id: title, one task a line\n"+ralphTask1+"\n"+ralphTask2+"\n", 0o644)
	// The loop commits each task it finishes: a git work tree with
	// everything so far committed.
	for _, args := range [][]string{
		{"init", "-q"}, {"config", "user.name", "Ralph Test"}, {"config", "user.email", "ralph@example.com"},
		{"add", "-A"}, {"commit", "-q", "-m", "start"},
	} {
		p.git(args...)
	}

	// Each scripted session is told apart by the task line of its prompt
	// (the task's title alone is not enough: Claude Code shows the recent
	// commits, which name the earlier tasks, in every session's context).
	pageGo := filepath.Join(p.Dir, "internal", "api", "page.go")
	iter1 := standin.Conversation{Name: "fn-1.1", Match: promptContains("## Task\n\n" + ralphTask1), Steps: []standin.Reply{
		standin.Bash("./scripts/impl-review fn-1.1"),
		{ToolUses: []standin.ToolUse{{Name: "Write", Input: map[string]any{
			"file_path": pageGo,
			"content":   "package api\n\n// ParsePage reads limit and offset, clamping limit to 1..100.\nfunc ParsePage(limit, offset int) (int, int, error) { return min(max(limit, 1), 100), max(offset, 0), nil }\n",
		}}}},
		standin.Bash("./scripts/impl-review fn-1.1"),
		standin.Text("Paging goes through the new api.ParsePage helper, which clamps limit.\n<promise>DONE</promise>"),
	}}
	iter2 := standin.Conversation{Name: "fn-1.2", Match: promptContains("## Task\n\n" + ralphTask2), Steps: []standin.Reply{
		standin.Bash("./scripts/impl-review fn-1.2"),
		standin.Text("GET /orders parses paging with api.ParsePage.\n<promise>DONE</promise>"),
	}}
	srv := startStandin(t, iter1, iter2)
	defer func() {
		if t.Failed() {
			dumpRequests(t, srv)
		}
	}()

	// p.Env: fresh HOME, and the freshly built flowmem first on PATH.
	env := append(append([]string{}, p.Env...),
		"ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=sk-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_BIN="+claude,
	)
	out, err := runRalph(t, p, script, env, "-n", "2")
	if err != nil {
		t.Fatalf("ralph.sh: %v\n%s\n%s", err, out, ralphLogs(t, p))
	}

	t.Logf("ralph.sh output:\n%s", out)
	if strings.Contains(out, "warning:") {
		t.Errorf("ralph.sh warned (a tool the scripted model used was refused?):\n%s", out)
	}

	// Iteration 1: the review ran through the client and the hook kept
	// its lesson, filed under the task.
	r1 := srv.ConversationRequests("fn-1.1")
	if len(r1) != 4 {
		t.Fatalf("iteration 1 made %d requests, want 4 (review, fix, review, answer)\n%s", len(r1), ralphLogs(t, p))
	}
	if got := r1[1].LastToolResult(); !strings.Contains(got, "NEEDS_WORK") {
		t.Fatalf("iteration 1's first review did not reach the model:\n%s", got)
	}
	if got := r1[3].LastToolResult(); !strings.Contains(got, "<verdict>SHIP</verdict>") {
		t.Fatalf("iteration 1's second review is not SHIP (the Write did not land?):\n%s", got)
	}
	pitfalls := p.read(".flow/memory/pitfalls.md")
	if !ralphLessonRe.MatchString(pitfalls) {
		t.Fatalf("the hook did not record the lesson of iteration 1's review:\n%s", pitfalls)
	}
	if n := strings.Count(pitfalls, "\n## "); n != 1 {
		t.Errorf("pitfalls.md has %d entries, want 1 (the minor typo finding is not a lesson):\n%s", n, pitfalls)
	}

	// The audit: the script handed the lesson to iteration 2 (prime), and
	// iteration 2's review shipped without repeating it, so it is holding;
	// the reviews log has all three reviews, SHIP ones included.
	if log := p.read(".flow/memory/reviews.jsonl"); strings.Count(log, "\n") != 3 ||
		!strings.Contains(log, `"task":"fn-1.1","kind":"impl-review","verdict":"NEEDS_WORK"`) ||
		!strings.Contains(log, `"task":"fn-1.2","kind":"impl-review","verdict":"SHIP"`) {
		t.Errorf("reviews.jsonl does not hold the three reviews of the loop:\n%s", log)
	}
	var audit struct {
		NotWorking []struct{ ID string } `json:"not_working"`
		Holding    []struct {
			ID     string
			Handed []struct{ By, Task string }
			Since  []struct{ Task, Verdict string }
		}
	}
	if out := p.flowmem("memory", "audit", "--json"); json.Unmarshal([]byte(out), &audit) != nil {
		t.Errorf("memory audit --json is not JSON:\n%s", out)
	}
	if len(audit.NotWorking) != 0 || len(audit.Holding) != 1 || len(audit.Holding[0].Handed) == 0 ||
		audit.Holding[0].Handed[0].By != "prime" || audit.Holding[0].Handed[0].Task != "fn-1.2" ||
		!slices.Contains(audit.Holding[0].Since, struct{ Task, Verdict string }{"fn-1.2", "SHIP"}) {
		t.Errorf("memory audit does not show the primed lesson holding through fn-1.2's SHIP review: %+v", audit)
	}
	if out := p.flowmem("memory", "audit"); !strings.Contains(out, "Holding (1)") || !strings.Contains(out, "in fn-1.2 on ") {
		t.Errorf("memory audit:\n%s", out)
	}

	// The block the script primes for task 2 now; memory has not changed
	// since iteration 2 began (its review said SHIP).
	primed := strings.TrimSpace(p.flowmem("memory", "prime", ralphTask2))
	for _, want := range []string{"## Relevant Memory", "- [pitfall] ", "strconv.Atoi", "api.ParsePage", "fn-1.1"} {
		if !strings.Contains(primed, want) {
			t.Fatalf("flowmem memory prime %q lacks %q:\n%s", ralphTask2, want, primed)
		}
	}

	// What the model was shown: iteration 1 started with empty memory,
	// iteration 2 with the lesson.
	prompt1 := firstUserText(r1[0])
	if strings.Contains(prompt1, "api.ParsePage") || strings.Contains(prompt1, "- [pitfall]") {
		t.Errorf("iteration 1's prompt holds a lesson, but memory was empty:\n%s", prompt1)
	}
	if !strings.Contains(prompt1, "No relevant entries in project memory.") || !strings.Contains(prompt1, "./scripts/impl-review fn-1.1") {
		t.Errorf("iteration 1's prompt is not the filled template:\n%s", prompt1)
	}
	r2 := srv.ConversationRequests("fn-1.2")
	if len(r2) != 2 {
		t.Fatalf("iteration 2 made %d requests, want 2 (review, answer)", len(r2))
	}
	if prompt2 := firstUserText(r2[0]); !strings.Contains(prompt2, primed) {
		t.Errorf("iteration 2's prompt, as the API received it, lacks the primed lesson\nwant:\n%s\nprompt:\n%s", primed, prompt2)
	}
	if n := len(srv.Requests()); n != len(r1)+len(r2) {
		t.Errorf("the stand-in saw %d requests, want only the two sessions' %d", n, len(r1)+len(r2))
	}

	// Task 1 ended in a commit of its own: the helper it wrote and the
	// lesson its review taught; nothing is left uncommitted.
	if got := p.git("log", "--format=%s", "-1", "--grep", "^fn-1.1: "); got != ralphTask1 {
		t.Errorf("no commit for %s (git log says %q)", ralphTask1, got)
	} else if files := p.git("show", "--name-only", "--format=", ":/^fn-1.1: "); !strings.Contains(files, "internal/api/page.go") || !strings.Contains(files, ".flow/memory/pitfalls.md") {
		t.Errorf("the commit of fn-1.1 holds %q, want internal/api/page.go and .flow/memory/pitfalls.md", files)
	}
	if status := p.git("status", "--porcelain"); status != "" {
		t.Errorf("changes left uncommitted after the loop:\n%s", status)
	}

	// The loop's own record: both tasks done, one prompt and one result
	// per iteration.
	if done := strings.Fields(p.read(".ralph/done.txt")); !slices.Equal(done, []string{"fn-1.1", "fn-1.2"}) {
		t.Errorf(".ralph/done.txt = %q, want fn-1.1 and fn-1.2", done)
	}
	prompts, _ := filepath.Glob(filepath.Join(p.Dir, ".ralph", "runs", "*", "*.prompt.md"))
	results, _ := filepath.Glob(filepath.Join(p.Dir, ".ralph", "runs", "*", "*.json"))
	if len(prompts) != 2 || len(results) != 2 {
		t.Errorf("run log has prompts %v and results %v, want 2 of each", prompts, results)
	}
	for _, f := range results {
		if b := mustRead(t, f); !bytes.Contains(b, []byte(`"is_error":false`)) || !bytes.Contains(b, []byte("<promise>DONE</promise>")) {
			t.Errorf("%s is not a successful claude -p JSON result:\n%s", f, b)
		}
	}
}

// promptContains matches the requests of the session whose prompt (its
// first user message) contains s.
func promptContains(s string) func(*standin.Request) bool {
	return func(r *standin.Request) bool { return strings.Contains(firstUserText(r), s) }
}

func firstUserText(r *standin.Request) string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Text
		}
	}
	return ""
}

// git runs git in the project (a fresh HOME: no global config) and returns
// its trimmed output.
func (p *project) git(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = p.Dir, append(append([]string{}, p.Env...), "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// runRalph runs the loop script in the project and returns its combined
// output. The script and every client it starts share one process group,
// killed when the script ends or the bound runs out, so nothing outlives
// the test.
func runRalph(t *testing.T, p *project, script string, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, args...)
	cmd.Dir, cmd.Env = p.Dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if cmd.Process != nil {
		if kerr := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); kerr != nil && !errors.Is(kerr, syscall.ESRCH) {
			t.Logf("kill process group %d: %v", cmd.Process.Pid, kerr)
		}
	}
	if ctx.Err() != nil {
		err = errors.Join(err, ctx.Err())
	}
	return out.String(), err
}

// ralphLogs is the script's run log folder, for failure messages.
func ralphLogs(t *testing.T, p *project) string {
	t.Helper()
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(p.Dir, ".ralph", "runs", "*", "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if len(data) > 4000 {
			data = append(data[:4000], "…"...)
		}
		b.WriteString("--- " + strings.TrimPrefix(f, p.Dir+"/") + "\n")
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}
