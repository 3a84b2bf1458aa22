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
// `go install module@version`, else the VCS revision (and whether the tree
// had uncommitted changes), the toolchain's (as a pseudo-version or as vcs
// settings) or else the one make stamped. flowmem and flowmem-hook both report it,
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
			if r, dirty, ok := pseudoRevision(mv); ok {
				// Go 1.24+ stamps a git checkout's build with a
				// pseudo-version: it names the same revision make would.
				rev, modified = r, ""
				if dirty {
					modified = "true"
				}
				return withRevision(v, rev, modified)
			}
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
	return withRevision(v, rev, modified)
}

// withRevision is the release v named with a revision (12 hex digits) and
// whether the tree had changes; v alone without one.
func withRevision(v, rev, modified string) string {
	if rev == "" {
		return v
	}
	rev = rev[:min(len(rev), 12)]
	if modified == "true" {
		rev += ", modified"
	}
	return v + " (rev " + rev + ")"
}

// pseudoRevision reads the revision out of a Go pseudo-version
// (v0.0.0-20261129154205-6a4a17689b4a, v0.1.1-0.20261129154205-…, with
// +dirty when the tree had changes): a build of a checkout, not a release
// of the module.
func pseudoRevision(mv string) (rev string, dirty bool, ok bool) {
	mv, dirty = strings.CutSuffix(mv, "+dirty")
	i := strings.LastIndexByte(mv, '-')
	if i < 0 || len(mv)-i-1 != 12 {
		return "", false, false
	}
	rev, rest := mv[i+1:], mv[:i]
	j := strings.LastIndexAny(rest, "-.")
	if j < 0 || len(rest)-j-1 != 14 {
		return "", false, false
	}
	for _, c := range rest[j+1:] {
		if c < '0' || c > '9' {
			return "", false, false
		}
	}
	for _, c := range rev {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false, false
		}
	}
	return rev, dirty, true
}
