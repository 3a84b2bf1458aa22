package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeClaude stands in for the client in the loop's own checks: it records
// its --allowedTools, does the "work" (appends the task to work.txt) and
// answers DONE, or $FAKE_RESULT. It makes no model call, so these tests
// need no client.
const fakeClaude = `#!/bin/sh
prev=
for a in "$@"; do
	[ "$prev" = --allowedTools ] && printf '%s\n' "$a" >>"$FAKE_LOG"
	prev=$a
done
printf '%s\n' "$FLOW_TASK_ID" >>work.txt
result=${FAKE_RESULT:-'did it\n<promise>DONE</promise>'}
printf '{"type":"result","is_error":false,"result":"%s","permission_denials":[]}\n' "$result"
`

// ralphFixture is a git project with memory on, a fake client and, unless
// noReview, a review command; it returns the project folder and the
// environment to run ralph.sh in.
func ralphFixture(t *testing.T, noReview bool) (string, []string) {
	t.Helper()
	bin := flowmemBin(t)
	dir := t.TempDir()
	proj, home, tools := filepath.Join(dir, "proj"), filepath.Join(dir, "home"), filepath.Join(dir, "tools")
	for _, d := range []string{filepath.Join(proj, "scripts"), home, tools} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, content string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(tools, "claude"), fakeClaude, 0o755)
	if !noReview {
		write(filepath.Join(proj, "scripts", "impl-review"), "#!/bin/sh\necho '<verdict>SHIP</verdict>'\n", 0o755)
	}
	write(filepath.Join(proj, "go.mod"), "module example.com/p\n", 0o644)
	write(filepath.Join(proj, "tasks.txt"), "fn-1.1: add GET /users\nfn-1.2: add GET /orders\n", 0o644)
	env := append(os.Environ(),
		"HOME="+home,
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CLAUDE_BIN="+filepath.Join(tools, "claude"),
		"FAKE_LOG="+filepath.Join(dir, "allowed.log"),
		"RALPH_SKIP_DOCTOR=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	)
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = proj, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run(bin, "init", "--enable")
	run("git", "init", "-q")
	run("git", "config", "user.name", "Ralph Test")
	run("git", "config", "user.email", "ralph@example.com")
	run("git", "add", "-A")
	run("git", "commit", "-q", "-m", "start")
	return proj, env
}

