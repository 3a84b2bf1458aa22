package app

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runIn runs flowmem in dir with HOME set inside it and returns the exit
// code and both streams.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := map[string]string{"HOME": filepath.Join(dir, "home"), "PATH": ""}
	code := Main(context.Background(), append([]string{"flowmem"}, args...), IO{
		Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] },
		Getwd:  func() (string, error) { return dir, nil },
		Exe:    func() (string, error) { return os.Executable() },
	})
	return code, out.String(), errb.String()
}

func TestInstallExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, stderr := runIn(t, dir, "init", "--enable"); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"install", "--local", "--codex"}, exitUsage, "at most one"},
		{[]string{"uninstall", "--user", "--local"}, exitUsage, "at most one"},
		{[]string{"install", "x"}, exitUsage, "expected no arguments"},
		{[]string{"install", "--nope"}, exitUsage, "unknown flag --nope"},
		{[]string{"install", "--timeout", "-1"}, exitUsage, "positive"},
		{[]string{"install", "--command", "/x/flowmem hook"}, exitOK, "created"},
		{[]string{"uninstall"}, exitOK, "removed"},
	}
	for _, tt := range tests {
		code, _, stderr := runIn(t, dir, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.msg) {
			t.Errorf("flowmem %v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, tt.code, tt.msg)
		}
	}
	// The personal scopes' default command runs this very binary.
	code, stdout, stderr := runIn(t, dir, "install", "--local", "--dry-run")
	exe, _ := os.Executable()
	if code != 0 || !strings.Contains(stdout, `"command": "`+filepath.ToSlash(exe)+` hook"`) {
		t.Errorf("install --local --dry-run: %d\n%s\n%s", code, stdout, stderr)
	}
}

// runWithPath runs flowmem in dir with the given PATH.
func runWithPath(t *testing.T, dir, path string, args ...string) (int, string, string) {
	t.Helper()
	return runAs(t, dir, path, os.Executable, args...)
}

// runAs is runWithPath with the running binary at exe's path.
func runAs(t *testing.T, dir, path string, exe func() (string, error), args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := map[string]string{"HOME": filepath.Join(dir, "home"), "PATH": path}
	code := Main(context.Background(), append([]string{"flowmem"}, args...), IO{
		Out: &out, Err: &errb,
		Getenv: func(k string) string { return env[k] },
		Getwd:  func() (string, error) { return dir, nil },
		Exe:    exe,
	})
	return code, out.String(), errb.String()
}

// TestInstallSharedScopeRunsFlowmemByName: the committed settings file
// runs flowmem by name (never this machine's path), allows the scout its
// command, primes sessions with --prime, and uninstall takes exactly that
// back out.
func TestInstallSharedScopeRunsFlowmemByName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	exe, _ := os.Executable()
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "flowmem")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "flowmem-hook"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runWithPath(t, dir, bin, "init", "--enable"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	orig := "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(npm test:*)\"]}\n}\n"
	settings := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runWithPath(t, dir, bin, "install", "--prime")
	if code != 0 || strings.Contains(stderr, "warning") {
		t.Fatalf("install --prime: exit %d\n%s", code, stderr)
	}
	var got struct {
		Permissions struct{ Allow []string }
		Hooks       map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		}
	}
	b, _ := os.ReadFile(settings)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	cmds := map[string]string{}
	for ev, groups := range got.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				cmds[ev] = h.Command
			}
		}
	}
	want := map[string]string{
		"PostToolUse":        "flowmem-hook",
		"PostToolUseFailure": "flowmem-hook",
		"SessionStart":       "flowmem memory prime --session-start",
	}
	if !maps.Equal(cmds, want) {
		t.Errorf("hooks = %v, want %v", cmds, want)
	}
	if strings.Contains(string(b), dir) {
		t.Errorf("the shared settings name this machine's paths:\n%s", b)
	}
	if !slices.Equal(got.Permissions.Allow, []string{"Bash(npm test:*)", "Bash(flowmem memory read:*)", "Bash(flowmem memory curate:*)", "Bash(flowmem memory show:*)", "Bash(flowmem memory merge:*)", "Bash(flowmem memory judge:*)"}) {
		t.Errorf("permissions.allow = %q", got.Permissions.Allow)
	}
	// Again: nothing changes.
	if _, _, stderr := runWithPath(t, dir, bin, "install", "--prime"); !strings.Contains(stderr, "settings.json: already up to date") {
		t.Errorf("second install changed the file:\n%s", stderr)
	}
	if code, _, stderr := runWithPath(t, dir, bin, "uninstall"); code != 0 {
		t.Fatalf("uninstall: %s", stderr)
	}
	if b, _ := os.ReadFile(settings); string(b) != orig {
		t.Errorf("uninstall left:\n%s\nwant:\n%s", b, orig)
	}
}

