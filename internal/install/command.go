package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// HookCommand returns the shell command that runs exe's hook: the binary's
// absolute path, quoted for sh when needed, then " hook". If a flowmem on
// pathEnv is the same file as exe (typically a symlink such as
// /usr/local/bin/flowmem or ~/go/bin/flowmem), that path is used instead, so
// an upgrade that moves the real file keeps the hook working.
func HookCommand(exe, pathEnv string) (string, error) {
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("locate flowmem binary: %w", err)
	}
	self, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("locate flowmem binary: %w", err)
	}
	name := "flowmem"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // relative PATH entries depend on the hook's cwd
		}
		cand := filepath.Join(dir, name)
		if fi, err := os.Stat(cand); err == nil && os.SameFile(fi, self) {
			abs = cand
			break
		}
	}
	// Hooks run through sh (Git Bash on Windows), which wants forward slashes.
	return ShellQuote(filepath.ToSlash(abs)) + " hook", nil
}

// LookPath finds an executable named name in the folders of pathEnv (the
// value of $PATH). It works from a given PATH rather than the process's, so
// callers can ask about the PATH the hook or the scout will see.
func LookPath(name, pathEnv string) (string, error) {
	names := []string{name}
	if runtime.GOOS == "windows" && filepath.Ext(name) == "" {
		names = []string{name + ".exe", name}
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			continue
		}
		for _, n := range names {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s not found on PATH", name)
}
