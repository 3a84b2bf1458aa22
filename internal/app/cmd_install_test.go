package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
		{[]string{"install", "--nope"}, exitUsage, "not defined"},
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
	// The default command runs this very binary.
	code, stdout, stderr := runIn(t, dir, "install", "--dry-run")
	exe, _ := os.Executable()
	if code != 0 || !strings.Contains(stdout, `"command": "`+filepath.ToSlash(exe)+` hook"`) {
		t.Errorf("install --dry-run: %d\n%s\n%s", code, stdout, stderr)
	}
}
