package install

import (
	"bytes"
	"path/filepath"

	"github.com/flowmem/flowmem"
)

// CuratorFile is the memory-curator subagent's file name, beside the scout.
const CuratorFile = "memory-curator.md"

// CuratorPermissions let the memory-curator run its commands without
// asking: curate proposes, show reads one entry whole, merge joins. Claude
// Code asks before any Bash command without a rule, reading or not, and
// claude -p refuses it.
var CuratorPermissions = []string{"Bash(flowmem memory curate:*)", "Bash(flowmem memory show:*)", "Bash(flowmem memory merge:*)"}

// curatorPath is the curator's file in the scope whose scout is at scout;
// "" when the scope has no subagents.
func curatorPath(scout string) string {
	if scout == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(scout), CuratorFile)
}

// planCurator is planScout for the curator, which has no earlier copies:
// a file that differs from the embedded one was edited, and stays unless
// force.
func planCurator(path, label string, force, dryRun bool) (Change, []byte, error) {
	return planAgent(path, label, flowmem.CuratorAgent, force, dryRun, func([]byte) bool { return true })
}

// planCuratorRemoval removes the curator when it is flowmem's copy.
func planCuratorRemoval(path string, force bool) (Change, error) {
	have, exists, err := readFile(path)
	if err != nil {
		return Change{}, err
	}
	c := Change{Path: path}
	switch {
	case !exists:
		c.Action = "absent"
	case bytes.Equal(have, flowmem.CuratorAgent) || force:
		c.Action = "removed"
	default:
		c.Action = "kept"
		c.Reason = "differs from flowmem's copy (edited by hand?); use --force to remove it"
	}
	return c, nil
}

// CuratorState is "absent", "current" (flowmem's copy) or "modified".
func CuratorState(path string) (string, error) {
	state, _, err := agentState(path, flowmem.CuratorAgent)
	if err != nil || state != "" {
		return state, err
	}
	return "modified", nil
}
