package main

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
	"time"

	"github.com/flowmem/flowmem/internal/gittest"
	"github.com/flowmem/flowmem/internal/mdstore"
)

var gitIn = gittest.Run

// wantEntry is what every reader must say of one lesson after the merge.
type wantEntry struct {
	text       string
	seen       int
	status     mdstore.Status
	tasks      []string
	mergedInto string
	gone       bool // forgotten
}

// TestUnionMergeAfterRewrite: one clone rewrites pitfalls.md (archive,
// restore, approve, reject, forget, merge either way) while another
// appends to it (a new lesson, or a sighting of the rewritten entry), and
// one pulls the other with git's union merge, in either order. Every
// reader (memory show, list, read, read -r, stats) then counts each lesson
// as often as it was seen, with its tasks, status and text. A rewrite that
// folded an entry's sighting lines into its metadata and deleted them lost
// to the union: the other side's append after those lines brought them back
// and the entry was counted twice (seen 3 read as 5), and a forgotten entry
// came back whole.
func TestUnionMergeAfterRewrite(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for this test")
	}
	const xText, wText, yText = "The cache key ignores the tenant id", "Retries hammer the upstream without backoff", "Temp files are left behind on a failed upload"
	xTasks, wTasks := []string{"fn-1.1", "fn-1.2", "fn-1.3"}, []string{"fn-2.1", "fn-2.2"}
	type rewrite struct {
		name string
		base mdstore.Status // X's status before the rewrite
		// copies: X is in the file twice, as a union merge leaves a
		// lesson both branches captured (the second copy, for fn-1.4,
		// last).
		copies bool
		// alone: X is the file's only entry.
		alone bool
		alice func(x, w string) []string
		want  func(x, w string) (wantEntry, wantEntry) // X and W, before Bob's sighting
	}
	both := append(slices.Clone(xTasks), wTasks...)
	rewrites := []rewrite{
		{"archive", mdstore.Active, false, false, func(x, _ string) []string { return []string{"archive", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{seen: 3, status: mdstore.Archived, tasks: xTasks}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		{"restore", mdstore.Archived, false, false, func(x, _ string) []string { return []string{"restore", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{seen: 3, status: mdstore.Active, tasks: xTasks}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		{"approve", mdstore.Pending, false, false, func(x, _ string) []string { return []string{"approve", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{seen: 3, status: mdstore.Active, tasks: xTasks}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		{"reject", mdstore.Pending, false, false, func(x, _ string) []string { return []string{"reject", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{seen: 3, status: mdstore.Archived, tasks: xTasks}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		{"forget", mdstore.Active, false, false, func(x, _ string) []string { return []string{"forget", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{gone: true}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		{"merge-into-x", mdstore.Active, false, false, func(x, w string) []string { return []string{"merge", x, w, "--into", x} },
			func(x, _ string) (wantEntry, wantEntry) {
				return wantEntry{seen: 5, status: mdstore.Active, tasks: both}, wantEntry{seen: 2, status: mdstore.Archived, tasks: wTasks, mergedInto: x}
			}},
		{"merge-into-w", mdstore.Active, false, false, func(x, w string) []string { return []string{"merge", w, x, "--into", w} },
			func(_, w string) (wantEntry, wantEntry) {
				return wantEntry{seen: 3, status: mdstore.Archived, tasks: xTasks, mergedInto: w}, wantEntry{seen: 5, status: mdstore.Active, tasks: both}
			}},
	}
	xCopied := append(slices.Clone(xTasks), "fn-1.4")
	rewrites = append(rewrites,
		rewrite{"archive-copies", mdstore.Active, true, false, func(x, _ string) []string { return []string{"archive", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{seen: 4, status: mdstore.Archived, tasks: xCopied}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		rewrite{"approve-copies", mdstore.Pending, true, false, func(x, _ string) []string { return []string{"approve", x} },
			func(string, string) (wantEntry, wantEntry) {
				return wantEntry{seen: 4, status: mdstore.Active, tasks: xCopied}, wantEntry{seen: 2, status: mdstore.Active, tasks: wTasks}
			}},
		rewrite{"merge-into-w-copies", mdstore.Active, true, false, func(x, w string) []string { return []string{"merge", w, x, "--into", w} },
			func(_, w string) (wantEntry, wantEntry) {
				return wantEntry{seen: 4, status: mdstore.Archived, tasks: xCopied, mergedInto: w}, wantEntry{seen: 6, status: mdstore.Active, tasks: append(slices.Clone(xCopied), wTasks...)}
			}},
	)
	rewrites = append(rewrites, rewrite{name: "forget-alone", base: mdstore.Active, alone: true, alice: func(x, _ string) []string { return []string{"forget", x} },
		want: func(string, string) (wantEntry, wantEntry) { return wantEntry{gone: true}, wantEntry{} }})
	for _, rw := range rewrites {
		for _, bob := range []string{"lesson", "sighting"} {
			for _, order := range []string{"bob-pulls", "alice-pulls"} {
				t.Run(rw.name+"/"+bob+"/"+order, func(t *testing.T) {
					t.Parallel()
					root := t.TempDir()
					origin := filepath.Join(root, "origin")
					gitIn(t, root, "init", "-q", "--bare", "-b", "main", origin)
					base := filepath.Join(root, "base")
					gitIn(t, root, "clone", "-q", origin, base)
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
					// X is the last entry, and its two sightings end the
					// file, as the hook appends them.
					w := "p-none"
					if !rw.alone {
						w = rec(wText, "fn-2.1", mdstore.Active)
						rec(wText, "fn-2.2", "")
					}
					x := rec(xText, "fn-1.1", rw.base)
					rec(xText, "fn-1.2", "")
					rec(xText, "fn-1.3", "")
					if rw.copies {
						c := mdstore.Entry{Kind: mdstore.Pitfall, ID: x, Date: now.UTC().Format("2006-01-02"), Task: "fn-1.4", Source: "impl-review", Category: "api",
							Issue: xText, Tasks: []string{"fn-1.4"}, Status: rw.base}
						c.Normalize()
						f, err := os.OpenFile(s.Path(mdstore.Pitfall), os.O_APPEND|os.O_WRONLY, 0)
						if err != nil {
							t.Fatal(err)
						}
						_, err = f.WriteString("\n" + mdstore.Render(&c))
						if cerr := f.Close(); err == nil {
							err = cerr
						}
						if err != nil {
							t.Fatal(err)
						}
					}
					gitIn(t, base, "add", "-A")
					gitIn(t, base, "commit", "-qm", "base")
					gitIn(t, base, "push", "-q", "origin", "main")

					alice, bobDir := filepath.Join(root, "alice"), filepath.Join(root, "bob")
					gitIn(t, root, "clone", "-q", origin, alice)
					gitIn(t, root, "clone", "-q", origin, bobDir)
					mustFlowmem(t, plain(), alice, append([]string{"memory"}, rw.alice(x, w)...)...)
					gitIn(t, alice, "commit", "-qam", "alice "+rw.name)
					wantX, wantW := rw.want(x, w)
					wantX.text, wantW.text = xText, wText
					var wantY *wantEntry
					switch bob {
					case "lesson":
						mustFlowmem(t, plain(), bobDir, "memory", "add", "--type", "pitfall", yText, "--task", "fn-9.1")
						wantY = &wantEntry{text: yText, seen: 1, status: mdstore.Active, tasks: []string{"fn-9.1"}}
					case "sighting":
						mustFlowmem(t, plain(), bobDir, "memory", "add", "--type", "pitfall", xText, "--task", "fn-9.1")
						if !wantX.gone {
							wantX.seen++
							wantX.tasks = append(slices.Clone(wantX.tasks), "fn-9.1")
						}
					}
					gitIn(t, bobDir, "commit", "-qam", "bob")
					// The one who pulls second takes the other's commit
					// from origin, as a teammate does.
					first, second := alice, bobDir
					if order == "alice-pulls" {
						first, second = bobDir, alice
					}
					gitIn(t, first, "push", "-q", "origin", "main")
					if out := gitIn(t, second, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); strings.Contains(out, "CONFLICT") {
						t.Fatalf("pull conflicted:\n%s", out)
					}
					raw, err := os.ReadFile(filepath.Join(second, ".flow", "memory", "pitfalls.md"))
					if err != nil {
						t.Fatal(err)
					}
					wants := map[string]wantEntry{x: wantX}
					if !rw.alone {
						wants[w] = wantW
					}
					if wantY != nil {
						wants[""] = *wantY // its id is looked up by its text
					}
					checkReaders(t, second, wants)
					if t.Failed() {
						t.Logf("pitfalls.md after the pull:\n%s", raw)
					}
				})
			}
		}
	}
}

// checkReaders asks every reader of memory in dir about the wanted lessons
// (by id; "" is a lesson looked up by its text) and reports where one
// disagrees.
func checkReaders(t *testing.T, dir string, wants map[string]wantEntry) {
	t.Helper()
	var all struct{ Entries []mdstore.Entry }
	if err := json.Unmarshal([]byte(mustRead(t, dir, "memory", "read", "--json")), &all); err != nil {
		t.Fatal(err)
	}
	if w, ok := wants[""]; ok {
		delete(wants, "")
		for _, e := range all.Entries {
			if e.Issue == w.text {
				wants[e.ID] = w
			}
		}
	}
	same := func(reader string, e mdstore.Entry, w wantEntry) {
		t.Helper()
		tasks := slices.Clone(e.Tasks)
		slices.Sort(tasks)
		wt := slices.Clone(w.tasks)
		slices.Sort(wt)
		// No lesson here has text besides its Issue line: a Body is a
		// line that is not the entry's (a torn append's).
		if e.Issue != w.text || e.Body != "" || e.Seen != w.seen || !slices.Equal(tasks, wt) {
			t.Errorf("%s: %s is %q (body %q) seen %d tasks %v; want %q seen %d tasks %v", reader, e.ID, e.Issue, e.Body, e.Seen, tasks, w.text, w.seen, wt)
		}
	}
	// memory search lists a line with its entry's id, which memory show
	// is then asked about: a forgotten lesson's lines a merge brought
	// back are no hit, as they are no entry.
	var search struct{ Matches []mdstore.Hit }
	if err := json.Unmarshal([]byte(mustRead(t, dir, "memory", "search", "--json", ".")), &search); err != nil {
		t.Fatal(err)
	}
	for id, w := range wants {
		found := slices.ContainsFunc(search.Matches, func(h mdstore.Hit) bool { return h.ID == id })
		if found == w.gone {
			t.Errorf("memory search --json .: %s found %v, want %v (forgotten %v)", id, found, !w.gone, w.gone)
		}
	}
	active, archived, pending := 0, 0, 0
	for id, w := range wants {
		out, err := reader(t, dir, "memory", "show", "--json", id)
		if w.gone {
			if err == nil {
				t.Errorf("memory show %s: the forgotten entry is back:\n%s", id, out)
			}
			continue
		}
		switch w.status {
		case mdstore.Active:
			active++
		case mdstore.Archived:
			archived++
		case mdstore.Pending:
			pending++
		}
		var show struct{ Entry mdstore.Entry }
		if err != nil || json.Unmarshal([]byte(out), &show) != nil {
			t.Errorf("memory show %s: %v\n%s", id, err, out)
			continue
		}
		same("memory show", show.Entry, w)
		if show.Entry.Status != w.status || show.Entry.MergedInto != w.mergedInto {
			t.Errorf("memory show: %s is %s merged into %q; want %s merged into %q", id, show.Entry.Status, show.Entry.MergedInto, w.status, w.mergedInto)
		}
		var rel struct{ Entries []mdstore.Entry }
		if err := json.Unmarshal([]byte(mustRead(t, dir, "memory", "read", "-r", w.text, "--json")), &rel); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(rel.Entries, func(e mdstore.Entry) bool { return e.ID == id })
		switch {
		case w.status == mdstore.Active && i < 0:
			t.Errorf("memory read -r %q: %s not found", w.text, id)
		case w.status != mdstore.Active && i >= 0:
			t.Errorf("memory read -r %q: %s is %s but recalled", w.text, id, w.status)
		case i >= 0:
			same("memory read -r", rel.Entries[i], w)
		}
	}
	// memory read and memory prime, as people and prompts see them: a
	// lesson's line, then its tasks and count.
	human := mustRead(t, dir, "memory", "read")
	for id, w := range wants {
		prime := mustRead(t, dir, "memory", "prime", w.text)
		for _, out := range []struct{ reader, text string }{{"memory read", human}, {"memory prime", prime}} {
			_, after, found := strings.Cut(out.text, "- [pitfall] "+w.text+"\n")
			switch {
			case w.gone || w.status != mdstore.Active:
				if found {
					t.Errorf("%s shows %s, which is forgotten (%v) or %s:\n%s", out.reader, id, w.gone, w.status, out.text)
				}
			case !found:
				t.Errorf("%s does not show %s:\n%s", out.reader, id, out.text)
			default:
				line, _, _ := strings.Cut(after, "\n")
				// Once is not said.
				if w.seen > 1 && !strings.Contains(line, fmt.Sprintf(" seen %dx,", w.seen)) || w.seen == 1 && strings.Contains(line, " seen ") {
					t.Errorf("%s: %s's line %q, want seen %dx", out.reader, id, line, w.seen)
				}
				for _, task := range w.tasks {
					if !strings.Contains(line, task) {
						t.Errorf("%s: %s's line %q lacks task %s", out.reader, id, line, task)
					}
				}
			}
		}
	}
	n := 0
	for _, e := range all.Entries {
		w, ok := wants[e.ID]
		switch {
		case !ok:
			t.Errorf("memory read: unexpected entry %s %q", e.ID, e.Issue)
		case w.gone:
			t.Errorf("memory read: %s is listed, want it forgotten", e.ID)
		case w.status != mdstore.Active:
			t.Errorf("memory read: %s is listed, want it %s", e.ID, w.status)
		default:
			n++
			same("memory read", e, w)
		}
	}
	if n != active {
		t.Errorf("memory read: %d active entries, want %d", n, active)
	}
	var list struct {
		Files []struct {
			Type     string
			Entries  int
			Pending  int
			Archived int
		}
	}
	if err := json.Unmarshal([]byte(mustRead(t, dir, "memory", "list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	for _, f := range list.Files {
		if f.Type == "pitfall" && (f.Entries != active || f.Archived != archived || f.Pending != pending) {
			t.Errorf("memory list: %d active, %d archived, %d pending; want %d, %d, %d", f.Entries, f.Archived, f.Pending, active, archived, pending)
		}
	}
	var stats struct {
		Status    map[string]int
		Recurrent []struct {
			ID   string
			Seen int
		}
	}
	if err := json.Unmarshal([]byte(mustRead(t, dir, "memory", "stats", "--json")), &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Status["active"] != active || stats.Status["archived"] != archived || stats.Status["pending"] != pending {
		t.Errorf("memory stats: status %v; want %d active, %d archived, %d pending", stats.Status, active, archived, pending)
	}
	for _, r := range stats.Recurrent {
		if w, ok := wants[r.ID]; !ok || w.gone || r.Seen != w.seen {
			t.Errorf("memory stats: %s recurred %d times; want %d (known and kept: %v)", r.ID, r.Seen, w.seen, ok && !w.gone)
		}
	}
}
