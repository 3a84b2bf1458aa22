// Package project locates a flowmem project: the nearest folder, walking up,
// that holds a .flow/ directory, and the well-known paths inside it.
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotFound means no .flow/ directory exists at or above the start folder.
var ErrNotFound = errors.New("no .flow/ directory found")

// Dir is the folder that holds .flow/.
type Dir string

// FlowDir is the project's .flow/ directory.
func (d Dir) FlowDir() string { return filepath.Join(string(d), ".flow") }

// ConfigPath is .flow/config.json.
func (d Dir) ConfigPath() string { return filepath.Join(string(d), ".flow", "config.json") }

// MemoryDir is .flow/memory/.
func (d Dir) MemoryDir() string { return filepath.Join(string(d), ".flow", "memory") }

// Find walks up from start to the first folder holding a .flow/ directory.
func Find(start string) (Dir, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("find project from %s: %w", start, err)
	}
	for dir := abs; ; {
		if fi, err := os.Stat(filepath.Join(dir, ".flow")); err == nil && fi.IsDir() {
			return Dir(dir), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w in %s or any parent; run 'flowmem init' in the project root", ErrNotFound, abs)
		}
		dir = parent
	}
}

// NewRoot is where a new .flow/ belongs for a command run in start: the top
// of the git work tree holding start (a folder with a .git directory, or
// the .git file of a worktree or submodule), since flow-next reads its
// config at `git rev-parse --show-toplevel`; start itself outside git.
func NewRoot(start string) (Dir, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("find project root from %s: %w", start, err)
	}
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return Dir(dir), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Dir(abs), nil
		}
		dir = parent
	}
}
