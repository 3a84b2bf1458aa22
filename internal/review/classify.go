package review

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
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
	// "minor" or "nit". Empty means the default, "major". Findings whose
	// severity the reviewer did not state are never dropped for it: an
	// unranked finding in a change-requesting review is usually blocking.
	MinSeverity string
	// PlanReview says the review judged a plan (flow-next plan-review), not
	// code. Its findings that point at plan sections (epic, task, R3,
	// Approach) are then one-offs even without other plan wording.
	// AnalyzeWith sets it by itself when most findings point at plan
	// sections.
	PlanReview bool
	// Kinds, when set, names the kinds of lesson a kept finding is of
	// (the capture package's catalog), for --explain to show which
	// earlier lessons it would be compared with as the same one.
	Kinds func(problem, fix string) []string
}

// DefaultOptions keeps critical and major findings.
func DefaultOptions() Options { return Options{MinSeverity: SevMajor} }

// Classify decides with DefaultOptions.
func Classify(f Finding) Decision { return ClassifyWith(f, DefaultOptions()) }

// ClassifyWith decides whether a finding is a reusable lesson. The rules
// run in a fixed order and the first that drops a finding names the reason:
// empty, below the minimum severity, typo/style, one-off (ticket details,
// bookkeeping, this task's plan), docs-only, no fix, generic advice, vague
// fix, nothing reusable. A survivor has a concrete fix and either a signal
// that it is about a framework, tool, API, build, security, convention or
// edge-case class, or code named in both its problem and its fix.
func ClassifyWith(f Finding, o Options) Decision {
	d := Decision{Finding: f}
	var score int
	d.Category, score = categorize(f)
	drop := func(reason string) Decision {
		d.Reason = reason
		return d
	}
	floor := normalizeSeverity(o.MinSeverity)
	if floor == "" {
		floor = SevMajor
	}
	problem := strings.ToLower(f.Problem)
	fix := strings.ToLower(f.Fix)
	switch {
	case strings.TrimSpace(f.Problem) == "":
		return drop("no problem text")
	case f.Severity != "" && severityRank(f.Severity) < severityRank(floor):
		return drop(fmt.Sprintf("severity %s is below the minimum (%s)", f.Severity, floor))
	}
	if m := styleLex.first(problem); m != "" {
		return drop(fmt.Sprintf("typo/style/formatting (%q)", m))
	}
	if m := typoFixLex.first(fix); m != "" {
		return drop(fmt.Sprintf("typo/style/formatting fix (%q)", m))
	}
	if m := oneOffLex.first(problem + " " + fix); m != "" {
		return drop(fmt.Sprintf("one-off tied to this task (%q)", m))
	}
	if why := planOneOff(f, o.PlanReview); why != "" {
		return drop("one-off tied to this task's plan (" + why + ")")
	}
	if docsOnly(f) {
		return drop("docs-only wording change")
	}
	if strings.TrimSpace(f.Fix) == "" {
		return drop("no concrete fix given")
	}
	if m := vagueProblemLex.first(problem); m != "" && !hasAnchor(f.Problem) {
		return drop(fmt.Sprintf("generic advice (%q)", m))
	}
	if m := vagueFix(f.Fix); m != "" {
		return drop(fmt.Sprintf("vague fix (%q)", m))
	}
	if d.Category == CatGeneral && !(hasAnchor(f.Problem) && hasAnchor(f.Fix)) {
		// A finding outside every lexicon is still kept when both its
		// problem and its fix name code: the negative rules above have
		// already removed style, vague, one-off and plan findings, and
		// lexicons cannot list every framework.
		return drop("no reusable lesson: nothing framework, tool, build, security, convention or edge-case specific")
	}
	if score < 3 && !hasAnchor(f.Problem) && !hasAnchor(f.Fix) {
		// Names nothing concrete and only brushes a category: a fix for
		// this code, not a lesson.
		return drop("no reusable lesson: names no code, tool or API and the " + d.Category + " signal is weak")
	}
	d.Keep = true
	d.Reason = fmt.Sprintf("reusable %s lesson with a concrete fix", d.Category)
	if sig := categorySignals(f, d.Category); sig != "" {
		d.Reason += " (" + sig + ")"
	}
	return d
}

