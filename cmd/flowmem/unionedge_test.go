package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// teamRepo is a bare origin and a base commit of pitfalls.md holding W
// (seen twice, its sighting after it) and then X, the file's last entry,
// with no sighting after it. status is X's status.
type teamRepo struct {
	root, origin string
	w, x         string
}

const (
	edgeW = "Retries hammer the upstream without backoff"
	edgeX = "The cache key ignores the tenant id"
	edgeY = "Temp files are left behind on a failed upload"
)

func newTeamRepo(t *testing.T, status mdstore.Status) *teamRepo {
	t.Helper()
	tpl := teamTemplate(t, status)
	r := &teamRepo{root: t.TempDir(), w: tpl.w, x: tpl.x}
	r.origin = filepath.Join(r.root, "origin")
	if err := os.CopyFS(r.origin, os.DirFS(tpl.origin)); err != nil {
		t.Fatal(err)
	}
	return r
}

// teamTemplates holds one origin per status of X, made once per test run:
// sixty-odd scenarios start from the same base commit, and making it took
// each of them six git and flowmem processes.
var teamTemplates struct {
	sync.Mutex
	m map[mdstore.Status]*teamRepo
}

// teamTemplate makes (once) the origin of newTeamRepo for status, in its
// own folder; newTeamRepo copies it.
func teamTemplate(t *testing.T, status mdstore.Status) *teamRepo {
	t.Helper()
	teamTemplates.Lock()
	defer teamTemplates.Unlock()
	if r, ok := teamTemplates.m[status]; ok {
		return r
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for this test")
	}
	root, err := os.MkdirTemp(tmpRoot, "team-")
	if err != nil {
		t.Fatal(err)
	}
	r := &teamRepo{root: root}
	r.origin = filepath.Join(r.root, "origin")
	gitIn(t, r.root, "init", "-q", "--bare", "-b", "main", r.origin)
	base := filepath.Join(r.root, "base")
	gitIn(t, r.root, "clone", "-q", r.origin, base)
	mustFlowmem(t, plain(), base, "init", "--enable")
	s := mdstore.Open(filepath.Join(base, ".flow", "memory"))
	now := time.Now()
	rec := func(text, task string, status mdstore.Status) string {
		out, err := s.Record(context.Background(), mdstore.Pitfall, []mdstore.Entry{{Issue: text, Task: task, Source: "impl-review", Category: "api", Tasks: []string{task}, Status: status}}, now)
		if err != nil {
			t.Fatal(err)
		}
		return out[0].ID
	}
	r.w = rec(edgeW, "fn-2.1", mdstore.Active)
	rec(edgeW, "fn-2.2", "")
	r.x = rec(edgeX, "fn-1.1", status)
	gitIn(t, base, "add", "-A")
	gitIn(t, base, "commit", "-qm", "base")
	gitIn(t, base, "push", "-q", "origin", "main")
	if teamTemplates.m == nil {
		teamTemplates.m = map[mdstore.Status]*teamRepo{}
	}
	teamTemplates.m[status] = r
	return r
}

// clone is a teammate's clone of origin.
func (r *teamRepo) clone(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(r.root, name)
	gitIn(t, r.root, "clone", "-q", r.origin, dir)
	return dir
}

// join pushes first's commit and has second pull it, with a merge or a
// rebase, and fails on a conflict git reports: the union driver has none.
func join(t *testing.T, first, second, how string) {
	t.Helper()
	gitIn(t, first, "push", "-q", "origin", "main")
	mode := "--no-rebase"
	if how == "rebase" {
		mode = "--rebase"
	}
	if out := gitIn(t, second, "pull", "-q", mode, "--no-edit", "origin", "main"); strings.Contains(out, "CONFLICT") {
		t.Fatalf("pull conflicted:\n%s", out)
	}
}

