package review

import "strings"

// categoryRules are phrase lexicons, one per category, in priority order:
// when two categories score the same the earlier wins, because a security
// hole in a build script is a security lesson first.
var categoryRules = []struct {
	name string
	lex  lexicon
}{
	{CatSecurity, lex(`injection`, `\bxss\b`, `\bcsrf\b`, `\bssrf\b`, `path traversal`, `escapes the`, `../`,
		`shell=true`, `\bpickle`, `yaml.load`, `\beval(`, `deserializ`, `\bsecret\b`, `\bsecrets\b`, `credential`,
		`password`, `api key`, `private key`, `predictable`, `crypto/rand`, `math/rand`, `timing information`,
		`timing attack`, `leaks timing`, `constant-time`, `constant time`, `\bhmac`, `\bjwt\b`, `\balg\b`,
		`signing method`, `without authentication`, `unauthenticated`, `authoriz`, `authenticat`, `tenant`,
		`privilege`, `sanitiz`, `dompurify`, `dangerouslysetinnerhtml`, `template.html`, `escaping`, `bluemonday`,
		`maxbytesreader`, `no size limit`, `denial of service`, `debug = true`, `allowed_hosts`, `tracebacks`,
		`redact`, `arbitrary code`, `arbitrary files`, `runs script`, `executes on`, `every visitor`,
		`ships to every`,
		`another user`, `other users`, `any logged-in user`, `trusting the`, `\bidor\b`, `access control`, `/etc/passwd`, `any origin`, `any website`, `cors`, `authenticated requests`)},
	{CatBuild, lex(`\bci\b`, `github actions`, `workflow`, `makefile`, `dockerfile`, `image build`, `layer cache`,
		`cache key`, `module cache`, `\blint`, `linter`, `eslint`, `\bruff\b`, `\bmypy\b`, `\bty\b`, `typecheck`,
		`type check`, `\btsc\b`, `tsconfig`, `go vet`, `golangci`, `-race\b`, `race detector`, `\bgo test\b`,
		`\bpytest\b`, `vitest`, `\bjest\b`, `vi.mock`, `vi.hoisted`, `\bfixture`, `flaky`, `intermittent`,
		`time.sleep`, `test order`, `execution order`, `pre-push`, `pre-commit`, `\bwheel\b`, `setuptools`,
		`package-data`, `package data`, `pyproject`, `maturin`, `.pyi\b`, `type stub`, `npm ci`, `lockfile`,
		`package-lock`, `go.sum`, `go:embed`, `go generate`, `go:generate`, `\bcgo`, `glibc`, `alpine`,
		`dynamically link`, `build tag`, `\besm\b`, `moduleresolution`, `err_module_not_found`, `cannot find module`,
		`.js extension`, `tsc-alias`, `.nvmrc`, `setup-node`, `setup-go`, `fails to compile`, `build fails`,
		`go mod download`, `pip install`, `\bnpm 1`, `\bnpm 8`, `\bnode 1`, `\bnode 2`, `rebuild`, `re-downloads`,
		`downloads modules`, `published package`, `gitignore`, `ignore rule`,
		`t.parallel`, `t.setenv`, `testing package`, `the suite`, `missing go.sum`, `go mod tidy`)},
	{CatConvention, lex(`convention`, `agents.md`, `claude.md`, `contributing`, `in this repo`, `in this project`,
		`in this codebase`, `this repo`, `the repo has`, `the repo already has`, `project rule`, `tests here`,
		`must be registered through`, `every handler must`, `is meant to use`, `every writer`, `only main may`,
		`only `+"`main`"+` may`, `routes.register`, `testutil.`, `flags.enabled`, `atomicfile`, `wrap every error`,
		`sandbox_for`, `sync-codex`,
		`every migration`, `has a matching`, `fails without it`, `in the repo`, `like the others`)},
	{CatEdgeCase, lex(`\bempty\b`, `\bnil\b`, `\bnull\b`, `\bzero\b`, `len(`, `off-by-one`, `boundary`, `overflow`,
		`utf-8`, `utf8`, `\brune`, `unicode`, `multi-byte`, `timezone`, `\butc\b`, `local time`, `parseinlocation`,
		`\bdst\b`, `quoted fields`, `quoted commas`, `embedded newlines`, `encoding/csv`, `data race`,
		`concurrent write`, `concurrently write`, `nondeterministic`, `iteration order`, `order is random`,
		`\bretries\b`, `\bretried\b`, `redeliver`, `idempoten`, `duplicate`, `partial`, `truncat`, `cross-device`,
		`atomic`, `\bcrash`, `short pages`, `1-based`, `0-based`, `acked before`, `at-least-once`, `stale`,
		`\brace\b`, `\bpanic`, `invalid output`, `last valid`,
		`\bfloat`, `floating point`, `rounding`, `\bcents\b`, `encodeuricomponent`, `url-encod`, `percent-encod`, `urlsearchparams`, `arrive altered`, `\bdst\b`, `malformed`)},
	{CatAPI, lex(`docker exec`, `--user`, `\bhome=`, `$home`, `simctl`, `xcrun`, `cliclick`, `\bcli\b`,
		`subcommand`, `command-line`, `\bflag\b`, `\bflags\b`, `env var`, `environment variable`, `endpoint`,
		`status code`, `partner api`, `api returns`, `api response`, `pagination`, `next_cursor`, `\bcursor\b`,
		`rate limit`, `webhook`, `git worktree`, `\bgit `, `\bgh `, `\bcurl\b`, `sync check`, `receipt`, `flowctl`,
		`tracker-sync`, `create index`, `concurrently`, `postgres`, `transaction block`,
		`host click`, `host os click`, `accessibility`,
		`redis`, `setnx`, `\bttl\b`, `lua script`, `\b4xx\b`, `\b5xx\b`, `\b429\b`, `bad request`, `stripe`, `signature`)},
	{CatFramework, lex(`useeffect`, `usestate`, `usememo`, `usecallback`, `\breact\b`, `array index as`, `\bkey\b`,
		`component`, `\bhook\b`, `\bhooks\b`, `use client`, `server component`, `next.js`, `prisma`, `django`,
		`queryset`, `select_related`, `prefetch_related`, `\borm\b`, `timezone.now`, `use_tz`, `naive datetime`,
		`fastapi`, `pydantic`, `orm_mode`, `from_attributes`, `asyncio`, `event loop`, `create_task`, `async def`,
		`\bawait\b`, `coroutine`, `celery`, `sqlalchemy`, `psycopg`, `goroutine`, `waitgroup`, `wg.add`,
		`sync.mutex`, `\bctx\b`, `context`, `querycontext`, `http.client`, `defaultclient`, `\btimeout\b`,
		`rows.close`, `rows.err`, `\bdefer\b`, `writeheader`, `http.error`, `signal.notify`, `\bchannel\b`,
		`time.after`, `newtimer`, `\bclose\b`, `rollback`, `begintx`, `requests.get`, `importlib`,
		`mutable default`, `default argument`, `default list`, `swiftui`, `ondisappear`, `ondismiss`, `uikit`,
		`\bfetch\b`, `res.ok`, `abortcontroller`, `setcount`, `functional form`, `functional update`, `closure`,
		`import time`, `module load`, `process.env`, `os.environ`, `globalthis`, `hot reload`, `html/template`,
		`garbage-collected`, `weak reference`, `stdlib`, `standard library`, `current directory`,
		`promise`, `allsettled`, `\basync\b`, `tokio`, `spawn_blocking`, `\bruntime\b`, `blocks a worker`, `connection pool`, `\bpool\b`, `max_connections`, `module level`, `intersectionobserver`, `disconnect`, `re-render`, `singleflight`, `mutex`, `emailfield`, `serde`, `unwrap()`)},
}

// categorize scores the finding's problem twice as much as its fix: the
// problem says what kind of mistake it was; the fix and evidence often name
// neighbouring tools. It returns the winning score too, so the filter can
// tell a strong signal from a passing mention.
func categorize(f Finding) (string, int) {
	problem := strings.ToLower(f.Problem)
	rest := strings.ToLower(f.Fix + " \x00 " + f.Evidence)
	best, bestScore := CatGeneral, 0
	for _, r := range categoryRules {
		score := 2*r.lex.count(problem) + r.lex.count(rest)
		if score > bestScore {
			best, bestScore = r.name, score
		}
	}
	return best, bestScore
}

// categorySignals lists the phrases that decided the category, for
// --explain.
func categorySignals(f Finding, cat string) string {
	for _, r := range categoryRules {
		if r.name != cat {
			continue
		}
		out := r.lex.matches(strings.ToLower(f.Problem + " " + f.Fix))
		if len(out) > 4 {
			out = out[:4]
		}
		return strings.Join(out, ", ")
	}
	return ""
}
