package flowmem

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// TestPluginVersions: the plugin manifests announce the release that
// VERSION (and so `flowmem --version`) names.
func TestPluginVersions(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(Version) {
		t.Fatalf("VERSION = %q, want a semantic version such as 0.1.0", Version)
	}
	var plugin struct {
		Version string `json:"version"`
	}
	readJSON(t, ".claude-plugin/plugin.json", &plugin)
	if plugin.Version != Version {
		t.Errorf(".claude-plugin/plugin.json version = %q, VERSION = %q", plugin.Version, Version)
	}
	var market struct {
		Plugins []struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"plugins"`
	}
	readJSON(t, ".claude-plugin/marketplace.json", &market)
	for _, p := range market.Plugins {
		if p.Name == "flowmem" && p.Version != Version {
			t.Errorf(".claude-plugin/marketplace.json lists flowmem %q, VERSION = %q", p.Version, Version)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestBuildVersionNamesRevision: a revision make stamped names the build
// (12 hex digits, and whether the tree had changes); none, the release
// alone. (A test binary carries no toolchain stamp to take precedence.)
func TestBuildVersionNamesRevision(t *testing.T) {
	for _, tc := range []struct{ rev, modified, want string }{
		{"0123456789abcdef0123", "", Version + " (rev 0123456789ab)"},
		{"0123456789abcdef0123", "true", Version + " (rev 0123456789ab, modified)"},
		{"", "true", Version},
	} {
		if got := buildVersion(tc.rev, tc.modified); got != tc.want {
			t.Errorf("buildVersion(%q, %q) = %q, want %q", tc.rev, tc.modified, got, tc.want)
		}
	}
}

// TestPseudoVersionNamesRevision: a checkout built by a Go that stamps it
// (a pseudo-version) is named by its revision, as make's stamp names it
// (README: "0.1.0 (rev 4bad22c430be)"), not as a module version nobody
// released; a real module version is named as one.
func TestPseudoVersionNamesRevision(t *testing.T) {
	for _, tc := range []struct {
		mv, rev string
		dirty   bool
		ok      bool
	}{
		{"v0.0.0-20261129154205-6a4a17689b4a", "6a4a17689b4a", false, true},
		{"v0.0.0-20261129154205-6a4a17689b4a+dirty", "6a4a17689b4a", true, true},
		{"v0.1.1-0.20261129154205-6a4a17689b4a", "6a4a17689b4a", false, true},
		{"v0.2.0-rc.1.0.20261129154205-6a4a17689b4a", "6a4a17689b4a", false, true},
		{"v0.1.0", "", false, false},
		{"v0.1.0-rc.1", "", false, false},
		{"v1.2.3-beta-6a4a17689b4a", "", false, false},
		{"v0.0.0-2026112915420x-6a4a17689b4a", "", false, false},
	} {
		rev, dirty, ok := pseudoRevision(tc.mv)
		if rev != tc.rev || dirty != tc.dirty || ok != tc.ok {
			t.Errorf("pseudoRevision(%q) = %q, %v, %v; want %q, %v, %v", tc.mv, rev, dirty, ok, tc.rev, tc.dirty, tc.ok)
		}
	}
	if got, want := withRevision(Version, "6a4a17689b4a", "true"), Version+" (rev 6a4a17689b4a, modified)"; got != want {
		t.Errorf("withRevision = %q, want %q", got, want)
	}
}
