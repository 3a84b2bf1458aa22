//go:build quality

package review

// Built only with the quality tag: the capture package's second-look
// simulator (internal/capture/modelsim_quality_test.go) traces a recorded
// lesson back to its finding's whole text, as this package's own quality
// harness does, and needs the same two helpers.

// ExtractWhole splits text into findings and returns each one's whole text.
func ExtractWhole(text string) ([]Finding, []string) { return extract(text, true) }

// NormalizeSeverity maps a written severity to its canonical name, or "".
func NormalizeSeverity(s string) string { return normalizeSeverity(s) }
