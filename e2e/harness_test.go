package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowmem/flowmem/e2e/standin"
)

// ClaudeVersion is the pinned client the tests are written against.
const ClaudeVersion = "2.1.330"

var (
	buildOnce sync.Once
	binDir    string // holds the freshly built flowmem
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// claudeBin returns the pinned client, or fails the test (skips only when
// FLOWMEM_E2E=skip).
func claudeBin(t *testing.T) string {
	t.Helper()
	if os.Getenv("FLOWMEM_E2E") == "skip" {
		t.Skip("FLOWMEM_E2E=skip: end-to-end tests with the real Claude Code client are switched off")
	}
	bin := os.Getenv("FLOWMEM_CLAUDE_BIN")
	if bin == "" {
		home, _ := os.UserHomeDir()
		bin = filepath.Join(home, ".cache", "flowmem", "claude-code-"+ClaudeVersion, "node_modules", ".bin", "claude")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Claude Code client not found at %s (%v).\nInstall it: make claude (npm install --prefix ~/.cache/flowmem/claude-code-%s @anthropic-ai/claude-code@%s),\nor set FLOWMEM_CLAUDE_BIN, or FLOWMEM_E2E=skip to skip these tests on purpose.",
			bin, err, ClaudeVersion, ClaudeVersion)
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(out)), ClaudeVersion) {
		t.Fatalf("%s --version = %q (%v); want %s", bin, out, err, ClaudeVersion)
	}
	return bin
}

// flowmemBin builds ./cmd/flowmem and ./cmd/flowmem-hook once per test run.
func flowmemBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "flowmem-e2e-bin-")
		if buildErr != nil {
			return
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		// Both binaries, side by side as make install puts them: flowmem
		// install then registers flowmem-hook, which hands reviews to
		// flowmem, so the tests run the hook the way users get it (with
		// make install's build tag).
		cmd := exec.Command(goTool, "build", "-tags", "urfave_cli_no_docs", "-o", binDir+string(filepath.Separator),
			"github.com/flowmem/flowmem/cmd/flowmem", "github.com/flowmem/flowmem/cmd/flowmem-hook")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/flowmem ./cmd/flowmem-hook: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "flowmem")
}

// project is a temporary project with its own HOME, set up with flowmem.
type project struct {
	t    *testing.T
	Dir  string
	Home string
	Env  []string // for flowmem and claude: clean of the caller's Claude and flowmem settings
}

// newProject makes a project folder and a fresh HOME (no login, no trust
// state, no user settings). Nothing is installed yet.
func newProject(t *testing.T) *project {
	t.Helper()
	claudeBin(t) // skip or fail before doing any work
	bin := flowmemBin(t)
	root := t.TempDir()
	p := &project{t: t, Dir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home")}
	for _, d := range []string{p.Dir, p.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "PATH", k == "CLAUDECODE", k == "NO_COLOR",
			strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "ANTHROPIC_"),
			strings.HasPrefix(k, "FLOWMEM_"), strings.HasPrefix(k, "FLOW_"),
			strings.HasPrefix(k, "XDG_"):
			continue
		}
		p.Env = append(p.Env, kv)
	}
	p.Env = append(p.Env,
		"HOME="+p.Home,
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(p.Home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(p.Home, ".cache"),
	)
	return p
}

// flowmem runs the built binary in the project and fails the test on error.
func (p *project) flowmem(args ...string) string {
	p.t.Helper()
	out, err := p.flowmemErr(args...)
	if err != nil {
		p.t.Fatalf("flowmem %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (p *project) flowmemErr(args ...string) (string, error) {
	cmd := exec.Command(flowmemBin(p.t), args...)
	cmd.Dir, cmd.Env = p.Dir, p.Env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// write creates a file in the project; mode 0o755 makes a script.
func (p *project) write(rel, content string, mode os.FileMode) {
	p.t.Helper()
	path := filepath.Join(p.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) read(rel string) string {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.Dir, rel))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

// session is what one `claude -p` run produced.
type session struct {
	Lines  []map[string]any // every stream-json line
	Result map[string]any   // the final {"type":"result"} line
	Stderr string
}

// Notices are the user-visible hook messages (systemMessage), as the
// client reports them in stream-json.
func (s *session) Notices() []string {
	var out []string
	for _, l := range s.Lines {
		if l["type"] == "system" && l["subtype"] == "informational" {
			if c, ok := l["content"].(string); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// claude runs one non-interactive session in the project against srv.
func (p *project) claude(srv *standin.Server, prompt string, allowedTools ...string) *session {
	p.t.Helper()
	bin := claudeBin(p.t)
	args := []string{"-p", prompt, "--output-format", "stream-json", "--verbose"}
	if len(allowedTools) > 0 {
		args = append(args, "--allowedTools", strings.Join(allowedTools, ","))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = p.Dir
	cmd.Env = append(append([]string{}, p.Env...),
		"ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=sk-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	s := &session{Stderr: stderr.String()}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		s.Lines = append(s.Lines, m)
		if m["type"] == "result" {
			s.Result = m
		}
	}
	if err != nil || s.Result == nil {
		p.t.Fatalf("claude %s: %v\nstderr:\n%s\nstdout:\n%s", strings.Join(args, " "), err, stderr.String(), stdout.String())
	}
	if s.Result["is_error"] == true {
		p.t.Fatalf("claude session ended in error: %v\n%s", s.Result, stdout.String())
	}
	return s
}

// startStandin starts the stand-in API for one test and stops it after.
func startStandin(t *testing.T, convs ...standin.Conversation) *standin.Server {
	t.Helper()
	srv, err := standin.Start(convs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// dumpRequests logs what the stand-in saw, for failing tests.
func dumpRequests(t *testing.T, srv *standin.Server) {
	t.Helper()
	for i, r := range srv.Requests() {
		last := ""
		if n := len(r.Messages); n > 0 {
			last = r.Messages[n-1].Text
			if len(last) > 1500 {
				last = last[:1500] + "…"
			}
		}
		t.Logf("request %d: conv=%q model=%s step=%d tools=%v\n  last message: %s", i, r.Conversation, r.Model, r.Step, r.Tools, last)
	}
}
