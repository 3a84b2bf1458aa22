package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// gitIn runs git in dir, with no user or system configuration, and fails
// the test on an error.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// flowmemIn runs flowmem in dir; a non-zero exit fails the test.
func flowmemIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	std, out, errb := testIO(dir)
	if code := Main(context.Background(), append([]string{"flowmem"}, args...), std); code != 0 {
		t.Fatalf("flowmem %s: exit %d\n%s", strings.Join(args, " "), code, errb)
	}
	return out.String()
}

// TestUnionMergedCopies: two clones capture the same lesson for different
// tasks and one pulls the other. git's union merge (the attribute init
// installs) keeps the lines the two copies share once, so the first copy
// is left a heading and a metadata line and the second holds the text.
// Every reader then shows what mdstore folds the copies into (show says
// seen 2, both tasks): one lesson, its text, seen 2, both tasks; none an
// empty lesson or one copy's count.
func TestUnionMergedCopies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	const (
		issue   = "Retry loops in the webhook sender ignore the context deadline"
		fix     = "check ctx.Err before each retry"
		context = "pkg/webhook/sender.go"
	)
	root := t.TempDir()
	origin := filepath.Join(root, "origin")
	gitIn(t, root, "init", "-q", "-b", "main", origin)
	flowmemIn(t, origin, "init", "--enable")
	gitIn(t, origin, "add", "-A")
	gitIn(t, origin, "commit", "-qm", "init")
	var clones []string
	for _, task := range []string{"fn-5.5", "fn-3.1"} {
		dir := filepath.Join(root, task)
		gitIn(t, root, "clone", "-q", origin, dir)
		flowmemIn(t, dir, "memory", "add", "--type", "pitfall", issue, "--fix", fix, "--context", context, "--task", task)
		// A lesson only this clone has, so the listing has more than one.
		flowmemIn(t, dir, "memory", "add", "--type", "pitfall", "Cache keys in "+task+" leave out the tenant", "--task", task)
		gitIn(t, dir, "commit", "-qam", task)
		clones = append(clones, dir)
	}
	dir := clones[1]
	gitIn(t, dir, "pull", "-q", "--no-rebase", "--no-edit", clones[0], "main")

	raw, err := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(raw), "**Issue**: "+issue) != 1 || strings.Count(string(raw), "[pitfall] <!-- ") != 4 {
		t.Fatalf("the merge did not leave the copies this test is about:\n%s", raw)
	}
	entries, err := mdstore.Open(filepath.Join(dir, ".flow", "memory")).Load(mdstore.Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(entries, func(e mdstore.Entry) bool { return e.Issue == issue })
	if i < 0 || len(entries) != 3 {
		t.Fatalf("mdstore reads %d entries: %+v", len(entries), entries)
	}
	want := entries[i]
	if want.Seen != 2 || len(want.Tasks) != 2 || want.Fix != fix || want.Context != context {
		t.Fatalf("mdstore folds the copies into %+v", want)
	}
	lesson := "- [pitfall] " + issue + " → " + fix + "\n"
	meta := fmt.Sprintf("  context: %s · %s · seen 2x, last %s", context, strings.Join(want.Tasks, ", "), want.LastSeen)

	for _, args := range [][]string{
		{"memory", "read"},
		{"memory", "read", "--type", "pitfall"},
		{"memory", "read", "--relevant", "webhook sender retries past the context deadline"},
		{"memory", "read", "-r", "webhook retry loop", "-r", "context deadline"},
		{"memory", "prime", "fn-7.1: stop webhook retries at the context deadline"},
		{"memory", "prime"},
	} {
		out := flowmemIn(t, dir, args...)
		if strings.Count(out, lesson+meta) != 1 || strings.Count(out, issue) != 1 || strings.Contains(out, "] \n") {
			t.Errorf("flowmem %s shows:\n%s\nwant the lesson once as\n%s%s", strings.Join(args, " "), out, lesson, meta)
		}
	}

	var res struct {
		Entries []mdstore.Entry `json:"entries"`
	}
	out := flowmemIn(t, dir, "memory", "read", "-r", "webhook sender retries context deadline", "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Entries) != 1 {
		t.Fatalf("read -r --json gives %d entries:\n%s", len(res.Entries), out)
	}
	got := res.Entries[0]
	if got.ID != want.ID || got.Issue != issue || got.Seen != 2 || !slices.Equal(got.Tasks, want.Tasks) || got.LastSeen != want.LastSeen || got.Date != want.Date {
		t.Errorf("read -r --json gives %+v\nmdstore reads %+v", got, want)
	}
	if out := flowmemIn(t, dir, "memory", "show", want.ID); !strings.Contains(out, "Seen:     2 times") {
		t.Errorf("memory show:\n%s", out)
	}
}
