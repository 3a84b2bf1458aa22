package recall

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Rank is Search of one query over entries written as memory files.
func Rank(tb testing.TB, entries []mdstore.Entry, query string, opt Options) []Hit {
	return RankAll(tb, entries, []string{query}, opt)
}

// RankAll is Search of several queries over entries written as memory files.
func RankAll(tb testing.TB, entries []mdstore.Entry, queries []string, opt Options) []Hit {
	return must(Search(FilesOf(tb, entries), queries, opt))
}

// must returns v; the test's memory files cannot fail to read.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Prime is PrimeIDs without the ids.
func Prime(files []File, task string, opt Options) (string, error) {
	s, _, err := PrimeIDs(files, task, opt)
	return s, err
}

// Render is an entry as render shows it.
func Render(e *mdstore.Entry, clip bool) string {
	return string(render(nil, e, clip, ageing{}))
}

// specificWords counts the request's own words that are not generic.
func (q *query) specificWords() int {
	n := 0
	for _, t := range q.terms {
		if !t.generic {
			n++
		}
	}
	return n
}

// FilesOf writes entries as the memory files that would hold them, in a
// new temporary directory, and lists them as Load does.
func FilesOf(tb testing.TB, entries []mdstore.Entry) []File {
	return must(Load(storeOf(tb, entries)))
}

// storeOf writes entries as the memory files that would hold them (no
// front matter: recall reads the entries alone) in a new temporary
// directory.
func storeOf(tb testing.TB, entries []mdstore.Entry) *mdstore.Store {
	dir := tb.TempDir()
	for _, k := range mdstore.Kinds {
		var b bytes.Buffer
		for i := range entries {
			if entries[i].Kind == k {
				e := entries[i]
				if e.Status == "" {
					e.Status = mdstore.Active
				}
				b.WriteString(mdstore.Render(&e))
				b.WriteByte('\n')
			}
		}
		if b.Len() > 0 {
			if err := os.WriteFile(filepath.Join(dir, k.File()), b.Bytes(), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return mdstore.Open(dir)
}
