package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/e2e/standin"
)

// scoutMarker is a line of agents/memory-scout.md: the client puts the
// agent's body in its system prompt, which is how the stand-in tells the
// scout's requests from the main conversation's.
const scoutMarker = "You are flowmem's memory scout."

// reviewCommand looks like flow-next's review wrapper; the capture hook's
// default patterns recognise `impl-review`, and the task id comes from it.
const reviewCommand = "./bin/flowctl codex impl-review fn-1.1"

// lessonRe matches the lesson the capture hook records from
// testdata/review-needs-work.md (a real impl-review: docker exec as another
// user keeps root's HOME).
var lessonRe = regexp.MustCompile(`(?s)\n## \d{4}-\d\d-\d\d fn-1\.1 impl-review \[[a-z-]+\] <!-- p-[0-9a-f]{12} -->\n<!-- flowmem:[^\n]*-->\n\*\*Issue\*\*: [^\n]*docker exec[^\n]*\n\*\*Fix\*\*: [^\n]*HOME=/home/agent`)

// reviewProject is a project with memory enabled (or not), flowmem
// installed the way the README says, and a review wrapper that prints a
// real NEEDS_WORK review and exits with exitCode.
func reviewProject(t *testing.T, enable bool, exitCode int) *project {
	t.Helper()
	p := newProject(t)
	if enable {
		p.flowmem("init", "--enable", "--install")
		if out, err := p.flowmemErr("doctor"); err != nil {
			t.Fatalf("flowmem doctor after init --enable --install: %v\n%s", err, out)
		}
		settings, err := os.ReadFile(filepath.Join(p.Dir, ".claude", "settings.json"))
		// The shared settings run flowmem by name; the client finds the
		// freshly built one first on PATH.
		if err != nil || !strings.Contains(string(settings), `"command": "flowmem-hook"`) || strings.Contains(string(settings), p.Dir) {
			t.Fatalf("install did not register 'flowmem-hook' by name: %v\n%s", err, settings)
		}
	} else {
		p.flowmem("init", "--install")
	}
	review, err := os.ReadFile(filepath.Join("testdata", "review-needs-work.md"))
	if err != nil {
		t.Fatal(err)
	}
	p.write("reviews/fn-1.1.md", string(review), 0o644)
	p.write("bin/flowctl", fmt.Sprintf("#!/bin/sh\n# stands in for flow-next's review wrapper\ncat \"$(dirname \"$0\")/../reviews/fn-1.1.md\"\nexit %d\n", exitCode), 0o755)
	return p
}

func reviewSession(t *testing.T, p *project) (*standin.Server, *session) {
	t.Helper()
	srv := startStandin(t, standin.Conversation{Name: "main", Steps: []standin.Reply{
		standin.Bash(reviewCommand),
		standin.Text("I will fix the review findings."),
	}})
	s := p.claude(srv, "Run the implementation review for fn-1.1.", "Bash(./bin/flowctl:*)")
	if t.Failed() {
		dumpRequests(t, srv)
	}
	return srv, s
}

// noticeFrom returns the user-visible hook messages of one event.
func noticeFrom(s *session, event string) []string {
	var out []string
	for _, n := range s.Notices() {
		if strings.HasPrefix(n, event+":Bash says:") {
			out = append(out, n)
		}
	}
	return out
}