// styleLex matches problems about how code or prose looks rather than what
// it does.
var styleLex = lex(`\btypo\b`, `\btypos\b`, `misspel`, `\bspelling\b`, `\bgrammar\b`, `\bwording\b`,
	`\bis unclear\b`, `\bterse\b`, `descriptive name`, `poor name`, `poor variable name`, `shorter name`,
	`\bnaming\b`, `\bwhitespace\b`, `\bindentation\b`, `trailing newline`, `\bformatting\b`, `\bformatter\b`,
	`\bprettier\b`, `semicolon`, `single and double quotes`, `alphabetical`, `import group`, `import order`,
	`longer than 80 char`, `longer than 100 char`, `longer than 120 char`, `\blines long\b`, `\bdocstring\b`,
	`\bdoc comment\b`, `comment wording`, `comment says`, `\bcapitalized\b`, `\bcapitalised\b`,
	`capital letter`, `unused import`, `unused variable`, `unused css`, `class is unused`, `\bblank line\b`,
	`nested ifs`, `nested four`, `nested three`, "prefer `const`", `prefer const`, "uses `interface{}`",
	`uses interface{}`, `mix imperative`, `type hints`, `label reads`)

var typoFixLex = lex(`fix the typo`, `correct the typo`, `fix the spelling`, `fix the wording`, `spell it`,
	`run the formatter`, `run prettier`, `run gofmt`, `align with spaces`)

// oneOffLex matches findings about this task's product details or
// bookkeeping: what a ticket or mockup asked for, version bumps, task state.
var oneOffLex = lex(`the ticket`, `ticket says`, `ticket asked`, `the task asked`, `task also asked`,
	`the mockup`, `per the spec`, `spec document`, `not bumped`, `bump it`, `bump the version`, `task json`,
	`task state`, `evidence is partially vacuous`, `evidence is vacuous`, `evidence is inconsistent`,
	`fixture churn`, `must be reverted`, `milestone status`, `per the design`, `per design`,
	`the design says`, `pricing sheet`, `pr description`, `issue reference`)

// planLocLex matches locations that point into a plan rather than code.
var planLocLex = lex(`\bepic`, `\btask`, `fn-`, `\br1`, `\br2`, `\br3`, `\br4`, `\br5`, `\br6`, `\br7`, `\br8`,
	`\br9`, `acceptance`, `approach`, `\bstep `, `test strategy`, `\binterface\b`, `overview`, `\bplan\b`,
	`non-functional`, `observability`, `<task_specs>`, `proof point`, `edge cases`, `api contracts`,
	`csv mapping`, `entire plan`, `\btesting\b`, `results ui`, `\bvalidation\b`, `data integrity`)

var planTextLex = lex(`the plan`, `the epic`, `\bepic`, `task .`, `task fn-`, `task 1`, `task 2`, `task 3`,
	`tasks 1`, `tasks 2`, `\bacceptance\b`, `test strategy`, `underspecified`, `under-specified`, `unspecified`,
	`not specified`, `\bundefined\b`, `unstated`, `are absent`, `is absent`, `untestable`, `not testable`,
	`placeholder`, `the spec\b`, `proof point`, `no test strategy`, `the overview`, `frontmatter`, `\bprose\b`)

var planFixLex = lex(`\bspecify\b`, `\bdefine\b`, `\bclarify\b`, `\bstate a\b`, `\bstate the\b`,
	`\bstate whether\b`, `\bstate required\b`, `\bstate auth`, `\bstate unit`, `\bstate measurable`,
	`in the task`, `in the epic`, `in the spec`, `in the plan`, `task spec`, `update both`, `pick one`,
	`\breorder\b`, `split into`, `split by`, `acceptance`, `in .1`, `in .2`, `in .3`, `to .1`, `to .2`, `to .3`,
	`fn-`, `task .`, `add rule`, `weaken the promise`, `turn step`, `\bsupply\b`, `depends_on`,
	`delete the duplicate`, `make step`, `narrow r`, `the epic`)

