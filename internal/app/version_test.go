package app

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/flowmem/flowmem"
)

// TestVersionReportsRelease: --version and doctor name the release in
// VERSION (never a placeholder such as "dev").
func TestVersionReportsRelease(t *testing.T) {
	t.Parallel()
	std, out, _ := testIO(t.TempDir())
	if code := Main(context.Background(), []string{"flowmem", "--version"}, std); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got, want := strings.TrimSpace(out.String()), "flowmem version "+flowmem.Version; !strings.HasPrefix(got, want) {
		t.Errorf("--version = %q, want it to start with %q", got, want)
	}
	if strings.Contains(out.String(), "dev") {
		t.Errorf("--version = %q names no release", out)
	}

	std, out, _ = testIO(t.TempDir())
	Main(context.Background(), []string{"flowmem", "doctor"}, std)
	if !regexp.MustCompile(`(?m)^ok +version +flowmem ` + regexp.QuoteMeta(flowmem.Version)).MatchString(out.String()) {
		t.Errorf("doctor does not report the version:\n%s", out)
	}
}