// Scenario 1: the model runs a review command; the installed hook records
// the lesson and tells the user.
func TestReviewCapturedThroughPostToolUse(t *testing.T) {
	t.Parallel()
	p := reviewProject(t, true, 0)
	before := p.read(".flow/memory/pitfalls.md")
	srv, s := reviewSession(t, p)

	after := p.read(".flow/memory/pitfalls.md")
	if !lessonRe.MatchString(after) {
		dumpRequests(t, srv)
		t.Fatalf("pitfalls.md did not gain the lesson through the hook:\n%s", strings.TrimPrefix(after, before))
	}
	if n := strings.Count(after, "\n## "); n != 1 {
		t.Errorf("pitfalls.md has %d entries, want 1:\n%s", n, after)
	}
	notes := noticeFrom(s, "PostToolUse")
	if len(notes) != 1 || !strings.Contains(notes[0], "flowmem: impl-review of fn-1.1: recorded 1 new lesson") {
		t.Errorf("systemMessage notice = %q (all notices %q), want one flowmem notice from PostToolUse", notes, s.Notices())
	}
	t.Logf("recorded:%s\nuser saw: %q", lessonRe.FindString(after), notes)

	// The same review again: the lesson recurs instead of being added twice,
	// and the model is told so next to the tool result.
	srv2, _ := reviewSession(t, p)
	again := p.read(".flow/memory/pitfalls.md")
	if n := strings.Count(again, "\n## "); n != 1 {
		t.Errorf("after the same review twice pitfalls.md has %d entries, want 1:\n%s", n, again)
	}
	list := p.flowmem("memory", "read", "--json")
	if !strings.Contains(list, `"seen": 2`) {
		t.Errorf("memory read after a recurrence does not show seen 2:\n%s", list)
	}
	reqs := srv2.ConversationRequests("main")
	if len(reqs) < 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Text, "flowmem") {
		dumpRequests(t, srv2)
		t.Fatalf("the recurrence (additionalContext) did not reach the model's next request")
	}
	ctx := reqs[1].Messages[len(reqs[1].Messages)-1].Text
	if !strings.Contains(ctx, "PostToolUse:Bash hook additional context: flowmem") || !strings.Contains(ctx, "] seen 2 times, in tasks fn-1.1: ") {
		t.Errorf("the model was not told the lesson recurred:\n%s", ctx)
	}
}

// Scenario 2: a review wrapper that exits non-zero fires only
// PostToolUseFailure; the lesson is captured from its error text.
func TestReviewCapturedThroughPostToolUseFailure(t *testing.T) {
	t.Parallel()
	p := reviewProject(t, true, 1)
	srv, s := reviewSession(t, p)
	reqs := srv.ConversationRequests("main")
	if len(reqs) < 2 || !strings.Contains(reqs[1].AllText(), "Exit code 1") {
		dumpRequests(t, srv)
		t.Fatalf("the review command did not fail as scripted")
	}
	after := p.read(".flow/memory/pitfalls.md")
	if !lessonRe.MatchString(after) {
		dumpRequests(t, srv)
		t.Fatalf("pitfalls.md did not gain the lesson through PostToolUseFailure:\n%s", after)
	}
	notes := noticeFrom(s, "PostToolUseFailure")
	if len(notes) != 1 || !strings.Contains(notes[0], "flowmem: impl-review of fn-1.1: recorded 1 new lesson") {
		t.Errorf("systemMessage notice = %q (all notices %q), want one flowmem notice from PostToolUseFailure", notes, s.Notices())
	}
}

