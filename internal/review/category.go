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
// matched as word prefixes. They name concepts of the field (a security
// term, a build tool, a boundary condition), not phrases of any review.
// Security comes first because a hole in a build script is a security
// lesson first; framework is the default for a finding about code.
var categorySignals = []struct {
	name  string
	stems string
}{
	{CatSecurity, `secur auth authz authn token secret password credential encrypt plaintext xss csrf ssrf
		cors origin csp injection sanitiz escap traversal permission privilege leak sensitive pii timing
		constant-time timingsafe hmac signature jwt session-fixation`},
	{CatBuild, `ci build lint linter eslint tsc typecheck compile compiler bundle bundler makefile dockerfile
		prepublish publish release pipeline workflow lockfile dependency dependencies npm yarn pnpm pip cargo
		gradle maven smoke verify script scripts package.json pyproject go.mod`},
	{CatConvention, `convention consistent consistently reuse shared helper helpers centralize centralise
		single-source invariant agents.md claude.md contributing mirror mirroring elsewhere like unlike
		existing matching`},
	{CatEdgeCase, `empty null nil zero negative overflow underflow boundary off-by-one race concurrent
		concurrency parallel deadlock stale orphan partial duplicate duplicates retry retries restart
		restarts crash idempot legacy migrat unicode utf encoding timezone dst leap order ordering
		self lifecycle cleanup leak leaks repeated toggle`},
	{CatAPI, `api endpoint rate-limit ratelimit throttl user-agent header headers webhook flag flags github
		gitlab stripe returns quirk graphql grpc`},
}

// categorize scores each category by its signals in the problem (twice)
// and the fix; ties go to the earlier category. Without any signal a
// finding that names code is a framework lesson (how a language or
// library is meant to be used), otherwise general.
func categorize(f Finding) string {
	problem := categoryWords(f.Problem)
	fix := categoryWords(f.Fix)
	best, bestScore := "", 0
	for _, c := range categorySignals {
		score := 0
		for _, stem := range strings.Fields(c.stems) {
			score += 2*prefixCount(problem, stem) + prefixCount(fix, stem)
		}
		switch c.name {
		case CatAPI:
			if flagRe().MatchString(f.Problem + " " + f.Fix) {
				// A command-line flag in the text: a lesson about a tool's CLI.
				score += 2
			}
		case CatConvention:
			// The fix points at how this project already does it.
			for _, stem := range strings.Fields(c.stems) {
				score += prefixCount(fix, stem)
			}
		}
		if score > bestScore {
			best, bestScore = c.name, score
		}
	}
	// A library's API named by a dotted call (`db.batch()`,
	// `customElements.define`) makes it a framework lesson unless another
	// category has a stronger signal.
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

func categoryWords(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' || r == '_')
	})
	for i, w := range words {
		words[i] = strings.Trim(w, ".-_")
	}
	return words
}

// prefixCount counts words that start with stem (1 at most per word).
func prefixCount(words []string, stem string) int {
	n := 0
	for _, w := range words {
		if strings.HasPrefix(w, stem) {
			n++
		}
	}
	return n
}
