package review

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Categories a kept finding is filed under.
const (
	CatFramework  = "framework"
	CatConvention = "convention"
	CatAPI        = "api"
	CatBuild      = "build"
	CatEdgeCase   = "edge-case"
	CatSecurity   = "security"
	CatGeneral    = "general"
)

// Decision is the learnable filter's verdict on one finding. Reason is
// short and always set, because `flowmem capture --explain` prints it to a
// person who wants to know why a lesson was or was not recorded.
type Decision struct {
	Finding  Finding
	Keep     bool
	Reason   string
	Category string
}

// Options tune the learnable filter; config maps onto it.
type Options struct {
	// MinSeverity is the lowest severity kept: "critical", "major",
	// "minor" or "nit". Empty means the default, "minor" (low, P3 and nit
	// findings are dropped). Findings whose severity the reviewer did not
	// state are never dropped for it.
	MinSeverity string
	// InferVerdict reads a review that writes no verdict but ranks a
	// finding critical or major as NEEDS_WORK (Codex's review mode and
	// many audit reports write none). Callers that may hold a truncated
	// preview of a review should leave it off.
	InferVerdict bool
}

// ClassifyWith decides whether a finding is a reusable lesson
// (shared/LABELING.md). The rules read structure and what the text names,
// never phrases of a particular review, and run in a fixed order; the first
// that drops a finding names the reason:
//  1. no problem text;
//  2. severity below the minimum;
//  3. about how text looks: problem and fix both about typos, naming,
//     formatting, comments or docs, and no rule stated; or a cleanup nit,
//     its title calling code dead or unused;
//  4. unfinished or broken code, fixed by finishing it;
//  5. a one-off of this task: it points at the task's plan, spec or
//     requirement ids and names no code;
//  6. turned down in triage ("Won't fix: …");
//  7. generic advice: its title is about coverage or asks for tests ("no
//     tests for …"), or it opens by asking to restructure ("Refactor
//     …") or asks only to remove duplication; or its subject is the
//     change's own docs ("the guide lists a removed flag"), a one-off;
//     or it is short (under thinLen bytes in all) and names no code in
//     its problem or place, too vague to learn from;
//  8. no fix: neither a fix field, a linked recommendation nor an
//     imperative or "should" sentence — unless the finding is ranked
//     (minor or above), names code in its problem or a file's line in
//     its place, and is more than a label of a few words: that implies
//     its fix (and see
//     fallback: a review that asks for changes keeps something);
//  9. names nothing concrete: no code span, identifier, call, path, flag,
//     command, version or environment variable in problem or fix.
//
// Praise and passed checks are left out by extraction (sections of what
// works or is already fixed), not here.
// A survivor is kept with a category from general signals (categorize).
func ClassifyWith(f Finding, o Options) Decision {
	d := Decision{Finding: f, Category: categorize(f)}
	drop := func(reason string) Decision {
		d.Reason = reason
		return d
	}
	floor := normalizeSeverity(o.MinSeverity)
	if floor == "" {
		floor = SevMinor
	}
	problem := strings.ToLower(f.Problem)
	fix := strings.ToLower(f.Fix)
	switch {
	case strings.TrimSpace(f.Problem) == "":
		return drop("no problem text")
	case f.Severity != "" && severityRank(f.Severity) < severityRank(floor):
		return drop(fmt.Sprintf("severity %s is below the minimum (%s)", f.Severity, floor))
	}
	if w := firstWord(stripCode(problem), styleWords); w != "" && firstWord(stripCode(fix), styleWords) != "" && !generalRule(problem+" "+fix) {
		// Both sides about text: a README that leaks a token is not a
		// docs finding, a stale doc comment whose fix rewords it is. A
		// stated rule ("packages must never be renamed after release",
		// "never rename over a file without fsync") is a convention or
		// a behaviour, whatever words it shares with style.
		return drop(fmt.Sprintf("about how text looks, not what code does (%q)", w))
	}
	if w := deadCode(title(problem)); w != "" {
		// "`retryCount` is unused", "Dead branch after the early
		// return": removing it is a cleanup nit (LABELING.md), whatever
		// the code.
		return drop(fmt.Sprintf("a cleanup nit (%q code)", w))
	}
	if w := unfinished(problem); w != "" {
		return drop(fmt.Sprintf("unfinished or broken code, fixed by finishing it (%q)", w))
	}
	if w := oneOff(f); w != "" {
		return drop("one-off tied to this task (" + w + ")")
	}
	if m := rejectedRe().FindStringSubmatch(f.Problem + " " + f.Fix + " " + f.Evidence); m != nil {
		// A triage report's "Not applicable: matches the spec" or
		// "Status: Won't fix": the finding was examined and turned down.
		return drop(fmt.Sprintf("turned down in triage (%q)", m[2]))
	}
	if w := firstWord(stripCode(title(problem)), coverageWords); w != "" {
		// "`Widget` had zero test coverage", "Retry coverage gaps on
		// reads": the finding measures how much of the code a practice
		// reaches and asks for more of it.
		return drop(fmt.Sprintf("generic advice (asks for more coverage: %q)", w))
	}
	if w := asksForTests(stripCode(title(problem))); w != "" {
		// "No tests for the retry path", "Missing parser tests": the
		// finding is the advice to write tests (LABELING.md: generic).
		return drop(fmt.Sprintf("generic advice (asks for tests: %q)", w))
	}
	if w := docsSubject(title(problem)); w != "" {
		// "The guide lists a removed flag", "Docs overstate the cache":
		// what is wrong is this change's own prose, fixed by editing it
		// once.
		return drop(fmt.Sprintf("one-off tied to this task (its subject is the change's own %s)", w))
	}
	if !hasCode(f.Problem) && !hasCode(f.Location) && len(f.Location)+len(f.Problem)+len(f.Fix)+len(f.Evidence) < thinLen {
		// A line or two that names no code in its problem or place: a
		// heading without a body, a summary or a restated step — too
		// little to say what went wrong and why. A file:line place makes
		// even a one-line finding concrete.
		return drop("vague: a short finding that names no code in its problem or place")
	}
	if w := strings.Trim(firstField(stripCode(problem)), ".,:;*"); vagueVerbs[w] {
		// "Refactor partitioning logic": the finding is itself the
		// advice to restructure, with no failure to learn from.
		return drop(fmt.Sprintf("generic advice (the finding only asks to %s)", w))
	}
	if duplication(problem) {
		return drop("generic advice (the finding only asks to remove duplicated code)")
	}
	implied := false
	if strings.TrimSpace(f.Fix) == "" {
		// A ranked defect in named code ("`probe` uses
		// `context.Background()` without a timeout") implies its fix: the
		// reviewer judged it one to fix. An unranked or vaguer one does
		// not. (Requiring major kept the old splits 3 points more precise
		// and cost the sets first seen in round 6 ten lessons.) A place
		// at a file's line ("poller.py:88", a table's Location column)
		// names the code as surely; a file alone does not. A few words
		// with nothing under them (no evidence or place: "`Valkey`
		// (cache)") are an item of an inventory or an outline more
		// often than a defect.
		bare := strings.TrimSpace(f.Evidence) == "" && strings.TrimSpace(f.Location) == "" && len(strings.Fields(f.Problem)) <= bareWords
		if bare || !hasCode(f.Problem) && !lineRef(f.Location) || severityRank(f.Severity) < severityRank(SevMinor) {
			return drop(reasonNoFix)
		}
		implied = true
	}
	if !hasAnchor(f.Problem) && !hasAnchor(f.Fix) && !hasAnchor(f.Location) {
		return drop("names no code, API, tool, path or command")
	}
	d.Keep = true
	d.Reason = fmt.Sprintf("reusable %s lesson: names %s and gives a fix", d.Category, anchorOf(f))
	if implied {
		d.Reason = fmt.Sprintf("reusable %s lesson: names %s; the fix is implied", d.Category, anchorOf(f))
	}
	return d
}

