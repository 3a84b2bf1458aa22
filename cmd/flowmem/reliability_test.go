package main

// The reliability suite for hostile files: every command, run as its own
// process against a project whose config.json is something no command
// should trust, must end within a deadline with exit 0, 1 or 64 — never 2,
// which Claude Code reads from a hook as "block" and the Go runtime uses
// for a crash or running out of memory — and `flowmem hook` must exit 0.

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run runs the CLI as a process in dir with stdin, killed after a
// deadline; it returns the exit code (-1 for a hang) and stderr.
func run(t *testing.T, dir string, stdin []byte, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FLOWMEM_TEST_AS_CLI=1", "HOME="+filepath.Join(dir, ".home"), "CLAUDE_PROJECT_DIR="+dir)
	cmd.Stdin = bytes.NewReader(stdin)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, errb.String()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, errb.String()
}

// hostileConfigs turns .flow/config.json into each thing a command must
// refuse rather than trust.
var hostileConfigs = []struct {
	name string
	make func(path string) error
}{
	{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
	{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
	{"folder", func(p string) error { return os.Mkdir(p, 0o755) }},
	{"symlink loop", func(p string) error { return os.Symlink(filepath.Base(p), p) }},
	{"10 MB file", func(p string) error {
		return os.WriteFile(p, []byte(`{"memory":{"enabled":true},"pad":"`+strings.Repeat("x", 10<<20)+`"}`), 0o644)
	}},
	{"wrong type", func(p string) error { return os.WriteFile(p, []byte(`{"memory":[true]}`), 0o644) }},
	{"not JSON", func(p string) error { return os.WriteFile(p, []byte("{\"memory\": {enabled: true}}\n"), 0o644) }},
}

var commands = [][]string{
	{"init"}, {"init", "--enable"},
	{"config", "get", "memory.enabled"}, {"config", "set", "recall.limit", "5"}, {"config", "list"},
	{"memory", "init"}, {"memory", "add", "--type", "pitfall", "a lesson"}, {"memory", "read"},
	{"memory", "read", "--relevant", "retries"}, {"memory", "prime"}, {"memory", "list"}, {"memory", "search", "x"},
	{"doctor"}, {"capture", "--explain", "-"}, {"install"}, {"uninstall"},
}

func TestReliabilityHostileConfig(t *testing.T) {
	payload, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", "bash_review.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hostileConfigs {
		t.Run(h.name, func(t *testing.T) {
			dir := t.TempDir()
			if code, errs := run(t, dir, nil, "init", "--enable"); code != 0 {
				t.Fatalf("init: %d %s", code, errs)
			}
			cfg := filepath.Join(dir, ".flow", "config.json")
			if err := os.Remove(cfg); err != nil {
				t.Fatal(err)
			}
			if err := h.make(cfg); err != nil {
				t.Skipf("cannot make a %s here: %v", h.name, err)
			}
			for _, args := range commands {
				code, errs := run(t, dir, []byte("VERDICT: NEEDS_WORK\n"), args...)
				switch {
				case code == -1:
					t.Errorf("flowmem %s hung", strings.Join(args, " "))
				case code != 0 && code != 1 && code != 64:
					t.Errorf("flowmem %s: exit %d\n%s", strings.Join(args, " "), code, errs)
				case strings.Contains(errs, "goroutine ") || strings.Contains(errs, "fatal error"):
					t.Errorf("flowmem %s crashed:\n%.500s", strings.Join(args, " "), errs)
				}
			}
			if code, errs := run(t, dir, payload, "hook"); code != 0 {
				t.Errorf("flowmem hook: exit %d\n%.500s", code, errs)
			}
			// What is not a regular file stays as it was.
			if fi, err := os.Lstat(cfg); err != nil || h.name != "10 MB file" && h.name != "wrong type" && h.name != "not JSON" && fi.Mode().IsRegular() {
				t.Errorf("config.json was replaced: %v %v", fi.Mode(), err)
			}
		})
	}
}

// TestReliabilityExitCodes holds the code to the exit code contract: the
// only os.Exit calls are in the main functions (which pass Main's result);
// internal/app never exits and never builds an urfave/cli exit error; its
// exit codes are 0, 1 and 64.
func TestReliabilityExitCodes(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range []string{"../../cmd/flowmem", "../../cmd/flowmem-hook", "../../internal/app", "../../internal/hookfront", "../../internal/capture"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, _ := sel.X.(*ast.Ident)
				if pkg == nil {
					return true
				}
				where := fset.Position(call.Pos())
				switch name := pkg.Name + "." + sel.Sel.Name; name {
				case "os.Exit":
					if !strings.HasPrefix(path, "../../cmd/") {
						t.Errorf("%s: os.Exit outside a main function", where)
					}
				case "cli.Exit", "cli.NewExitError", "cli.HandleExitCoder", "log.Fatal", "log.Fatalf":
					t.Errorf("%s: %s exits the process behind Main's back", where, name)
				}
				return true
			})
		}
	}
	// The codes themselves.
	src, err := os.ReadFile("../../internal/app/app.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"exitOK    = 0", "exitError = 1", "exitUsage = 64"} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("internal/app/app.go no longer says %q", want)
		}
	}
}

// TestReliabilityNoBareGoroutines: Main recovers a panic only on its own
// goroutine; one in another goroutine kills the process with exit code 2.
// Every go statement in the program must start its function with a
// deferred recover.
func TestReliabilityNoBareGoroutines(t *testing.T) {
	fset := token.NewFileSet()
	var paths []string
	for _, root := range []string{"../../cmd", "../../internal"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || path == "../../internal/bench") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			g, ok := n.(*ast.GoStmt)
			if !ok {
				return true
			}
			if lit, ok := g.Call.Fun.(*ast.FuncLit); ok && len(lit.Body.List) > 0 {
				if d, ok := lit.Body.List[0].(*ast.DeferStmt); ok && mentionsRecover(d) {
					return true
				}
			}
			t.Errorf("%s: a goroutine without a deferred recover: its panic would exit 2", fset.Position(g.Pos()))
			return true
		})
	}
	if len(paths) < 20 {
		t.Fatalf("only %d source files found; the walk is wrong", len(paths))
	}
}

func mentionsRecover(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "recover" {
			found = true
		}
		return !found
	})
	return found
}
