package review

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

var flagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?:^|[\\s`(])--?[a-z][a-z-]*\\b") })

// dottedCalls counts, up to 2, the calls of a name inside a namespace
// (context.Background(), customElements.get(…)). Only the fix is read: a
// fix that calls a library's API teaches its idiom, while a call in the
// problem is usually the project's own code going wrong.
func dottedCalls(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		t := strings.Trim(w, "*\"'.,;:")
		t = strings.Trim(t, "`")
		i := strings.IndexByte(t, '.')
		if i <= 0 || i >= len(t)-1 || !isWordByte(t[i-1]) || !isASCIILetter(t[i+1]) || !strings.Contains(t[i:], "(") {
			continue
		}
		if n++; n == 2 {
			break
		}
	}
	return n
}

// prescribed counts, up to 2, the places where s tells the reader to use a
// named thing ("use `RETURNING id`", "guard it with `customElements.get`",
// "call r.Context()"): a lesson that swaps one way of calling a library
// for the right one is a framework idiom (LABELING.md: "use() instead of
// useEffect").
func prescribed(s string) int {
	words := strings.Fields(s)
	n := 0
	for i, w := range words {
		reach := 3
		switch strings.ToLower(strings.Trim(w, ".,;:!?\"'()*")) {
		case "use", "using", "call", "prefer", "via":
		case "with":
			reach = 1 // "with `x`", not "with the caller"
		default:
			continue
		}
		for _, next := range words[i+1 : min(i+1+reach, len(words))] {
			if strings.HasPrefix(strings.TrimLeft(next, "`("), "-") {
				break // a flag: the lesson is a tool's CLI (api)
			}
			if strings.HasPrefix(next, "`") || tokenKind(next) >= tokName {
				n++
				break
			}
		}
		if n == 2 {
			break
		}
	}
	return n
}

// Category signals: small general vocabularies of what a lesson is about,
// matched as word prefixes, or as whole words where a stem ends in '$'
// (auth$ is not author); a prefix covers a word's other forms (secret,
// secrets), and a word counts once however many stems it carries. They
// name concepts of the field (a security property, a build tool, a
// boundary condition or error path, a runtime or database feature, a
// project rule or a place the project already does it), not phrases of
// any review. A word with two common senses that point at different
// categories is no signal: token, trust, origin, other, same; leak (a
// secret or a goroutine), order ("in order to" or the order of events),
// reuse (a helper, or a stale object), pipeline (CI or data), migration
// (a schema, a release, or old data), SDK (a framework or a vendor's
// API). A script is code the project runs, not its build (build and CI
// files named by path still count, see buildFiles).
// Security comes first because a hole in a build script is a security
// lesson first.
var categorySignals = []struct {
	name  string
	stems string
}{
	{CatSecurity, `secur auth$ authz authn authent authoriz secret password credential encrypt plaintext
		xss csrf ssrf cors csp injection sanitiz privilege pii timing-safe constant-time timingsafe
		hmac jwt session-fixation tls$ mitm insecure untrust containment redact admin$ role$ roles$
		permission expos sensitive`},
	{CatBuild, `ci$ build$ builds$ lint eslint tsc typecheck compile bundle makefile
		dockerfile prepublish publish workflow lockfile dependency dependencies npm yarn pnpm pip$ cargo
		gradle maven smoke package.json pyproject go.mod`},
	{CatConvention, `convention consistent$ inconsisten centralize centralise single-source
		agents.md claude.md contributing guideline elsewhere unlike mismatch
		contradict drift diverg rule$ documented existing already rest$`},
	{CatEdgeCase, `empty null$ nil$ zero negative overflow underflow boundary off-by-one concurrent concurrency
		parallel deadlock stale orphan duplicate retry retries restart crash
		idempot legacy unicode utf encoding timezone dst leap race$ races$ racy
		self- itself$ themselves$ lifecycle cleanup repeated toggle timeout exist truncat
		collision hang$ reject error-path when$ spaces`},
	{CatFramework, `deprecat idiom stdlib builtin library framework runtime thread-safe goroutine channel
		unsafe async await promise decorator annotation middleware transaction upsert select$ insert$
		mutex subscri constraint pragma`},
	{CatAPI, `api endpoint rate-limit ratelimit throttl user-agent header webhook github
		gitlab stripe quirk graphql grpc response paginat`},
}

// categorize picks the category with the highest score (categoryScores);
// ties go to the earlier category. Without any signal a finding that
// names code is an edge case (a situation the code did not handle: the
// commonest learnable class in real reviews), otherwise general.
func categorize(f Finding) string {
	scores := categoryScores(f)
	best, bestScore := "", 0
	for i, c := range categorySignals {
		if scores[i] > bestScore {
			best, bestScore = c.name, scores[i]
		}
	}
	switch {
	case best != "":
		return best
	case hasAnchor(f.Problem) || hasAnchor(f.Fix):
		return CatEdgeCase
	}
	return CatGeneral
}