// Scenario 3: the model calls the memory-scout; it runs on haiku with only
// Bash and Read, asks flowmem for the relevant lessons, and its answer
// reaches the main conversation. Reading memory back records nothing.
func TestScoutRecallsRelevantMemory(t *testing.T) {
	t.Parallel()
	if !bytes.Contains(flowmem.ScoutAgent, []byte(scoutMarker)) {
		t.Fatalf("agents/memory-scout.md no longer contains the marker %q", scoutMarker)
	}
	p := newProject(t)
	p.flowmem("init", "--enable", "--install")
	p.flowmem("memory", "add", "--type", "pitfall",
		"docker exec --user agent keeps HOME=/root, so ~ and cai sync resolve to /root",
		"--fix", "pass -e HOME=/home/agent to every docker exec --user agent",
		"--task", "fn-1.1", "--context", "found by a NEEDS_WORK impl-review of the sync integration tests")
	p.flowmem("memory", "add", "--type", "pitfall",
		"Vite builds for GitHub Pages need base set to the repository name",
		"--fix", "set base: '/repo/' in vite.config.ts", "--task", "fn-3.2")
	memBefore := snapshot(t, filepath.Join(p.Dir, ".flow", "memory"))

	const task = "fn-2.1: add sync integration tests for the agent container"
	scout := standin.Conversation{
		Name:  "scout",
		Match: standin.SystemContains(scoutMarker),
		Step: func(r *standin.Request, step int) standin.Reply {
			switch step {
			case 0:
				return standin.Bash(`flowmem memory read --limit 30 --max-chars 9000 --relevant "` + task + `" --relevant "docker exec user HOME environment"`)
			default:
				// Like the scout's model: keep the lesson lines flowmem
				// printed, in the Relevant Memory format.
				var keep []string
				for _, l := range strings.Split(r.LastToolResult(), "\n") {
					if strings.HasPrefix(l, "- [") || strings.HasPrefix(l, "  ") && len(keep) > 0 {
						keep = append(keep, l)
					}
				}
				if len(keep) == 0 {
					return standin.Text("No relevant entries in project memory.")
				}
				return standin.Text("## Relevant Memory\n" + strings.Join(keep, "\n"))
			}
		},
	}
	main := standin.Conversation{Name: "main", Match: standin.Not(standin.SystemContains(scoutMarker)), Steps: []standin.Reply{
		{ToolUses: []standin.ToolUse{{Name: "Agent", Input: map[string]any{
			"description":       "Check project memory",
			"prompt":            task,
			"subagent_type":     "memory-scout",
			"run_in_background": false,
		}}}},
		standin.Text("Plan: set HOME for docker exec."),
	}}
	srv := startStandin(t, scout, main)
	s := p.claude(srv, "Plan "+task, "Bash(flowmem memory read:*)")
	defer func() {
		if t.Failed() {
			dumpRequests(t, srv)
		}
	}()

	sreqs := srv.ConversationRequests("scout")
	if len(sreqs) < 2 {
		t.Fatalf("the memory-scout made %d requests, want 2 (run the command, answer)", len(sreqs))
	}
	for _, r := range sreqs {
		if !strings.Contains(r.Model, "haiku") {
			t.Errorf("scout ran on model %q, want haiku", r.Model)
		}
		tools := slices.Clone(r.Tools)
		slices.Sort(tools)
		if !slices.Equal(tools, []string{"Bash", "Read"}) {
			t.Errorf("scout had tools %v, want only Bash and Read", r.Tools)
		}
	}
	read := sreqs[1].LastToolResult()
	if !strings.Contains(read, "## Relevant Memory") || !strings.Contains(read, "HOME=/home/agent") {
		t.Errorf("flowmem memory read --relevant did not return the lesson to the scout:\n%s", read)
	}
	if strings.Contains(read, "Vite") {
		t.Errorf("the unrelated lesson was returned for %q:\n%s", task, read)
	}

	mreqs := srv.ConversationRequests("main")
	if len(mreqs) < 2 {
		t.Fatalf("main conversation made %d requests, want 2", len(mreqs))
	}
	got := mreqs[1].LastToolResult()
	if !strings.Contains(got, "## Relevant Memory") || !strings.Contains(got, "- [pitfall] docker exec --user agent keeps HOME=/root") {
		t.Errorf("the relevant lesson did not reach the main conversation; it saw:\n%s", got)
	}
	if strings.Contains(got, "Vite") {
		t.Errorf("the unrelated lesson reached the main conversation:\n%s", got)
	}

	// The one file a read-back writes is the record of what it handed
	// over (for memory audit).
	memAfter := snapshot(t, filepath.Join(p.Dir, ".flow", "memory"))
	if inj, _ := os.ReadFile(filepath.Join(p.Dir, ".flow", "memory", "injections.jsonl")); !strings.Contains(string(inj), `"by":"read","task":"fn-2.1"`) {
		t.Errorf("the read-back was not recorded in injections.jsonl: %q", inj)
	}
	delete(memAfter, string(filepath.Separator)+"injections.jsonl")
	if !sameFiles(memBefore, memAfter) {
		t.Errorf("reading memory back changed .flow/memory:\nbefore %v\nafter  %v", memBefore, memAfter)
	}
	if len(s.Notices()) != 0 {
		t.Errorf("hook notices during a read-back: %q", s.Notices())
	}
}

// Scenario 4: memory disabled. The hook is installed and fires, but nothing
// is written and nothing is shown to the user or the model.
func TestMemoryDisabledWritesNothing(t *testing.T) {
	t.Parallel()
	p := reviewProject(t, false, 0)
	memBefore := snapshot(t, filepath.Join(p.Dir, ".flow", "memory"))
	srv, s := reviewSession(t, p)
	if memAfter := snapshot(t, filepath.Join(p.Dir, ".flow", "memory")); !sameFiles(memBefore, memAfter) {
		t.Errorf("memory disabled, yet .flow/memory changed:\nbefore %v\nafter  %v", memBefore, memAfter)
	}
	if len(s.Notices()) != 0 {
		t.Errorf("memory disabled, yet the user was shown %q", s.Notices())
	}
	reqs := srv.ConversationRequests("main")
	if len(reqs) < 2 {
		t.Fatalf("main conversation made %d requests, want 2", len(reqs))
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1].Text; strings.Contains(strings.ToLower(last), "flowmem") {
		t.Errorf("memory disabled, yet the model was shown flowmem output:\n%s", last)
	}
	if strings.Contains(s.Stderr, "hook error") {
		t.Errorf("the client reported a hook error:\n%s", s.Stderr)
	}
}

