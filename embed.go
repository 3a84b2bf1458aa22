// Package flowmem holds the files the flowmem binary carries inside it. It
// sits at the module root because go:embed cannot reach outside the
// package's folder, and the plugin layout wants agents/ at the root.
package flowmem

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

// ScoutAgent is agents/memory-scout.md, the memory-scout subagent that
// `flowmem install` writes to .claude/agents/.
//
//go:embed agents/memory-scout.md
var ScoutAgent []byte

// CuratorAgent is agents/memory-curator.md, the memory-curator subagent
// that `flowmem install` writes beside the scout.
//
//go:embed agents/memory-curator.md
var CuratorAgent []byte

//go:embed VERSION
var versionFile string

// Version is the release this source tree is, from the VERSION file: the
// one place it is written (plugin.json and marketplace.json must agree,
// which TestPluginVersions checks).
var Version = strings.TrimSpace(versionFile)

// BuildVersion names this build: the release in the VERSION file, then
// what the Go toolchain recorded: the module version when built by
// `go install module@version` (or stamped from the checkout), else the VCS
// revision (and whether the tree had uncommitted changes). flowmem and
// flowmem-hook both report it, and doctor compares it with the flowmem the
// hook runs, so two builds of one release still tell apart.
func BuildVersion() string {
	v := Version
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
		return v + " (module " + mv + ")"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return v
	}
	rev = rev[:min(len(rev), 12)]
	if modified == "true" {
		rev += ", modified"
	}
	return v + " (rev " + rev + ")"
}
