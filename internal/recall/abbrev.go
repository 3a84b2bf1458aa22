package recall

import "github.com/kljensen/snowball/english"

// abbrevGroups are the abbreviations programmers write interchangeably with
// the full word (ctx and context, db and database). Reviews and task titles
// mix the two freely, and no stemmer joins them. Only spellings of one
// concept belong here, never looser synonyms: a query term pulls in the
// rest of its group at a reduced weight.
var abbrevGroups = [][]string{
	{"arg", "args", "argument"},
	{"async", "asynchronous"},
	{"auth", "authn", "authz", "authentication", "authorization"},
	{"cfg", "conf", "config", "configuration"},
	{"cmd", "command"},
	{"conn", "connection"},
	{"ctx", "context"},
	{"db", "database"},
	{"dep", "deps", "dependency"},
	{"dev", "development"},
	{"dir", "directory"},
	{"doc", "docs", "documentation"},
	{"e2e", "endtoend"},
	{"env", "environment"},
	{"err", "error"},
	{"fs", "filesystem"},
	{"func", "function"},
	{"gh", "github"},
	{"i18n", "internationalization"},
	{"id", "identifier"},
	{"impl", "implementation"},
	{"init", "initialize", "initialization"},
	{"js", "javascript"},
	{"k8s", "kubernetes"},
	{"len", "length"},
	{"lib", "library"},
	{"max", "maximum"},
	{"min", "minimum"},
	{"msg", "message"},
	{"param", "params", "parameter"},
	{"perf", "performance"},
	{"pg", "postgres", "postgresql"},
	{"pkg", "package"},
	{"prod", "production"},
	{"py", "python"},
	{"regex", "regexp"},
	{"repo", "repository"},
	{"req", "request"},
	{"resp", "response"},
	{"spec", "specification"},
	{"ssl", "tls"},
	{"str", "string"},
	{"sync", "synchronous", "synchronize"},
	{"tmp", "temp", "temporary"},
	{"ts", "typescript"},
	{"tx", "txn", "transaction"},
	{"util", "utils", "utility"},
	{"ws", "websocket"},
}

// abbrevIndex maps the stem of every group member to the stems of the other
// members. Built once; read-only afterwards.
var abbrevIndex = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range abbrevGroups {
		stems := make([]string, 0, len(g))
		for _, w := range g {
			s := stemOf(w)
			if !containsStr(stems, s) {
				stems = append(stems, s)
			}
		}
		for _, s := range stems {
			for _, o := range stems {
				if o != s && !containsStr(m[s], o) {
					m[s] = append(m[s], o)
				}
			}
		}
	}
	return m
}()

// stemOf reduces a token the way documents are reduced.
func stemOf(w string) string { return english.Stem(w, true) }

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
