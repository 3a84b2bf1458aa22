package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/e2e/standin"
)

// wrapperProject is a project with memory enabled and flowmem installed,
// whose bin/<name> prints testdata/<review> and exits with exitCode, as a
// review wrapper does.
func wrapperProject(t *testing.T, name, review string, exitCode int) *project {
	t.Helper()
	p := newProject(t)
	p.flowmem("init", "--enable", "--install")
	text, err := os.ReadFile(filepath.Join("testdata", review))
	if err != nil {
		t.Fatal(err)
	}
	p.write("reviews/"+review, string(text), 0o644)
	p.write("bin/"+name, fmt.Sprintf("#!/bin/sh\n# stands in for a review wrapper\ncat \"$(dirname \"$0\")/../reviews/%s\"\nexit %d\n", review, exitCode), 0o755)
	return p
}

// runReview plays one session: the model runs command, then answers.
func runReview(t *testing.T, p *project, command, allowed string) (*standin.Server, *session) {
	t.Helper()
	srv := startStandin(t, standin.Conversation{Name: "main", Steps: []standin.Reply{
		standin.Bash(command),
		standin.Text("I will address the review."),
	}})
	s := p.claude(srv, "Run the review.", allowed)
	return srv, s
}

// contextAfterTool is the model's request that follows the review
// command, as text: it holds the tool result and what hooks added to it.
func contextAfterTool(t *testing.T, srv *standin.Server) string {
	t.Helper()
	reqs := srv.ConversationRequests("main")
	if len(reqs) < 2 {
		dumpRequests(t, srv)
		t.Fatalf("the model made %d requests, want 2", len(reqs))
	}
	return reqs[1].AllText()
}

// entryHeadings are the entry headings of pitfalls.md.
var entryHeading = regexp.MustCompile(`(?m)^## \d{4}-\d\d-\d\d (\S+) (\S+) \[[a-z-]+\]( <!-- [a-z]-[0-9a-f]+ -->)?$`)

// TestHeadingReviewThroughPostToolUseFailure: a review written as one
// heading per finding (### FINDING [BLOCKER] …, body paragraphs and code
// under it), printed by a wrapper that exits 1 on NEEDS_WORK — so only
// PostToolUseFailure fires — is recorded with the task id the review names
// (the command names none), and the nudge reaches the model.
func TestHeadingReviewThroughPostToolUseFailure(t *testing.T) {
	t.Parallel()
	p := wrapperProject(t, "review-changes", "review-headings.md", 1)
	srv, s := runReview(t, p, "./bin/review-changes", "Bash(./bin/review-changes:*)")
	if !strings.Contains(contextAfterTool(t, srv), "Exit code 1") {
		dumpRequests(t, srv)
		t.Fatal("the review command did not fail as scripted")
	}
	memory := p.read(".flow/memory/pitfalls.md")
	heads := entryHeading.FindAllStringSubmatch(memory, -1)
	if len(heads) != 2 {
		dumpRequests(t, srv)
		t.Fatalf("pitfalls.md has %d entries, want the 2 blocking findings:\n%s", len(heads), memory)
	}
	for _, h := range heads {
		if h[1] != "fn-17-axl.8" || h[2] != "review" {
			t.Errorf("entry heading %q: want task fn-17-axl.8 from the review text, source review", h[0])
		}
	}
	for _, want := range []string{"GetBody", "Timeout"} {
		if !strings.Contains(memory, want) {
			t.Errorf("pitfalls.md lacks the fix naming %s:\n%s", want, memory)
		}
	}
	if strings.Contains(memory, "deliverd") {
		t.Errorf("the minor typo finding was recorded:\n%s", memory)
	}
	notes := noticeFrom(s, "PostToolUseFailure")
	if len(notes) != 1 || !strings.Contains(notes[0], "flowmem: review of fn-17-axl.8: recorded 2 new lessons") {
		t.Errorf("notices %q, want one from PostToolUseFailure", s.Notices())
	}
	ctx := contextAfterTool(t, srv)
	if !strings.Contains(ctx, "flowmem recorded 2 lessons") || !strings.Contains(ctx, "archive those that fail, keep those that hold as they are, and add one lesson per missing finding whose rule carries over to other tasks") {
		t.Errorf("the nudge did not reach the model's next request:\n%s", ctx)
	}
	lessonIDsReachModel(t, heads, ctx)
}

// lessonIDsReachModel: each recorded entry's id is in the model's next
// request, and the one command that prints them all for judging.
func lessonIDsReachModel(t *testing.T, heads [][]string, ctx string) {
	t.Helper()
	var ids []string
	for _, h := range heads {
		id := strings.TrimSuffix(strings.TrimPrefix(h[3], " <!-- "), " -->")
		if id == "" || !strings.Contains(ctx, "["+id+"] ") {
			t.Errorf("entry %q: its id is not in the model's next request:\n%s", h[0], ctx)
		}
		ids = append(ids, id)
	}
	if judge := "run flowmem memory judge " + strings.Join(ids, " ") + " ("; !strings.Contains(ctx, judge) {
		t.Errorf("the model's next request lacks %q:\n%s", judge, ctx)
	}
}

// TestCodexStreamThroughPostToolUse: flow-next's codex wrapper prints the
// `codex exec --json` event stream and a VERDICT=NEEDS_WORK line, and exits
// 0. The hook unwraps the last agent message, records its lessons under the
// task the command names, and the model's next request carries the nudge:
// what was recorded, and the command that prints it whole for judging.
func TestCodexStreamThroughPostToolUse(t *testing.T) {
	t.Parallel()
	p := wrapperProject(t, "flowctl", "codex-impl-review.jsonl", 0)
	srv, s := runReview(t, p, "./bin/flowctl codex impl-review fn-29-fv0.6", "Bash(./bin/flowctl:*)")
	memory := p.read(".flow/memory/pitfalls.md")
	heads := entryHeading.FindAllStringSubmatch(memory, -1)
	if len(heads) != 2 {
		dumpRequests(t, srv)
		t.Fatalf("pitfalls.md has %d entries, want 2:\n%s", len(heads), memory)
	}
	for _, h := range heads {
		if h[1] != "fn-29-fv0.6" || h[2] != "impl-review" {
			t.Errorf("entry heading %q: want fn-29-fv0.6 impl-review", h[0])
		}
	}
	if strings.Contains(memory, `"type"`) || strings.Contains(memory, "item.completed") || !strings.Contains(memory, "Retry-After") {
		t.Errorf("the stream was not unwrapped to the review:\n%s", memory)
	}
	notes := noticeFrom(s, "PostToolUse")
	if len(notes) != 1 || !strings.Contains(notes[0], "flowmem: impl-review of fn-29-fv0.6: recorded 2 new lessons") {
		t.Errorf("notices %q", s.Notices())
	}
	ctx := contextAfterTool(t, srv)
	for _, want := range []string{
		"PostToolUse:Bash hook additional context: flowmem recorded 2 lessons",
		"] \"The retry loop sleeps a fixed 100 ms",
		"(it prints them in full with what memory keeps), archive those that fail, keep those that hold as they are",
	} {
		if !strings.Contains(ctx, want) {
			t.Errorf("the model's next request lacks %q:\n%s", want, ctx)
		}
	}
	lessonIDsReachModel(t, heads, ctx)
}
