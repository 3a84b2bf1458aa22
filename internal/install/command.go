package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// FrontName is the front-end hook binary installed beside flowmem
// (cmd/flowmem-hook): the same hook, in a binary small enough to start in
// about the time it takes to decode the event.
const FrontName = "flowmem-hook"

// HookCommand returns the shell command that runs exe's hook: the binary's
// absolute path, quoted for sh when needed, then " hook". If a flowmem on
// pathEnv is the same file as exe (typically a symlink such as
// /usr/local/bin/flowmem or ~/go/bin/flowmem), that path is used instead, so
// an upgrade that moves the real file keeps the hook working. When
// flowmem-hook is installed beside that flowmem, the command runs it
// instead: Claude Code starts the hook after every Bash and Agent call, and
// the front end ends most of them before the full binary would have started.
func HookCommand(exe, pathEnv string) (string, error) {
	abs, err := FlowmemPath(exe, pathEnv)
	if err != nil {
		return "", err
	}
	for _, dir := range []string{filepath.Dir(abs), filepath.Dir(exe)} {
		if p := filepath.Join(dir, binName(FrontName)); isExecutable(p) {
			abs, err = filepath.Abs(p)
			if err != nil {
				break
			}
			// Hooks run through sh (Git Bash on Windows), which wants
			// forward slashes.
			return ShellQuote(filepath.ToSlash(abs)), nil
		}
	}
	return ShellQuote(filepath.ToSlash(abs)) + " hook", nil
}

// FlowmemPath is exe's absolute path, or a flowmem on pathEnv that is the
// same file (typically a symlink such as /usr/local/bin/flowmem), so an
// upgrade that moves the real file keeps a command that names it working.
func FlowmemPath(exe, pathEnv string) (string, error) {
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("locate flowmem binary: %w", err)
	}
	self, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("locate flowmem binary: %w", err)
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // relative PATH entries depend on the hook's cwd
		}
		cand := filepath.Join(dir, binName("flowmem"))
		if fi, err := os.Stat(cand); err == nil && os.SameFile(fi, self) {
			return cand, nil
		}
	}
	return abs, nil
}

// Recorder is the flowmem that records the reviews a hook running prog (a
// path) sees: prog itself, or for the flowmem-hook front end the flowmem
// beside it, else the one on pathEnv, as the front end looks for it.
func Recorder(prog, pathEnv string) (string, error) {
	if strings.TrimSuffix(strings.ToLower(filepath.Base(prog)), ".exe") != FrontName {
		return prog, nil
	}
	if p := filepath.Join(filepath.Dir(prog), binName("flowmem")); isExecutable(p) {
		return p, nil
	}
	return LookPath("flowmem", pathEnv)
}

// binName is the file name of the program name on this system.
func binName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0)
}

// GoBin names the folder make install (go install) puts the binaries in,
// as the go command chooses it, for messages that tell a user where to look.
const GoBin = "$(go env GOBIN), else $(go env GOPATH)/bin"

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
			if p := filepath.Join(dir, n); isExecutable(p) {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("%s not found on PATH", name)
}
