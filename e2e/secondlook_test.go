package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/e2e/standin"
	"github.com/flowmem/flowmem/internal/capture"
)

// judgeRe finds the command the hook's note asks the model to run, with the
// ids of the lessons it has just recorded.
var judgeRe = regexp.MustCompile(`flowmem memory judge [a-z]-[0-9a-f]+(?: [a-z]-[0-9a-f]+)*`)

// storedEntry is one entry of pitfalls.md as the file says it: its heading's
// category, its metadata line's id, tasks, merged-into and status, its Issue
// line.
type storedEntry struct{ ID, Category, Status, Issue, Tasks, MergedInto string }

var (
	headingCategoryRe = regexp.MustCompile(`^\d{4}-\d\d-\d\d \S+ \S+ \[([a-z-]+)\]`)
	metaRe            = regexp.MustCompile(`(?m)^<!-- flowmem: id=(\S+) .*\btasks=(\S+)(?: took=\S+)?(?: merged-into=(\S+)(?: into-own=\S+)?(?: gave=\d+)?)? status=([a-z]+)(?: n=\S+)? -->$`)
	issueRe           = regexp.MustCompile(`(?m)^\*\*Issue\*\*: (.*)$`)
)

// storedEntries reads every entry of a memory file by id.
func storedEntries(t *testing.T, memory string) map[string]storedEntry {
	t.Helper()
	out := map[string]storedEntry{}
	for _, block := range strings.Split(memory, "\n## ")[1:] {
		cat, meta, issue := headingCategoryRe.FindStringSubmatch(block), metaRe.FindStringSubmatch(block), issueRe.FindStringSubmatch(block)
		if cat == nil || meta == nil || issue == nil {
			t.Fatalf("cannot read the entry:\n## %s", block)
		}
		out[meta[1]] = storedEntry{ID: meta[1], Category: cat[1], Tasks: meta[2], MergedInto: meta[3], Status: meta[4], Issue: issue[1]}
	}
	return out
}

// trust marks the project trusted in the client's state, as a user's who
// has opened Claude Code in it and accepted its trust question. Claude Code
// 2.1.330 runs an untrusted project's hooks in -p mode but ignores the
// allow rules of its shared .claude/settings.json (a command they allow is
// refused as "This command requires approval"); once trusted, the rules
// apply.
func (p *project) trust() {
	p.t.Helper()
	state, err := json.Marshal(map[string]any{"projects": map[string]any{p.Dir: map[string]any{"hasTrustDialogAccepted": true}}})
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.Home, ".claude.json"), state, 0o600); err != nil {
		p.t.Fatal(err)
	}
}

