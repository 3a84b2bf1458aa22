package recall

import "github.com/flowmem/flowmem/internal/mdstore"

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
