//go:build unix

package hookfront

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHungFlowmemIsStopped: a child that overruns is killed, and nothing
// is left running.
func TestHungFlowmemIsStopped(t *testing.T) {
	r := runFront(t, bytes.NewReader(payload(t, "bash_review")), map[string]string{"FAKE_FLOWMEM_SLEEP": "1"},
		Options{RunTimeout: 500 * time.Millisecond})
	if r.code != 0 || !strings.Contains(r.stderr, "was stopped") {
		t.Fatalf("%+v", r)
	}
	pidFile := os.Getenv("FAKE_FLOWMEM_OUT") + ".pid"
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("stand-in never started: %v", err)
	}
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, 0); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("child %d still running after the front end returned", pid)
	}
}
