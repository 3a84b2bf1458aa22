// Package flowmem holds the files the flowmem binary carries inside it. It
// sits at the module root because go:embed cannot reach outside the
// package's folder, and the plugin layout wants agents/ at the root.
package flowmem

import (
	_ "embed"
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
