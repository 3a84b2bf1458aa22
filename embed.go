// Package flowmem holds the files the flowmem binary carries inside it. It
// sits at the module root because go:embed cannot reach outside the
// package's folder, and the plugin layout wants agents/ at the root.
package flowmem

import _ "embed"

// ScoutAgent is agents/memory-scout.md, the memory-scout subagent that
// `flowmem install` writes to .claude/agents/.
//
//go:embed agents/memory-scout.md
var ScoutAgent []byte
