package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// BenchmarkCommands runs whole commands in-process on a 10,000-entry memory,
// for profiling (make bench measures real processes).
func BenchmarkCommands(b *testing.B) {
	dir := b.TempDir()
	mem := filepath.Join(dir, ".flow", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(`{"memory":{"enabled":true}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(mdstore.Header(mdstore.Pitfall))
	words := strings.Fields("webhook retry backoff goroutine deadline context timeout cache token migration parser handler worker queue schema index")
	for i := 0; i < 10000; i++ {
		e := mdstore.Entry{Kind: mdstore.Pitfall, Date: "2026-01-10", Task: fmt.Sprintf("fn-%d.1", i%300), Source: "impl-review", Category: "api",
			Issue: fmt.Sprintf("the %s %s ignores the %s when %s fails (case %d)", words[i%len(words)], words[(i/3)%len(words)], words[(i/7)%len(words)], words[(i/11)%len(words)], i),
			Fix:   fmt.Sprintf("wrap the %s with %s", words[(i/13)%len(words)], words[(i/17)%len(words)]), Context: "internal/webhook/sender.go:88",
			Tasks: []string{fmt.Sprintf("fn-%d.1", i%300)}}
		e.Normalize()
		sb.WriteString("\n")
		sb.WriteString(mdstore.Render(&e))
	}
	if err := os.WriteFile(filepath.Join(mem, "pitfalls.md"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	std := IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" },
		Getwd: func() (string, error) { return dir, nil }, Now: time.Now}
	for _, args := range [][]string{
		{"memory", "list"},
		{"memory", "read"},
		{"memory", "search", "goroutine|deadline"},
		{"memory", "read", "--relevant", "fn-12.3: add retry with backoff to the webhookDelivery worker"},
		{"memory", "prime", "fn-12.3: add retry with backoff to the webhookDelivery worker"},
	} {
		b.Run(strings.Join(args[:2], "-"), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if code := Main(context.Background(), append([]string{"flowmem"}, args...), std); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