const reasonNoFix = "no concrete fix given or implied"

// bareWords is the most words a problem with no evidence or place can
// have and still be a bare label rather than a stated defect.
const bareWords = 8

// styleWords mark a finding about the text of code or docs rather than its
// behaviour.
var styleWords = wordSet(`typo typos misspelled misspelling spelling grammar wording naming rename renamed
	whitespace indentation formatting formatter prettier gofmt docstring docstrings readme documentation docs
	changelog nit nitpick cosmetic`)

// stripCode removes code spans: `smoke:docs` names a script, not docs.
func stripCode(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		if r == '`' {
			in = !in
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// firstWord returns the first word of text (split at non-letters) in set.
func firstWord(text string, set map[string]bool) string {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if set[w] {
			return w
		}
	}
	return ""
}

// deadWords call code in a title dead or unused.
var deadWords = wordSet(`dead unused`)

// deadCode returns the word of a title that calls code dead or unused, or
// "". Words are split at spaces, so a compound ("dead-code detection",
// "unused-import lint") names a thing and is no such word.
func deadCode(t string) string {
	for _, w := range strings.Fields(stripCode(t)) {
		if w = strings.Trim(w, ".,;:!?\"'()*[]"); deadWords[w] {
			return w
		}
	}
	return ""
}

// unfinishedWords say the code is not done yet (a stub, a TODO): such a
// finding is fixed by finishing the work and teaches nothing for the next
// task. A failing build is not here: it can be a build lesson.
var unfinishedWords = wordSet(`stub stubbed stubs unfinished unimplemented todo todos`)

// unfinished returns the word that marks problem as unfinished work, or "".
// It reads words, not phrases, so any wording of "left a stub" is the
// same signal.
func unfinished(problem string) string {
	words := strings.FieldsFunc(problem, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for i, w := range words {
		if unfinishedWords[w] {
			return w
		}
		if w == "syntax" && i+1 < len(words) && strings.HasPrefix(words[i+1], "error") {
			return "syntax error"
		}
	}
	return ""
}

// planRefRe matches references into this task's own documents: flow-next
// task ids, requirement and acceptance-criterion ids (R3, AC-2), and the
// plan's sections.
var planRefRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bfn-\d+|\b(?:R|AC|FR|NFR)-?\d+\b|\b(?:the|this) (?:plan|spec|epic|ticket|task spec|acceptance criteria|pr description|milestone)\b|\bacceptance criteri`)
})

// reqIDRe matches a requirement or acceptance-criterion id opening a
// title ("AC2 …", "FR-02 …").
var reqIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:R|AC|FR|NFR)-?\d+\b`) })

