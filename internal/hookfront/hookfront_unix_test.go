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
	// The stand-in writes its pid once it runs; on a loaded machine it may
	// not have started before a short timeout, so the timeout grows until
	// it has (no assertion on how long anything takes).
	for timeout := 500 * time.Millisecond; ; timeout *= 4 {
		r := runFront(t, bytes.NewReader(payload(t, "bash_review")), map[string]string{"FAKE_FLOWMEM_SLEEP": "1"},
			Options{RunTimeout: timeout})
		if r.code != 0 || !strings.Contains(r.stderr, "was stopped") {
			t.Fatalf("%+v", r)
		}
		b, err := os.ReadFile(os.Getenv("FAKE_FLOWMEM_OUT") + ".pid")
		if err != nil && timeout < 30*time.Second {
			continue
		}
		if err != nil {
			t.Fatalf("stand-in never started: %v", err)
		}
		pid, _ := strconv.Atoi(string(b))
		if err := syscall.Kill(pid, 0); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("child %d still running after the front end returned", pid)
		}
		return
	}
}