// pullWays runs fn for both pull orders and both ways of joining.
func pullWays(t *testing.T, fn func(t *testing.T, alicePulls bool, how string)) {
	for _, order := range []string{"bob-pulls", "alice-pulls"} {
		for _, how := range []string{"merge", "rebase"} {
			t.Run(order+"/"+how, func(t *testing.T) {
				t.Parallel()
				fn(t, order == "alice-pulls", how)
			})
		}
	}
}

// TestUnionMergeForgetLast: Alice forgets X, the file's last entry, with
// no sighting after it, while Bob appends (a new lesson, or a sighting of
// W, which lands after X). git's union merge keeps both sides of two
// changes that touch, so Bob's side brought all of X's lines back and the
// forgotten lesson read as active again. Every reader must keep it
// forgotten, and W and Bob's lesson whole.
func TestUnionMergeForgetLast(t *testing.T) {
	t.Parallel()
	for _, bob := range []string{"lesson", "sighting"} {
		t.Run(bob, func(t *testing.T) {
			t.Parallel()
			pullWays(t, func(t *testing.T, alicePulls bool, how string) {
				r := newTeamRepo(t, mdstore.Active)
				alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
				mustFlowmem(t, plain(), alice, "memory", "forget", r.x)
				gitIn(t, alice, "commit", "-qam", "alice forgets X")
				wants := map[string]wantEntry{
					r.x: {gone: true},
					r.w: {text: edgeW, seen: 2, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2"}},
				}
				switch bob {
				case "lesson":
					mustFlowmem(t, plain(), bobDir, "memory", "add", "--type", "pitfall", edgeY, "--task", "fn-9.1")
					wants[""] = wantEntry{text: edgeY, seen: 1, status: mdstore.Active, tasks: []string{"fn-9.1"}}
				case "sighting":
					mustFlowmem(t, plain(), bobDir, "memory", "add", "--type", "pitfall", edgeW, "--task", "fn-9.1")
					wants[r.w] = wantEntry{text: edgeW, seen: 3, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2", "fn-9.1"}}
				}
				gitIn(t, bobDir, "commit", "-qam", "bob")
				first, second := alice, bobDir
				if alicePulls {
					first, second = bobDir, alice
				}
				join(t, first, second, how)
				checkReaders(t, second, wants)
				if t.Failed() {
					raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
					t.Logf("pitfalls.md after the pull:\n%s", raw)
				}
			})
		})
	}
}

// TestUnionMergeConflictingRewrites: Alice and Bob each rewrite X, the
// same entry, in different ways. Both change its metadata line, and git's
// union merge keeps both lines. A deliberate retire (forget, archive,
// reject, merge into another) wins over a change that keeps the lesson
// (approve, restore), whichever side pulls and however: readers used to
// take "active" on equal dates, so an archive came undone.
func TestUnionMergeConflictingRewrites(t *testing.T) {
	t.Parallel()
	xTasks, wTasks := []string{"fn-1.1"}, []string{"fn-2.1", "fn-2.2"}
	type pair struct {
		name       string
		base       mdstore.Status
		alice, bob func(x, w string) []string
		want       func(x, w string) (wantEntry, wantEntry) // X, W
	}
	archive := func(x, _ string) []string { return []string{"archive", x} }
	approve := func(x, _ string) []string { return []string{"approve", x} }
	keptW := wantEntry{text: edgeW, seen: 2, status: mdstore.Active, tasks: wTasks}
	pairs := []pair{
		{"archive-vs-approve", mdstore.Pending, archive, approve, func(string, string) (wantEntry, wantEntry) {
			return wantEntry{text: edgeX, seen: 1, status: mdstore.Archived, tasks: xTasks}, keptW
		}},
		{"reject-vs-approve", mdstore.Pending, func(x, _ string) []string { return []string{"reject", x} }, approve, func(string, string) (wantEntry, wantEntry) {
			return wantEntry{text: edgeX, seen: 1, status: mdstore.Archived, tasks: xTasks}, keptW
		}},
		{"forget-vs-approve", mdstore.Pending, func(x, _ string) []string { return []string{"forget", x} }, approve, func(string, string) (wantEntry, wantEntry) {
			return wantEntry{gone: true}, keptW
		}},
		{"forget-vs-archive", mdstore.Active, func(x, _ string) []string { return []string{"forget", x} }, archive, func(string, string) (wantEntry, wantEntry) {
			return wantEntry{gone: true}, keptW
		}},
		{"archive-vs-merge", mdstore.Active, archive, func(x, w string) []string { return []string{"merge", w, x, "--into", w} }, func(_, w string) (wantEntry, wantEntry) {
			return wantEntry{text: edgeX, seen: 1, status: mdstore.Archived, tasks: xTasks, mergedInto: w},
				wantEntry{text: edgeW, seen: 3, status: mdstore.Active, tasks: append(slices.Clone(xTasks), wTasks...)}
		}},
		{"restore-vs-forget", mdstore.Archived, func(x, _ string) []string { return []string{"restore", x} },
			func(x, _ string) []string { return []string{"forget", x} }, func(string, string) (wantEntry, wantEntry) {
				return wantEntry{gone: true}, keptW
			}},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			pullWays(t, func(t *testing.T, alicePulls bool, how string) {
				r := newTeamRepo(t, p.base)
				alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
				mustFlowmem(t, plain(), alice, append([]string{"memory"}, p.alice(r.x, r.w)...)...)
				gitIn(t, alice, "commit", "-qam", "alice")
				mustFlowmem(t, plain(), bobDir, append([]string{"memory"}, p.bob(r.x, r.w)...)...)
				gitIn(t, bobDir, "commit", "-qam", "bob")
				first, second := alice, bobDir
				if alicePulls {
					first, second = bobDir, alice
				}
				join(t, first, second, how)
				wx, ww := p.want(r.x, r.w)
				checkReaders(t, second, map[string]wantEntry{r.x: wx, r.w: ww})
				if t.Failed() {
					raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
					t.Logf("pitfalls.md after the pull:\n%s", raw)
				}
			})
		})
	}
}

