package review

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAnalyze measures the hook's per-review cost on a typical
// five-finding review.
func BenchmarkAnalyze(b *testing.B) {
	text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "review", "dev", "dev-05.md"))
	if err != nil {
		b.Fatal(err)
	}
	s := string(text)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Analyze(s)
	}
}
