package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDisabledHookReadsItsEvent: with FLOWMEM_DISABLE=1 the hook (both
// flowmem-hook and flowmem hook) still reads the event Claude Code or
// Codex writes to its stdin before it exits. It exited at once, and a
// writer still writing an event larger than the pipe's buffer got EPIPE,
// which Codex shows as a failed hook on every tool call.
func TestDisabledHookReadsItsEvent(t *testing.T) {
	t.Parallel()
	// An ordinary tool call with a long output: over 64 KiB, a Linux
	// pipe's buffer, so the writer is still writing when a hook that
	// reads nothing exits.
	event := []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","cwd":"/tmp","tool_input":{"command":"cat big.log"},"tool_response":{"stdout":"` +
		strings.Repeat("build line ok ", 80_000) + `","stderr":""}}` + "\n")
	for _, argv := range [][]string{{filepath.Join(binDir, "flowmem-hook")}, {plain(), "hook"}} {
		t.Run(filepath.Base(argv[0]), func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir = t.TempDir()
			cmd.Env = processEnv("HOME="+t.TempDir(), "FLOWMEM_DISABLE=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			_, werr := in.Write(event)
			in.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v\n%s", err, out.String())
			}
			if werr != nil {
				t.Errorf("writing the event to the disabled hook: %v (it exited without reading stdin)", werr)
			}
			if out.Len() != 0 {
				t.Errorf("the disabled hook printed %q", out.String())
			}
		})
	}
}
