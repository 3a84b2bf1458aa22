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

// ReadPersisted reads the file Claude Code saved a long output to
// (persistedOutputPath): a regular file only, at most limit bytes. The path
// comes from the payload, so it is opened without blocking — a FIFO or a
// device there would otherwise hang the hook or feed it without end.
func ReadPersisted(name string, limit int64) (string, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", fmt.Errorf("read persisted output: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("read persisted output: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("read persisted output: %s is not a regular file", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return "", fmt.Errorf("read persisted output: %w", err)
	}
	return string(b), nil
}