// TestUnionMergeSameSighting: Alice and Bob each see X again on the same
// day for the same task. Their sighting lines were byte for byte the same,
// and git's union merge takes one addition that both sides made once: the
// merged memory counted X seen twice, not three times.
func TestUnionMergeSameSighting(t *testing.T) {
	t.Parallel()
	pullWays(t, func(t *testing.T, alicePulls bool, how string) {
		r := newTeamRepo(t, mdstore.Active)
		alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
		for _, dir := range []string{alice, bobDir} {
			mustFlowmem(t, plain(), dir, "memory", "add", "--type", "pitfall", edgeX, "--task", "fn-1.2")
			gitIn(t, dir, "commit", "-qam", "sighting")
		}
		first, second := alice, bobDir
		if alicePulls {
			first, second = bobDir, alice
		}
		join(t, first, second, how)
		checkReaders(t, second, map[string]wantEntry{
			r.x: {text: edgeX, seen: 3, status: mdstore.Active, tasks: []string{"fn-1.1", "fn-1.2"}},
			r.w: {text: edgeW, seen: 2, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2"}},
		})
		if t.Failed() {
			raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
			t.Logf("pitfalls.md after the pull:\n%s", raw)
		}
	})
}

// TestTornAppendStaysTorn: Alice's hook died half-way through an append
// (a crash, a full disk): the file ends in the middle of a line. Readers
// left that unfinished text out; her next capture began on a fresh line,
// and then the cut-off text read as complete: a lesson cut mid-sentence
// (entry), or a sighting cut off that became a line of text in W (W's
// lesson changed). It must stay left out for every reader, in her clone
// and in Bob's after either pulls, with doctor naming it, and nothing
// else lost: her next capture, W and X whole.
func TestTornAppendStaysTorn(t *testing.T) {
	t.Parallel()
	const zText = "Shell scripts quote every variable they expand"
	for _, torn := range []string{"entry", "sighting"} {
		t.Run(torn, func(t *testing.T) {
			t.Parallel()
			pullWays(t, func(t *testing.T, alicePulls bool, how string) {
				r := newTeamRepo(t, mdstore.Active)
				alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
				path := filepath.Join(alice, ".flow", "memory", "pitfalls.md")
				cut := "\n## 2026-03-01 fn-4.1 impl-review [api] <!-- p-0123456789ab -->\n" +
					"<!-- flowmem: id=p-0123456789ab fp=0123456789ab seen=1 last=2026-03-01 tasks=fn-4.1 status=active -->\n" +
					"**Issue**: Every request opens a new database conn"
				if torn == "sighting" {
					cut = "\n<!-- flowmem: seen id=" + r.w + " last=2026-03-01 tas"
				}
				f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				_, err = f.WriteString(cut)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatal(err)
				}
				mustFlowmem(t, plain(), alice, "memory", "add", "--type", "pitfall", zText, "--task", "fn-5.1")
				gitIn(t, alice, "commit", "-qam", "alice, after a crash")
				mustFlowmem(t, plain(), bobDir, "memory", "add", "--type", "pitfall", edgeX, "--task", "fn-9.1")
				gitIn(t, bobDir, "commit", "-qam", "bob")
				first, second := alice, bobDir
				if alicePulls {
					first, second = bobDir, alice
				}
				join(t, first, second, how)
				checkReaders(t, second, map[string]wantEntry{
					r.x: {text: edgeX, seen: 2, status: mdstore.Active, tasks: []string{"fn-1.1", "fn-9.1"}},
					r.w: {text: edgeW, seen: 2, status: mdstore.Active, tasks: []string{"fn-2.1", "fn-2.2"}},
					"":  {text: zText, seen: 1, status: mdstore.Active, tasks: []string{"fn-5.1"}},
				})
				out, _ := flowmem(t, plain(), second, "doctor")
				if !strings.Contains(out, "cut off") {
					t.Errorf("doctor does not name the torn append:\n%s", out)
				}
				if t.Failed() {
					raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
					t.Logf("pitfalls.md after the pull:\n%s", raw)
				}
			})
		})
	}
}