// The repository is a valid plugin and marketplace for the pinned client.
func TestPluginValidates(t *testing.T) {
	t.Parallel()
	bin := claudeBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for _, target := range []string{".", ".claude-plugin/plugin.json", ".claude-plugin/marketplace.json"} {
		cmd := exec.Command(bin, "plugin", "validate", "--strict", target)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "HOME="+home, "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Validation passed") {
			t.Errorf("claude plugin validate --strict %s: %v\n%s", target, err, out)
			continue
		}
		if target == "." {
			for _, want := range []string{
				`hooks: PostToolUse Bash|Agent`, `hooks: PostToolUseFailure Bash|Agent`, `agents: flowmem:memory-scout`,
			} {
				if !strings.Contains(string(out), want) {
					t.Errorf("validate output lacks %q:\n%s", want, out)
				}
			}
		}
	}

	// What the validator tolerates but the runtime or our rules do not.
	var manifest map[string]any
	if err := json.Unmarshal(mustRead(t, filepath.Join(root, ".claude-plugin", "plugin.json")), &manifest); err != nil {
		t.Fatal(err)
	}
	if _, ok := manifest["hooks"]; ok {
		t.Error("plugin.json lists hooks: hooks/hooks.json is loaded automatically, and listing it too is a 'Duplicate hooks file' error")
	}
	agent := string(mustRead(t, filepath.Join(root, "agents", "memory-scout.md")))
	front, _, _ := strings.Cut(strings.TrimPrefix(agent, "---\n"), "\n---\n")
	for _, line := range []string{"name: memory-scout", "tools: Bash, Read", "model: haiku"} {
		if !slices.Contains(strings.Split(front, "\n"), line) {
			t.Errorf("memory-scout front matter lacks %q", line)
		}
	}
	for _, bad := range []string{"readonly", "color: \"#", "Task", "Agent"} {
		if strings.Contains(front, bad) {
			t.Errorf("memory-scout front matter contains %q", bad)
		}
	}
	if !bytes.Equal([]byte(agent), flowmem.ScoutAgent) {
		t.Error("the embedded scout differs from agents/memory-scout.md")
	}
}

// The marketplace works: `claude plugin marketplace add` + `plugin install`
// from this repository enable the plugin, whose hook captures a review with
// flowmem on PATH, with no `flowmem install` at all.
func TestPluginInstallCaptures(t *testing.T) {
	t.Parallel()
	bin := claudeBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	p := newProject(t)
	p.flowmem("init", "--enable")
	review := mustRead(t, filepath.Join("testdata", "review-needs-work.md"))
	p.write("reviews/fn-1.1.md", string(review), 0o644)
	p.write("bin/flowctl", "#!/bin/sh\ncat \"$(dirname \"$0\")/../reviews/fn-1.1.md\"\n", 0o755)
	for _, args := range [][]string{
		{"plugin", "marketplace", "add", root},
		{"plugin", "install", "flowmem@flowmem", "--scope", "project"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = p.Dir, append(p.Env, "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if s := p.read(".claude/settings.json"); !strings.Contains(s, `"flowmem@flowmem": true`) {
		t.Fatalf("plugin not enabled in .claude/settings.json:\n%s", s)
	}
	if out, err := p.flowmemErr("doctor"); !strings.Contains(out, "the flowmem plugin") || !strings.Contains(out, "from the flowmem plugin") {
		t.Errorf("doctor does not see the plugin's hook and scout (%v):\n%s", err, out)
	}
	srv, s := reviewSession(t, p)
	if after := p.read(".flow/memory/pitfalls.md"); !lessonRe.MatchString(after) {
		dumpRequests(t, srv)
		t.Fatalf("the plugin's hook did not capture the review:\n%s", after)
	}
	if len(noticeFrom(s, "PostToolUse")) != 1 {
		t.Errorf("notices %q, want one from the plugin's PostToolUse hook", s.Notices())
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// snapshot maps every file under dir to its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".lock" {
			return err
		}
		b, err := os.ReadFile(path)
		out[strings.TrimPrefix(path, dir)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
