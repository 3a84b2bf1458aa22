package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHookRecoversPanic: a panic inside the hook is one line on stderr and
// exit 0, not Go's crash exit 2 (which Claude Code shows the model).
func TestHookRecoversPanic(t *testing.T) {
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
