package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocalSettingsStayOutOfGit: install --local writes this machine's
// absolute hook path; `git add -A` (a Ralph loop's per-task commit) must not
// share it, in a clone's root or a project folder inside one, and uninstall
// --local leaves the clone's exclude file as it found it.
func TestLocalSettingsStayOutOfGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, sub := range []string{"", "app"} {
		t.Run("sub="+sub, func(t *testing.T) {
			root := t.TempDir()
			git(t, root, "init", "-q")
			exclude := filepath.Join(root, ".git", "info", "exclude")
			orig, _ := os.ReadFile(exclude)
			proj := filepath.Join(root, sub)
			if err := os.MkdirAll(proj, 0o755); err != nil {
				t.Fatal(err)
			}
			opts := Options{Scope: Local, Project: proj, Command: "/home/me/go/bin/flowmem-hook"}
			res, err := Run(opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Ignore == nil || !res.Ignore.Changed() || res.Ignore.Path != exclude {
				t.Fatalf("Ignore = %+v, want %s written", res.Ignore, exclude)
			}
			git(t, root, "add", "-A")
			if staged := git(t, root, "diff", "--cached", "--name-only"); strings.Contains(staged, "settings.local.json") || !strings.Contains(staged, "memory-scout.md") {
				t.Errorf("git add -A staged:\n%s", staged)
			}
			// Again: already ignored, the exclude file is not touched.
			before, _ := os.ReadFile(exclude)
			if res, err = Run(opts); err != nil || res.Ignore != nil {
				t.Errorf("second install: Ignore = %+v, err %v", res.Ignore, err)
			}
			if after, _ := os.ReadFile(exclude); string(after) != string(before) {
				t.Errorf("second install changed the exclude file:\n%s", after)
			}
			if res, err = Uninstall(opts); err != nil || res.Ignore == nil {
				t.Fatalf("uninstall: Ignore = %+v, err %v", res.Ignore, err)
			}
			if after, _ := os.ReadFile(exclude); string(after) != string(orig) {
				t.Errorf("uninstall left the exclude file as\n%s\nwant\n%s", after, orig)
			}
		})
	}
	t.Run("gitignore has it", func(t *testing.T) {
		root := t.TempDir()
		git(t, root, "init", "-q")
		exclude := filepath.Join(root, ".git", "info", "exclude")
		orig, _ := os.ReadFile(exclude)
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(".claude/*.local.json\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Run(Options{Scope: Local, Project: root, Command: "/x/flowmem-hook"})
		if err != nil || res.Ignore != nil {
			t.Errorf("Ignore = %+v, err %v; want nothing done", res.Ignore, err)
		}
		if after, _ := os.ReadFile(exclude); string(after) != string(orig) {
			t.Errorf("exclude file changed:\n%s", after)
		}
	})
	t.Run("already committed", func(t *testing.T) {
		root := t.TempDir()
		git(t, root, "init", "-q")
		p := filepath.Join(root, ".claude", "settings.local.json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, root, "add", "-A")
		git(t, root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "local settings")
		res, err := Run(Options{Scope: Local, Project: root, Command: "/x/flowmem-hook"})
		if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "git rm --cached .claude/settings.local.json") {
			t.Errorf("Warnings = %q, err %v; want the fix for a committed file", res.Warnings, err)
		}
		// The fix as printed is enough: once untracked, git ignores it.
		git(t, root, "rm", "-q", "--cached", ".claude/settings.local.json")
		if st := git(t, root, "status", "--porcelain", "--untracked-files=all"); strings.Contains(st, "?? .claude/settings.local.json") {
			t.Errorf("after git rm --cached, git status shows it untracked:\n%s", st)
		}
	})
	t.Run("not a git work tree", func(t *testing.T) {
		t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
		res, err := Run(Options{Scope: Local, Project: t.TempDir(), Command: "/x/flowmem-hook"})
		if err != nil || res.Ignore != nil {
			t.Errorf("Ignore = %+v, err %v; want nothing done", res.Ignore, err)
		}
	})
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
