//go:build unix

package hookevent

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRegularFIFO: a FIFO with no writer would block a plain open
// for ever; it is refused at once.
func TestReadRegularFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := ReadRegular(fifo, 4); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("FIFO: err = %v", err)
	}
}
