package capture

import (
	"strings"
	"sync"
)

// Word lists for the recurrence matcher, built on first use: the hook's
// non-review path never compares lessons and should not pay for the maps
// at process start.

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// stopWords carry no lesson: English function words and the modal and
// hedging vocabulary every review uses ("should", "ensure", "instead").
var stopWords = sync.OnceValue(func() map[string]bool {
	return wordSet(`
a about above after again against all also am an and any are aren as at be because been before being below
between both but by can cannot could did didn do does doesn doing don down during each either else even ever
every few for from further had hasn has have haven having he her here hers herself him himself his how i if in
into is isn it its itself just let ll me more most much must mustn my myself need needs needed no nor not now of
off on once one only or other ought our ours ourselves out over own per re same shall she should shouldn so some
such than that the their theirs them themselves then there these they this those though through thus to too
under until up upon us ve very via was wasn we were weren what when where whether which while who whom whose why
will with within won would wouldn yet you your yours yourself yourselves
e.g eg i.e ie etc vs
ensure make makes made sure instead currently actually really always never still already rather
use used uses using please consider also properly correctly explicitly simply just new
issue problem fix suggestion finding severity location major minor critical blocker blocking
`)
})

// synonyms fold the different words reviewers use for one idea. Only
// unambiguous pairs: a wrong fold here makes different lessons look alike.
var synonyms = sync.OnceValue(func() map[string]string {
	m := map[string]string{
		"absent": "missing", "lacks": "missing", "lacking": "missing", "omits": "missing", "omitted": "missing",
		"omit": "missing", "forgot": "missing", "forgets": "missing", "forgotten": "missing", "unset": "missing",
		"without":   "missing",
		"incorrect": "wrong", "incorrectly": "wrong", "erroneous": "wrong",
		"delete": "remove", "deletes": "remove", "deleted": "remove", "deleting": "remove",
		"directory": "dir", "directories": "dir", "folder": "dir", "folders": "dir", "dirs": "dir",
		"environment": "env", "variable": "var", "variables": "var", "vars": "var",
		"configuration": "config", "configs": "config", "cfg": "config",
		"repository": "repo", "repositories": "repo", "repos": "repo",
		"function": "func", "functions": "func", "method": "func", "methods": "func", "funcs": "func",
		"argument": "arg", "arguments": "arg", "args": "arg", "parameter": "param", "parameters": "param", "params": "param",
		"dependency": "dep", "dependencies": "dep", "deps": "dep",
		"database": "db", "databases": "db",
		"authentication": "auth", "authn": "auth",
		"temporary": "temp", "tmp": "temp",
		"message": "msg", "messages": "msg", "msgs": "msg",
		"err": "error", "errors": "error", "errs": "error",
		"initialize": "init", "initialise": "init", "initialization": "init", "initialisation": "init",
		"documentation": "doc", "docs": "doc", "documents": "doc",
		"implementation": "impl",
		"asynchronous":   "async", "asynchronously": "async",
		"concurrently": "concurrent", "parallel": "concurrent", "simultaneous": "concurrent", "simultaneously": "concurrent",
		"racy": "race", "races": "race",
		"hangs": "hang", "hung": "hang", "stall": "hang", "stalls": "hang", "freeze": "hang", "freezes": "hang", "forever": "hang",
		"timeouts": "timeout", "deadline": "timeout",
		"crash": "fail", "crashes": "fail", "failure": "fail", "failures": "fail", "fails": "fail", "failing": "fail", "failed": "fail",
		"breaks": "fail", "broken": "fail",
		"retries": "retry", "retried": "retry", "retrying": "retry",
		"stale": "outdated", "old": "outdated",
		"leaks": "leak", "leaked": "leak", "leaking": "leak",
		"invoke": "call", "invokes": "call", "invoked": "call", "invoking": "call", "invocation": "call", "invocations": "call",
		"spawn": "start", "spawns": "start", "spawned": "start", "launch": "start", "launches": "start",
		"dispatch": "start", "dispatches": "start",
		"identifier": "id", "ids": "id",
		"pr": "pullrequest", "prs": "pullrequest",
		"ci": "ci", "pipeline": "ci",
	}
	for _, line := range strings.Split(thesaurus, "\n") {
		head, words, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for _, w := range strings.Fields(words) {
			if _, dup := m[w]; !dup {
				m[w] = strings.TrimSpace(head)
			}
		}
	}
	return m
})

// thesaurus is the review vocabulary that names one failure, risk or remedy
// in several words, grouped by what the reviewer means (written from the
// kinds of findings reviews make, not from any labelled pair). Each line is
// "canonical: words that fold into it"; inflections the stemmer already
// joins are left out. A group only holds words that are interchangeable in
// a finding: "block" is "hang" in "blocks the event loop", but "check" is
// not "verify" often enough to fold.
const thesaurus = `
hang: block blocks blocked stalled stalling freezing frozen stuck unresponsive indefinitely
leak: expose exposes exposed exposing exposure reveal reveals revealed disclose discloses disclosed disclosure
missing: lack lacked neglects skips skipped
fail: panic panics panicked throw throws threw thrown raises
verify: validate validates validated validating validation validator verification verifies verified verifying
untrusted: attacker attackers malicious spoofable
forge: forged forges forging spoof spoofs spoofed spoofing fake faked
unbounded: unlimited limitless uncapped
flaky: nondeterministic intermittent intermittently randomly randomized randomizes randomised randomises
duplicate: duplicates duplicated duplicating twice
overwrite: overwrites overwritten overwriting clobber clobbers clobbered clobbering
ignore: ignores ignored ignoring discard discards discarded discarding swallow swallows swallowed swallowing
lose: lost loses losing loss
wait: await awaits awaited awaiting waits waited waiting
secret: secrets credential credentials
permission: permissions privilege privileges
timezone: timezones tz
fd: fds descriptor descriptors
conn: conns connection connections
request: req reqs requests
response: resp responses
bypass: bypasses bypassed circumvent circumvents
escape: escapes escaped escaping sanitize sanitizes sanitized sanitise sanitised
`

// genericWords appear in lessons of every kind; sharing them says little.
// Matched on the stem and on the lower-cased word.
var genericWords = sync.OnceValue(func() map[string]bool {
	return wordSet(`
test tests tested testing code file files func value values call calls return returns returned run runs running
ran add adds added adding change changes changed update updates updated handle handles handled case cases data
type types name names path paths set sets check checks checked wrong missing error fail work works working way
thing things result results get gets got put line lines step steps time first last each every new old current
other another different
`)
})

// genericStems holds the stems of genericWords, so every inflection of a
// generic word is generic too.
var genericStems = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for w := range genericWords() {
		m[stem(w)] = true
	}
	return m
})