// TestInstallChecksFlowmemOnPath: a hook by name needs this build on PATH;
// install says exactly how to fix it when it is missing or another build,
// and --local (absolute path) needs nothing on PATH.
func TestInstallChecksFlowmemOnPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe, _ := os.Executable()
	if code, _, stderr := runWithPath(t, dir, "", "init", "--enable"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, script := range map[string]string{
		"flowmem":      "#!/bin/sh\necho flowmem version 0.0.1\n",
		"flowmem-hook": "#!/bin/sh\n",
	} {
		for _, d := range []string{other, filepath.Join(dir, "alone")} {
			if name == "flowmem" && d != other {
				continue // a front end with no flowmem anywhere
			}
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, name), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	// This build as make install leaves it: flowmem-hook beside flowmem.
	pair := filepath.Join(dir, "pair")
	if err := os.MkdirAll(pair, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(pair, "flowmem")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pair, "flowmem-hook"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	paired := filepath.Join(pair, "flowmem")
	tests := []struct {
		name, path string
		args       []string
		want       []string // in stderr; none means no warning at all
		not        string   // not in stderr
		exe        string   // the running flowmem (default: the test binary, alone in its folder)
	}{
		{"missing", filepath.Join(dir, "empty"), []string{"install"},
			[]string{"warning: no flowmem-hook on PATH", `export PATH="` + pair + `:$PATH"`, "make install puts flowmem and flowmem-hook in $(go env GOBIN), else $(go env GOPATH)/bin", paired + " uninstall && " + paired + " install --local"}, "", paired},
		// Built or copied alone: its folder on PATH would not help.
		{"missing, and not beside this flowmem", filepath.Join(dir, "empty"), []string{"install"},
			[]string{"warning: no flowmem-hook on PATH, nor beside " + exe, "make install (it puts flowmem and flowmem-hook in $(go env GOBIN), else $(go env GOPATH)/bin)", exe + " uninstall && " + exe + " install --local"}, "export PATH", ""},
		{"another build", other, []string{"install"},
			[]string{"would record with " + filepath.Join(other, "flowmem") + " (flowmem version 0.0.1), not this build", "make install", exe + " uninstall && " + exe + " install --local"}, "export PATH", ""},
		{"another build, this one paired", other, []string{"install"},
			[]string{"would record with " + filepath.Join(other, "flowmem") + " (flowmem version 0.0.1), not this build", `put ` + pair + ` first on PATH (export PATH="` + pair + `:$PATH")`}, "", paired},
		{"init --install too", other, []string{"init", "--install"},
			[]string{"would record with " + filepath.Join(other, "flowmem")}, "", ""},
		{"front end without flowmem", filepath.Join(dir, "alone"), []string{"install"},
			[]string{"warning: " + filepath.Join(dir, "alone", "flowmem-hook") + " is on PATH but no flowmem is beside it or on PATH"}, "", ""},
		{"local by absolute path", "", []string{"install", "--local"}, nil, "", ""},
		// Codex has no local file, and uninstall without --codex would
		// take the Claude Code hooks out of the shared settings.
		{"codex", filepath.Join(dir, "empty"), []string{"install", "--codex"},
			[]string{"warning: no flowmem-hook on PATH: the hook in .codex/hooks.json"}, "uninstall", paired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			self := os.Executable
			if tt.exe != "" {
				self = func() (string, error) { return tt.exe, nil }
			}
			code, _, stderr := runAs(t, dir, tt.path, self, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: the install stands, only this machine's PATH is wrong\n%s", code, stderr)
			}
			if tt.want == nil && strings.Contains(stderr, "warning") {
				t.Errorf("unexpected warning:\n%s", stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tt.not != "" && strings.Contains(stderr, tt.not) {
				t.Errorf("stderr has %q:\n%s", tt.not, stderr)
			}
		})
	}
}

// TestInstallSaysWhenTheHookRunsTwice: installing in a second settings file
// (the project's shared one and --local, or --user) says at once that the
// hook now runs in both and how to keep one, as doctor would later; one
// place alone gets no note.
func TestInstallSaysWhenTheHookRunsTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, stderr := runWithPath(t, dir, "", "init", "--enable"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	if _, _, stderr := runWithPath(t, dir, "", "install"); strings.Contains(stderr, "note:") {
		t.Errorf("one place, yet:\n%s", stderr)
	}
	want := "note: .claude/settings.json runs flowmem's hook too, so it now runs twice on every tool call (a review is still recorded once); keep one: flowmem uninstall (that one) or flowmem uninstall --local (this one)"
	if _, _, stderr := runWithPath(t, dir, "", "install", "--local"); !strings.Contains(stderr, want) {
		t.Errorf("install --local beside the shared hook:\n%s\nwant %q", stderr, want)
	}
	if _, _, stderr := runWithPath(t, dir, "", "uninstall", "--local"); strings.Contains(stderr, "note:") {
		t.Errorf("uninstall --local:\n%s", stderr)
	}
	want = "note: .claude/settings.json runs flowmem's hook too, so it now runs twice on every tool call (a review is still recorded once); keep one: flowmem uninstall (that one) or flowmem uninstall --user (this one)"
	if _, _, stderr := runWithPath(t, dir, "", "install", "--user"); !strings.Contains(stderr, want) || strings.Count(stderr, "note:") != 1 {
		t.Errorf("install --user beside the shared hook:\n%s\nwant only %q", stderr, want)
	}
}
