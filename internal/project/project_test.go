package project

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(deep); !errors.Is(err, ErrNotFound) {
		t.Fatalf("without .flow: %v", err)
	}
	if err := os.Mkdir(filepath.Join(root, "a", ".flow"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Find(deep)
	if err != nil || string(got) != filepath.Join(root, "a") {
		t.Fatalf("Find = %q, %v", got, err)
	}
	if got.MemoryDir() != filepath.Join(root, "a", ".flow", "memory") || got.ConfigPath() != filepath.Join(root, "a", ".flow", "config.json") {
		t.Errorf("paths: %s %s", got.MemoryDir(), got.ConfigPath())
	}
	// A file named .flow is not a project.
	other := filepath.Join(root, "x")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, ".flow"), nil, 0o644)
	if _, err := Find(other); !errors.Is(err, ErrNotFound) {
		t.Errorf(".flow file accepted: %v", err)
	}
}
