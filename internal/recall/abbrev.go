package recall

import "github.com/kljensen/snowball/english"

// abbrevGroups are the abbreviations programmers write interchangeably with
// the full word (ctx and context, db and database). Reviews and task titles
// mix the two freely, and no stemmer joins them. A query word pulls in the
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
	{"a11y", "accessibility"},
	{"dir", "directory"},
	{"doc", "docs", "documentation"},
	{"e2e", "endtoend"},
	{"env", "environment"},
	{"err", "error"},
	{"fs", "filesystem"},
	{"func", "function"},
	{"gh", "github"},
	{"i18n", "internationalization"},
	{"l10n", "localization"},
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
	{"org", "organization"},
	{"pr", "pullrequest"},
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

// synonymGroups are words that programmers use for the same thing in task
// titles and in review findings. They are looser than abbreviations, so
// they count for less, and words with a common second meaning in code
// (register, block, image, option) are left out.
var synonymGroups = [][]string{
	{"abort", "cancel"},
	{"cli", "commandline"},
	{"color", "colour"},
	{"concurrent", "concurrently", "parallel", "simultaneous"},
	{"container", "docker"},
	{"crash", "panic"},
	{"credential", "secret"},
	{"cron", "schedule", "scheduled"},
	{"database", "datastore"},
	{"deadline", "timeout"},
	{"dedupe", "deduplicate", "duplicate"},
	{"delete", "remove"},
	{"dir", "folder"},
	{"endpoint", "route", "handler"},
	{"error", "exception"},
	{"flaky", "flake", "intermittent", "nondeterministic", "sporadic"},
	{"frontend", "clientside"},
	{"hang", "hung", "stall", "stuck", "freeze"},
	{"hash", "digest"},
	{"log", "logger", "logging"},
	{"login", "signin", "logon"},
	{"logout", "signout"},
	{"mail", "email"},
	{"mock", "stub", "fake"},
	{"org", "tenant"},
	{"pipeline", "ci"},
	{"setting", "settings", "config", "configuration", "preferences"},
	{"shutdown", "sigterm", "terminate"},
	{"signup", "signups"},
	{"slow", "latency"},
	{"snapshot", "golden"},
	{"translate", "translation", "localize", "i18n"},
	{"vulnerability", "vuln", "cve"},
}

// expansion is another stem that counts for a query word, at a weight.
type expansion struct {
	stem   string
	weight float64
}

// Weights of expansions relative to the word itself.
const (
	abbrevWeight  = 0.5
	synonymWeight = 0.4
)

// expansions maps the stem of every group member to the other members'
// stems. Built once; read-only afterwards.
var expansions = func() map[string][]expansion {
	m := map[string][]expansion{}
	add := func(groups [][]string, w float64) {
		for _, g := range groups {
			var stems []string
			for _, word := range g {
				if s := stemOf(word); !containsStr(stems, s) {
					stems = append(stems, s)
				}
			}
			for _, s := range stems {
				for _, o := range stems {
					if o != s && !hasExpansion(m[s], o) {
						m[s] = append(m[s], expansion{o, w})
					}
				}
			}
		}
	}
	add(abbrevGroups, abbrevWeight)
	add(synonymGroups, synonymWeight)
	return m
}()

func hasExpansion(list []expansion, stem string) bool {
	for _, x := range list {
		if x.stem == stem {
			return true
		}
	}
	return false
}

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
