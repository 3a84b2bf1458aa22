// Package review reads the text a code reviewer produced (a second model
// behind flow-next's chat-send, codex or copilot wrappers, or a reviewer
// subagent) and turns it into something flowmem can learn from: the verdict,
// the individual findings, and for each finding a deterministic decision on
// whether it is a reusable lesson worth remembering.
//
// Reviewers write in many shapes (heading per finding, numbered items
// with nested notes, bold field blocks, tables, JSON), so extraction walks
// the goldmark AST rather than matching lines of the raw text: the AST
// tells headings, paragraphs, list items and code blocks apart, which is
// what attaches a finding's body to its title and keeps narrative, quoted
// code and verdict lines out of the findings. Two shapes are not markdown
// and are read before it: JSON findings, and a pull request's review
// comments copied from the forge's web page (thread.go: one finding per
// "Comment on line(s) N" marker). Unwrap first removes the wrappers review
// tools print around the text.
//
// Every Finding field is a single line of bounded length, so a store can
// write it as one line of markdown without a review being able to forge
// headings or metadata.
//
// Severity mapping (see normalizeSeverity): P0, blocker, blocking, must-fix,
// severe and critical → "critical"; P1, high, major, important and
// should-fix → "major"; P2, medium, minor and concern → "minor"; P3, low,
// nit, info and optional → "nit"; anything else → "" (unknown, which the
// learnable filter does not hold against a finding). Real reviewers use "minor" and P2 for
// findings worth learning from, so the default minimum is "minor".
package review
