package mdstore

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConflictLine: a conflict is a <<<<<<< line, then a ======= line,
// then a >>>>>>> line; the answer is the <<<<<<< line's number. Any marker
// alone (a hand-written setext underline of seven =, a half-done
// resolution) is not one.
func TestConflictLine(t *testing.T) {
	for _, c := range []struct {
		name, raw string
		want      int
	}{
		{"whole conflict", "a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> feature\n", 2},
		{"with a base section", "a\n<<<<<<< HEAD\nb\n||||||| base\nx\n=======\nc\n>>>>>>> feature\n", 2},
		{"crlf", "a\r\n<<<<<<< HEAD\r\nb\r\n=======\r\nc\r\n>>>>>>> feature\r\n", 2},
		{"unlabelled markers", "<<<<<<<\nb\n=======\nc\n>>>>>>>\n", 1},
		{"setext underline of seven =", "Title\n=======\ntext\n", 0},
		{"half-done resolution", "a\n=======\nc\n>>>>>>> feature\n", 0},
		{"lone opening marker", "a\n<<<<<<< HEAD\nb\n", 0},
		{"opening and separator only", "a\n<<<<<<< HEAD\nb\n=======\nc\n", 0},
		{"markers out of order", ">>>>>>> x\n=======\n<<<<<<< y\n", 0},
		{"second conflict whole", "<<<<<<< a\nb\n=======\n>>>>>>> c\n", 1},
		{"not a marker: longer run", "<<<<<<<< x\n=======\n>>>>>>> y\n", 0},
		{"none", "plain\ntext\n", 0},
	} {
		if got := ConflictLine([]byte(c.raw)); got != c.want {
			t.Errorf("%s: ConflictLine = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestDamageReworded: one lesson in two wordings is marked Reworded, so
// doctor picks its fix by that field, not by the message's words; lines
// of another entry are not.
func TestDamageReworded(t *testing.T) {
	const head = "---\nflowmem: 1\nkind: pitfalls\n---\n# Pitfalls\n"
	for _, c := range []struct {
		name, body string
		want       bool
	}{
		{"two wordings", "\n## 2026-01-10 fn-1.1 manual [pitfall] <!-- p-7fb13bc27201 -->\n" +
			"<!-- flowmem: id=p-7fb13bc27201 fp=ce87d3f26e8a seen=1 last=2026-01-10 tasks=fn-1.1 status=archived n=089b8ed2 -->\n" +
			"**Issue**: The cache key ignores the tenant id\n" +
			"<!-- flowmem: id=p-7fb13bc27201 fp=ce87d3f26e8a seen=1 last=2026-01-10 tasks=fn-1.1 status=active n=089b8ed2 -->\n" +
			"**Issue**: The cache key ignores the tenant id and the region\n", true},
		{"two lessons fused", "\n## 2026-01-10 fn-1.1 manual [pitfall] <!-- p-7fb13bc27201 -->\n" +
			"<!-- flowmem: id=p-7fb13bc27201 fp=ce87d3f26e8a seen=1 last=2026-01-10 tasks=fn-1.1 status=active n=089b8ed2 -->\n" +
			"**Issue**: The cache key ignores the tenant id\n" +
			"**Issue**: the retry loop never backs off\n", false},
	} {
		s := Open(t.TempDir())
		if err := os.MkdirAll(filepath.Dir(s.Path(Pitfall)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.Path(Pitfall), []byte(head+c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := s.ReadDoc(Pitfall)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Damaged) != 1 || d.Damaged[0].Reworded != c.want {
			t.Errorf("%s: Damaged = %+v, want one with Reworded %v", c.name, d.Damaged, c.want)
		}
	}
}
