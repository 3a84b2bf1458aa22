package review

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// dottedNames counts, up to 3, the tokens that are dotted names or calls
// (`db.batch()`, `customElements.define`, `url.Parse`).
func dottedNames(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		t := strings.Trim(w, ".,;:!?\"'()[]{}<>*`")
		if i := strings.IndexByte(t, '.'); i > 0 && i < len(t)-1 && isWordByte(t[i-1]) && isWordByte(t[i+1]) {
			if n++; n == 3 {
				break
			}
		}
	}
	return n
}

var flagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?:^|[\\s`(])--?[a-z][a-z-]*\\b") })

// Category signals: small general vocabularies of what a lesson is about,
// matched as word prefixes, or as whole words where a stem ends in '$'
// (origin$ is not original). They name concepts of the field (a security
// term, a build tool, a boundary condition or error path, a runtime or database
// feature), not phrases of any review; plain words a review uses about
// anything (like, returns, release, verify, flag) are not signals.
// Security comes first because a hole in a build script is a security
// lesson first; framework is also the default for a finding about code.
var categorySignals = []struct {
	name  string
	stems string
}{
	{CatSecurity, `secur auth authz authn token secret password credential encrypt plaintext xss csrf ssrf
		cors origin$ origins$ csp injection sanitiz escap traversal permission privilege leak sensitive pii
		timing constant-time timingsafe hmac signature jwt session-fixation tls$ mitm insecure
		trust untrust bypass elevat`},
	{CatBuild, `ci$ build$ builds$ lint linter eslint tsc typecheck compile compiler bundle bundler makefile
		dockerfile prepublish publish pipeline workflow lockfile dependency dependencies npm yarn pnpm pip cargo
		gradle maven smoke script scripts package.json pyproject go.mod`},
	{CatConvention, `convention consisten inconsisten reuse shared helper helpers centralize centralise
		single-source invariant agents.md claude.md contributing mirror mirroring elsewhere unlike
		existing matching mismatch contradict drift diverg different$ other$ rest$ same$ already spec$
		documented pattern compatib incompatib`},
	{CatEdgeCase, `empty null$ nil$ zero negative overflow underflow boundary off-by-one concurrent
		concurrency parallel deadlock stale orphan partial duplicate duplicates retry retries restart
		restarts crash idempot legacy migrat unicode utf encoding timezone dst leap order ordering race$ races$ racy
		self- itself$ themselves$ lifecycle cleanup leak leaks repeated toggle fail timeout exist missing truncat
		collision hang$ guard reject error-path`},
	{CatFramework, `version deprecat idiom standard stdlib built-in builtin library framework sdk runtime
		thread-safe goroutine channel panic unsafe async await promise decorator annotation middleware
		transaction upsert returning$ select$ insert$`},
	{CatAPI, `api endpoint rate-limit ratelimit throttl user-agent header headers webhook github
		gitlab stripe quirk graphql grpc`},
}

// categorize picks the category with the highest score (categoryScores);
// ties go to the earlier category. A library's API named by a dotted call
// (`db.batch()`, `customElements.define`) makes it a framework lesson
// unless another category has a stronger signal. Without any signal a
// finding that names code is a framework lesson (how a language or
// library is meant to be used), otherwise general.
func categorize(f Finding) string {
	scores := categoryScores(f)
	best, bestScore := "", 0
	for i, c := range categorySignals {
		if scores[i] > bestScore {
			best, bestScore = c.name, scores[i]
		}
	}
	if n := dottedNames(f.Problem + " " + f.Fix); n > 0 && 2*n >= bestScore && best != CatSecurity {
		return CatFramework
	}
	switch {
	case best != "":
		return best
	case hasAnchor(f.Problem) || hasAnchor(f.Fix):
		return CatFramework
	}
	return CatGeneral
}

// categoryScores scores each category of categorySignals, in its order, by
// its signals in the problem (twice) and the fix.
func categoryScores(f Finding) []int {
	problem := categoryWords(f.Problem)
	fix := categoryWords(f.Fix)
	scores := make([]int, len(categorySignals))
	for i, c := range categorySignals {
		score := 0
		for _, stem := range strings.Fields(c.stems) {
			score += 2*stemCount(problem, stem) + stemCount(fix, stem)
		}
		switch c.name {
		case CatAPI:
			if flagRe().MatchString(f.Problem + " " + f.Fix) {
				// A command-line flag in the text: a lesson about a tool's CLI.
				score += 2
			}
		case CatBuild:
			// A build, CI or package manifest named by path or as the
			// finding's location: paths are not vocabulary, but these
			// files say what the lesson is about.
			score += 2 * buildFiles(f.Location+" "+f.Problem+" "+f.Fix)
		case CatConvention:
			// The fix points at how this project already does it.
			for _, stem := range strings.Fields(c.stems) {
				score += stemCount(fix, stem)
			}
		}
		scores[i] = score
	}
	return scores
}

// buildManifests are file names that hold a build, its dependencies or its
// CI; lock files and workflow directories are matched apart.
var buildManifests = wordSet(`makefile gnumakefile justfile dockerfile containerfile jenkinsfile package.json
	go.mod go.sum cargo.toml pyproject.toml setup.py setup.cfg requirements.txt tsconfig.json build.gradle
	pom.xml gemfile .gitlab-ci.yml .goreleaser.yml .goreleaser.yaml docker-compose.yml compose.yaml`)

// buildFiles counts, up to 2, the tokens of s that name a build manifest,
// a lock file or a CI workflow (`.github/workflows/ci.yml`).
func buildFiles(s string) int {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(s)) {
		t := strings.TrimRight(strings.TrimLeft(w, "\"'([{<*`"), ".,;:!?\"')]}>*`")
		if i := strings.IndexByte(t, ':'); i > 0 {
			t = t[:i]
		}
		base := t[strings.LastIndexByte(t, '/')+1:]
		if buildManifests[base] || strings.HasSuffix(base, ".lock") || strings.HasSuffix(base, "-lock.json") ||
			strings.HasSuffix(base, "-lock.yaml") || strings.Contains(t, ".github/workflows/") || strings.Contains(t, ".circleci/") {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
}

// categoryWords are the lower-case words of s. File paths are left out:
// a directory named auth or build says where the code lives, not what
// the lesson is about.
func categoryWords(s string) []string {
	var words []string
	for _, field := range strings.Fields(strings.ToLower(s)) {
		if strings.Contains(strings.Trim(field, "`'\"()[]<>,;:"), "/") {
			continue
		}
		for _, w := range strings.FieldsFunc(field, func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_')
		}) {
			if w = strings.Trim(w, ".-_"); w != "" {
				words = append(words, w)
			}
		}
	}
	return words
}

// stemCount counts words that start with stem, or equal it when stem
// ends in '$'.
func stemCount(words []string, stem string) int {
	whole := strings.HasSuffix(stem, "$")
	stem = strings.TrimSuffix(stem, "$")
	n := 0
	for _, w := range words {
		if w == stem || !whole && strings.HasPrefix(w, stem) {
			n++
		}
	}
	return n
}
