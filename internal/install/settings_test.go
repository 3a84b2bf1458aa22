package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/flowmem/flowmem/internal/jsonedit"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const testCmd = "/usr/local/bin/flowmem hook"

var testHook = HookFor(Project, testCmd, 10)

func ours(cmd string) bool { return IsFlowmemCommand(cmd) || cmd == testCmd }

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// settingsSchema is SchemaStore's Claude Code settings schema, as saved in
// shared/reference.
func settingsSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open("testdata/claude-code-settings.schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		const url = "https://json.schemastore.org/claude-code-settings.json"
		c := jsonschema.NewCompiler()
		if err := c.AddResource(url, doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile(url)
	})
	if schemaErr != nil {
		t.Fatalf("compile settings schema: %v", schemaErr)
	}
	return schema
}

func validate(t *testing.T, data []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("written settings are not JSON: %v\n%s", err, data)
	}
	if err := settingsSchema(t).Validate(inst); err != nil {
		t.Fatalf("written settings fail the schema: %v\n%s", err, data)
	}
}

func topKeys(t *testing.T, data []byte) []string {
	t.Helper()
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	d, err := jsonedit.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range d.Root.Members {
		keys = append(keys, m.Key)
	}
	return keys
}

func TestMergeTable(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // exact expected output; "" skips the exact check
		// roundTrip: uninstall restores the input byte for byte.
		roundTrip bool
	}{
		{
			name: "no file",
			src:  "",
			want: `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
`,
		},
		{
			name: "other keys, four spaces, no final newline",
			src: `{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(npm test:*)", "Read"],
        "deny": []
    },
    "env": {"A": "1"}
}`,
			want: `{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(npm test:*)", "Read"],
        "deny": []
    },
    "env": {"A": "1"},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Bash|Agent",
                "hooks": [
                    {
                        "type": "command",
                        "command": "/usr/local/bin/flowmem hook",
                        "timeout": 10
                    }
                ]
            }
        ],
        "PostToolUseFailure": [
            {
                "matcher": "Bash|Agent",
                "hooks": [
                    {
                        "type": "command",
                        "command": "/usr/local/bin/flowmem hook",
                        "timeout": 10
                    }
                ]
            }
        ]
    }
}`,
			roundTrip: true,
		},
		{
			name: "existing hooks of the user",
			src: `{
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [{"type": "command", "command": "prettier --write", "timeout": 5}]
      }
    ]
  },
  "zeta": true,
  "alpha": 1e3
}
`,
			want: `{
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [{"type": "command", "command": "prettier --write", "timeout": 5}]
      },
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ]
  },
  "zeta": true,
  "alpha": 1e3
}
`,
			roundTrip: true,
		},
		{
			name:      "tabs and CRLF",
			src:       "{\r\n\t\"model\":\"sonnet\",\r\n\t\"hooks\":{}\r\n}\r\n",
			want:      "{\r\n\t\"model\":\"sonnet\",\r\n\t\"hooks\":{\r\n\t\t\"PostToolUse\":[\r\n\t\t\t{\r\n\t\t\t\t\"matcher\":\"Bash|Agent\",\r\n\t\t\t\t\"hooks\":[\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"type\":\"command\",\r\n\t\t\t\t\t\t\"command\":\"/usr/local/bin/flowmem hook\",\r\n\t\t\t\t\t\t\"timeout\":10\r\n\t\t\t\t\t}\r\n\t\t\t\t]\r\n\t\t\t}\r\n\t\t],\r\n\t\t\"PostToolUseFailure\":[\r\n\t\t\t{\r\n\t\t\t\t\"matcher\":\"Bash|Agent\",\r\n\t\t\t\t\"hooks\":[\r\n\t\t\t\t\t{\r\n\t\t\t\t\t\t\"type\":\"command\",\r\n\t\t\t\t\t\t\"command\":\"/usr/local/bin/flowmem hook\",\r\n\t\t\t\t\t\t\"timeout\":10\r\n\t\t\t\t\t}\r\n\t\t\t\t]\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n",
			roundTrip: false, // an emptied "hooks": {} the user had is removed too
		},
		{
			name:      "one line",
			src:       `{"model":"haiku","hooks":{"PostToolUseFailure":[]}}`,
			want:      `{"model":"haiku","hooks":{"PostToolUseFailure":[{"matcher":"Bash|Agent","hooks":[{"type":"command","command":"/usr/local/bin/flowmem hook","timeout":10}]}],"PostToolUse":[{"matcher":"Bash|Agent","hooks":[{"type":"command","command":"/usr/local/bin/flowmem hook","timeout":10}]}]}}`,
			roundTrip: false,
		},
		{
			name: "stale flowmem hook is replaced, not duplicated",
			src: `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "echo mine"},
          {"type": "command", "command": "'/old/path/flowmem' hook", "timeout": 30}
        ]
      }
    ]
  }
}
`,
			want: `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "echo mine"}
        ]
      },
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
`,
		},
		{
			name:      "escapes and unicode kept",
			src:       "{\n  \"statusLine\": {\"type\": \"command\", \"command\": \"echo \\u00e9 \\\"x\\\" <&>\"},\n  \"language\": \"français\"\n}\n",
			roundTrip: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Merge([]byte(tt.src), testHook, ours)
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			if tt.want != "" && string(out) != tt.want {
				t.Errorf("Merge:\n%s\nwant:\n%s\ndiff:\n%s", out, tt.want, Diff("x", []byte(tt.want), out))
			}
			validate(t, out)

			// Every key the user had is still there, in the same order.
			before, after := topKeys(t, []byte(tt.src)), topKeys(t, out)
			var kept []string
			for _, k := range after {
				if slicesContains(before, k) {
					kept = append(kept, k)
				}
			}
			if !reflect.DeepEqual(kept, before) {
				t.Errorf("top-level keys %v became %v", before, after)
			}

			// Idempotent.
			again, err := Merge(out, testHook, ours)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, out) {
				t.Errorf("second Merge changed the file:\n%s", Diff("x", out, again))
			}
			inst, err := Installed(out, ours)
			if err != nil {
				t.Fatal(err)
			}
			if len(inst["PostToolUse"]) != 1 || len(inst["PostToolUseFailure"]) != 1 {
				t.Errorf("Installed = %v, want one handler per event", inst)
			}

			// Uninstall removes exactly what was added.
			back, err := Unmerge(out, ours)
			if err != nil {
				t.Fatal(err)
			}
			if tt.roundTrip && string(back) != tt.src {
				t.Errorf("Unmerge did not restore the input:\n%s", Diff("x", []byte(tt.src), back))
			}
			if inst, _ := Installed(back, ours); len(inst) != 0 {
				t.Errorf("after Unmerge still installed: %v", inst)
			}
			if tt.src != "" {
				assertSameExceptHooks(t, []byte(tt.src), back)
			}
		})
	}
}