// categoryScores scores each category of categorySignals, in its order, by
// its signals in the problem (twice) and the fix.
func categoryScores(f Finding) []int {
	problem := credentials(categoryWords(f.Problem))
	fix := credentials(categoryWords(f.Fix))
	scores := make([]int, len(categorySignals))
	for i, c := range categorySignals {
		stems := strings.Fields(c.stems)
		score := 2*signalCount(problem, stems) + signalCount(fix, stems)
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
			// A build or package tool run with arguments in a code span
			// (`npm ci`, `cargo build`): how the project is built,
			// installed or checked — unless a flag is named anywhere, which
			// makes the lesson one about the tool's CLI (api, above).
			if !flagRe().MatchString(f.Problem + " " + f.Fix) {
				score += 2 * toolCommands(f.Problem+" "+f.Fix)
			}
			if testFile(f.Location) {
				// A finding placed in a test file: the rubric's test
				// gotcha, whatever the test got wrong.
				score += 2
			}
		case CatFramework:
			score += 2*prescribed(f.Fix) + dottedCalls(f.Fix)
			// A language, runtime or framework named by name: the rubric's
			// framework lesson is that thing's idiom ("React 19: …",
			// "Go: …"), whatever failure the finding describes.
			score += 2 * namedFrameworks(f.Problem+" "+f.Fix)
		case CatConvention:
			// The fix points at how this project already does it.
			score += signalCount(fix, stems)
			// A numbered rule of the project ("Rule 3", "guideline #2")
			// is the rubric's project convention by name.
			score += 2 * ruleRefs(f.Problem+" "+f.Fix)
			if obligation(f.Fix) {
				// A fix stated as an obligation is a rule to keep
				// (LABELING.md: "every migration in this repo must be
				// reversible"); one point, so it only tips a close call.
				score++
			}
		}
		scores[i] = score
	}
	return scores
}

// frameworkNames are programming languages, runtimes and widely used
// frameworks and libraries, written from general knowledge of the field
// (not from any review). "go" and "node" are left out: in review prose
// they are mostly the English verb and a tree's node.
var frameworkNames = wordSet(`golang rust python typescript javascript java kotlin swift ruby elixir erlang
	php c++ c# csharp scala haskell ocaml dart lua perl bash node.js nodejs deno bun react vue svelte angular
	next.js nextjs nuxt remix django flask fastapi rails laravel spring express nestjs tokio asyncio pydantic
	sqlalchemy prisma jquery redux tailwind phoenix ecto dotnet .net gorm serde`)

// namedFrameworks counts, up to 2, the words of s that name a language,
// runtime or framework (frameworkNames).
func namedFrameworks(s string) int {
	n := 0
	for _, w := range categoryWords(s) {
		if frameworkNames[w] {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
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

// buildTools are command-line tools that build, test, lint, install or
// package code, named from general knowledge of the field. A span that runs
// one of them says how the project is built or checked.
var buildTools = wordSet(`make cmake ninja bazel just npm npx yarn pnpm bun deno go cargo rustup pip pip3
	pipx uv uvx poetry pdm tox nox pytest python python3 node tsc eslint prettier ruff mypy black jest vitest
	mvn gradle dotnet msbuild bundle gem rake composer mix swift xcodebuild docker podman git gh`)

// toolCommands counts, up to 2, the code spans of s that run a build tool
// with an argument (`npm ci`, `go vet ./...`).
func toolCommands(s string) int {
	n := 0
	parts := strings.Split(s, "`")
	for i := 1; i < len(parts); i += 2 {
		w := strings.Fields(parts[i])
		if len(w) >= 2 && buildTools[w[0]] {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
}

// ruleRe finds a numbered rule: a word for a project rule followed by its
// number ("Rule 6", "guideline #2", "smell #10", "policy no. 4").
var ruleRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:rules?|guidelines?|principles?|standards?|polic(?:y|ies)|conventions?|smells?)\s*(?:#|no\.?\s*)?\d+\b`)
})

// ruleRefs counts, up to 2, the numbered rules s cites.
func ruleRefs(s string) int {
	return len(ruleRe().FindAllStringIndex(s, 2))
}

// obligation reports whether s states something that must be done ("must"
// as a whole word).
func obligation(s string) bool {
	for _, w := range categoryWords(s) {
		if w == "must" {
			return true
		}
	}
	return false
}

// credentials rewrites an API key or token ("api key", "api_key",
// "apikey") as the credential it is: a lesson about where one is kept is
// a security lesson, not one about the API it opens.
func credentials(words []string) []string {
	for i, w := range words {
		switch {
		case w == "api" && i+1 < len(words) && hasStem(words[i+1], []string{"key", "token"}):
			words[i] = "credential"
		case w == "apikey" || w == "apikeys" || strings.HasPrefix(w, "api_key") || strings.HasPrefix(w, "api-key") ||
			strings.HasPrefix(w, "api_token") || strings.HasPrefix(w, "api-token"):
			words[i] = "credential"
		}
	}
	return words
}

// testFile reports whether loc places a finding in a test file
// (foo_test.go, bar.test.ts, baz.spec.js, test_qux.py) or under a test
// directory (tests/, __tests__/, e2e/).
func testFile(loc string) bool {
	for _, f := range strings.FieldsFunc(strings.ToLower(loc), func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '`' }) {
		if i := strings.IndexByte(f, ':'); i > 0 {
			f = f[:i]
		}
		base := f[strings.LastIndexByte(f, '/')+1:]
		if strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
			strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") {
			return true
		}
		for _, dir := range strings.Split(f, "/")[:strings.Count(f, "/")] {
			switch dir {
			case "test", "tests", "__tests__", "e2e", "spec":
				return true
			}
		}
	}
	return false
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

// signalCount counts the words that carry one of stems, each word once
// however many stems it carries. A negated form counts as its stem: unauthenticated is about
// authentication, unencrypted about encryption (not until: a short
// rest is no word of its own).
func signalCount(words, stems []string) int {
	n := 0
	for _, w := range words {
		if hasStem(w, stems) || len(w) > 6 && strings.HasPrefix(w, "un") && hasStem(w[2:], stems) {
			n++
		}
	}
	return n
}

// hasStem reports whether w starts with one of stems, or equals it when
// the stem ends in '$'.
func hasStem(w string, stems []string) bool {
	for _, stem := range stems {
		if whole, ok := strings.CutSuffix(stem, "$"); ok {
			if w == whole {
				return true
			}
		} else if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}
