package review

import (
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/config"
)

// DefaultOptions are the hook's options under the default config
// (capture.min_severity "minor", a verdict inferred from ranked findings):
// what the tests and the quality harness measure.
func DefaultOptions() Options { return Options{MinSeverity: SevMinor, InferVerdict: true} }

// Analyze is AnalyzeWith DefaultOptions.
func Analyze(text string) Analysis { return AnalyzeWith(text, DefaultOptions()) }

// If the config's default drifts from DefaultOptions, make quality no
// longer measures what users get.
func TestDefaultSeverityIsWhatQualityMeasures(t *testing.T) {
	cfg, err := config.Load(filepath.Join(t.TempDir(), "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.String("capture.min_severity"), DefaultOptions().MinSeverity; got != want {
		t.Fatalf("config default capture.min_severity = %q, DefaultOptions().MinSeverity = %q", got, want)
	}
}
