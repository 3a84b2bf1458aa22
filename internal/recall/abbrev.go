package recall

import (
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

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
	// Third pass: plain-English synonyms common in bug reports and task
	// titles, from a list of everyday adjectives and verbs.
	{"fast", "quick", "quickly"},
	{"big", "large", "huge"},
	{"wrong", "incorrect"},
	{"reload", "refresh"},
	{"show", "display"},
	{"check", "verify"},
	{"empty", "blank"},
	{"missing", "absent"},
	{"photo", "picture"},
	{"begin", "start"},
	{"stop", "halt"},
	{"bug", "defect"},
	{"forbid", "prohibit", "disallow"},
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
	conceptWeight = 0.3
)

// memberStems are the stems that stand for one group member. A word has
// one. A phrase ("time zone") has the stem of its words run together
// (timezone, as in an identifier or a compound) and the stems of its words
// concatenated (time+zone), which is how the matcher sees the phrase in
// prose; phraseHead records the first word's stem for the latter.
func memberStems(member string, phraseHead map[string]string) []string {
	words := strings.Fields(member)
	if len(words) == 1 {
		return []string{stemOf(member)}
	}
	joined := stemOf(strings.Join(words, ""))
	out := []string{joined}
	if len(words) == 2 {
		head := stemOf(words[0])
		pair := head + stemOf(words[1])
		phraseHead[pair] = head
		if pair != joined {
			out = append(out, pair)
		}
	}
	return out
}

// expansions maps the stem of every group member to the other members'
// stems, and phraseHeads the concatenated stems of each two-word phrase to
// the stem of its first word. Built once; read-only afterwards.
//
// Built on first use, not at program start: every flowmem process (the hook
// above all) would otherwise pay for stemming the whole thesaurus.
var vocabulary = sync.OnceValues(func() (map[string][]expansion, map[string]string) {
	m := map[string][]expansion{}
	heads := map[string]string{}
	link := func(from, to string, w float64) {
		if from == to {
			return
		}
		for i, x := range m[from] {
			if x.stem == to {
				m[from][i].weight = max(x.weight, w)
				return
			}
		}
		m[from] = append(m[from], expansion{to, w})
	}
	add := func(groups [][]string, w float64) {
		for _, g := range groups {
			members := make([][]string, len(g))
			for i, word := range g {
				members[i] = memberStems(word, heads)
			}
			for i, mi := range members {
				for _, s := range mi {
					for j, mj := range members {
						for _, o := range mj {
							if i == j {
								link(s, o, 1) // spellings of one phrase
							} else {
								link(s, o, w)
							}
						}
					}
				}
			}
		}
	}
	add(abbrevGroups, abbrevWeight)
	add(synonymGroups, synonymWeight)
	add(conceptGroups, conceptWeight)
	return m, heads
})

// stemOf reduces a token the way documents are reduced: with the Snowball
// English stemmer, except for the words in stemOverrides.
func stemOf(w string) string {
	if len(w) <= 2 || allDigits(w) {
		// Snowball leaves these as they are; skip its rune conversion for
		// the many line numbers, codes and versions in a memory.
		return w
	}
	if s, ok := stemOverrides()[w]; ok {
		return s
	}
	if s, ok := tableStems()[w]; ok {
		return s
	}
	if stemMisses != nil {
		stemMisses[w] = struct{}{}
	}
	return english.Stem(w, true)
}

// tableStems holds Snowball's stems of the words the thesaurus and the
// task→risk table are built from (stems_gen.go). Stemming those few
// thousand words at run time cost ~20 ms of every ranked read, more than
// ranking 10,000 entries; looking them up costs well under a millisecond.
var tableStems = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, strings.Count(generatedStems, "\n"))
	for line := range strings.Lines(generatedStems) {
		w, st, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if ok {
			m[w] = st
		}
	}
	return m
})

// stemMisses, when not nil, records the words stemOf had to give to
// Snowball; TestGeneratedStems uses it to find words stems_gen.go lacks.
// It is nil in normal runs (stemOf is called from many goroutines).
var stemMisses map[string]struct{}