// oneOff: a finding about this task's plan, spec or requirements that names
// no code, or whose title opens with a requirement id, is fixed by editing
// this task's documents or meeting that requirement and teaches nothing
// later.
func oneOff(f Finding) string {
	if m := planRefRe().FindString(f.Problem + " " + f.Location); m != "" && !hasCode(f.Problem) && !hasCode(f.Fix) {
		return "refers to " + m
	}
	// A title whose subject is a requirement ("AC2 Source filter —
	// vendor missing") reports that this task's requirement is not met
	// (LABELING.md: a one-off), whatever code it names.
	if _, _, t, _ := titleMarker(title(f.Problem)); t != "" {
		if m := reqIDRe().FindString(strings.TrimLeft(t, "`*")); m != "" {
			return "its subject is " + m
		}
	}
	return ""
}

// rejectedRe matches a triage resolution that turns a finding down, as
// issue trackers name them, written as a status: capitalised and followed
// by a separator ("Not applicable: …", "Status: Won't fix — …").
var rejectedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s.:>|])((?:Not applicable|Won't fix|Wontfix|Will not fix|Invalid|False positive|Works as intended|Working as intended|By design|Not a bug|Declined|Rejected))\s*(?:[:—–.]|- )`)
})

// ruleWords state a rule for every case rather than a change to one plan.
var ruleWords = []string{"never ", "always ", "do not ", "don't ", "must not ", "avoid ", "instead of ", "every ", "each ",
	"any "}

