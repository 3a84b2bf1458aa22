// Package review reads the text a code reviewer produced (a second model
// behind flow-next's chat-send, codex or copilot wrappers, or a reviewer
// subagent) and turns it into something flowmem can learn from: the verdict,
// the individual findings, and for each finding a deterministic decision on
// whether it is a reusable lesson worth remembering.
//
// Reviewers write in many shapes (bold-label blocks, bullet labels under
// "### Finding N", numbered lists, severity headings, "## FINDING 1 —
// BLOCKER — title" sections, tables, <findings> JSON), so extraction walks the
// goldmark AST rather than matching lines of the raw text: the AST tells
// paragraphs, list items, headings and code blocks apart, which is what keeps
// narrative preambles, quoted code and verdict lines out of the findings.
//
// Every Finding field is a single line of bounded length, so a store can
// write it as one line of markdown without a review being able to forge
// headings or metadata.
//
// Severity mapping (see normalizeSeverity): P0, blocker, blocking, must-fix
// and critical → "critical"; P1, high, major, should-fix and error →
// "major"; P2, P3, medium, moderate, low, minor, concern, warning and
// non-blocking → "minor"; nit, nitpick, style, trivial, cosmetic, info,
// optional and P4 → "nit"; anything else → "" (unknown, which the learnable
// filter does not hold against a finding: an unranked finding in a
// change-requesting review is usually blocking).
package review
