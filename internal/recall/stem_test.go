package recall

import (
	"testing"

	"github.com/kljensen/snowball/english"
)

func TestStemShortcutIsExact(t *testing.T) {
	for _, w := range []string{"a", "is", "ox", "0", "42", "1234", "2026", "007"} {
		if _, over := stemOverrides()[w]; over {
			continue
		}
		if got, want := stemOf(w), english.Stem(w, true); got != want {
			t.Errorf("stemOf(%q) = %q, snowball says %q", w, got, want)
		}
	}
}

func TestNoShortOverrides(t *testing.T) {
	for w := range stemOverrides() {
		if len(w) <= 2 || allDigits(w) {
			t.Errorf("override %q would be skipped by stemOf's shortcut", w)
		}
	}
}