func generalRule(text string) bool {
	for _, w := range ruleWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// vagueVerbs are fixes that say "make it better" without saying how.
var vagueVerbs = wordSet(`refactor refactoring improve cleanup clean simplify restructure reorganize split
	centralise centralize modularize tidy polish`)

// duplication: the finding's title (its first clause) says code is
// duplicated or identical. Removing copies is advice any model gives
// (LABELING.md: generic best practice); a duplicate that breaks something
// (rows stored twice, a second registration) is a consequence ("…, so
// rows are duplicated") or is titled by what breaks.
func duplication(problem string) bool {
	title := problem
	for _, end := range []string{". ", "\n", ";", " so ", ", which"} {
		if i := strings.Index(title, end); i > 0 {
			title = title[:i]
		}
	}
	for _, w := range strings.Fields(stripCode(title)) {
		w = strings.Trim(w, ".,;:!?\"'()*")
		// "nearly-identical", "byte-identical": the last part of a
		// compound says what it is.
		switch w[strings.LastIndexByte(w, '-')+1:] {
		case "duplicated", "duplication", "identical":
			return true
		}
	}
	return false
}

// thinLen is the length, in bytes of all its fields, under which a finding
// that names no code in its problem says too little to learn from.
const thinLen = 300

// testWords name tests; lackWords before one ask for it.
var (
	testWords = wordSet(`test tests`)
	lackWords = wordSet(`no missing lacks lack lacking without add`)
)

// asksForTests returns the words of a title that ask for tests — a word
// saying they are lacking or should be added, at most three words before
// "test" or "tests" ("no tests", "lacking parser tests") — or "".
func asksForTests(t string) string {
	words := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) })
	for i, w := range words {
		if !testWords[w] {
			continue
		}
		for j := max(0, i-3); j < i; j++ {
			if lackWords[words[j]] {
				return strings.Join(words[j:i+1], " ")
			}
		}
	}
	return ""
}

// docWords name a change's own prose documents.
var docWords = wordSet(`readme docs doc documentation changelog`)

// docsSubject returns the document word among the first words of a title
// ("The setup docs are stale", "README overstates …"), past a leading
// "[area]" or "Label:" tag, or "". A document named later ("drifts across
// the client, docs and server") is not the subject.
func docsSubject(t string) string {
	t = strings.ToLower(stripCode(t))
	t = strings.TrimLeft(t, " *-–—#>")
	if strings.HasPrefix(t, "[") {
		if i := strings.IndexByte(t, ']'); i > 0 {
			t = t[i+1:]
		}
	} else if i := strings.IndexByte(t, ':'); i > 0 && !strings.ContainsAny(t[:i], " \t") {
		t = t[i+1:]
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words[:min(4, len(words))] {
		if docWords[w] {
			return w
		}
	}
	return ""
}

// coverageWords in a finding's title make it about how much of the code a
// practice (tests, retries, checks) reaches.
var coverageWords = wordSet(`coverage untested`)

// title is the first sentence of a finding's problem text: what the
// finding is about, before evidence and detail.
func title(problem string) string {
	t := problem
	if ss := sentences(problem); len(ss) > 0 {
		t = ss[0]
	}
	// A title followed by a lower-case path ("… disappear. src/x.go:3
	// drops …") is one sentence to sentences; it ends at the stop.
	if i := strings.Index(t, ". "); i > 0 {
		t = t[:i]
	}
	return t
}

// Token kinds, from most to least specific: code names a thing in the code
// (a code span, a call, an identifier, a file path); a name is a concrete
// thing of another kind (a flag, an ENV_VAR, a version, an acronym such as
// CORS or SQL, a dotted name).
const (
	tokWord = iota
	tokName
	tokCode
)

// tokenKind classifies one whitespace-separated token. It reads the bytes
// once, so a finding is classified in time linear in its length.
func tokenKind(raw string) int {
	t := strings.Trim(raw, ".,;:!?\"'()[]{}<>*")
	if t == "" {
		return tokWord
	}
	if strings.Contains(raw, "()") {
		return tokCode // call()
	}
	kind := tokWord
	up := func(k int) {
		if k > kind {
			kind = k
		}
	}
	if t[0] == '-' {
		if u := strings.TrimLeft(t, "-"); len(t)-len(u) <= 2 && u != "" && isASCIILetter(u[0]) {
			up(tokName) // --flag
		}
	}
	lower, upper := 0, 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
			if i > 0 && t[i-1] >= 'a' && t[i-1] <= 'z' {
				up(tokCode) // camelCase, PascalCase
			}
		case isDigit(c):
		case i == 0 || i == len(t)-1:
		case c == '_' && isWordByte(t[i-1]) && isWordByte(t[i+1]):
			if t[i-1] >= 'A' && t[i-1] <= 'Z' {
				up(tokName) // ENV_VAR
			} else {
				up(tokCode) // snake_case
			}
		case c == '.' && isWordByte(t[i-1]) && isWordByte(t[i+1]):
			if abbreviation(t) {
				break // e.g., i.e.: prose, not a dotted name
			}
			if strings.Contains(raw[strings.Index(raw, t)+i:], "(") {
				up(tokCode) // pkg.Call(
			} else {
				up(tokName) // dotted.name, 1.22
			}
		case c == '/' && isWordByte(t[i-1]) && isWordByte(t[i+1]):
			if e := strings.LastIndexByte(t, '.'); e > i && e < len(t)-1 {
				up(tokCode) // dir/file.ext
			} else {
				up(tokName) // a/path
			}
		case c == '=' && isWordByte(t[i-1]) && isWordByte(t[i+1]):
			up(tokName) // key=value
		case c == '<' && isWordByte(t[i-1]) && isASCIILetter(t[i+1]):
			up(tokCode) // Record<string,unknown>, Vec<T>
		case c == '|' && isWordByte(t[i-1]) && isASCIILetter(t[i+1]):
			up(tokCode) // string|null
		}
	}
	if upper >= 2 && lower <= 1 {
		up(tokName) // SQL, CORS, IDNs, D1
	}
	return kind
}

