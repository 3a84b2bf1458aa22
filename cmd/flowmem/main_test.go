package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/app"
	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds flowmem and flowmem-hook, built once per test run without
// the race detector: the scripts and the process tests are about what a
// process does (output, exit codes, files, git merges, FIFOs), and a
// race-built process costs several times the start-up and run time while
// it can find nothing, since the program starts no goroutines. The
// concurrency tests run this test binary instead (raced), which under
// -race is the one race-built flowmem.
var binDir string

// tmpRoot holds what the tests share and make once (binDir, the team
// repositories' templates); removed when the tests end.
var tmpRoot string

// plain is the flowmem built into binDir.
func plain() string { return filepath.Join(binDir, "flowmem") }

// raced is this test binary standing in for flowmem (with
// FLOWMEM_TEST_AS_CLI=1): race-built when the tests run with -race.
func raced() string { return os.Args[0] }

// processEnv is the environment of a flowmem process the tests start. A
// race-built process that exits 0 sleeps a second first (the race
// runtime's atexit_sleep_ms, which waits for other goroutines to report a
// race; flowmem starts none), and the concurrency tests start dozens.
func processEnv(extra ...string) []string {
	return append(append(os.Environ(), "FLOWMEM_TEST_AS_CLI=1", "GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE")), extra...)
}

func TestMain(m *testing.M) {
	// The concurrency tests re-run this binary with FLOWMEM_TEST_AS_CLI=1.
	if os.Getenv("FLOWMEM_TEST_AS_CLI") == "1" {
		os.Exit(app.Main(context.Background(), append([]string{"flowmem"}, os.Args[1:]...), app.SystemIO()))
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	root, err := os.MkdirTemp("", "flowmem-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(root)
	dir := filepath.Join(root, "bin")
	if err := os.Mkdir(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tmpRoot, binDir = root, dir
	return m.Run()
}

// build puts flowmem and flowmem-hook side by side in dir, as make install
// does: flowmem-hook hands reviews to the flowmem beside it. The flags are
// the e2e package's (and make install's build tag), so a test run builds
// the two binaries once for both.
func build(dir string) error {
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goTool, "build", "-tags", "urfave_cli_no_docs", "-o", dir+string(filepath.Separator),
		"github.com/flowmem/flowmem/cmd/flowmem", "github.com/flowmem/flowmem/cmd/flowmem-hook")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/flowmem ./cmd/flowmem-hook: %v\n%s", err, out)
	}
	return nil
}

// TestScripts runs every testdata/script/*.txtar against the built
// binaries, found on PATH. Run with FLOWMEM_UPDATE_SCRIPTS=1 to rewrite the
// expected output in place.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		UpdateScripts:       os.Getenv("FLOWMEM_UPDATE_SCRIPTS") == "1",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("HOME", filepath.Join(work, ".home"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, ".home", ".config"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(work, ".home", ".cache"))
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("FLOW_TASK_ID", "")
			env.Setenv("FLOWMEM_DISABLE", "")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

// TestNoDocGenerators: built as make install builds it, flowmem links no
// man-page or markdown generator, whose package initialisation every
// command would pay (urfave/cli drops them under the urfave_cli_no_docs
// tag; an upgrade that stops honouring it fails here).
func TestNoDocGenerators(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "version", "-m", plain()).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	for _, mod := range []string{"russross/blackfriday", "cpuguy83/go-md2man"} {
		if strings.Contains(string(out), mod) {
			t.Errorf("flowmem links %s:\n%s", mod, out)
		}
	}
}

// TestHookVersionNamesBuild: flowmem-hook --version names the same build as
// flowmem --version (the module version or revision too, when the
// toolchain stamped one), so
// two builds of one release can be told apart from the hook's side.
func TestHookVersionNamesBuild(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the toolchain stamps no revision")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-buildvcs=true", "-tags", "urfave_cli_no_docs", "-o", dir+string(filepath.Separator),
		"github.com/flowmem/flowmem/cmd/flowmem", "github.com/flowmem/flowmem/cmd/flowmem-hook")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("go build -buildvcs=true (not in a git checkout?): %v\n%s", err, out)
	}
	version := func(prog string) string {
		out, err := exec.Command(filepath.Join(dir, prog), "--version").Output()
		if err != nil {
			t.Fatalf("%s --version: %v", prog, err)
		}
		v, ok := strings.CutPrefix(strings.TrimSpace(string(out)), prog+" version ")
		if !ok {
			t.Fatalf("%s --version = %q", prog, out)
		}
		return v
	}
	full, hook := version("flowmem"), version("flowmem-hook")
	if !strings.Contains(full, "(") {
		t.Skipf("flowmem --version = %q: no module version or revision stamped", full)
	}
	if hook != full {
		t.Errorf("flowmem-hook --version says %q, flowmem --version %q", hook, full)
	}
}
