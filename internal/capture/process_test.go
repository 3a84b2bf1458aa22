package capture_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/app"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/review"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// TestMain lets the test binary stand in for the flowmem binary: the
// process tests below re-run it with FLOWMEM_TEST_AS_CLI=1, so every hook
// is a separate process with its own stdin, exit code and file locks.
func TestMain(m *testing.M) {
	if os.Getenv("FLOWMEM_TEST_AS_CLI") == "1" {
		os.Exit(app.Main(context.Background(), append([]string{"flowmem"}, os.Args[1:]...), app.SystemIO()))
	}
	os.Exit(m.Run())
}

func payload(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func enabledProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".flow"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(`{"memory": {"enabled": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hookCmd is `flowmem hook` as its own process, pointed at project dir.
func hookCmd(t testing.TB, dir string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "hook")
	cmd.Env = append(os.Environ(), "FLOWMEM_TEST_AS_CLI=1", "CLAUDE_PROJECT_DIR="+dir, "FLOWMEM_DISABLE=", "FLOW_TASK_ID=")
	return cmd
}

type procResult struct {
	stdout, stderr string
	err            error
}

// runHook runs one hook process on stdin and waits for it, with a guard
// against a hang (a failure, not a timing measurement).
func runHook(t testing.TB, dir string, stdin io.Reader) procResult {
	t.Helper()
	cmd := hookCmd(t, dir)
	cmd.Stdin = stdin
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return wait(t, cmd, &out, &errOut)
}

func wait(t testing.TB, cmd *exec.Cmd, out, errOut *bytes.Buffer) procResult {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return procResult{out.String(), errOut.String(), err}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the hook process did not exit")
		return procResult{}
	}
}

// TestProcessStdinLeftOpen runs the hook with a stdin pipe that is never
// closed, as some Claude Code versions do. The hook must act on the object
// and exit; recording the review proves it did not fall back to its read
// timeout (which records nothing).
func TestProcessStdinLeftOpen(t *testing.T) {
	for _, tt := range []struct {
		name, fixture, want string
	}{
		{"review", "bash_review", `"systemMessage":"flowmem: impl-review of fn-1.2: recorded 3 new lessons`},
		{"non-review", "bash_nonreview", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := enabledProject(t)
			cmd := hookCmd(t, dir)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close() // only after the process is gone
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := stdin.Write(payload(t, tt.fixture)); err != nil {
				t.Fatal(err)
			}
			r := wait(t, cmd, &out, &errOut)
			if r.err != nil || r.stderr != "" {
				t.Fatalf("exit %v, stderr %q", r.err, r.stderr)
			}
			if tt.want == "" && r.stdout != "" || !strings.Contains(r.stdout, tt.want) {
				t.Fatalf("stdout %q, want %q", r.stdout, tt.want)
			}
		})
	}
}

// TestProcessHugePayload pipes a 50 MB event (generated, not committed)
// through the hook: it gives up at the size bound (or, when slow, at its
// deadline), exits 0 with one line on stderr and writes nothing.
func TestProcessHugePayload(t *testing.T) {
	for _, command := range []string{"cat big.log", "flowctl codex impl-review fn-1.2"} {
		t.Run(command, func(t *testing.T) {
			dir := enabledProject(t)
			big := filepath.Join(t.TempDir(), "payload.json")
			f, err := os.Create(big)
			if err != nil {
				t.Fatal(err)
			}
			w := bufio.NewWriter(f)
			fmt.Fprintf(w, `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_response":{"stdout":"`, command)
			line := strings.Repeat("0123456789abcdef", 64) + `\n`
			for n := 0; n < 50<<20; n += len(line) {
				w.WriteString(line)
			}
			w.WriteString(`<verdict>NEEDS_WORK</verdict>","stderr":""}}`)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			in, err := os.Open(big)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			r := runHook(t, dir, in)
			if r.err != nil || r.stdout != "" {
				t.Fatalf("exit %v stdout %q", r.err, r.stdout)
			}
			// Either bound may stop it first: a race-built hook on a
			// loaded machine can take longer than its deadline to read
			// 50 MB (CI, round 21). Both are the hook giving up cleanly;
			// hookevent's tests pin the size bound itself.
			gaveUp := strings.Contains(r.stderr, "larger than the limit") || strings.Contains(r.stderr, "before the hook's deadline")
			if !gaveUp || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("stderr %q", r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, ".flow", "memory")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("memory touched: %v", err)
			}
		})
	}
}

