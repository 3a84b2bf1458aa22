// Package secrettest holds the fake-secret corpus every "no secret on
// disk" test uses (testdata/capture/secrets/corpus.tsv) and the check that
// none of them reached a folder. Tests only.
package secrettest

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Case is one fake, format-true secret in a realistic sentence.
type Case struct {
	Kind, Secret, Text string
	Line               int // in corpus.tsv
}

// Corpus reads the corpus; "{}" in a line's context marks where its
// secret goes.
func Corpus(t testing.TB) []Case {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(self), "..", "..", "..", "testdata", "capture", "secrets", "corpus.tsv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("corpus.tsv:%d: want 3 tab-separated fields, got %d", n, len(parts))
		}
		text := strings.Replace(parts[2], "{}", parts[1], 1)
		if !strings.Contains(text, parts[1]) {
			t.Fatalf("corpus.tsv:%d: context does not contain the secret", n)
		}
		out = append(out, Case{parts[0], parts[1], text, n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Absent fails t for every case whose secret occurs in a file under dir.
func Absent(t testing.TB, dir string, cases []Case) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, c := range cases {
			if bytes.Contains(b, []byte(c.Secret)) {
				t.Errorf("corpus.tsv:%d (%s): secret reached %s", c.Line, c.Kind, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
