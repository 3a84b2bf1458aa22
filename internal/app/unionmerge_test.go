package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/gittest"
	"github.com/flowmem/flowmem/internal/mdstore"
)

var gitIn = gittest.Run

// flowmemIn runs flowmem in dir; a non-zero exit fails the test.
func flowmemIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	std, out, errb := testIO(dir)
	if code := Main(context.Background(), append([]string{"flowmem"}, args...), std); code != 0 {
		t.Fatalf("flowmem %s: exit %d\n%s", strings.Join(args, " "), code, errb)
	}
	return out.String()
}

// hookIn runs flowmem hook in dir with payload on stdin.
func hookIn(t *testing.T, dir string, payload []byte) {
	t.Helper()
	std, _, errb := testIO(dir)
	std.In = bytes.NewReader(payload)
	std.Getenv = func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return dir
		}
		return ""
	}
	if code := Main(context.Background(), []string{"flowmem", "hook"}, std); code != 0 || errb.Len() > 0 {
		t.Fatalf("flowmem hook: exit %d\n%s", code, errb)
	}
}

// TestUnionMergedCopies: two clones capture the same lessons for different
// tasks (memory add, or the hook given one review run for each task) and
// one pulls the other. git's union merge (the attribute init installs)
// keeps the lines the two copies of a lesson share once, so the first copy
// is left a heading and a metadata line and the second holds the text.
// Every reader then shows what mdstore folds the copies into (show says
// seen 2, both tasks): each lesson once, its text, seen 2, both tasks; none
// an empty lesson or one copy's count.
func TestUnionMergedCopies(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	review, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "payloads", "bash_review.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []string{"memory add", "hook"} {
		t.Run(by, func(t *testing.T) {
			t.Parallel()
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
				if by == "hook" {
					hookIn(t, dir, bytes.ReplaceAll(review, []byte("fn-1.2"), []byte(task)))
				} else {
					flowmemIn(t, dir, "memory", "add", "--type", "pitfall", "Retry loops in the webhook sender ignore the context deadline",
						"--fix", "check ctx.Err before each retry", "--context", "pkg/webhook/sender.go", "--task", task)
				}
				// A lesson only this clone has.
				flowmemIn(t, dir, "memory", "add", "--type", "pitfall", "Cache keys in "+task+" leave out the tenant", "--task", task)
				gitIn(t, dir, "add", "-A")
				gitIn(t, dir, "commit", "-qm", task)
				clones = append(clones, dir)
			}
			dir := clones[1]
			gitIn(t, dir, "pull", "-q", "--no-rebase", "--no-edit", clones[0], "main")

			entries, err := mdstore.Open(filepath.Join(dir, ".flow", "memory")).Load(mdstore.Pitfall)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
			if err != nil {
				t.Fatal(err)
			}
			var twice []mdstore.Entry
			for _, e := range entries {
				if strings.Count(string(raw), "**Issue**: "+e.Issue+"\n") == 1 && strings.Count(string(raw), "id="+e.ID+" ") == 2 {
					twice = append(twice, e)
				}
			}
			// The merge left every shared lesson as copies, which mdstore
			// folds: seen 2, both tasks.
			if len(twice) == 0 || len(twice) != len(entries)-2 {
				t.Fatalf("the merge did not leave the copies this test is about (%d of %d entries):\n%s", len(twice), len(entries), raw)
			}
			for _, e := range twice {
				if e.Seen != 2 || len(e.Tasks) != 2 {
					t.Fatalf("mdstore folds the copies into %+v", e)
				}
			}
			for _, tc := range []struct {
				args []string
				all  bool // lists every lesson (else: finds the first)
			}{
				{[]string{"memory", "read"}, true},
				{[]string{"memory", "read", "--type", "pitfall"}, true},
				{[]string{"memory", "read", "--limit", "30", "--relevant", words(twice[0].Issue)}, false},
				{[]string{"memory", "read", "--limit", "30", "-r", words(twice[0].Issue), "-r", words(twice[len(twice)-1].Fix)}, false},
				{[]string{"memory", "prime", "fn-7.1: " + words(twice[0].Issue)}, false},
				{[]string{"memory", "prime"}, true},
			} {
				args := tc.args
				out := flowmemIn(t, dir, args...)
				if strings.Contains(out, "] \n") {
					t.Errorf("flowmem %s shows an empty lesson:\n%s", strings.Join(args, " "), out)
				}
				for i, e := range twice {
					if i > 0 && !tc.all {
						break
					}
					meta := fmt.Sprintf(" · %s · seen 2x, last %s", strings.Join(e.Tasks, ", "), e.LastSeen)
					if strings.Count(out, e.Issue) != 1 || !strings.Contains(out, meta) {
						t.Errorf("flowmem %s shows:\n%s\nwant %q once, with %q", strings.Join(args, " "), out, e.Issue, meta)
					}
				}
			}

			want := twice[0]
			var res struct {
				Entries []mdstore.Entry `json:"entries"`
			}
			out := flowmemIn(t, dir, "memory", "read", "-r", words(want.Issue), "--json")
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(res.Entries, func(e mdstore.Entry) bool { return e.ID == want.ID })
			if i < 0 {
				t.Fatalf("read -r --json does not find %s:\n%s", want.ID, out)
			}
			if got := res.Entries[i]; got.Issue != want.Issue || got.Fix != want.Fix || got.Context != want.Context || got.Seen != 2 ||
				!slices.Equal(got.Tasks, want.Tasks) || got.LastSeen != want.LastSeen || got.Date != want.Date {
				t.Errorf("read -r --json gives %+v\nmdstore reads %+v", got, want)
			}
			if out := flowmemIn(t, dir, "memory", "show", want.ID); !strings.Contains(out, "Seen:     2 times") {
				t.Errorf("memory show:\n%s", out)
			}
		})
	}
}

// words is a request made of s's words, without its punctuation.
func words(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}), " ")
}
