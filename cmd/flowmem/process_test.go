package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/app"
	"github.com/flowmem/flowmem/internal/gittest"
	"github.com/flowmem/flowmem/internal/mdstore"
)

// flowmem runs the CLI as a separate process in dir: exe is plain() or
// raced().
func flowmem(t *testing.T, exe, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = processEnv("HOME=" + t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("flowmem %s: %w: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

func mustFlowmem(t *testing.T, exe, dir string, args ...string) string {
	t.Helper()
	out, err := flowmem(t, exe, dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reader runs a command that only reads memory inside this test process,
// as flowmem would in dir with the environment flowmem gives a process.
// The union tests ask every reader about each merge, more than a thousand
// questions; a process apiece was most of their time, and what a reader
// says does not depend on its being a process.
func reader(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	home := t.TempDir()
	var out, errb bytes.Buffer
	std := app.IO{
		In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return os.Getenv(k)
		},
		Getwd: func() (string, error) { return dir, nil },
		Now:   time.Now,
		Exe:   func() (string, error) { return plain(), nil },
	}
	// Runs of app.Main share nothing (app's TestMainRunsSideBySide), so
	// the parallel tests ask their readers at once.
	code := app.Main(context.Background(), append([]string{"flowmem"}, args...), std)
	if code != 0 {
		return out.String(), fmt.Errorf("flowmem %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String(), nil
}

func mustRead(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := reader(t, dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConcurrentConfigSet: settings set at once by several processes
// are all kept; none overwrites another's with the file it read before.
func TestConcurrentConfigSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustFlowmem(t, plain(), dir, "init", "--enable")
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := flowmem(t, plain(), dir, "config", "set", fmt.Sprintf("team.k%d", i), fmt.Sprint(i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	raw, err := os.ReadFile(filepath.Join(dir, ".flow", "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Memory struct{ Enabled bool }
		Team   map[string]int
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Team) != n || !cfg.Memory.Enabled {
		t.Errorf("kept %d of %d settings (memory.enabled %v):\n%s", len(cfg.Team), n, cfg.Memory.Enabled, raw)
	}
}

// TestConcurrentAdd: 50 processes adding at once to one file must leave 50
// well-formed entries: nothing lost, nothing interleaved.
func TestConcurrentAdd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustFlowmem(t, raced(), dir, "init", "--enable")
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := flowmem(t, raced(), dir, "memory", "add", "--type", "pitfall",
				fmt.Sprintf("lesson number %d about a distinct concurrency topic %s", i, strings.Repeat("x", i)),
				"--fix", fmt.Sprintf("fix %d", i), "--task", fmt.Sprintf("fn-%d.1", i))
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := mdstore.Parse(mdstore.Pitfall, raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Entries) != n {
		t.Fatalf("got %d entries, want %d", len(doc.Entries), n)
	}
	seen := map[string]bool{}
	for _, e := range doc.Entries {
		if e.Legacy || !strings.HasPrefix(e.Issue, "lesson number ") || !strings.HasPrefix(e.Fix, "fix ") || len(e.Tasks) != 1 {
			t.Errorf("malformed entry at line %d: %+v", e.Line, e)
		}
		seen[e.ID] = true
	}
	if len(seen) != n {
		t.Errorf("got %d distinct ids, want %d", len(seen), n)
	}
	var list struct{ Total int }
	if err := json.Unmarshal([]byte(mustFlowmem(t, raced(), dir, "memory", "list", "--json")), &list); err != nil || list.Total != n {
		t.Errorf("memory list total = %d (%v), want %d", list.Total, err, n)
	}
}

// TestGitUnionMerge: two branches each add entries and each bump the same
// entry; a merge with the union driver from .gitattributes keeps everything,
// conflicts on nothing, and readers fold the doubled entry into one.
func TestGitUnionMerge(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for this test")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		return gittest.Run(t, dir, args...)
	}
	add := func(text, task string) {
		mustFlowmem(t, plain(), dir, "memory", "add", "--type", "pitfall", text, "--fix", "fix for: "+text, "--task", task)
	}
	git("init", "-q", "-b", "main")
	mustFlowmem(t, plain(), dir, "init", "--enable")
	add("shared lesson about retries", "fn-1.1")
	git("add", "-A")
	git("commit", "-q", "-m", "base")

	git("checkout", "-q", "-b", "a")
	add("lesson only on branch a", "fn-2.1")
	add("shared lesson about retries", "fn-2.2")
	add("lesson found on both branches", "fn-2.3")
	git("commit", "-q", "-am", "a")

	git("checkout", "-q", "main")
	add("lesson only on main", "fn-3.1")
	add("shared lesson about retries", "fn-3.2")
	add("lesson found on both branches", "fn-3.3")
	git("commit", "-q", "-am", "main")

	out := git("merge", "--no-edit", "a")
	if strings.Contains(out, "CONFLICT") {
		t.Fatalf("merge conflicted:\n%s", out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, ".flow", "memory", "pitfalls.md"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("<<<<<<<")) {
		t.Fatalf("conflict markers in merged file:\n%s", raw)
	}
	var read struct {
		Entries []mdstore.Entry
	}
	if err := json.Unmarshal([]byte(mustFlowmem(t, plain(), dir, "memory", "read", "--json")), &read); err != nil {
		t.Fatal(err)
	}
	byIssue := map[string]mdstore.Entry{}
	for _, e := range read.Entries {
		if e.Fix != "fix for: "+e.Issue {
			t.Errorf("entry %s lost its fix in the merge: %+v", e.ID, e)
		}
		if _, dup := byIssue[e.Issue]; dup {
			t.Errorf("entry %q listed twice", e.Issue)
		}
		byIssue[e.Issue] = e
	}
	for _, want := range []string{"shared lesson about retries", "lesson only on branch a", "lesson only on main", "lesson found on both branches"} {
		if _, ok := byIssue[want]; !ok {
			t.Errorf("entry %q missing after merge:\n%s", want, raw)
		}
	}
	shared := byIssue["shared lesson about retries"]
	if shared.Seen != 3 {
		t.Errorf("shared entry seen %d times, want 3 (base + one bump per branch)", shared.Seen)
	}
	for _, task := range []string{"fn-1.1", "fn-2.2", "fn-3.2"} {
		if !strings.Contains(strings.Join(shared.Tasks, ","), task) {
			t.Errorf("shared entry lost task %s: %v", task, shared.Tasks)
		}
	}
	for _, h := range []string{" fn-2.3 manual [pitfall]", " fn-3.3 manual [pitfall]"} {
		if !bytes.Contains(raw, []byte(h)) {
			t.Errorf("the lesson added on both branches lost its record from one branch (%q)", h)
		}
	}
	doubled := byIssue["lesson found on both branches"]
	if doubled.Seen != 2 || len(doubled.Tasks) != 2 {
		t.Errorf("doubled entry folded to seen=%d tasks=%v, want seen=2 with both tasks", doubled.Seen, doubled.Tasks)
	}
	var list struct{ Total int }
	if err := json.Unmarshal([]byte(mustFlowmem(t, plain(), dir, "memory", "list", "--json")), &list); err != nil || list.Total != 4 {
		t.Errorf("memory list total = %d (%v), want 4", list.Total, err)
	}
	// A later recurrence still lands on the folded entry.
	add("shared lesson about retries", "fn-4.1")
	if err := json.Unmarshal([]byte(mustFlowmem(t, plain(), dir, "memory", "read", "--json")), &read); err != nil {
		t.Fatal(err)
	}
	for _, e := range read.Entries {
		if e.Issue == "shared lesson about retries" && e.Seen != 4 {
			t.Errorf("after one more sighting seen = %d, want 4", e.Seen)
		}
	}
}
