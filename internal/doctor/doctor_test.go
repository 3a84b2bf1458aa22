package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	flowmem "github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/internal/install"
	"github.com/flowmem/flowmem/internal/mdstore"
)

// setup builds a project that passes every check: memory on, files
// initialised, union line, hook and scout installed for a fake binary that
// is also on PATH.
func setup(t *testing.T) (Options, string) {
	t.Helper()
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{filepath.Join(proj, ".flow"), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(bin, "flowmem")
	write(t, exe, "#!/bin/sh\necho flowmem version test\n")
	write(t, filepath.Join(bin, "flowmem-hook"), "#!/bin/sh\necho flowmem-hook version test\n")
	for _, f := range []string{exe, filepath.Join(bin, "flowmem-hook")} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(proj, ".flow", "config.json"), `{"memory": {"enabled": true}}`)
	write(t, filepath.Join(proj, ".gitattributes"), UnionLine+"\n"+LogUnionLine+"\n")
	if _, err := mdstore.Open(filepath.Join(proj, ".flow", "memory")).Init(); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if _, err := install.Run(install.Options{Project: proj, Home: home, Command: install.HookCmd}); err != nil {
		t.Fatal(err)
	}
	return Options{
		Dir: proj, Home: home, PathEnv: bin, Exe: exe,
		RunVersion: func(_ context.Context, prog string) (string, error) {
			if _, err := os.Stat(prog); err != nil {
				return "", err
			}
			return "flowmem version test", nil
		},
	}, proj
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func entry(text string, id string) string {
	e := mdstore.Entry{Kind: mdstore.Pitfall, Date: "2026-01-10", Task: "fn-1.1", Issue: text, Fix: "do it right"}
	e.Normalize()
	if id != "" {
		e.ID = id
	}
	return "\n" + mdstore.Render(&e)
}

func find(t *testing.T, rep Report, name string) Check {
	t.Helper()
	for _, c := range rep.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q in %+v", name, rep.Checks)
	return Check{}
}

func TestDoctor(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, o *Options, proj string)
		check  string
		status Status
		detail string // substring of Detail
		fix    string // substring of Fix
	}{
		{name: "all good", check: "hooks", status: OK, detail: "PostToolUse, PostToolUseFailure"},
		{
			name: "no project",
			change: func(t *testing.T, o *Options, proj string) {
				o.Dir = filepath.Dir(proj)
			},
			check: "project", status: Fail, fix: "flowmem init --enable --install",
		},
		{
			name: "memory disabled",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".flow", "config.json"), `{"memory": {"enabled": false}}`)
			},
			check: "memory enabled", status: Fail, fix: "flowmem config set memory.enabled true",
		},
		{
			name: "broken config",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".flow", "config.json"), "{\n  \"memory\": {\"enabled\": true},\n}\n")
			},
			check: "config", status: Fail, detail: "config.json:3:1",
		},
		{
			name: "broken memory file",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".flow", "memory", "pitfalls.md"), "---\nflowmem: [\n---\n")
			},
			check: "memory files", status: Fail, detail: "pitfalls.md:1",
		},
		{
			name: "missing memory file",
			change: func(t *testing.T, o *Options, proj string) {
				os.Remove(filepath.Join(proj, ".flow", "memory", "decisions.md"))
			},
			check: "memory files", status: Warn, fix: "flowmem memory init",
		},
		{
			name: "copies of one lesson",
			change: func(t *testing.T, o *Options, proj string) {
				p := filepath.Join(proj, ".flow", "memory", "pitfalls.md")
				b, _ := os.ReadFile(p)
				write(t, p, string(b)+entry("Same lesson twice", "")+entry("Same lesson twice", ""))
			},
			check: "duplicate ids", status: Warn, detail: "readers fold them",
		},
		{
			name: "two lessons under one id",
			change: func(t *testing.T, o *Options, proj string) {
				p := filepath.Join(proj, ".flow", "memory", "pitfalls.md")
				b, _ := os.ReadFile(p)
				write(t, p, string(b)+entry("First lesson", "p-000000000001")+entry("Other lesson", "p-000000000001"))
			},
			check: "duplicate ids", status: Fail, detail: "p-000000000001 in pitfalls.md",
		},
		{
			name: "no union line",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".gitattributes"), "*.png binary\n")
			},
			check: "gitattributes", status: Fail, fix: "flowmem init",
		},
		{
			name: "no union line for the reviews log",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".gitattributes"), UnionLine+"\n")
			},
			check: "gitattributes", status: Warn, detail: "reviews.jsonl merge=union", fix: "flowmem init",
		},
		{
			name: "no hooks anywhere",
			change: func(t *testing.T, o *Options, proj string) {
				os.Remove(filepath.Join(proj, ".claude", "settings.json"))
			},
			check: "hooks", status: Fail, fix: "flowmem install",
		},
		{
			name: "broken settings",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.local.json"), "{,}")
			},
			check: "hooks", status: Fail, detail: "settings.local.json:1:2: invalid JSON",
		},
		{
			name: "all hooks disabled",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(o.Home, ".claude", "settings.json"), `{"disableAllHooks": true}`)
			},
			check: "hooks", status: Fail, detail: "disableAllHooks is true in ~/.claude/settings.json",
		},
		{
			name: "only PostToolUse",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.json"),
					`{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"flowmem hook"}]}]}}`)
			},
			check: "hooks", status: Warn, detail: "no PostToolUseFailure hook",
		},
		{
			name: "installed twice",
			change: func(t *testing.T, o *Options, proj string) {
				if _, err := install.Run(install.Options{Scope: install.User, Home: o.Home, Command: "flowmem hook", NoScout: true}); err != nil {
					t.Fatal(err)
				}
			},
			check: "hooks", status: Warn, detail: "more than one place, so it runs once per place on every tool call (a review is still recorded once", fix: "keep one: flowmem uninstall --user",
		},
		{
			name: "plugin only",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.json"), `{"enabledPlugins": {"flowmem@flowmem": true}}`)
				os.RemoveAll(filepath.Join(proj, ".claude", "agents"))
			},
			check: "scout", status: OK, detail: "plugin",
		},
		{
			name: "hook binary gone",
			change: func(t *testing.T, o *Options, proj string) {
				if _, err := install.Run(install.Options{Project: proj, Command: "/nonexistent/flowmem hook", NoScout: true}); err != nil {
					t.Fatal(err)
				}
			},
			check: "hook binary", status: Fail, detail: "/nonexistent/flowmem (project hook): no such file",
		},
		{
			name: "hook binary not executable",
			change: func(t *testing.T, o *Options, proj string) {
				if _, err := install.Run(install.Options{Scope: install.Local, Project: proj, Command: o.Exe + " hook", NoScout: true}); err != nil {
					t.Fatal(err)
				}
				os.Chmod(o.Exe, 0o644)
			},
			check: "hook binary", status: Fail, detail: "not executable", fix: "for a hook by path: " + "@EXE@" + " install --local",
		},
		{
			// A teammate's local settings name a path of another machine:
			// reinstalling there rewrites it ('flowmem install' would add
			// a project hook and leave the broken one).
			name: "local hook binary gone",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.json"), `{}`)
				if _, err := install.Run(install.Options{Scope: install.Local, Project: proj, Command: "/home/someone/go/bin/flowmem-hook", NoScout: true}); err != nil {
					t.Fatal(err)
				}
			},
			check: "hook binary", status: Fail, detail: "/home/someone/go/bin/flowmem-hook (local hook): no such file", fix: "reinstall so the hook runs this build: " + "@EXE@" + " install --local (",
		},
		{
			name: "hook binary fails to run",
			change: func(t *testing.T, o *Options, proj string) {
				o.RunVersion = func(context.Context, string) (string, error) { return "", errors.New("exec format error") }
			},
			check: "hook binary", status: Fail, detail: "does not run: exec format error",
		},
		{
			name: "front end without flowmem",
			change: func(t *testing.T, o *Options, proj string) {
				front := filepath.Join(t.TempDir(), "flowmem-hook")
				write(t, front, "#!/bin/sh\n")
				os.Chmod(front, 0o755)
				if _, err := install.Run(install.Options{Project: proj, Command: front, NoScout: true}); err != nil {
					t.Fatal(err)
				}
				o.PathEnv = ""
			},
			check: "hook binary", status: Fail, detail: "finds no flowmem beside it or on PATH",
		},
		{
			name: "front end with flowmem beside it",
			change: func(t *testing.T, o *Options, proj string) {
				dir := t.TempDir()
				for _, n := range []string{"flowmem-hook", "flowmem"} {
					write(t, filepath.Join(dir, n), "#!/bin/sh\n")
					os.Chmod(filepath.Join(dir, n), 0o755)
				}
				if _, err := install.Run(install.Options{Project: proj, Command: filepath.Join(dir, "flowmem-hook"), NoScout: true}); err != nil {
					t.Fatal(err)
				}
			},
			check: "hook binary", status: OK, detail: "flowmem-hook (",
		},
		{
			name: "plugin hook needs flowmem on PATH",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.json"), `{"enabledPlugins": {"flowmem@mkt": true}}`)
				o.PathEnv = ""
			},
			check: "hook binary", status: Fail, detail: "flowmem (plugin hook): not found on PATH",
		},
		{
			name: "scout missing",
			change: func(t *testing.T, o *Options, proj string) {
				os.RemoveAll(filepath.Join(proj, ".claude", "agents"))
			},
			check: "scout", status: Fail, fix: "flowmem install",
		},
		{
			name: "scout edited",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "agents", "memory-scout.md"), "---\nname: memory-scout\ndescription: x\n---\nmine\n")
			},
			check: "scout", status: Warn, fix: "newer flowmem wrote it, update yours instead",
		},
		{
			name: "scout from an earlier flowmem",
			change: func(t *testing.T, o *Options, proj string) {
				old, err := os.ReadFile(filepath.Join("..", "install", "testdata", "memory-scout.c7e2b0d.md"))
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(proj, ".claude", "agents", "memory-scout.md"), string(old))
			},
			check: "scout", status: Warn, detail: "earlier flowmem's copy", fix: "flowmem install (updates it)",
		},
		{
			name: "scout without a name",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "agents", "memory-scout.md"), "---\ndescription: x\n---\nmine\n")
			},
			check: "scout", status: Fail, detail: "Claude Code skips it",
		},
		{
			name: "user scout",
			change: func(t *testing.T, o *Options, proj string) {
				os.RemoveAll(filepath.Join(proj, ".claude", "agents"))
				if _, err := install.Run(install.Options{Scope: install.User, Home: o.Home, Command: o.Exe + " hook"}); err != nil {
					t.Fatal(err)
				}
			},
			check: "scout", status: OK, detail: "~/.claude/agents/memory-scout.md",
		},
		{
			// A teammate pulls the project: the shared hook runs flowmem
			// by name, and there is none on their PATH.
			name: "teammate without flowmem on PATH",
			change: func(t *testing.T, o *Options, proj string) {
				o.PathEnv = "/nonexistent"
			},
			check: "hook binary", status: Fail, detail: "flowmem-hook (project hook): not found on PATH", fix: "make install, and add its folder ($(go env GOBIN), else $(go env GOPATH)/bin)",
		},
		{
			// flowmem built or copied alone: its folder on PATH would
			// still give the hook no flowmem-hook to run.
			name: "teammate with flowmem alone",
			change: func(t *testing.T, o *Options, proj string) {
				o.PathEnv, o.Exe = "/nonexistent", filepath.Join(t.TempDir(), "flowmem")
				write(t, o.Exe, "#!/bin/sh\n")
				os.Chmod(o.Exe, 0o755)
			},
			check: "hook binary", status: Fail, detail: "flowmem-hook (project hook): not found on PATH", fix: "(@EXE@ has no flowmem-hook beside it: make install puts both",
		},
		{
			name: "teammate with another build on PATH",
			change: func(t *testing.T, o *Options, proj string) {
				o.Exe, o.Version = filepath.Join(t.TempDir(), "flowmem"), "0.2.0"
			},
			check: "hook binary", status: Warn, detail: "/flowmem, which is flowmem version test, not this build (flowmem version 0.2.0)", fix: "first on PATH",
		},
		{
			// A hook by absolute path (--local, --user) records with the
			// flowmem beside it, whatever PATH says: only reinstalling
			// with this build points it here.
			name: "local hook of another build",
			change: func(t *testing.T, o *Options, proj string) {
				dir := t.TempDir()
				for _, n := range []string{"flowmem-hook", "flowmem"} {
					write(t, filepath.Join(dir, n), "#!/bin/sh\n")
					os.Chmod(filepath.Join(dir, n), 0o755)
				}
				write(t, filepath.Join(proj, ".claude", "settings.json"), `{}`)
				if _, err := install.Run(install.Options{Scope: install.Local, Project: proj, Command: filepath.Join(dir, "flowmem-hook"), NoScout: true}); err != nil {
					t.Fatal(err)
				}
				o.Exe, o.Version = filepath.Join(t.TempDir(), "flowmem"), "0.2.0"
			},
			check: "hook binary", status: Warn, detail: "(local hook) records with", fix: "/flowmem install --local",
		},
		{
			// The hook is this build by path, but the scout runs flowmem
			// by name, and PATH finds an older one.
			name: "scout reads with another build",
			change: func(t *testing.T, o *Options, proj string) {
				o.Exe, o.Version = filepath.Join(t.TempDir(), "flowmem"), "0.2.0"
			},
			check: "flowmem on PATH", status: Warn, detail: "memory-scout and the curator run 'flowmem' by name", fix: "first on PATH",
		},
		{
			name: "absolute path in the shared settings",
			change: func(t *testing.T, o *Options, proj string) {
				if _, err := install.Run(install.Options{Project: proj, Command: o.Exe + " hook", NoScout: true}); err != nil {
					t.Fatal(err)
				}
			},
			check: "hooks", status: Warn, detail: "runs " + "@EXE@" + " by absolute path", fix: "flowmem install --local",
		},
		{
			name: "scout permission missing",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.json"),
					`{"hooks":{"PostToolUse":[{"matcher":"Bash|Agent","hooks":[{"type":"command","command":"flowmem hook"}]}],"PostToolUseFailure":[{"matcher":"Bash|Agent","hooks":[{"type":"command","command":"flowmem hook"}]}]}}`)
			},
			check: "scout permission", status: Warn, detail: "claude -p refuses it", fix: "flowmem install",
		},
		{
			name: "scout permission in local settings",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions":{"allow":["Bash(flowmem memory read:*)"]}}`)
			},
			check: "scout permission", status: OK, detail: ".claude/settings.json, .claude/settings.local.json",
		},
		{
			name: "judge permission missing",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.json"),
					`{"permissions":{"allow":["Bash(flowmem memory read:*)"]},"hooks":{"PostToolUse":[{"matcher":"Bash|Agent","hooks":[{"type":"command","command":"flowmem hook"}]}],"PostToolUseFailure":[{"matcher":"Bash|Agent","hooks":[{"type":"command","command":"flowmem hook"}]}]}}`)
			},
			check: "judge permission", status: Warn, detail: "claude -p refuses it", fix: "flowmem install",
		},
		{
			name: "judge permission in local settings",
			change: func(t *testing.T, o *Options, proj string) {
				write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions":{"allow":["Bash(flowmem memory judge:*)"]}}`)
			},
			check: "judge permission", status: OK, detail: ".claude/settings.json, .claude/settings.local.json",
		},
		{
			name: "flowmem not on PATH",
			change: func(t *testing.T, o *Options, proj string) {
				o.PathEnv = "/nonexistent"
			},
			check: "flowmem on PATH", status: Fail, detail: "run 'flowmem' by name",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, proj := setup(t)
			if tt.change != nil {
				tt.change(t, &o, proj)
			}
			rep := Run(context.Background(), o)
			c := find(t, rep, tt.check)
			tt.detail = strings.ReplaceAll(tt.detail, "@EXE@", o.Exe)
			tt.fix = strings.ReplaceAll(tt.fix, "@EXE@", o.Exe)
			if c.Status != tt.status || !strings.Contains(c.Detail, tt.detail) || !strings.Contains(c.Fix, tt.fix) {
				t.Errorf("%s = %+v; want status %s, detail ~%q, fix ~%q", tt.check, c, tt.status, tt.detail, tt.fix)
			}
			if want := tt.status != Fail; rep.OK != want && tt.name != "plugin only" {
				t.Errorf("report OK = %v, want %v: %+v", rep.OK, want, rep.Checks)
			}
			if tt.name == "all good" {
				for _, c := range rep.Checks {
					if c.Status != OK {
						t.Errorf("healthy setup: %+v", c)
					}
				}
			}
		})
	}
}

