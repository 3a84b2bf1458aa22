package curate

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// benchMemory is n lessons made of the recurrence corpus's real lesson
// texts, each joined with half of another so that none repeats.
func benchMemory(b *testing.B, n int) []mdstore.Entry {
	b.Helper()
	var texts []string
	for _, set := range []string{"corpus.txt", "blind2.txt", "blind3.txt", "blind4.txt"} {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "capture", "recurrence", set))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l := sc.Text(); len(l) > 3 && l[1:3] == ": " && strings.Contains("ASHN", l[:1]) {
				texts = append(texts, l[3:])
			}
		}
		f.Close()
	}
	entries := make([]mdstore.Entry, n)
	for i := range entries {
		a, c := texts[i%len(texts)], texts[(i*7919+13)%len(texts)]
		issue, fix, _ := strings.Cut(a+" "+c[:len(c)/2], " | ")
		entries[i] = mdstore.Entry{Kind: mdstore.Pitfall, ID: fmt.Sprintf("p-%d", i), Issue: issue, Fix: fix, Status: mdstore.Active}
	}
	return entries
}

func BenchmarkGroups(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		entries := benchMemory(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Groups(entries, DefaultThreshold, 20)
			}
		})
	}
}
