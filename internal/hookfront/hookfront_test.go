package hookfront

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a stand-in for the full flowmem binary: with
// FAKE_FLOWMEM_OUT set it records its arguments and stdin there, and with
// FAKE_FLOWMEM_SLEEP it hangs, writing its pid first.
func TestMain(m *testing.M) {
	if out := os.Getenv("FAKE_FLOWMEM_OUT"); out != "" {
		in, _ := io.ReadAll(os.Stdin)
		rec := strings.Join(os.Args[1:], " ") + "\n" + string(in)
		_ = os.WriteFile(out, []byte(rec), 0o644)
		if os.Getenv("FAKE_FLOWMEM_SLEEP") != "" {
			_ = os.WriteFile(out+".pid", []byte(strconv.Itoa(os.Getpid())), 0o644)
			time.Sleep(time.Minute)
		}
		os.Stdout.WriteString(`{"systemMessage":"fake"}` + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func payload(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type outcome struct {
	code           int
	stdout, stderr string
	record         string // what the stand-in flowmem received; "" if it never ran
}

func runFront(t *testing.T, stdin io.Reader, env map[string]string, o Options) outcome {
	t.Helper()
	out := filepath.Join(t.TempDir(), "fake.out")
	for k, v := range map[string]string{"FAKE_FLOWMEM_OUT": out} {
		t.Setenv(k, v)
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The stand-in is installed beside the front end as flowmem.
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "flowmem")); err != nil {
		t.Fatal(err)
	}
	var so, se bytes.Buffer
	o.Stdin, o.Stdout, o.Stderr, o.Exe = stdin, &so, &se, filepath.Join(dir, "flowmem-hook")
	code := Main(context.Background(), []string{"flowmem-hook"}, o)
	rec, _ := os.ReadFile(out)
	return outcome{code, so.String(), se.String(), string(rec)}
}

func TestNonReviewEndsHere(t *testing.T) {
	for _, name := range []string{"bash_nonreview", "session_start", "scout_readback", "main_cat_memory", "agent_scout_result"} {
		r := runFront(t, bytes.NewReader(payload(t, name)), nil, Options{})
		if r.code != 0 || r.record != "" || r.stdout != "" || r.stderr != "" {
			t.Errorf("%s: %+v, want exit 0, silent, flowmem never run", name, r)
		}
	}
}

func TestReviewIsHandedOverUnchanged(t *testing.T) {
	for _, name := range []string{"bash_review", "bash_review_failure", "agent_reviewer", "codex_string_response"} {
		in := payload(t, name)
		r := runFront(t, bytes.NewReader(in), nil, Options{})
		if r.code != 0 {
			t.Fatalf("%s: exit %d", name, r.code)
		}
		// The event object byte for byte; the newline after it is not part
		// of it.
		want := "hook\n" + string(bytes.TrimSpace(in))
		if r.record != want {
			t.Errorf("%s: flowmem got %q, want %q", name, r.record, want)
		}
		if !strings.Contains(r.stdout, `"systemMessage"`) {
			t.Errorf("%s: flowmem's output not passed on: %q", name, r.stdout)
		}
	}
}

func TestBadInputIsOneLineAndExitZero(t *testing.T) {
	for _, name := range []string{"malformed", "truncated", "not_object"} {
		r := runFront(t, bytes.NewReader(payload(t, name)), nil, Options{})
		if r.code != 0 || r.record != "" {
			t.Errorf("%s: %+v", name, r)
		}
		if !strings.HasPrefix(r.stderr, "flowmem-hook: ") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: stderr %q, want one line", name, r.stderr)
		}
	}
}

func TestDisabled(t *testing.T) {
	r := runFront(t, bytes.NewReader(payload(t, "bash_review")), map[string]string{"FLOWMEM_DISABLE": "1"}, Options{})
	if r.code != 0 || r.record != "" || r.stderr != "" {
		t.Errorf("%+v", r)
	}
}

func TestStdinLeftOpen(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if _, err := pw.Write([]byte(`{"tool_name": "Bash", "tool_in`)); err != nil {
		t.Fatal(err)
	}
	r := runFront(t, pr, nil, Options{RunTimeout: 50 * time.Millisecond})
	if r.code != 0 || r.record != "" || !strings.Contains(r.stderr, "no complete JSON object") {
		t.Errorf("%+v", r)
	}
}

func TestFlowmemMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	o := Options{Exe: filepath.Join(t.TempDir(), "flowmem-hook")}
	if _, err := o.flowmem(); err == nil || !strings.Contains(err.Error(), "install both") {
		t.Errorf("flowmem() = %v, want a not-found error saying what to do", err)
	}
}

func TestFindsFlowmemBesideItself(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "flowmem")
	if err := os.WriteFile(full, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	got, err := Options{Exe: filepath.Join(dir, "flowmem-hook")}.flowmem()
	if err != nil || got != full {
		t.Errorf("flowmem() = %q, %v; want %q", got, err, full)
	}
}

func TestVersionAndHelp(t *testing.T) {
	for _, arg := range []string{"--version", "--help"} {
		var so bytes.Buffer
		code := Main(context.Background(), []string{"flowmem-hook", arg}, Options{Stdin: strings.NewReader(""), Stdout: &so, Stderr: io.Discard})
		if code != 0 || so.Len() == 0 {
			t.Errorf("%s: exit %d, %q", arg, code, so.String())
		}
	}
	var so bytes.Buffer
	Main(context.Background(), []string{"flowmem-hook", "--help"}, Options{Stdout: &so})
	if !strings.Contains(so.String(), "Example") {
		t.Error("help has no example")
	}
	// The shared settings name the hook, never one machine's path.
	if !strings.Contains(so.String(), `"command": "flowmem-hook"`) {
		t.Errorf("help's example is not what install writes into .claude/settings.json:\n%s", so.String())
	}
}

func TestNonExecutableBesideFallsBackToPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "flowmem"), []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	onPath := filepath.Join(bin, "flowmem")
	if err := os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	got, err := Options{Exe: filepath.Join(dir, "flowmem-hook")}.flowmem()
	if err != nil || got != onPath {
		t.Errorf("flowmem() = %q, %v; want %q from PATH", got, err, onPath)
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom") }

// TestPanicIsExitZero: a crash in the front end is one stderr line and
// exit 0, never Go's exit 2 (which Claude Code shows the model).
func TestPanicIsExitZero(t *testing.T) {
	var so, se bytes.Buffer
	code := Main(context.Background(), []string{"flowmem-hook"}, Options{Stdin: panicReader{}, Stdout: &so, Stderr: &se})
	if code != 0 || se.String() != "flowmem-hook: internal error: boom\n" || so.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, so.String(), se.String())
	}
}

// TestLongOrdinaryOutputEndsHere: an ordinary command whose long output
// Claude Code saved to a file ends in the front end when the file holds no
// verdict, and is handed over when it does.
func TestLongOrdinaryOutputEndsHere(t *testing.T) {
	dir := t.TempDir()
	event := func(saved string) []byte {
		return []byte(fmt.Sprintf(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"ok  pkg 0.1s\n[output truncated]","persistedOutputPath":%q}}`, saved))
	}
	plain := filepath.Join(dir, "plain.txt")
	verdict := filepath.Join(dir, "verdict.txt")
	if err := os.WriteFile(plain, []byte(strings.Repeat("ok  pkg 0.1s\n", 5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(verdict, []byte("...\nVERDICT: NEEDS_WORK\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runFront(t, bytes.NewReader(event(plain)), nil, Options{}); r.record != "" || r.stderr != "" {
		t.Errorf("no verdict in the saved output, yet flowmem ran: %+v", r)
	}
	if r := runFront(t, bytes.NewReader(event(verdict)), nil, Options{}); r.record == "" {
		t.Errorf("a verdict in the saved output was not handed over: %+v", r)
	}
}
