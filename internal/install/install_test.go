package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem"
)

func opts(dir string) Options {
	return Options{Project: dir, Home: filepath.Join(dir, "home"), Command: testCmd}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestRunAndUninstall(t *testing.T) {
	dir := t.TempDir()
	res, err := Run(opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(dir, ".claude", "settings.json")
	scout := filepath.Join(dir, ".claude", "agents", "memory-scout.md")
	if res.Settings.Action != "created" || res.Scout.Action != "created" {
		t.Errorf("first install: %+v %+v", res.Settings, *res.Scout)
	}
	validate(t, read(t, settings))
	if !bytes.Equal(read(t, scout), flowmem.ScoutAgent) {
		t.Error("scout is not the embedded copy")
	}

	res, err = Run(opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if res.Settings.Action != "unchanged" || res.Scout.Action != "unchanged" {
		t.Errorf("second install: %+v %+v", res.Settings, *res.Scout)
	}

	res, err = Uninstall(opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if res.Settings.Action != "removed" || res.Scout.Action != "removed" {
		t.Errorf("uninstall: %+v %+v", res.Settings, *res.Scout)
	}
	if exists(filepath.Join(dir, ".claude")) {
		t.Error("uninstall left .claude/ behind")
	}
}

func TestRunKeepsUserFiles(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	scout := filepath.Join(dir, ".claude", "agents", "memory-scout.md")
	orig := "{\n    \"model\": \"opus\"\n}\n"
	edited := "---\nname: memory-scout\ndescription: mine\n---\nmy own scout\n"
	for p, s := range map[string]string{settings: orig, scout: edited} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if res.Settings.Action != "updated" || res.Scout.Action != "kept" || !strings.Contains(res.Scout.Reason, "--force") {
		t.Errorf("install over user files: %+v %+v", res.Settings, *res.Scout)
	}
	if string(read(t, scout)) != edited {
		t.Error("edited scout was overwritten without --force")
	}
	if fi, _ := os.Stat(settings); fi.Mode().Perm() != 0o600 {
		t.Errorf("settings mode changed to %v", fi.Mode().Perm())
	}

	// Uninstall keeps the edited scout and restores the settings bytes.
	res, err = Uninstall(opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if res.Scout.Action != "kept" || string(read(t, scout)) != edited {
		t.Errorf("uninstall touched the edited scout: %+v", *res.Scout)
	}
	if got := string(read(t, settings)); got != orig {
		t.Errorf("uninstall left:\n%s", got)
	}

	o := opts(dir)
	o.Force = true
	if res, err = Run(o); err != nil || res.Scout.Action != "updated" {
		t.Fatalf("install --force: %+v %v", res.Scout, err)
	}
	if !bytes.Equal(read(t, scout), flowmem.ScoutAgent) {
		t.Error("--force did not replace the scout")
	}
}

func TestRunRefusesInvalidJSON(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	bad := "{\n  \"model\": \"opus\",\n}\n"
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(settings, old, old); err != nil {
		t.Fatal(err)
	}
	for name, run := range map[string]func(Options) (Result, error){"install": Run, "uninstall": Uninstall} {
		_, err := run(opts(dir))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%s: error = %v, want *SyntaxError", name, err)
		}
		if want := settings + ":3:1: invalid JSON"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %q, want prefix %q", name, err, want)
		}
	}
	if string(read(t, settings)) != bad {
		t.Error("invalid settings file was changed")
	}
	if fi, _ := os.Stat(settings); !fi.ModTime().Equal(old) {
		t.Error("invalid settings file was rewritten")
	}
	if exists(filepath.Join(dir, ".claude", "agents")) {
		t.Error("scout written although settings were refused")
	}
	entries, _ := os.ReadDir(filepath.Dir(settings))
	if len(entries) != 1 {
		t.Errorf("stray files in .claude: %v", entries)
	}
}

func TestSymlinkedSettingsStayLinked(t *testing.T) {
	dir := t.TempDir()
	dotfiles := filepath.Join(dir, "dotfiles", "settings.json")
	link := filepath.Join(dir, ".claude", "settings.json")
	for _, d := range []string{filepath.Dir(dotfiles), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(dotfiles, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dotfiles, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if _, err := Run(opts(dir)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("settings symlink replaced by a file (%v)", err)
	}
	if !strings.Contains(string(read(t, dotfiles)), testCmd) {
		t.Error("the link's target did not get the hook")
	}
	if _, err := Uninstall(opts(dir)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 || string(read(t, dotfiles)) != "{}\n" {
		t.Errorf("uninstall through a symlink: %v, target %q", err, read(t, dotfiles))
	}
}

func TestDryRun(t *testing.T) {
	dir := t.TempDir()
	o := opts(dir)
	o.DryRun = true
	res, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Join(dir, ".claude")) {
		t.Fatal("dry run wrote files")
	}
	if !strings.HasPrefix(res.Settings.Diff, "--- /dev/null\n+++ b/") || !strings.Contains(res.Settings.Diff, `+            "command": "/usr/local/bin/flowmem hook",`) {
		t.Errorf("dry-run diff:\n%s", res.Settings.Diff)
	}
	if res.Scout == nil || res.Scout.Action != "created" || res.Scout.Diff == "" {
		t.Errorf("dry-run scout: %+v", res.Scout)
	}
}

func TestScopes(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		scope           Scope
		settings, scout string
	}{
		{Local, ".claude/settings.local.json", ".claude/agents/memory-scout.md"},
		{User, "home/.claude/settings.json", "home/.claude/agents/memory-scout.md"},
		{Codex, ".codex/hooks.json", ""},
	} {
		o := opts(dir)
		o.Scope = tt.scope
		res, err := Run(o)
		if err != nil {
			t.Fatalf("%s: %v", tt.scope, err)
		}
		if res.Settings.Path != filepath.Join(dir, tt.settings) || !exists(res.Settings.Path) {
			t.Errorf("%s: settings at %s", tt.scope, res.Settings.Path)
		}
		if tt.scout == "" && res.Scout != nil {
			t.Errorf("%s: scout %+v, want none", tt.scope, res.Scout)
		}
		if tt.scout != "" && (res.Scout == nil || res.Scout.Path != filepath.Join(dir, tt.scout)) {
			t.Errorf("%s: scout %+v", tt.scope, res.Scout)
		}
	}
	if _, err := Run(Options{Scope: User, Command: testCmd}); err == nil {
		t.Error("user scope without HOME did not fail")
	}
}

func TestHookCommand(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "cellar", "flowmem-1.2", "flowmem")
	bin := filepath.Join(dir, "my bin")
	for _, d := range []string{filepath.Dir(real), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := HookCommand(real, "/nonexistent:relative")
	if err != nil || got != filepath.ToSlash(real)+" hook" {
		t.Errorf("HookCommand = %q, %v", got, err)
	}
	if err := os.Symlink(real, filepath.Join(bin, "flowmem")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	got, err = HookCommand(real, "/nonexistent"+string(os.PathListSeparator)+bin)
	if want := ShellQuote(filepath.ToSlash(filepath.Join(bin, "flowmem"))) + " hook"; err != nil || got != want {
		t.Errorf("HookCommand via PATH = %q, %v; want %q", got, err, want)
	}
	if !IsFlowmemCommand(got) || HookProgram(got) != filepath.Join(bin, "flowmem") {
		t.Errorf("own command not recognised: %q → %q", got, HookProgram(got))
	}
	if _, err := HookCommand(filepath.Join(dir, "missing"), ""); err == nil {
		t.Error("missing binary accepted")
	}

	// With flowmem-hook installed beside flowmem, the hook runs it.
	front := filepath.Join(filepath.Dir(real), FrontName)
	if err := os.WriteFile(front, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := HookCommand(real, ""); got != filepath.ToSlash(real)+" hook" {
		t.Errorf("a non-executable flowmem-hook was used: %q", got)
	}
	if err := os.Chmod(front, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err = HookCommand(real, "")
	if err != nil || got != filepath.ToSlash(front) {
		t.Errorf("HookCommand with flowmem-hook beside = %q, %v; want %q", got, err, front)
	}
	if !IsFlowmemCommand(got) || HookProgram(got) != front {
		t.Errorf("front-end command not recognised: %q → %q", got, HookProgram(got))
	}
}

// TestUninstallKeepsUsersOwnRules: a permission rule the user had before
// flowmem was installed (the scout's, added by hand from the README) is
// theirs: uninstall removes only what install added, and restores the
// file's bytes, however often install ran in between.
func TestUninstallKeepsUsersOwnRules(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	orig := "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm test:*)\",\n      \"" + ScoutPermission + "\"\n    ]\n  }\n}\n"
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := Run(opts(dir)); err != nil {
			t.Fatal(err)
		}
	}
	validate(t, read(t, settings))
	res, err := Uninstall(opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, settings)); got != orig {
		t.Errorf("uninstall left:\n%s\nwant the file as it was:\n%s", got, orig)
	}
	if strings.Contains(strings.Join(res.AllowRules, " "), ScoutPermission) {
		t.Errorf("uninstall reports removing the user's own rule: %v", res.AllowRules)
	}

	// Installed again, then uninstalled: still the user's.
	if _, err := Run(opts(dir)); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(opts(dir)); err != nil {
		t.Fatal(err)
	}
	if got := string(read(t, settings)); got != orig {
		t.Errorf("second uninstall left:\n%s", got)
	}
}

// TestReinstallAfterHooksRemovedByHand: a user who deletes flowmem's hooks
// from the settings by hand and installs again has flowmem's permission
// rules still in the file. Those are flowmem's, not theirs: install took
// every rule it found for the user's (no flowmem hook there, so "before
// flowmem's first install"), and uninstall then left them all behind. A
// rule the user had before the first install stays theirs.
func TestReinstallAfterHooksRemovedByHand(t *testing.T) {
	for _, c := range []struct {
		name  string
		orig  []any // permissions.allow before the first install
		after []any // permissions.allow after the final uninstall
	}{
		{"no rules of the user's", nil, nil},
		{"the scout's rule added by hand", []any{"Bash(npm test:*)", ScoutPermission}, []any{"Bash(npm test:*)", ScoutPermission}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			settings := filepath.Join(dir, ".claude", "settings.json")
			orig := map[string]any{"model": "opus"}
			if c.orig != nil {
				orig["permissions"] = map[string]any{"allow": c.orig}
			}
			write := func(v map[string]any) {
				t.Helper()
				b, err := json.MarshalIndent(v, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(settings, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			load := func() map[string]any {
				t.Helper()
				var v map[string]any
				if err := json.Unmarshal(read(t, settings), &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
			write(orig)
			if _, err := Run(opts(dir)); err != nil {
				t.Fatal(err)
			}
			// The user removes the hooks by hand and leaves the rest.
			v := load()
			delete(v, "hooks")
			write(v)
			if _, err := Run(opts(dir)); err != nil {
				t.Fatal(err)
			}
			if _, err := Uninstall(opts(dir)); err != nil {
				t.Fatal(err)
			}
			var allow []any
			if p, ok := load()["permissions"].(map[string]any); ok {
				allow, _ = p["allow"].([]any)
			}
			if !reflect.DeepEqual(allow, c.after) {
				t.Errorf("after uninstall permissions.allow is %v, want %v:\n%s", allow, c.after, read(t, settings))
			}
			if _, left := load()[LeaveKey]; left {
				t.Errorf("uninstall left %s:\n%s", LeaveKey, read(t, settings))
			}
		})
	}
}

// TestForcedInstallRefusesForeignAgentLinks: a repository can commit
// .claude/agents/memory-scout.md as a link to a file of the user's (a shell
// profile); install --force must not replace that file with the agent. A
// link to a file of the agent's own name (agents kept in a dotfiles
// repository) is still followed.
func TestForcedInstallRefusesForeignAgentLinks(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "home", ".profile")
	scout := filepath.Join(dir, ".claude", "agents", "memory-scout.md")
	for _, d := range []string{filepath.Dir(profile), filepath.Dir(scout)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const mine = "export EDITOR=vi\n"
	if err := os.WriteFile(profile, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(profile, scout); err != nil {
		t.Skip("no symlinks:", err)
	}
	o := opts(dir)
	o.Force = true
	_, err := Run(o)
	if err == nil || !strings.Contains(err.Error(), "links to") {
		t.Errorf("install --force through a link to .profile: err %v, want a refusal", err)
	}
	if got := string(read(t, profile)); got != mine {
		t.Errorf(".profile was overwritten: %.60q", got)
	}
	if exists(filepath.Join(dir, ".claude", "settings.json")) {
		t.Error("settings written although the install was refused")
	}
	_, err = Uninstall(o)
	if err != nil {
		t.Errorf("uninstall --force with the foreign link: %v", err)
	}
	if got := string(read(t, profile)); got != mine {
		t.Errorf("uninstall changed .profile: %.60q", got)
	}

	shared := filepath.Join(dir, "dotfiles", "memory-scout.md")
	for _, d := range []string{filepath.Dir(shared), filepath.Dir(scout)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(shared, []byte("old scout\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(scout); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, scout); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(o); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(t, shared), flowmem.ScoutAgent) {
		t.Error("a link to a shared memory-scout.md did not get the scout")
	}
}
