package review

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAnalyze measures the hook's per-review cost: verdict, goldmark
// parse, extraction and classification of typical reviews.
func BenchmarkAnalyze(b *testing.B) {
	for _, name := range []string{
		"dev/dev-05.md", // 6 findings, real codex plan review
		"dev/dev-18.md", // 10 heading sections, 10 KB
		"real/dev/stevennana-mina-ai-router-collab-reliability.md", // 5 heading findings with sub-headings, 17 KB
	} {
		text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "review", name))
		if err != nil {
			b.Fatal(err)
		}
		s := string(text)
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				Analyze(s)
			}
		})
	}
}