// TestMessagesBounded: on a large store every message stays readable: the
// first few ids and a count, never one line per duplicate.
func TestMessagesBounded(t *testing.T) {
	o, proj := setup(t)
	p := filepath.Join(proj, ".flow", "memory", "pitfalls.md")
	b, _ := os.ReadFile(p)
	var sb strings.Builder
	sb.Write(b)
	for range 500 {
		sb.WriteString(entry("One lesson copied many times", ""))
	}
	for i := range 2000 {
		e := entry(fmt.Sprintf("Lesson number %d", i), "")
		sb.WriteString(e + e)
	}
	write(t, p, sb.String())
	rep := Run(context.Background(), o)
	c := find(t, rep, "duplicate ids")
	if c.Status != Warn || !strings.Contains(c.Detail, "… and 1998 more (2001 in all)") {
		t.Errorf("duplicate ids = %s %q", c.Status, c.Detail)
	}
	for _, c := range rep.Checks {
		if len(c.Detail) > 600 || len(c.Fix) > 600 {
			t.Errorf("%s: %d characters of detail, %d of fix:\n%.300s…", c.Name, len(c.Detail), len(c.Fix), c.Detail)
		}
	}
}

// TestHasName: the agent's name is read from a top-level front matter line,
// plain or quoted; a nested key, another name or an unclosed block is not
// it.
func TestHasName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want bool
	}{
		{"---\nname: memory-scout\n---\nbody\n", true},
		{"---\r\ndescription: x\r\nname: \"memory-scout\"\r\n---\r\n", true},
		{"---\nname: 'memory-scout'  # the scout\ntools: Bash\n---\n", true},
		{"---\nname: memory-scout-old\n---\n", false},
		{"---\nmeta:\n  name: memory-scout\n---\n", false},
		{"---\nname: memory-scout\n", false},
		{"name: memory-scout\n", false},
		{"---\n---\nname: memory-scout\n---\n", false},
		{"", false},
	} {
		p := filepath.Join(t.TempDir(), "agent.md")
		write(t, p, c.text)
		if got := hasName(p, "memory-scout"); got != c.want {
			t.Errorf("hasName(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// FuzzHasName: any agent file is read without a panic, and a name is found
// only in a front matter that says it on a line of its own.
func FuzzHasName(f *testing.F) {
	for _, s := range []string{"---\nname: memory-scout\n---\n", "---\r\nname: \"memory-scout\" # x\r\n---", "---\nname:\n---\n", "---\nname: '\n---\n", "---\n\n---"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		p := filepath.Join(dir, "agent.md")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if !hasName(p, "memory-scout") {
			return
		}
		fm, _, _ := strings.Cut(strings.ReplaceAll(s, "\r\n", "\n"), "\n---")
		if !strings.HasPrefix(s, "---") || !strings.Contains(fm, "\nname:") || !strings.Contains(fm, "memory-scout") {
			t.Errorf("hasName true for %q", s)
		}
	})
}

// TestDoctorCodexOnly: a project set up for Codex CLI alone (install
// --codex, no Claude Code settings or agents) is healthy: Codex runs the
// hook and has no subagents, so the Claude Code checks do not apply.
func TestDoctorCodexOnly(t *testing.T) {
	o, proj := setup(t)
	if err := os.RemoveAll(filepath.Join(proj, ".claude")); err != nil {
		t.Fatal(err)
	}
	if _, err := install.Run(install.Options{Project: proj, Home: o.Home, Command: install.HookCmd, Scope: install.Codex}); err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), o)
	if !rep.OK {
		t.Errorf("a Codex-only setup fails: %+v", rep.Checks)
	}
	if c := find(t, rep, "hooks"); c.Status != OK || !strings.Contains(c.Detail, ".codex/hooks.json") {
		t.Errorf("hooks = %+v, want ok naming .codex/hooks.json", c)
	}
	for _, name := range []string{"scout", "scout permission", "judge permission", "curator"} {
		if c := find(t, rep, name); c.Status != Skip || !strings.Contains(c.Detail, "Codex") {
			t.Errorf("%s = %+v, want skipped for Codex", name, c)
		}
	}
	// With Claude Code's hook gone but its scout left behind, the scout
	// is still reported as it is.
	write(t, filepath.Join(proj, ".claude", "agents", install.Scout.File), string(flowmem.ScoutAgent))
	if c := find(t, Run(context.Background(), o), "scout"); c.Status != OK {
		t.Errorf("scout installed beside a Codex hook = %+v, want ok", c)
	}
}
