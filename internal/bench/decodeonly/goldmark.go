//go:build goldmark

package main

// Built with -tags goldmark, the decode-only program links goldmark's
// parser without calling it: the start-up floor of any single flowmem
// binary, since internal/review reads review text with goldmark and Go
// initialises every linked package before main. make bench puts it beside
// the hook's rows; it is why the hook keeps its small front end.
import _ "github.com/yuin/goldmark/parser"
