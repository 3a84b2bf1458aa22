package mdstore

import (
	"fmt"
	"strings"
	"testing"
)

func genFile(n int) []byte {
	var b strings.Builder
	b.WriteString(Header(Pitfall))
	for i := 0; i < n; i++ {
		e := Entry{Kind: Pitfall, Date: "2026-01-10", Task: fmt.Sprintf("fn-%d.1", i%300), Source: "impl-review", Category: "api",
			Issue: fmt.Sprintf("the webhookDelivery worker retries without backoff when the upstream returns 429 (case %d)", i),
			Fix:   "use exponential backoff with jitter in internal/webhook/sender.go", Context: "internal/webhook/sender.go:88",
			Tasks: []string{fmt.Sprintf("fn-%d.1", i%300)}}
		e.Normalize()
		b.WriteString("\n")
		b.WriteString(Render(&e))
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		raw := genFile(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				d, err := Parse(Pitfall, raw)
				if err != nil || len(d.Entries) != n {
					b.Fatal(err)
				}
				_ = d.Folded()
			}
		})
	}
}
