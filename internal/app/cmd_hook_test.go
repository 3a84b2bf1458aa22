package app

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestHookRecoversPanic: a panic inside the hook is one line on stderr and
// exit 0, not Go's crash exit 2 (which Claude Code shows the model).
func TestHookRecoversPanic(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	std := IO{
		In: strings.NewReader(`{}`), Out: &out, Err: &errOut,
		Getenv: func(string) string { panic("boom\nsecond line") },
	}
	code := Main(context.Background(), []string{"flowmem", "hook"}, std)
	if code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if got := errOut.String(); got != "flowmem hook: internal error: boom second line\n" {
		t.Errorf("stderr = %q", got)
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q", out.String())
	}
}

// TestCaptureExplainDoesNotWaitOnATerminal: capture --explain with no FILE
// and a character device (a terminal; /dev/null stands in for one) on
// stdin is a usage error at once, not a silent wait for typed text; "-"
// reads stdin as asked.
func TestCaptureExplainDoesNotWaitOnATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"capture", "--explain"}, 64, "flowmem capture: no review to read: name its FILE, or pipe it in"},
		{[]string{"capture", "--explain", "-"}, 0, ""},
	} {
		tty, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		code := Main(context.Background(), append([]string{"flowmem"}, tt.args...), IO{
			In: tty, Out: &out, Err: &errOut,
			Getenv: func(string) string { return "" },
			Getwd:  func() (string, error) { return dir, nil },
		})
		tty.Close()
		if code != tt.code || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut.String(), tt.code, tt.want)
		}
		if tt.code == 0 && !strings.Contains(out.String(), "verdict: none found") {
			t.Errorf("%v: stdout %q", tt.args, out.String())
		}
	}
}
