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

// revision and modified are the checkout's git revision and whether its
// tracked files had changes ("true"), as make build and make install stamp
// them (-ldflags -X): the toolchain's own stamp is missing where GOFLAGS
// says -buildvcs=false, or in a git worktree (its .git is a file, which the
// toolchain does not take for a repository). Empty in any other build.
var revision, modified string

// BuildVersion names this build: the release in the VERSION file, then
// what the Go toolchain recorded: the module version when built by
// `go install module@version` (or stamped from the checkout), else the VCS
// revision (and whether the tree had uncommitted changes), the toolchain's
// or else the one make stamped. flowmem and flowmem-hook both report it,
// and doctor compares it with the flowmem the hook runs, so two builds of
// one release still tell apart.
func BuildVersion() string {
	return buildVersion(revision, modified)
}

// buildVersion is BuildVersion with rev and modified as make stamped them.
func buildVersion(rev, modified string) string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
			return v + " (module " + mv + ")"
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
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
