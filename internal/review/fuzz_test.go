package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtract feeds arbitrary text through the whole pipeline: nothing may
// panic, and every field must stay one bounded line of valid UTF-8, because
// a store writes each field as one markdown line.
func FuzzExtract(f *testing.F) {
	// Real reviews only: the development sets, never the blind one.
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "review", "dev", "*.md"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "review", "real", "dev", "*.md"))
	files = append(files, more...)
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		"", "**", "- **Severity**:", "**Severity: **", "<findings>[{}]</findings>", "<findings>[{\"problem\":\"\\u2028x\"}]</findings>",
		"## FINDING 1 — BLOCKER —", "| Finding |\n|---|\n| x |", "**Problem:** a\u2028b\r\nc", "1. **[P1]**",
		"<verdict>NEEDS_WORK</verdict>\n- x", "- **Blocking — .**", "Fix: Fix: Fix:",
		"**[SEC-2]**", "[A-1]", "**[", "- **Verdict**: a\n- **Verdict**: b", "Score 9/10 – merge after",
		"## 1. A\n### Issues\n- x", "**H1. a\nb.** c\n\n**H2. d", "- Recommendation: once",
		"### 1.3 `a` leaks [FIXED]\n`a.go`", "1. **T.**  \n   Relevant files: `a`.\n2. **U.**", "- No tests", "[x]: docs",
		"┌─┬─┐\n│ Sev │ Finding │\n├─┼─┤\n│ High │ a │\n│ │ b │\n└─┴─┘", "╔═\n║ x ║\n┃ y", "┌\n│\n├\n│ │ │ │\n└",
		"### 2. A\n#### B-1 x\n#### B-2 y", "[WARNING] W-1: `a`",
		strings.Repeat("> ", 40) + "x", strings.Repeat("- ", 30) + "1) x", strings.Repeat(" ", 90) + "> - y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a := Analyze(text)
		if len(a.Decisions) != len(a.Findings) {
			t.Fatalf("%d decisions for %d findings", len(a.Decisions), len(a.Findings))
		}
		for i, fd := range a.Findings {
			checkFinding(t, fd)
			if a.Decisions[i].Reason == "" || a.Decisions[i].Category == "" {
				t.Fatalf("decision without reason or category: %+v", a.Decisions[i])
			}
		}
	})
}

// FuzzUnwrap: any input unwraps without panicking, to text no longer than
// valid UTF-8 input (a wrapper only ever removes), with a verdict that is one of
// the three known ones or none.
func FuzzUnwrap(f *testing.F) {
	for _, s := range []string{
		"", "{", `{"review":"x","verdict":"NEEDS_WORK","id":"fn-1.2"}`, "VERDICT=SHIP",
		`{"type":"item.completed","item":{"type":"agent_message","text":"a"}}` + "\nVERDICT=NEEDS_WORK",
		`{"type":"result","result":"r"}`, `{"msg":{"type":"agent_message","message":"m"}}`,
		`{"review":"{\"review\":\"{\\\"review\\\":\\\"deep\\\"}\"}"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u := Unwrap(raw)
		if utf8.ValidString(raw) && len(u.Text) > len(raw) {
			t.Fatalf("unwrapped text longer than input: %d > %d", len(u.Text), len(raw))
		}
		if u.Verdict != "" && u.Verdict != string(NeedsWork) && u.Verdict != string(Ship) && u.Verdict != string(MajorRethink) {
			t.Fatalf("verdict %q is not a known one", u.Verdict)
		}
	})
}
