package recall

import (
	"bytes"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Rank is Search of one query over entries written as memory files.
func Rank(entries []mdstore.Entry, query string, opt Options) []Hit {
	return RankAll(entries, []string{query}, opt)
}

// RankAll is Search of several queries over entries written as memory files.
func RankAll(entries []mdstore.Entry, queries []string, opt Options) []Hit {
	return must(Search(FilesOf(entries), queries, opt))
}

// must returns v; files in memory cannot fail to read.
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

// specificWords counts the request's own words that are not generic.
func (q *query) specificWords() int {
	n := 0
	for _, t := range q.terms {
		if !t.syn && !t.generic {
			n++
		}
	}
	return n
}

// FilesOf writes entries as the memory files that would hold them, in
// memory (File.Raw), for ranking entries that are not on disk.
func FilesOf(entries []mdstore.Entry) []File {
	var files []File
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
			files = append(files, File{Kind: k, Raw: b.Bytes()})
		}
	}
	return files
}
