package hookevent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(name, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadRegular(name, 4); err != nil || got != "0123" {
		t.Errorf("ReadRegular = %q, %v; want the first 4 bytes", got, err)
	}
	if _, err := ReadRegular(dir, 4); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: err = %v", err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 4); err == nil {
		t.Error("missing file: no error")
	}
}