// assertSameExceptHooks compares two settings documents ignoring flowmem
// handlers and the empty containers their removal may leave.
func assertSameExceptHooks(t *testing.T, a, b []byte) {
	t.Helper()
	norm := func(data []byte) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if h, ok := m["hooks"].(map[string]any); ok {
			for ev, v := range h {
				var keep []any
				for _, g := range v.([]any) {
					gm := g.(map[string]any)
					var hs []any
					for _, x := range gm["hooks"].([]any) {
						if !ours(x.(map[string]any)["command"].(string)) {
							hs = append(hs, x)
						}
					}
					if len(hs) > 0 {
						gm["hooks"] = hs
						keep = append(keep, gm)
					}
				}
				if len(keep) == 0 {
					delete(h, ev)
				} else {
					h[ev] = keep
				}
			}
			if len(h) == 0 {
				delete(m, "hooks")
			}
		}
		return m
	}
	if x, y := norm(a), norm(b); !reflect.DeepEqual(x, y) {
		t.Errorf("settings changed beyond flowmem's hooks:\n%v\n%v", x, y)
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestMergeRefusesBadShapes(t *testing.T) {
	tests := []struct {
		name, src, msg string
		line, col      int
	}{
		{"trailing comma", "{\n  \"a\": 1,\n}\n", "invalid JSON", 3, 1},
		{"comment", "{\n  // hi\n}", "invalid JSON", 2, 3},
		{"array root", "[]", "must be a JSON object", 1, 1},
		{"hooks is a list", "{\n  \"hooks\": []\n}", `"hooks" must be an object`, 2, 12},
		{"event is an object", `{"hooks": {"PostToolUse": {}}}`, `"PostToolUse" must be an array`, 1, 27},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge([]byte(tt.src), testHook, ours)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Merge error = %v, want *SyntaxError", err)
			}
			if se.Line != tt.line || se.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("error %d:%d %q, want %d:%d containing %q", se.Line, se.Col, se.Msg, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestUnmergeOnlyOurs(t *testing.T) {
	src := `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {"type": "command", "command": "my-linter --fix"},
          {"type": "command", "command": "\"$HOME/bin/flowmem\" hook", "timeout": 10}
        ]
      }
    ],
    "PostToolUseFailure": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "flowmem hook"}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "flowmem-other hook"}]}
    ]
  }
}`
	want := `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash|Agent",
        "hooks": [
          {"type": "command", "command": "my-linter --fix"}
        ]
      }
    ],
    "PostToolUseFailure": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "flowmem-other hook"}]}
    ]
  }
}`
	got, err := Unmerge([]byte(src), ours)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("Unmerge:\n%s", Diff("x", []byte(want), got))
	}
}

func TestIsFlowmemCommand(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"flowmem hook", true},
		{"/usr/local/bin/flowmem hook", true},
		{"'/Users/me/my tools/flowmem' hook", true},
		{`"$CLAUDE_PROJECT_DIR"/.claude/bin/flowmem hook`, true},
		{`C:\tools\flowmem.exe hook`, true},
		{"command -v flowmem >/dev/null 2>&1 || exit 0; exec flowmem hook", true},
		{"flowmem hook --debug", true},
		{"flowmem-hook", true},
		{"'/home/me/go/bin/flowmem-hook'", true},
		{`C:/tools/flowmem-hook.exe`, true},
		{"if command -v flowmem-hook >/dev/null 2>&1; then exec flowmem-hook; fi; command -v flowmem >/dev/null 2>&1 || exit 0; exec flowmem hook", true},
		{"flowmem-hook-debug", false},
		{"flowmem-hook status", false},
		{"flowmem memory read", false},
		{"flowmem-other hook", false},
		{"flowmem hook; rm -rf x", false},
		{"echo flowmem hook | sh", false},
		{"prettier --write", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsFlowmemCommand(tt.cmd); got != tt.want {
			t.Errorf("IsFlowmemCommand(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/flowmem":   "/usr/bin/flowmem",
		"/a b/flowmem":       "'/a b/flowmem'",
		"/it's/flowmem":      `'/it'\''s/flowmem'`,
		"C:/Program Files/x": "'C:/Program Files/x'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
		if words := shellWords(ShellQuote(in) + " hook"); len(words) != 2 || words[0] != in {
			t.Errorf("shellWords(ShellQuote(%q)) = %q", in, words)
		}
	}
}

func TestCodexHook(t *testing.T) {
	out, err := Merge([]byte("{}\n"), HookFor(Codex, testCmd, 0), ours)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/flowmem hook",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
`
	if string(out) != want {
		t.Errorf("codex hooks.json:\n%s", out)
	}
}

func TestDiff(t *testing.T) {
	a := "{\n  \"a\": 1\n}\n"
	b := "{\n  \"a\": 1,\n  \"b\": 2\n}\n"
	want := "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n {\n-  \"a\": 1\n+  \"a\": 1,\n+  \"b\": 2\n }\n"
	if got := Diff("f", []byte(a), []byte(b)); got != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", got, want)
	}
	if got := Diff("f", nil, []byte("x\n")); got != "--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+x\n" {
		t.Errorf("Diff new file: %q", got)
	}
	if Diff("f", []byte(a), []byte(a)) != "" {
		t.Error("Diff of equal files is not empty")
	}
}

// FuzzMerge: no input panics; valid JSON objects in give schema-shaped,
// valid JSON out that keeps the rest of the document, and uninstall then
// leaves no flowmem handler behind.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{
		"", "{}", "{\n  \"a\": 1\n}\n", `{"hooks":{}}`, `{"hooks":{"PostToolUse":[]}}`,
		`{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"flowmem hook"}]}]}}`,
		`{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"x"},{"type":"command","command":"/a/flowmem hook"}]}]},"z":[1,{}]}`,
		`{"hooks":[]}`, `{"a":1,}`, "{\r\n\t\"k\":\"v\"\r\n}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := Merge(src, testHook, ours)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Merge error is not a SyntaxError: %v", err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Merge produced invalid JSON from %q:\n%q", src, out)
		}
		inst, err := Installed(out, ours)
		if err != nil {
			t.Fatalf("Installed: %v", err)
		}
		if len(inst["PostToolUse"]) == 0 || len(inst["PostToolUseFailure"]) == 0 {
			t.Fatalf("hook not installed in %q", out)
		}
		again, err := Merge(out, testHook, ours)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second Merge changed %q to %q (err %v)", out, again, err)
		}
		back, err := Unmerge(out, ours)
		if err != nil {
			t.Fatalf("Unmerge: %v", err)
		}
		if !json.Valid(back) && len(bytes.TrimSpace(back)) > 0 {
			t.Fatalf("Unmerge produced invalid JSON: %q", back)
		}
		if inst, _ := Installed(back, ours); len(inst) != 0 {
			t.Fatalf("Unmerge left %v in %q", inst, back)
		}
	})
}
