package sanitize

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Use t.TempDir()\n\tfor temp files", "Use t.TempDir()\n\tfor temp files"},
		{"colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"clear screen and home", "a\x1b[2J\x1b[Hb", "ab"},
		{"title change, BEL", "a\x1b]0;pwned\x07b", "ab"},
		{"title change, ST", "a\x1b]2;pwned\x1b\\b", "ab"},
		{"hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"unterminated OSC ends at the line", "a\x1b]0;title\nnext line", "a\nnext line"},
		{"DCS", "a\x1bP1$r0m\x1b\\b", "ab"},
		{"charset switch", "a\x1b(0b", "ab"},
		{"keypad mode", "a\x1b=b", "ab"},
		{"lone ESC at the end", "abc\x1b", "abc"},
		{"8-bit CSI", "a\u009b2Jb", "ab"},
		{"8-bit OSC", "a\u009d0;x\u009cb", "ab"},
		{"C0 and DEL", "a\x00b\x08c\x7fd\x0be", "abcde"},
		{"carriage returns", "a\r\nb\rc", "a\nbc"},
		{"bidi override", "access := \u202eresU\u2066 // admin", "access := resU // admin"},
		{"zero-width inside a token", "gh\u200bp_abc\u200d\ufeffdef", "ghp_abcdef"},
		{"invalid UTF-8", "a\xff\xfeb", "ab"},
		{"other scripts kept", "日本語 — «ok» ü ✓ \ufffd", "日本語 — «ok» ü ✓ \ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestWriter: output written in pieces, even a character or a sequence cut
// between two writes, comes out clean and whole.
func TestWriter(t *testing.T) {
	var out bytes.Buffer
	w := Writer(&out)
	in := "ünï\x1b[31mcode\x1b[0m ✓\u202e\n"
	for i := 0; i < len(in); i++ {
		if n, err := w.Write([]byte{in[i]}); n != 1 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got := out.String(); got != "ünïcode ✓\n" {
		t.Errorf("got %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"ü→·\u009b31mx\xe2\x80", "\xe2\x80\xa8\xc2\x9d0;t\x07b", "a\x1b[2Jb", "\x1b]0;t\x07", "\u202eabc", "a\r\nb", "\u009b31m", "x\x1b\x1b[[m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxHeld {
			return
		}
		out := Text(s)
		if Text(out) != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, Text(out))
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || Invisible(r) {
				t.Fatalf("%U survived in %q (from %q)", r, out, s)
			}
		}
		if plain(s) && out != s {
			t.Fatalf("plain text changed: %q -> %q", s, out)
		}
		if plain(s) != plainBytes([]byte(s)) || plain(s) != (out == s) {
			t.Fatalf("plain(%q) = %v, plainBytes = %v, Text changes it: %v", s, plain(s), plainBytes([]byte(s)), out != s)
		}
		printable := true
		for i := 0; i < len(s); i++ {
			printable = printable && s[i] >= ' ' && s[i] <= '~'
		}
		if ASCII([]byte(s)) != printable || printable && out != s {
			t.Fatalf("ASCII(%q) = %v, printable ASCII %v, Text %q", s, ASCII([]byte(s)), printable, out)
		}
		var buf bytes.Buffer
		w := Writer(&buf)
		half := len(s) / 2
		w.Write([]byte(s[:half]))
		w.Write([]byte(s[half:]))
		if got := buf.String(); got != out {
			t.Fatalf("written in two pieces %q, in one %q (from %q)", got, out, s)
		}
		// Pieces of every small size cut characters and sequences at
		// every place.
		for size := 1; size <= 5; size++ {
			buf.Reset()
			w := Writer(&buf)
			for i := 0; i < len(s); i += size {
				w.Write([]byte(s[i:min(i+size, len(s))]))
			}
			if got := buf.String(); got != out {
				t.Fatalf("written in pieces of %d %q, in one %q (from %q)", size, got, out, s)
			}
		}
	})
}

func BenchmarkTextPlain(b *testing.B) {
	s := strings.Repeat("The retry loop re-sends the request without the idempotency key. ", 50)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Text(s)
	}
}

func BenchmarkWriterPlain(b *testing.B) {
	line := []byte("- [pitfall] Webhook retries resend without the idempotency key -> send the key on every retry\n")
	w := Writer(io.Discard)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		w.Write(line)
	}
}

// Unwrap gives the writer under a sanitizing one only while it holds
// nothing back: a character cut short must not be lost or land after what
// is written past it.
func TestUnwrap(t *testing.T) {
	var buf bytes.Buffer
	w := Writer(&buf)
	if u, ok := Unwrap(w); !ok || u != io.Writer(&buf) {
		t.Fatalf("Unwrap of a fresh writer = %v, %v", u, ok)
	}
	w.Write([]byte("a\xe2\x86"))
	if _, ok := Unwrap(w); ok {
		t.Fatal("Unwrap passed a writer holding half a character")
	}
	w.Write([]byte("\x92\n"))
	if _, ok := Unwrap(w); !ok || buf.String() != "a→\n" {
		t.Fatalf("after the rest: %q, unwrap %v", buf.String(), ok)
	}
	if _, ok := Unwrap(&buf); ok {
		t.Fatal("Unwrap passed a writer that does not sanitize")
	}
}

// Rendered entries carry "→" and "·": such lines must take the no-copy path.
func TestVisibleRunesArePlain(t *testing.T) {
	line := "- [pitfall] go test caches results → use -count=1 · seen 2x, last 2026-11-27\n"
	if !plain(line) || !plainBytes([]byte(line)) {
		t.Fatalf("%q is not plain", line)
	}
	if plain("a\u200bb") || plainBytes([]byte("a\u202eb")) || plain("\u009b31m") {
		t.Fatal("invisible or C1 characters read as plain")
	}
}

// notPrintable8 marks exactly the first byte that is not printable ASCII,
// checked on each byte value in each position, and on pairs whose borrows
// could cross from one byte into the next.
func TestNotPrintable8(t *testing.T) {
	first := func(b []byte) int {
		for i, c := range b {
			if c < 0x20 || c >= 0x7f {
				return i
			}
		}
		return 8
	}
	var b [8]byte
	check := func() {
		t.Helper()
		m := notPrintable8(binary.LittleEndian.Uint64(b[:]))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if want := first(b[:]); got != want {
			t.Fatalf("notPrintable8(%q) marks byte %d first, want %d", b[:], got, want)
		}
	}
	for pos := 0; pos < 8; pos++ {
		for v := 0; v < 256; v++ {
			b = [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
			b[pos] = byte(v)
			check()
			for pos2 := 0; pos2 < 8; pos2++ {
				if pos2 == pos {
					continue
				}
				for _, v2 := range []byte{0, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xff} {
					b[pos2] = v2
					check()
					b[pos2] = 'z'
				}
			}
		}
	}
}

// plainBytes is plain for a byte slice (a rune cut at the end is not
// plain).
func plainBytes(p []byte) bool { return plainPrefix(p) == len(p) }

// ASCII is true exactly when every byte is printable ASCII, each byte
// value checked in each place of fields of every length up to three words
// (the last word overlaps the one before it).
func TestASCII(t *testing.T) {
	for n := 0; n <= 24; n++ {
		b := bytes.Repeat([]byte("a"), n)
		if !ASCII(b) {
			t.Fatalf("ASCII(%q) = false", b)
		}
		for i := 0; i < n; i++ {
			for c := 0; c < 256; c++ {
				b[i] = byte(c)
				if want := c >= 0x20 && c <= 0x7e; ASCII(b) != want {
					t.Fatalf("ASCII(%q) = %v, want %v", b, !want, want)
				}
			}
			b[i] = 'a'
		}
	}
}
