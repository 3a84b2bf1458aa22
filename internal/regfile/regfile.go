// Package regfile opens and reads files whose path flowmem does not control
// (a project's .flow/, .claude/settings.json, a path in a hook payload) as
// regular files only. A FIFO there would block an open or a read forever, a
// device such as /dev/zero would feed a read without end until the runtime
// dies of it with exit code 2, which Claude Code reads from a hook as
// "block". Every such open goes through Open: it does not block, and the
// type is checked on the opened file, so a swap between a check and the
// open changes nothing.
package regfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/flowmem/flowmem/internal/atomicfile"
)

// MaxText bounds files people edit and flowmem reads whole (settings,
// .gitattributes, agent files): far beyond any real one, far below what
// would hurt.
const MaxText = 8 << 20

// ErrNotRegular is the error for a FIFO, socket, device or folder.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error for a file over the size a reader allows.
var ErrTooLarge = errors.New("file too large")

// Open opens path with flag (os.O_RDONLY, os.O_WRONLY|os.O_APPEND|…) and
// perm like os.OpenFile, without blocking, and only if it is a regular
// file (a symlink to one is fine).
func Open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is %s: %w", path, kind(fi.Mode()), ErrNotRegular)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Read reads a regular file of at most max bytes; a larger one is an
// ErrTooLarge error, not a truncated read. A missing file is an error
// wrapping fs.ErrNotExist.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// Sized from the file, as os.ReadFile does: growing a buffer from
	// nothing costs a large memory file several copies. It may grow while
	// it is read (a hook appending).
	var b bytes.Buffer
	if fi.Size() <= max {
		b.Grow(int(fi.Size()) + bytes.MinRead)
		_, err = b.ReadFrom(io.LimitReader(f, max+1))
	}
	if err != nil {
		return nil, err
	}
	if fi.Size() > max || int64(b.Len()) > max {
		return nil, fmt.Errorf("%s is over %d bytes: %w", path, max, ErrTooLarge)
	}
	return b.Bytes(), nil
}

// maxLines bounds the files EnsureLine edits (.gitignore, .gitattributes).
const maxLines = 1 << 20

// EnsureLine appends line to the file at path, preceded by comment lines
// when comment is not empty, unless a line equal to it (spaces around it
// aside) is already there; it creates the file if missing. added says
// whether it wrote. A link must lead to a file of path's own name: a
// repository can commit .gitattributes as a link to a shell profile, and
// the line would land there.
func EnsureLine(path, line, comment string) (added bool, err error) {
	if _, err := atomicfile.SameName(path, "a "+filepath.Base(path)+" file"); err != nil {
		return false, err
	}
	b, err := Read(path, maxLines)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == line {
			return false, nil
		}
	}
	f, err := Open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return false, err
	}
	var add strings.Builder
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		add.WriteByte('\n')
	}
	if comment != "" {
		for _, c := range strings.Split(comment, "\n") {
			add.WriteString("# " + c + "\n")
		}
	}
	add.WriteString(line + "\n")
	if _, err := f.WriteString(add.String()); err != nil {
		f.Close()
		return false, err
	}
	return true, f.Close()
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file (" + m.Type().String() + ")"
}
