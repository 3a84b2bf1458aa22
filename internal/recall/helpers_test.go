package recall

import "github.com/flowmem/flowmem/internal/mdstore"

// Rank is Search of one query over entries written as memory files.
func Rank(entries []mdstore.Entry, query string, opt Options) []Hit {
	return Search(FilesOf(entries), []string{query}, opt)
}

// RankAll is Search of several queries over entries written as memory files.
func RankAll(entries []mdstore.Entry, queries []string, opt Options) []Hit {
	return Search(FilesOf(entries), queries, opt)
}
