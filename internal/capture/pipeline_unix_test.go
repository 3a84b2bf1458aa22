//go:build unix

package capture

import (
	"encoding/json"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPersistedOutputFIFO: a persistedOutputPath that is a FIFO with no
// writer would block a plain open for ever; the hook reads only regular
// files and carries on with the preview.
func TestPersistedOutputFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(fixture(t, "bash_persisted_preview"), &m); err != nil {
		t.Fatal(err)
	}
	m["tool_response"].(map[string]any)["persistedOutputPath"] = fifo
	p, _ := json.Marshal(m)
	res, err := handle(t, newProject(t, true), p)
	if err != nil || res.Recorded() {
		t.Fatalf("res %+v err %v", res, err)
	}
}
