package hookevent

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxPersisted bounds how much of a persisted output the hook reads: the
// findings of a review sit in its first megabytes, and the screen and the
// reader stay linear in what is read.
const MaxPersisted = 8 << 20

// ReadRegular reads a file such as the one Claude Code saved a long output
// to (persistedOutputPath): a regular file only, at most limit bytes. The
// path comes from outside, so it is opened without blocking — a FIFO or a
// device there would otherwise hang the hook or feed it without end.
func ReadRegular(name string, limit int64) (string, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return "", err
	}
	return string(b), nil
}
