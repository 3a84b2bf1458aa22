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
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// run runs the CLI (exe: plain() or raced()) as a process in dir with
// stdin, killed after a deadline; it returns the exit code (-1 for a hang)
// and stderr.
func run(t *testing.T, exe, dir string, stdin []byte, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = processEnv("HOME="+filepath.Join(dir, ".home"), "CLAUDE_PROJECT_DIR="+dir)
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
// hostile makes the file at a path into something no command should
// trust; body is what a regular file of that kind holds.
var hostile = []struct {
	name string
	make func(path string, big []byte) error
}{
	{"fifo", func(p string, _ []byte) error { return syscall.Mkfifo(p, 0o644) }},
	{"symlink to /dev/zero", func(p string, _ []byte) error { return os.Symlink("/dev/zero", p) }},
	{"folder", func(p string, _ []byte) error { return os.Mkdir(p, 0o755) }},
	{"symlink loop", func(p string, _ []byte) error { return os.Symlink(filepath.Base(p), p) }},
	{"big file", func(p string, big []byte) error { return os.WriteFile(p, big, 0o644) }},
}

// target is a file every command reads from the project.
type target struct {
	path string
	big  []byte
	bad  map[string]string // more broken contents: name -> body
}

// targets is a function, not a variable: the big bodies (tens of MB) would
// otherwise be built at start-up by every process that re-runs this test
// binary.
func targets() []target {
	return []target{
		{".flow/config.json", []byte(`{"memory":{"enabled":true},"pad":"` + strings.Repeat("x", 10<<20) + `"}`),
			map[string]string{"wrong type": `{"memory":[true]}`, "not JSON": "{\"memory\": {enabled: true}}\n"}},
		// A big memory file is legitimate and read whole by some commands; 1 MB
		// shows that while keeping sixteen commands' runs short.
		{".flow/memory/pitfalls.md", []byte(strings.Repeat("## 2026-01-01 fn-1 manual [pitfall]\n**Issue**: "+strings.Repeat("word ", 40)+"\n\n", 1<<20/230)),
			map[string]string{"binary": "\x00\xff\x1b[2J" + strings.Repeat("\x00", 4096)}},
		{".claude/settings.json", []byte(`{"env":{"PAD":"` + strings.Repeat("x", 10<<20) + `"}}`),
			map[string]string{"not JSON": `{"hooks": {PostToolUse: []}}`, "wrong shape": `{"hooks": [1, 2]}`}},
		{".gitattributes", []byte(strings.Repeat("*.bin binary\n", 10<<20/13)),
			map[string]string{"binary": "\x00\xff" + strings.Repeat("\x00", 4096)}},
		{".claude/agents/memory-scout.md", []byte(strings.Repeat("an edited scout\n", 10<<20/16)),
			map[string]string{"binary": "\x00\xff" + strings.Repeat("\x00", 4096)}},
	}
}

var commands = [][]string{
	{"init"}, {"init", "--enable"},
	{"config", "get", "memory.enabled"}, {"config", "set", "recall.limit", "5"}, {"config", "list"},
	{"memory", "init"}, {"memory", "add", "--type", "pitfall", "a lesson"}, {"memory", "read"},
	{"memory", "read", "--relevant", "retries"}, {"memory", "prime"}, {"memory", "list"}, {"memory", "search", "x"},
	{"doctor"}, {"capture", "--explain", "-"}, {"install"}, {"uninstall"},
}

// TestReliabilityHostileFiles: with config.json, a memory file, the Claude
// Code settings, .gitattributes or the scout's agent file turned
// into a FIFO, a /dev/zero link, a folder, a symlink loop, a big file (10 MB
// of config, 1 MB of memory) or
// broken content, every command ends with 0, 1 or 64 — no hang, no crash
// — and the hook with 0; what is not a regular file is left as it is.
func TestReliabilityHostileFiles(t *testing.T) {
	t.Parallel()
	payload, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", "bash_review.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range targets() {
		kinds := slices.Clone(hostile)
		for name, body := range target.bad {
			kinds = append(kinds, struct {
				name string
				make func(path string, big []byte) error
			}{name, func(p string, _ []byte) error { return os.WriteFile(p, []byte(body), 0o644) }})
		}
		for _, h := range kinds {
			t.Run(filepath.Base(target.path)+"/"+h.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				if code, errs := run(t, plain(), dir, nil, "init", "--enable"); code != 0 {
					t.Fatalf("init: %d %s", code, errs)
				}
				path := filepath.Join(dir, filepath.FromSlash(target.path))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
					t.Fatal(err)
				}
				if err := h.make(path, target.big); err != nil {
					t.Skipf("cannot make a %s here: %v", h.name, err)
				}
				for _, args := range commands {
					code, errs := run(t, plain(), dir, []byte("VERDICT: NEEDS_WORK\n"), args...)
					switch {
					case code == -1:
						t.Errorf("flowmem %s hung", strings.Join(args, " "))
					case code != 0 && code != 1 && code != 64:
						t.Errorf("flowmem %s: exit %d\n%s", strings.Join(args, " "), code, errs)
					case strings.Contains(errs, "goroutine ") || strings.Contains(errs, "fatal error"):
						t.Errorf("flowmem %s crashed:\n%.500s", strings.Join(args, " "), errs)
					}
				}
				if code, errs := run(t, plain(), dir, payload, "hook"); code != 0 {
					t.Errorf("flowmem hook: exit %d\n%.500s", code, errs)
				}
				if fi, err := os.Lstat(path); err != nil || h.make != nil && !isRegularKind(h.name) && fi.Mode().IsRegular() {
					t.Errorf("%s was replaced: %v %v", target.path, fi.Mode(), err)
				}
			})
		}
	}
}

// isRegularKind: the hostile kinds that are regular files to begin with.
func isRegularKind(name string) bool {
	switch name {
	case "fifo", "symlink to /dev/zero", "folder", "symlink loop":
		return false
	}
	return true
}

// TestReliabilityExitCodes holds the code to the exit code contract: the
// only os.Exit calls are in the main functions (which pass Main's result);
// internal/app never exits and never builds an urfave/cli exit error; its
// exit codes are 0, 1 and 64.
func TestReliabilityExitCodes(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestGuaranteesNameRealTests: every test, fuzz target and benchmark the
// README's Guarantees section cites exists, so a rename cannot leave a
// promise without its proof.
func TestGuaranteesNameRealTests(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(readme), "\n## Guarantees\n")
	if !ok {
		t.Fatal("README.md has no Guarantees section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	defined := map[string]bool{}
	err = filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(string(b), "\n") {
				if name, ok := strings.CutPrefix(line, "func "); ok {
					if i := strings.IndexByte(name, '('); i > 0 {
						defined[name[:i]] = true
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cited := 0
	for _, part := range strings.Split(sec, "`")[1:] {
		for _, prefix := range []string{"Test", "Fuzz", "Benchmark"} {
			if strings.HasPrefix(part, prefix) && !strings.ContainsAny(part, " ./") {
				cited++
				if !defined[part] {
					t.Errorf("README Guarantees cites %s, which no test file defines", part)
				}
			}
		}
	}
	if cited < 10 {
		t.Errorf("only %d tests cited; the section or this parser changed", cited)
	}
}
