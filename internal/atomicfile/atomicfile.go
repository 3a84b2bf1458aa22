// Package atomicfile replaces files so that readers and crashes only ever see
// the old content or the new, never a torn or empty file.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data: a temp file in the same folder, fsync, then
// rename. Without the fsync a crash after rename can leave a 0-byte file.
// A path that is a symbolic link is replaced at its target, so the link
// (a file shared between projects) stays.
func Write(path string, data []byte, perm os.FileMode) error {
	path, err := Resolve(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temp file: %w", err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// SameName is Resolve(path) for a file flowmem appends to or rewrites
// whose path a repository controls (the memory files, .gitattributes, the
// agent files): the chain of links must end in a file of path's own name
// (one shared by several projects or kept with dotfiles). A link anywhere
// else is refused, what naming the kind of file expected ("a memory
// file"): a repository can commit .flow/memory/pitfalls.md as a link to
// ~/.bashrc, and every review appended there would run its backticks in
// the next shell.
func SameName(path, what string) (string, error) {
	dest, err := Resolve(path)
	if err != nil {
		return "", err
	}
	if filepath.Base(dest) != filepath.Base(path) {
		return "", fmt.Errorf("%s links to %s, which is not %s (a link must lead to a file named %s); nothing was written", path, dest, what, filepath.Base(path))
	}
	return dest, nil
}

// Resolve follows path while it is a symbolic link and returns where the
// chain ends (which need not exist yet).
func Resolve(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// syncDir makes the rename itself durable; best effort, as some platforms
// cannot fsync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