// TestUnionMergeForgetOnlyEntry: Alice forgets X, the file's only entry,
// never seen again, while Bob approves it. Nothing of X is left to hold
// the forget's mark but the file's header, and the merge may put the mark
// before X's lines come back: every reader must still honour it.
func TestUnionMergeForgetOnlyEntry(t *testing.T) {
	t.Parallel()
	pullWays(t, func(t *testing.T, alicePulls bool, how string) {
		root := t.TempDir()
		origin := filepath.Join(root, "origin")
		gitIn(t, root, "init", "-q", "--bare", "-b", "main", origin)
		base := filepath.Join(root, "base")
		gitIn(t, root, "clone", "-q", origin, base)
		mustFlowmem(t, plain(), base, "init", "--enable")
		s := mdstore.Open(filepath.Join(base, ".flow", "memory"))
		out, err := s.Record(context.Background(), mdstore.Pitfall, []mdstore.Entry{{Issue: edgeX, Task: "fn-1.1", Source: "impl-review", Tasks: []string{"fn-1.1"}, Status: mdstore.Pending}}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		x := out[0].ID
		gitIn(t, base, "add", "-A")
		gitIn(t, base, "commit", "-qm", "base")
		gitIn(t, base, "push", "-q", "origin", "main")
		r := &teamRepo{root: root, origin: origin}
		alice, bobDir := r.clone(t, "alice"), r.clone(t, "bob")
		mustFlowmem(t, plain(), alice, "memory", "forget", x)
		gitIn(t, alice, "commit", "-qam", "alice")
		mustFlowmem(t, plain(), bobDir, "memory", "approve", x)
		gitIn(t, bobDir, "commit", "-qam", "bob")
		first, second := alice, bobDir
		if alicePulls {
			first, second = bobDir, alice
		}
		join(t, first, second, how)
		checkReaders(t, second, map[string]wantEntry{x: {gone: true}})
		if t.Failed() {
			raw, _ := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
			t.Logf("pitfalls.md after the pull:\n%s", raw)
		}
	})
}