// The whole second look through the real client, in a project set up by
// flowmem install: the model runs a review that asks for changes, the hook
// records two lessons and its note names the judge command; the model runs
// exactly that command (allowed by the rule install wrote), reads the
// criteria and each lesson whole (each with its archive-or-keep line), and
// rewords the lesson told only in terms of this change as its general rule,
// with a category, replacing that lesson (the criteria keep such a lesson
// as it is by default and allow this), using the add command the judge
// printed. Memory ends with what the
// model decided: the original archived and merged into its general rule.
func TestSecondLookReplacesThroughClaudeCode(t *testing.T) {
	t.Parallel()
	p := wrapperProject(t, "flowctl", "codex-impl-review.jsonl", 0)
	p.trust()
	settings := p.read(".claude/settings.json")
	if !strings.Contains(settings, `"Bash(flowmem memory judge:*)"`) {
		t.Fatalf("flowmem install did not allow the judge command:\n%s", settings)
	}
	if strings.Contains(settings, "flowmem memory archive") || strings.Contains(settings, "flowmem memory add") {
		t.Fatalf("flowmem install allowed archive or add, which should keep Claude Code's question:\n%s", settings)
	}

	const (
		lesson = "os/signal never blocks when it delivers a signal: a channel given to signal.Notify without a buffer loses every signal that arrives while its receiver is busy"
		fix    = "create the channel with a buffer of at least one, as in make(chan os.Signal, 1)"
	)
	var (
		judgeCmd string   // the command the note named
		ids      []string // the ids it named
		judged   string   // the judge output the model read
		archived string   // the id the model replaced
		added    string   // the add command the model ran
	)
	main := standin.Conversation{Name: "main", Step: func(r *standin.Request, step int) standin.Reply {
		switch step {
		case 0:
			return standin.Bash("./bin/flowctl codex impl-review fn-29-fv0.6")
		case 1:
			// Like a model that follows the note: run the command it names.
			_, note, ok := strings.Cut(r.Messages[len(r.Messages)-1].Text, "PostToolUse:Bash hook additional context: flowmem ")
			if judgeCmd = judgeRe.FindString(note); !ok || judgeCmd == "" {
				return standin.Text("Second look FAILED: no hook note naming the judge command")
			}
			ids = strings.Fields(strings.TrimPrefix(judgeCmd, "flowmem memory judge "))
			return standin.Bash(judgeCmd)
		case 2:
			// Judge: the signal lesson is told as this daemon's bug, so its
			// rule comes back in general words and replaces it; the add
			// command as the judge printed it, its blanks filled in.
			judged = r.LastToolResult()
			for _, block := range strings.Split(judged, "\n--- ")[1:] {
				lines := strings.Split(block, "\n")
				// Each lesson comes with its own decision, archive or keep:
				// told only how to archive, a model archived those that hold.
				if len(lines) < 2 || !strings.Contains(block, "): flowmem memory archive "+strings.Fields(lines[1] + " ?")[0]+"; holds (") {
					return standin.Text("Second look FAILED: a lesson without its keep-or-archive line: " + block)
				}
				if strings.Contains(block, "signal.Notify") {
					archived = strings.Fields(lines[1])[0]
				}
			}
			if archived == "" {
				return standin.Text("Second look FAILED: the judge output has no signal.Notify entry")
			}
			for _, l := range strings.Split(judged, "\n") {
				if i := strings.Index(l, ": flowmem memory add "); strings.HasPrefix(l, "- add ") && i >= 0 {
					cmd := l[i+2:]
					added = regexp.MustCompile(`--category <[^>]*>`).ReplaceAllString(cmd, "--category framework")
					added = strings.NewReplacer(`[--replaces ID]`, `--replaces `+archived, `"<lesson>"`, `"`+lesson+`"`, `"<what to do instead>"`, `"`+fix+`"`).Replace(added)
				}
			}
			if added == "" || strings.Contains(added, "<") {
				return standin.Text("Second look FAILED: the judge output has no add command to fill in: " + added)
			}
			return standin.Bash(added)
		default:
			return standin.Text("Replaced " + archived + " with its general rule.")
		}
	}}
	srv := startStandin(t, main)
	defer func() {
		if t.Failed() {
			dumpRequests(t, srv)
		}
	}()
	// The review wrapper and add are allowed for this session only, the
	// least that lets them run: install allows the judge (it only prints)
	// and leaves add (which archives what it replaces) to Claude Code's
	// question, so that the user sees what the model drops; claude -p cannot
	// ask, and refuses a command without a rule. The judge is not in this
	// list: the rule install wrote in the trusted project must let it run.
	s := p.claude(srv, "Run the implementation review for fn-29-fv0.6 and act on it.",
		"Bash(./bin/flowctl:*)", "Bash(flowmem memory add:*)")
	if d, ok := s.Result["permission_denials"].([]any); ok && len(d) > 0 {
		t.Errorf("permission denials: %v", d)
	}

	reqs := srv.ConversationRequests("main")
	if len(reqs) != 4 {
		t.Fatalf("the model made %d requests, want 4 (review, judge, add, answer)", len(reqs))
	}
	if len(ids) != 2 {
		t.Fatalf("the note named the judge command %q, want the 2 recorded lessons' ids", judgeCmd)
	}
	t.Logf("the model ran:\n  %s\n  %s", judgeCmd, added)

	// The judge's output reached the model whole: the criteria, then each
	// lesson with its id, issue and fix.
	if judged != reqs[2].LastToolResult() {
		t.Fatal("the stand-in judged other text than the request after the judge command holds")
	}
	if !strings.Contains(judged, capture.Criteria) {
		t.Errorf("the judge output the model saw lacks the criteria:\n%s", judged)
	}
	for _, id := range ids {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + `  pitfall, active$`).MatchString(judged) {
			t.Errorf("the judge output the model saw lacks entry %s:\n%s", id, judged)
		}
	}
	for _, want := range []string{"Issue:    The retry loop sleeps a fixed 100 ms", "Fix:      Make the channel buffered", "flowmem memory archive ID..."} {
		if !strings.Contains(judged, want) {
			t.Errorf("the judge output the model saw lacks %q:\n%s", want, judged)
		}
	}
	if got := reqs[3].LastToolResult(); !strings.HasPrefix(got, "added pitfall ") || !strings.Contains(got, "it replaces "+archived+": archived, merged into ") {
		t.Errorf("after the add the model saw %q, want it to say what was added and what it replaces", got)
	}

	// Memory: the replaced lesson is kept for the record only, merged into
	// the added rule, so a later sighting of it counts there; the other
	// recorded one and the added rule are active, and running judge and add
	// through the hook recorded nothing more.
	entries := storedEntries(t, p.read(".flow/memory/pitfalls.md"))
	if len(entries) != 3 {
		t.Fatalf("pitfalls.md has %d entries, want 3 (2 recorded, 1 added): %v", len(entries), entries)
	}
	kept := ids[0]
	if kept == archived {
		kept = ids[1]
	}
	var add storedEntry
	for id, e := range entries {
		if id != archived && id != kept {
			add = e
		}
	}
	if e := entries[archived]; e.Status != "archived" || e.MergedInto != add.ID {
		t.Errorf("the replaced lesson %s is %+v, want status archived, merged into the added %s", archived, e, add.ID)
	}
	if e := entries[kept]; e.Status != "active" || !strings.HasPrefix(e.Issue, "The retry loop sleeps") {
		t.Errorf("the other recorded lesson %s is %+v, want it active", kept, e)
	}
	if add.Issue != lesson+"." && add.Issue != lesson || add.Status != "active" || add.Category != "framework" || add.Tasks != "fn-29-fv0.6" {
		t.Errorf("the added lesson is %+v, want it active, category framework, task fn-29-fv0.6 (from %q)", add, added)
	}

	var read struct {
		Entries []struct{ ID string } `json:"entries"`
	}
	if err := json.Unmarshal([]byte(p.flowmem("memory", "read", "--json")), &read); err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, e := range read.Entries {
		shown = append(shown, e.ID)
	}
	if len(shown) != 2 || strings.Contains(strings.Join(shown, " "), archived) || !strings.Contains(strings.Join(shown, " "), kept) || !strings.Contains(strings.Join(shown, " "), add.ID) {
		t.Errorf("memory read shows %v, want %s and %s, not the archived %s", shown, kept, add.ID, archived)
	}
}
