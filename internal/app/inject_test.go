package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/insight"
)

// A recall counts as handed to a model (memory audit reads the record)
// only when its output goes where a model reads it: a pipe (the scout,
// the hooks, a Ralph loop's $(...)) or a file. Output on a character
// device, as a person's terminal is, is not noted.
func TestInjectionNotedOnlyForAHandOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "--enable"}, {"memory", "add", "--type", "pitfall", "--task", "fn-1.1", "Close errors on written files are dropped", "--fix", "check the error of Close"}} {
		if code, _, stderr := runIn(t, dir, args...); code != 0 {
			t.Fatalf("%v: %d %s", args, code, stderr)
		}
	}
	record := filepath.Join(dir, ".flow", "memory", insight.InjectFile)
	noted := func() int {
		b, err := os.ReadFile(record)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return strings.Count(string(b), "\n")
	}
	run := func(out *os.File, args ...string) {
		t.Helper()
		var errb bytes.Buffer
		code := Main(context.Background(), append([]string{"flowmem"}, args...), IO{
			Out: out, Err: &errb,
			Getenv: func(string) string { return "" },
			Getwd:  func() (string, error) { return dir, nil },
		})
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, errb.String())
		}
	}
	device, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer device.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	go func() { _, _ = bytes.NewBuffer(nil).ReadFrom(r) }()

	for _, args := range [][]string{{"memory", "read", "--relevant", "close errors written files"}, {"memory", "prime", "fn-2.1: check close errors on written files"}} {
		run(device, args...)
		if n := noted(); n != 0 {
			t.Fatalf("%v to a character device noted %d hand-overs", args, n)
		}
	}
	run(w, "memory", "read", "--relevant", "close errors written files")
	run(file, "memory", "prime", "fn-2.1: check close errors on written files")
	if n := noted(); n != 2 {
		t.Errorf("to a pipe and a file: %d hand-overs noted, want 2", n)
	}
}