// concrete returns the first thing s names at least as specific as min
// (tokName or tokCode), or "".
func concrete(s string, min int) string {
	for rest := s; ; {
		i := strings.IndexByte(rest, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i+1:], '`')
		if j < 0 {
			break
		}
		if span := rest[i : i+j+2]; strings.IndexFunc(span, isAlnum) >= 0 {
			return span
		}
		// "`[ ]`", "`- `": punctuation quoted as code names nothing.
		rest = rest[i+j+2:]
	}
	for _, w := range strings.Fields(s) {
		if tokenKind(w) >= min {
			return w
		}
	}
	return ""
}

// hasAnchor reports whether text names something concrete.
func hasAnchor(s string) bool { return concrete(s, tokName) != "" }

// hasCode is the stricter test: code spans, calls, identifiers and file
// paths, not acronyms or versions.
func hasCode(s string) bool { return concrete(s, tokCode) != "" }

// anchorOf names, for --explain, the concrete thing a finding names.
func anchorOf(f Finding) string {
	for _, s := range []string{f.Problem, f.Fix, f.Location} {
		if m := concrete(s, tokName); m != "" {
			m = strings.TrimSpace(m)
			if len(m) > 40 {
				m = m[:40] + "…"
			}
			return fmt.Sprintf("%q", m)
		}
	}
	return "code"
}

func isWordByte(c byte) bool { return isASCIILetter(c) || isDigit(c) || c == '_' }

// abbreviation reports whether t is made of single letters joined by dots
// (e.g, i.e): an abbreviation of prose, not a dotted name.
func abbreviation(t string) bool {
	for _, part := range strings.Split(strings.Trim(t, "."), ".") {
		if len(part) != 1 || !isASCIILetter(part[0]) {
			return false
		}
	}
	return true
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// lineRef reports whether a place names a line of a file ("a/b.py:31",
// "x.go:10-12"): a defect pinned to a line names its code even when the
// problem text does not.
func lineRef(loc string) bool {
	for i := strings.IndexByte(loc, ':'); i > 0 && i+1 < len(loc); {
		if isDigit(loc[i+1]) && strings.ContainsAny(loc[:i], "./") {
			return true
		}
		j := strings.IndexByte(loc[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
