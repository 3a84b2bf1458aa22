// Package gittest runs real git for the tests that check what a team's
// union merges do to memory. Tests only.
package gittest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Run runs git in dir and fails the test on an error. Author and
// committer are fixed and the user's and system's configuration are not
// read, so a developer's git settings cannot change what a test sees.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
