package mdstore

import "testing"

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