// planOneOff recognises plan-review findings about the plan document
// itself: contradictions between epic and tasks, missing criteria,
// ordering. They are fixed by editing this task's plan and teach nothing
// later.
func planOneOff(f Finding, planReview bool) string {
	score := 0
	why := ""
	if m := planLocLex.first(strings.ToLower(f.Location)); m != "" {
		score += 2
		why = "location mentions " + m
	}
	problem := strings.ToLower(f.Problem)
	hits := planTextLex.matches(problem)
	if len(hits) > 2 {
		hits = hits[:2]
	}
	score += len(hits)
	if why == "" && len(hits) > 0 {
		why = hits[0]
	}
	if m := planFixLex.first(strings.ToLower(f.Fix)); m != "" {
		score++
		if why == "" {
			why = "fix edits the plan: " + m
		}
	}
	need := 3
	if planReview {
		need = 2
	}
	if score < need {
		return ""
	}
	return why
}

// looksLikePlanReview reports whether most findings point at plan sections
// rather than files, which is what a plan review's findings do.
func looksLikePlanReview(fs []Finding) bool {
	n := 0
	for _, f := range fs {
		loc := strings.ToLower(f.Location)
		if planLocLex.has(loc) && !pathLineRe().MatchString(f.Location) {
			n++
		}
	}
	return n >= 2 && 2*n >= len(fs)
}

var docsLocLex = lex(`readme`, `changelog`, `.md\b`, `docs/`, `doc/`, `design doc`)
var docsFixStartLex = lex(`update`, `describe`, `call them`, `document`, `reword`, `fix the docs`, `fix the wording`)
var docsFixLex = lex(`update the readme`, `update readme`, `update the docs`, `update the doc `, `update the badge`,
	`update the step`, `update section`, `update the section`)

// docsOnly: a finding whose fix is to change documentation text. Useful to
// this change, not a lesson.
func docsOnly(f Finding) bool {
	fix := strings.ToLower(f.Fix)
	startsDocs := false
	for _, t := range docsFixStartLex {
		if strings.HasPrefix(fix, t.s) {
			startsDocs = true
		}
	}
	if !startsDocs && !docsFixLex.has(fix) {
		return false
	}
	return docsLocLex.has(strings.ToLower(f.Location)) || docsLocLex.has(strings.ToLower(f.Problem))
}

var vagueProblemLex = lex(`could be improved`, `could be better`, `hard to read`, `hard to follow`, `is thin`,
	`are thin`, `messy`, `does too much`, `may be an issue`, `inconsistent across`, `double-check`, `too long`,
	`lines long`, `should probably be`)
var vagueFixStart = []string{"consider", "maybe", "perhaps", "possibly", "might", "could", "think about", "try to",
	"look into", "review it again", "review this again", "review again", "split it up", "fix it"}
var vagueFixLex = lex(`\bimprove`, `clean up`, `clean it up`, `cleaning it up`, `more robust`, `add more tests`,
	`more gracefully`, `for readability`, `for clarity`, `\brefactor\b`, `as needed`, `where appropriate`,
	`if possible`, `at some point`, `double-check`, `be careful`, `consistent`, `optimiz`, `optimis`)

// vagueFix returns the vague phrase when a fix does not say what to do.
func vagueFix(fix string) string {
	if hasAnchor(fix) {
		return ""
	}
	l := strings.ToLower(strings.TrimSpace(fix))
	for _, v := range vagueFixStart {
		if strings.HasPrefix(l, v) {
			return v
		}
	}
	if m := vagueFixLex.first(l); m != "" {
		return m
	}
	if len(strings.Fields(l)) <= 2 {
		return l
	}
	return ""
}

var anchorRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`[^`]+`|\\b[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)+\\(?|\\b[a-z]+[A-Z][A-Za-z0-9]*\\b|\\b[A-Za-z0-9_]+\\(\\)|--[a-z][a-z-]+|\\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\\b|[\\w-]+/[\\w./-]+|\\b\\w+=\\w+")
})

// hasAnchor reports whether text names something concrete: a code span, a
// dotted or camelCase identifier, a call, a flag, an ENV_VAR or a path.
func hasAnchor(s string) bool { return anchorRe().MatchString(s) }
