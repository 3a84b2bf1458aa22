package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrimeAndPermissionRoundTrip: install adds the hook, the SessionStart
// prime and the permission rules (the scout's, the model's memory judge)
// to whatever the settings file holds;
// uninstall takes exactly those out again, byte for byte.
func TestPrimeAndPermissionRoundTrip(t *testing.T) {
	starts := map[string]string{
		"absent":        "",
		"empty object":  "{}\n",
		"other allow":   "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test:*)\"],\n    \"deny\": [\"Read(./.env)\"]\n  }\n}\n",
		"deny only":     "{\"permissions\": {\"deny\": [\"WebFetch\"]}}\n",
		"other session": "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}]}}\n",
		"inline":        "{\"model\":\"opus\",\"permissions\":{\"allow\":[\"Read\"]}}",
	}
	for name, start := range starts {
		t.Run(name, func(t *testing.T) {
			proj := t.TempDir()
			path := filepath.Join(proj, ".claude", "settings.json")
			if start != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(start), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := Options{Project: proj, Command: HookCmd, Prime: PrimeCmd}
			if _, err := Run(opts); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			for _, rule := range []string{ScoutPermission, JudgePermission} {
				if !HasAllow(got, rule) {
					t.Errorf("no %s:\n%s", rule, got)
				}
			}
			inst, err := Installed(got, IsPrimeCommand)
			if err != nil || len(inst["SessionStart"]) != 1 || inst["SessionStart"][0] != PrimeCmd {
				t.Errorf("SessionStart prime = %v (%v):\n%s", inst, err, got)
			}
			if strings.Contains(string(got), `"matcher": ""`) {
				t.Errorf("the SessionStart group has an empty matcher:\n%s", got)
			}
			// Again: unchanged.
			if res, err := Run(opts); err != nil || res.Settings.Action != "unchanged" {
				t.Errorf("second install: %+v %v", res.Settings, err)
			}
			if _, err := Uninstall(Options{Project: proj}); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(path)
			if isEmptyObject([]byte(start)) {
				if err == nil { // as for the hooks alone: such a file is install's
					t.Errorf("uninstall left a file holding only flowmem's settings:\n%s", after)
				}
				return
			}
			if string(after) != start {
				t.Errorf("uninstall left\n%s\nwant\n%s", after, start)
			}
		})
	}
}

func TestIsPrimeCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"flowmem memory prime --session-start":                 true,
		"/home/me/go/bin/flowmem memory prime --session-start": true,
		"'/opt/my tools/flowmem' memory prime --session-start": true,
		"flowmem memory prime":                                 true,
		"flowmem memory read --relevant x":                     false,
		"echo flowmem memory prime x":                          false,
		"other memory prime --session-start":                   false,
		"flowmem hook":                                         false,
	} {
		if got := IsPrimeCommand(cmd); got != want {
			t.Errorf("IsPrimeCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}