// TestProcessConcurrentCapture: 32 hook processes capture at once. Distinct
// lessons all land; one review run in 32 tool calls is one set of entries
// seen 32 times; one tool call seen by 32 hook processes (the hook
// registered in more than one place) is recorded once. Nothing is lost,
// nothing interleaves.
func TestProcessConcurrentCapture(t *testing.T) {
	n := 32
	if raceEnabled {
		n = 8
	}
	t.Run("distinct lessons", func(t *testing.T) {
		reviews := distinctReviews(t, n)
		dir := enabledProject(t)
		results := runConcurrently(t, dir, n, func(i int) []byte { return reviewPayload(t, reviews[i], fmt.Sprintf("fn-%d.1", i+1)) })
		for i, r := range results {
			if r.err != nil || r.stderr != "" || !strings.Contains(r.stdout, "recorded 1 new lesson") {
				t.Errorf("hook %d: exit %v stderr %q stdout %q", i, r.err, r.stderr, r.stdout)
			}
		}
		es := loadPitfalls(t, dir)
		if len(es) != n {
			t.Fatalf("%d entries after %d concurrent captures, want %d", len(es), n, n)
		}
		tasks := map[string]bool{}
		for _, e := range es {
			tasks[e.Task] = true
		}
		if len(tasks) != n {
			t.Errorf("entries from %d tasks, want %d", len(tasks), n)
		}
	})
	t.Run("same review", func(t *testing.T) {
		dir := enabledProject(t)
		p := payload(t, "bash_review")
		results := runConcurrently(t, dir, n, func(i int) []byte { return asCall(t, p, i) })
		for i, r := range results {
			if r.err != nil || r.stderr != "" || !strings.HasPrefix(r.stdout, `{"systemMessage":`) {
				t.Errorf("hook %d: exit %v stderr %q stdout %q", i, r.err, r.stderr, r.stdout)
			}
		}
		es := loadPitfalls(t, dir)
		if len(es) != 3 {
			t.Fatalf("%d entries, want 3", len(es))
		}
		for _, e := range es {
			if e.Seen != n {
				t.Errorf("%q seen %d times, want %d", e.Issue, e.Seen, n)
			}
		}
	})
	t.Run("one call, many hooks", func(t *testing.T) {
		dir := enabledProject(t)
		p := payload(t, "bash_review")
		results := runConcurrently(t, dir, n, func(int) []byte { return p })
		spoke := 0
		for i, r := range results {
			if r.err != nil || r.stderr != "" {
				t.Errorf("hook %d: exit %v stderr %q stdout %q", i, r.err, r.stderr, r.stdout)
			}
			if r.stdout != "" {
				spoke++
			}
		}
		// The model hears of the review once, from the run that recorded it.
		if spoke != 1 {
			t.Errorf("%d of %d runs printed a note, want 1", spoke, n)
		}
		es := loadPitfalls(t, dir)
		if len(es) != 3 {
			t.Fatalf("%d entries, want 3", len(es))
		}
		for _, e := range es {
			if e.Seen != 1 {
				t.Errorf("%q seen %d times, want 1", e.Issue, e.Seen)
			}
		}
		rs, skipped, err := reviewlog.Read(filepath.Join(dir, ".flow", "memory"))
		if err != nil || len(skipped) != 0 || len(rs) != 1 || rs[0].Event != "toolu_01Review" || rs[0].New != 3 {
			t.Fatalf("reviews log: %+v %v %v, want one line for toolu_01Review", rs, skipped, err)
		}
		// The same reviewer run again later is a new call: a sighting.
		r := runHook(t, dir, bytes.NewReader(asCall(t, p, 1)))
		if r.err != nil || r.stderr != "" || !strings.Contains(r.stdout, "seen 2 times") {
			t.Fatalf("re-run: exit %v stderr %q stdout %q", r.err, r.stderr, r.stdout)
		}
	})
}

// asCall is payload as tool call n reports it: the same command run
// again, under a call id of its own.
func asCall(t testing.TB, payload []byte, n int) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	m["tool_use_id"] = fmt.Sprintf("toolu_call%d", n)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runConcurrently(t *testing.T, dir string, n int, input func(int) []byte) []procResult {
	t.Helper()
	results := make([]procResult, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := hookCmd(t, dir)
			cmd.Stdin = bytes.NewReader(input(i))
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			start.Wait()
			err := cmd.Run()
			results[i] = procResult{out.String(), errOut.String(), err}
		}()
	}
	start.Done()
	wg.Wait()
	return results
}

func loadPitfalls(t testing.TB, dir string) []mdstore.Entry {
	t.Helper()
	es, err := mdstore.Open(filepath.Join(dir, ".flow", "memory")).Load(mdstore.Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// distinctReviews builds n one-finding reviews from the recurrence corpus's
// lessons, keeping only findings the learnable filter keeps and that are
// not repeats of one another, so the expected result is exact.
func distinctReviews(t *testing.T, n int) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "recurrence", "corpus.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var reviews []string
	var kept []mdstore.Entry
	for _, line := range strings.Split(string(b), "\n") {
		body, ok := strings.CutPrefix(line, "A: ")
		if !ok {
			continue
		}
		cut := strings.LastIndex(body, " | ")
		issue, fix := body[:cut], body[cut+3:]
		text := fmt.Sprintf("1. **Severity: Major**\n   **File:Line:** `src/x.go:1`\n   **Problem:** %s\n   **Suggestion:** %s\n\n<verdict>NEEDS_WORK</verdict>\n", issue, fix)
		if len(review.AnalyzeWith(text, review.Options{InferVerdict: true}).Kept()) != 1 {
			continue
		}
		e := mdstore.Entry{Kind: mdstore.Pitfall, Issue: issue, Fix: fix}
		e.Normalize()
		if slices.ContainsFunc(kept, func(k mdstore.Entry) bool { return k.ID == e.ID }) {
			continue
		}
		kept = append(kept, e)
		reviews = append(reviews, text)
		if len(reviews) == n {
			return reviews
		}
	}
	t.Fatalf("only %d usable lessons in the corpus, need %d", len(reviews), n)
	return nil
}

func reviewPayload(t testing.TB, text, task string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"session_id": "s", "cwd": "/nonexistent", "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input":    map[string]any{"command": "flowctl codex impl-review " + task},
		"tool_response": map[string]any{"stdout": text, "stderr": "", "interrupted": false, "isImage": false},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