// stemOverrides keep apart technical words that Snowball reduces to an
// unrelated common word (settings to "set", production to "product",
// authorization to "author"), which would make the thesaurus link, say,
// every "set" in memory to configuration.
//
// They also send the irregular forms of common verbs to the stem of the
// verb (thrown and threw to throw, ran to run, broken to break), which
// Snowball, a suffix stripper, cannot do: a lesson says the error "is
// thrown", a request that it "throws".
var stemOverrides = sync.OnceValue(func() map[string]string {
	m := map[string]string{
		"setting": "setting", "settings": "setting",
		"terminal": "terminal", "terminals": "terminal",
		"production":    "production",
		"authorization": "authoriz", "authorize": "authoriz", "authorized": "authoriz",
		"accessibility": "accessib", "accessible": "accessib",
		"localization": "localiz", "localize": "localiz", "localized": "localiz",
		"controller": "controller", "controllers": "controller",
		"provider": "provider", "providers": "provider",
		"reducer": "reducer", "reducers": "reducer",
	}
	for _, g := range irregularVerbs {
		base, ok := tableStems()[g[0]]
		if !ok {
			base = english.Stem(g[0], true)
			if stemMisses != nil {
				stemMisses[g[0]] = struct{}{}
			}
		}
		for _, form := range g[1:] {
			m[form] = base
		}
	}
	return m
})

// irregularVerbs lists the irregular past forms of verbs common in code
// reviews and task titles, base form first. Forms that are also common
// words of another meaning in code are left out (bound, found, left, read,
// set, put, hit, split, shut, fed, led, lay, saw).
var irregularVerbs = [][]string{
	{"begin", "began", "begun"},
	{"break", "broke", "broken"},
	{"bring", "brought"},
	{"build", "built", "rebuilt"},
	{"buy", "bought"},
	{"catch", "caught"},
	{"choose", "chose", "chosen"},
	{"come", "came"},
	{"deal", "dealt"},
	{"draw", "drew", "drawn"},
	{"drive", "drove", "driven"},
	{"fall", "fell", "fallen"},
	{"feel", "felt"},
	{"fight", "fought"},
	{"forbid", "forbade", "forbidden"},
	{"forget", "forgot", "forgotten"},
	{"freeze", "froze", "frozen"},
	{"get", "got", "gotten"},
	{"give", "gave", "given"},
	{"go", "went", "gone"},
	{"grow", "grew", "grown"},
	{"hang", "hung"},
	{"hide", "hid", "hidden"},
	{"hold", "held"},
	{"keep", "kept"},
	{"know", "knew", "known"},
	{"lose", "lost"},
	{"mean", "meant"},
	{"overwrite", "overwrote", "overwritten"},
	{"override", "overrode", "overridden"},
	{"rewrite", "rewrote", "rewritten"},
	{"ride", "rode", "ridden"},
	{"rise", "rose", "risen"},
	{"run", "ran", "rerun"},
	{"seek", "sought"},
	{"sell", "sold"},
	{"send", "sent", "resent"},
	{"show", "showed", "shown"},
	{"sink", "sank", "sunk"},
	{"sleep", "slept"},
	{"speak", "spoke", "spoken"},
	{"spend", "spent"},
	{"spin", "spun"},
	{"steal", "stole", "stolen"},
	{"stick", "stuck"},
	{"strike", "struck"},
	{"take", "took", "taken"},
	{"teach", "taught"},
	{"tear", "tore", "torn"},
	{"think", "thought"},
	{"throw", "threw", "thrown"},
	{"undo", "undid", "undone"},
	{"wake", "woke", "woken"},
	{"wear", "wore", "worn"},
	{"write", "wrote", "written"},
}

// irregularPrefixes maps the stem of an irregular verb to the first two
// bytes of its forms that do not share the stem's own (ran for run, went
// for go, caught for catch is fine): the matcher's prefilter must let them
// through.
var irregularPrefixes = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for form, st := range stemOverrides() {
		if len(form) >= 2 && len(st) >= 2 && form[:2] != st[:2] && !containsStr(m[st], form[:2]) {
			m[st] = append(m[st], form[:2])
		}
	}
	return m
})

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}