func ralphScript(t *testing.T) string {
	t.Helper()
	s, err := filepath.Abs(filepath.Join("..", "examples", "ralph", "ralph.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRalphCommitsEachTaskAndAllowsTests: each task done is one commit of
// its own changes (the next review sees only its task), and the sessions
// may run the project's test command.
func TestRalphCommitsEachTaskAndAllowsTests(t *testing.T) {
	t.Parallel()
	proj, env := ralphFixture(t, false)
	cmd := exec.Command(ralphScript(t), "-n", "2")
	cmd.Dir, cmd.Env = proj, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ralph.sh: %v\n%s", err, out)
	}
	// The memory is empty: the loop says so in its own words, and prime's
	// note stays out of the loop's output.
	if !strings.Contains(string(out), "ralph: no lesson in memory fits fn-1.1 yet") || strings.Contains(string(out), "flowmem:") {
		t.Errorf("ralph.sh output:\n%s\nwant the loop's own note for an empty prime, and no line of flowmem's", out)
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", proj}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got, want := git("log", "--format=%s"), "fn-1.2: add GET /orders\nfn-1.1: add GET /users\nstart"; got != want {
		t.Errorf("git log:\n%s\nwant one commit per task, newest first:\n%s", got, want)
	}
	for _, rev := range []string{"HEAD", "HEAD~1"} {
		if files := git("show", "--name-only", "--format=", rev); files != "work.txt" {
			t.Errorf("commit %s holds %q, want only the task's work.txt", rev, files)
		}
	}
	if status, _ := exec.Command("git", "-C", proj, "status", "--porcelain").CombinedOutput(); len(status) > 0 {
		t.Errorf("the loop left changes uncommitted (its own logs must be ignored):\n%s", status)
	}
	prompts, _ := filepath.Glob(filepath.Join(proj, ".ralph", "runs", "*", "*.prompt.md"))
	for _, f := range prompts {
		if b, _ := os.ReadFile(f); !strings.Contains(string(b), "run\n   the tests, `go test ./...`.") {
			t.Errorf("%s does not tell the model the test command:\n%s", f, b)
		}
	}
	if len(prompts) != 2 {
		t.Errorf("%d prompts, want 2", len(prompts))
	}
	allowed, _ := os.ReadFile(filepath.Join(filepath.Dir(proj), "allowed.log"))
	for _, line := range strings.Split(strings.TrimSpace(string(allowed)), "\n") {
		if !strings.Contains(line, "Bash(go test ./...:*)") || !strings.Contains(line, "Bash(./scripts/impl-review:*)") {
			t.Errorf("--allowedTools %q lacks the test command (go test ./..., from go.mod) or the review command", line)
		}
	}
}

// TestRalphChecksReviewCommandFirst: a missing review command stops the
// loop before the first (paid) session, saying what to do.
func TestRalphChecksReviewCommandFirst(t *testing.T) {
	t.Parallel()
	proj, env := ralphFixture(t, true)
	cmd := exec.Command(ralphScript(t), "-n", "2")
	cmd.Dir, cmd.Env = proj, env
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "review command ./scripts/impl-review") || !strings.Contains(string(out), "cp ") {
		t.Errorf("ralph.sh without its review command: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(proj), "allowed.log")); err == nil {
		t.Errorf("a session ran anyway: %s", b)
	}
}

// TestRalphNamesUnknownLongOption: a long option the loop does not know is
// a usage error (64) that names it, as a short one is, before any check.
func TestRalphNamesUnknownLongOption(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(ralphScript(t), "--dry-rum")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 64 || !strings.Contains(string(out), "ralph: unknown option --dry-rum\n") {
		t.Errorf("ralph.sh --dry-rum: %v\n%s\nwant exit 64 and \"ralph: unknown option --dry-rum\"", err, out)
	}
}

// TestRalphChecksHookReadsReview: a review command the hook does not take
// for a review (its name matches no capture.review_patterns) would let the
// loop run and learn nothing: it stops before the first session, and runs
// once the project's patterns name the command.
func TestRalphChecksHookReadsReview(t *testing.T) {
	t.Parallel()
	proj, env := ralphFixture(t, false)
	if err := os.WriteFile(filepath.Join(proj, "scripts", "check-code"), []byte("#!/bin/sh\necho '<verdict>SHIP</verdict>'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env = append(env, "REVIEW_CMD=./scripts/check-code")
	run := func(name string, args ...string) ([]byte, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = proj, env
		return cmd.CombinedOutput()
	}
	out, err := run(ralphScript(t), "-n", "2")
	if err == nil || !strings.Contains(string(out), `does not take "./scripts/check-code fn-1.1" for a review`) {
		t.Errorf("ralph.sh with an unrecognised review command: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(proj), "allowed.log")); err == nil {
		t.Errorf("a session ran anyway: %s", b)
	}
	if out, err := run(flowmemBin(t), "config", "set", "capture.review_patterns", `["\\bcheck-code\\b"]`); err != nil {
		t.Fatalf("config set: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "review command"}} {
		if out, err := run("git", args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if out, err := run(ralphScript(t), "-n", "2"); err != nil {
		t.Errorf("ralph.sh once a pattern names the command: %v\n%s", err, out)
	}
}

// ralphRun runs ralph.sh in proj with env and extra environment.
func ralphRun(t *testing.T, proj string, env []string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(ralphScript(t), args...)
	cmd.Dir, cmd.Env = proj, env
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// gitIn runs git in proj and returns its trimmed output.
func gitIn(t *testing.T, proj string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", proj}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestRalphDryRun: --dry-run runs every check, prints the next task's
// prompt with its lessons, and starts no session, commits nothing and
// leaves no trace: no .ralph/ and no hand-over in the injection record
// (prime's output reaches it through a pipe, which otherwise counts).
func TestRalphDryRun(t *testing.T) {
	t.Parallel()
	proj, env := ralphFixture(t, false)
	add := exec.Command(flowmemBin(t), "memory", "add", "--type", "pitfall", "Webhook retries hammered the receiver with no backoff", "--fix", "back off exponentially between webhook retries")
	add.Dir, add.Env = proj, env
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("memory add: %v\n%s", err, out)
	}
	gitIn(t, proj, "add", "-A")
	gitIn(t, proj, "commit", "-q", "-m", "a lesson")
	injections := filepath.Join(proj, ".flow", "memory", "injections.jsonl")
	task := "fn-3.1: add webhook retries with backoff"

	stdout, stderr, err := ralphRun(t, proj, env, "--dry-run", task)
	if err != nil {
		t.Fatalf("ralph.sh --dry-run: %v\n%s%s", err, stdout, stderr)
	}
	for _, want := range []string{task, "back off exponentially", "./scripts/impl-review fn-3.1", "`go test ./...`"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run's prompt lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "ralph: dry run: every check passed; the next session would run fn-3.1") {
		t.Errorf("dry run's stderr:\n%s", stderr)
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(proj), "allowed.log")); err == nil {
		t.Errorf("a session ran: %s", b)
	}
	for _, path := range []string{filepath.Join(proj, ".ralph"), injections, filepath.Join(proj, "work.txt")} {
		if _, err := os.Stat(path); err == nil {
			t.Errorf("the dry run left %s", path)
		}
	}
	if got := gitIn(t, proj, "log", "--format=%s"); got != "a lesson\nstart" {
		t.Errorf("git log after a dry run:\n%s", got)
	}

	// -d says the same; a dirty tree fails it as it would fail the run.
	if err := os.WriteFile(filepath.Join(proj, "notes.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := ralphRun(t, proj, env, "-d", task); err == nil || !strings.Contains(stderr, "uncommitted changes (notes.txt)") {
		t.Errorf("ralph.sh -d on a dirty tree: %v\n%s", err, stderr)
	}
	if err := os.Remove(filepath.Join(proj, "notes.txt")); err != nil {
		t.Fatal(err)
	}

	// The real run hands the lesson over, through the same pipe.
	if _, stderr, err := ralphRun(t, proj, env, "-n", "1", task); err != nil {
		t.Fatalf("ralph.sh: %v\n%s", err, stderr)
	}
	if b, err := os.ReadFile(injections); err != nil || !strings.Contains(string(b), `"by":"prime","task":"fn-3.1"`) {
		t.Errorf("the real run's prime left no hand-over (%v): %s", err, b)
	}
}

// TestRalphSaysNoTestCommand: with no test command guessed or set, the
// sessions are told to run the tests but may not (claude -p refuses a
// command no rule allows): the dry run says so, and TEST_CMD quiets it.
func TestRalphSaysNoTestCommand(t *testing.T) {
	t.Parallel()
	proj, env := ralphFixture(t, false)
	gitIn(t, proj, "rm", "-q", "go.mod")
	gitIn(t, proj, "commit", "-q", "-m", "no go.mod")
	const warning = "ralph: warning: no test command found here"
	_, stderr, err := ralphRun(t, proj, env, "--dry-run")
	if err != nil || !strings.Contains(stderr, warning) || !strings.Contains(stderr, "set TEST_CMD") {
		t.Errorf("ralph.sh --dry-run with no test command: %v\n%s\nwant %q", err, stderr, warning)
	}
	_, stderr, err = ralphRun(t, proj, append(env, "TEST_CMD=./check.sh"), "--dry-run")
	if err != nil || strings.Contains(stderr, warning) {
		t.Errorf("ralph.sh --dry-run with TEST_CMD set: %v\n%s", err, stderr)
	}
}

// TestRalphRefusesDirtyTree: the loop commits each task with git add -A,
// so a change of the user's in the tree would go into the first task's
// commit and review: it refuses to start, naming the files. The unfinished
// work of the task it resumes is the exception.
func TestRalphRefusesDirtyTree(t *testing.T) {
	t.Parallel()
	proj, env := ralphFixture(t, false)
	for _, f := range []string{"notes.txt", "setup.sh"} {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "tasks.txt"), []byte("fn-1.1: add GET /users\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := ralphRun(t, proj, env, "-n", "2")
	if err == nil || !strings.Contains(stderr, "uncommitted changes (") || !strings.Contains(stderr, "notes.txt") ||
		!strings.Contains(stderr, "setup.sh") || !strings.Contains(stderr, "tasks.txt") ||
		!strings.Contains(stderr, "fn-1.1's commit") || !strings.Contains(stderr, "git add -A && git commit") {
		t.Errorf("ralph.sh on a dirty tree: %v\n%s", err, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(proj), "allowed.log")); err == nil {
		t.Errorf("a session ran anyway: %s", b)
	}
	if got := gitIn(t, proj, "log", "--format=%s"); got != "start" {
		t.Errorf("git log after a refusal:\n%s", got)
	}
	gitIn(t, proj, "add", "-A")
	gitIn(t, proj, "commit", "-q", "-m", "my setup")

	// A session that does not finish leaves its work uncommitted; the next
	// run takes it up and commits it with the task.
	_, stderr, err = ralphRun(t, proj, append(env, "FAKE_RESULT=halfway"), "-a", "1")
	if err == nil || !strings.Contains(stderr, "fn-1.1 not done after 1 sessions") {
		t.Fatalf("ralph.sh with a session that does not finish: %v\n%s", err, stderr)
	}
	_, stderr, err = ralphRun(t, proj, env)
	if err != nil || !strings.Contains(stderr, "resuming fn-1.1 with the changes its last session left uncommitted") {
		t.Fatalf("ralph.sh resuming its own task: %v\n%s", err, stderr)
	}
	if got := gitIn(t, proj, "show", "--name-only", "--format=%s", "HEAD"); got != "fn-1.1: add GET /users\n\nwork.txt" {
		t.Errorf("the resumed task's commit:\n%s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "work.txt")); string(b) != "fn-1.1\nfn-1.1\n" {
		t.Errorf("work.txt = %q, want both sessions' work", b)
	}
}
