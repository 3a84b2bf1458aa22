package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/e2e/standin"
)

// curatorMarker is a line of agents/memory-curator.md, which tells the
// curator's requests apart.
const curatorMarker = "You are flowmem's memory curator."

// The model calls the memory-curator; it runs on sonnet with only Bash and
// Read, asks flowmem for candidate groups, merges the duplicates, and its
// merge reaches the store while the near miss stays apart.
func TestCuratorMergesDuplicates(t *testing.T) {
	t.Parallel()
	if !bytes.Contains(flowmem.CuratorAgent, []byte(curatorMarker)) {
		t.Fatalf("agents/memory-curator.md no longer contains the marker %q", curatorMarker)
	}
	p := newProject(t)
	p.flowmem("init", "--enable", "--install")
	// flowmem install wrote the curator beside the scout, and the
	// permissions it runs its commands with (none are passed below).
	if got := p.read(filepath.Join(".claude", "agents", "memory-curator.md")); got != string(flowmem.CuratorAgent) {
		t.Fatalf("flowmem install did not write the curator:\n%s", got)
	}
	add := func(text, fix, task string) string {
		var out struct {
			Entry struct{ ID string } `json:"entry"`
		}
		if err := json.Unmarshal([]byte(p.flowmem("memory", "add", "--json", "--type", "pitfall", text, "--fix", fix, "--task", task)), &out); err != nil {
			t.Fatal(err)
		}
		return out.Entry.ID
	}
	first := add("The hook reads stdin with io.ReadAll and hangs when Claude Code leaves stdin open", "decode one JSON object with json.Decoder", "fn-1.1")
	second := add("io.ReadAll on stdin hangs the hook because stdin is never closed", "decode exactly one JSON object and return", "fn-2.3")
	other := add("Tests create temp files with os.MkdirTemp and never remove them", "use t.TempDir()", "fn-3.1")

	var groups string
	curator := standin.Conversation{
		Name:  "curator",
		Match: standin.SystemContains(curatorMarker),
		Step: func(r *standin.Request, step int) standin.Reply {
			switch step {
			case 0:
				return standin.Bash("flowmem memory curate --json --limit 20")
			case 1:
				// Like the curator's model: read the groups, judge the one
				// about stdin a duplicate and merge it.
				groups = r.LastToolResult()
				var got struct {
					Groups []struct {
						Entries []struct{ ID, Text string } `json:"entries"`
					} `json:"groups"`
				}
				if err := json.Unmarshal([]byte(groups), &got); err != nil || len(got.Groups) == 0 {
					return standin.Text("Memory curation FAILED: " + groups)
				}
				var ids []string
				for _, e := range got.Groups[0].Entries {
					ids = append(ids, e.ID)
				}
				return standin.Bash("flowmem memory merge " + strings.Join(ids, " "))
			default:
				return standin.Text("## Memory Curation\nMerged:\n- " + second + " into " + first + ": the same hang on an open stdin, the same fix\nLeft apart:\n- none")
			}
		},
	}
	main := standin.Conversation{Name: "main", Match: standin.Not(standin.SystemContains(curatorMarker)), Steps: []standin.Reply{
		{ToolUses: []standin.ToolUse{{Name: "Agent", Input: map[string]any{
			"description":       "Curate project memory",
			"prompt":            "Curate the project memory: merge lessons stored twice.",
			"subagent_type":     "memory-curator",
			"run_in_background": false,
		}}}},
		standin.Text("Memory curated."),
	}}
	srv := startStandin(t, curator, main)
	defer func() {
		if t.Failed() {
			dumpRequests(t, srv)
		}
	}()
	settings := p.read(filepath.Join(".claude", "settings.json"))
	for _, rule := range []string{"Bash(flowmem memory curate:*)", "Bash(flowmem memory merge:*)"} {
		if !strings.Contains(settings, rule) {
			t.Errorf("flowmem install did not allow %s:\n%s", rule, settings)
		}
	}
	// As the scout's test does, the session is given the rules directly:
	// with 2.1.330 in a fresh HOME, the project's allow rules did not let
	// the subagent's curate run in -p mode (a permission denial).
	s := p.claude(srv, "Curate the project memory", "Bash(flowmem memory curate:*)", "Bash(flowmem memory merge:*)")
	if d, ok := s.Result["permission_denials"].([]any); ok && len(d) > 0 {
		t.Errorf("permission denials: %v", d)
	}

	creqs := srv.ConversationRequests("curator")
	if len(creqs) < 3 {
		t.Fatalf("the memory-curator made %d requests, want 3 (curate, merge, answer)", len(creqs))
	}
	for _, r := range creqs {
		if !strings.Contains(r.Model, "sonnet") {
			t.Errorf("curator ran on model %q, want sonnet", r.Model)
		}
		tools := slices.Clone(r.Tools)
		slices.Sort(tools)
		if !slices.Equal(tools, []string{"Bash", "Read"}) {
			t.Errorf("curator had tools %v, want only Bash and Read", r.Tools)
		}
	}
	if !strings.Contains(groups, first) || !strings.Contains(groups, second) || strings.Contains(groups, other) {
		t.Errorf("curate --json did not propose exactly the two stdin lessons:\n%s", groups)
	}
	if merged := creqs[2].LastToolResult(); !strings.Contains(merged, "merged "+second+" into "+first) {
		t.Errorf("the merge did not run; the curator saw:\n%s", merged)
	}

	var shown struct {
		Entry struct {
			Seen       int      `json:"seen"`
			Tasks      []string `json:"tasks"`
			Status     string   `json:"status"`
			MergedInto string   `json:"merged_into"`
		} `json:"entry"`
	}
	if err := json.Unmarshal([]byte(p.flowmem("memory", "show", "--json", first)), &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Entry.Seen != 2 || shown.Entry.Status != "active" || !slices.Equal(shown.Entry.Tasks, []string{"fn-1.1", "fn-2.3"}) {
		t.Errorf("survivor after the merge: %+v", shown.Entry)
	}
	if err := json.Unmarshal([]byte(p.flowmem("memory", "show", "--json", second)), &shown); err != nil {
		t.Fatal(err)
	}
	if shown.Entry.Status != "archived" || shown.Entry.MergedInto != first {
		t.Errorf("merged entry: %+v, want archived into %s", shown.Entry, first)
	}
	if list := p.flowmem("memory", "list", "--json"); !strings.Contains(list, `"total": 2`) {
		t.Errorf("memory list after the merge:\n%s", list)
	}

	mreqs := srv.ConversationRequests("main")
	if len(mreqs) < 2 {
		t.Fatalf("main conversation made %d requests, want 2", len(mreqs))
	}
	if got := mreqs[1].LastToolResult(); !strings.Contains(got, "## Memory Curation") || !strings.Contains(got, second+" into "+first) {
		t.Errorf("the curator's report did not reach the main conversation:\n%s", got)
	}
}

// The curator is a valid agent of the plugin, with the tools and model its
// instructions assume, and the binary carries the file as it is.
func TestCuratorAgentValidates(t *testing.T) {
	t.Parallel()
	bin := claudeBin(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "plugin", "validate", "--strict", ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Validation passed") || !strings.Contains(string(out), "agents: flowmem:memory-curator") {
		t.Errorf("claude plugin validate --strict . does not accept the curator: %v\n%s", err, out)
	}
	agent := mustRead(t, filepath.Join(root, "agents", "memory-curator.md"))
	front, _, _ := strings.Cut(strings.TrimPrefix(string(agent), "---\n"), "\n---\n")
	for _, line := range []string{"name: memory-curator", "tools: Bash, Read", "model: sonnet"} {
		if !slices.Contains(strings.Split(front, "\n"), line) {
			t.Errorf("memory-curator front matter lacks %q", line)
		}
	}
	if !bytes.Equal(agent, flowmem.CuratorAgent) {
		t.Error("the embedded curator differs from agents/memory-curator.md")
	}
}
