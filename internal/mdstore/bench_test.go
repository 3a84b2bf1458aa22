package mdstore

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
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

// BenchmarkLoad is Store.Load of one pitfalls file, and BenchmarkRecord
// five new lessons recorded into it.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		raw := genFile(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := Open(b.TempDir())
			if err := os.WriteFile(s.Path(Pitfall), raw, 0o644); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				es, err := s.Load(Pitfall)
				if err != nil || len(es) < n {
					b.Fatal(len(es), err)
				}
			}
		})
	}
}

func BenchmarkRecord(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		raw := genFile(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := Open(b.TempDir())
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := os.WriteFile(s.Path(Pitfall), raw, 0o644); err != nil {
					b.Fatal(err)
				}
				var lessons []Entry
				for j := 0; j < 5; j++ {
					lessons = append(lessons, Entry{Issue: fmt.Sprintf("a new lesson number %d about retries", j), Fix: "back off"})
				}
				b.StartTimer()
				if _, err := s.Record(context.Background(), Pitfall, lessons, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTally is what memory list reads of one pitfalls file.
func BenchmarkTally(b *testing.B) {
	raw := genFile(10000)
	s := Open(b.TempDir())
	if err := os.WriteFile(s.Path(Pitfall), raw, 0o644); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := s.Tally(Pitfall, now, 30)
		if err != nil || t.Active != 10000 {
			b.Fatal(t, err)
		}
	}
}
