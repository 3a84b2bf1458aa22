package mdstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// BenchmarkLoad is Store.Load of one pitfalls file: "parse" without the
// cache (as before it existed), "cold" parsing and writing the cache, "hit"
// from the cache, and "tail" from the cache plus five entries appended
// after it (not yet folded into the cache).
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		raw := genFile(n)
		newStore := func(b *testing.B) *Store {
			s := Open(b.TempDir())
			if err := os.WriteFile(s.Path(Pitfall), raw, 0o644); err != nil {
				b.Fatal(err)
			}
			return s
		}
		load := func(b *testing.B, s *Store) {
			es, err := s.Load(Pitfall)
			if err != nil || len(es) < n {
				b.Fatal(len(es), err)
			}
		}
		b.Run(fmt.Sprint("parse/", n), func(b *testing.B) {
			old := cacheMinSize
			cacheMinSize = 1 << 62
			defer func() { cacheMinSize = old }()
			s := newStore(b)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				load(b, s)
			}
		})
		b.Run(fmt.Sprint("cold/", n), func(b *testing.B) {
			s := newStore(b)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(filepath.Join(s.Dir, CacheDir))
				b.StartTimer()
				load(b, s)
			}
		})
		b.Run(fmt.Sprint("hit/", n), func(b *testing.B) {
			s := newStore(b)
			load(b, s)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				load(b, s)
			}
		})
		b.Run(fmt.Sprint("tail/", n), func(b *testing.B) {
			s := newStore(b)
			load(b, s)
			var lessons []Entry
			for i := 0; i < 5; i++ {
				lessons = append(lessons, Entry{Issue: fmt.Sprintf("a new lesson number %d about retries", i), Fix: "back off"})
			}
			if _, err := s.Upsert(context.Background(), Pitfall, lessons, nil, time.Now()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				load(b, s)
			}
		})
	}
}
