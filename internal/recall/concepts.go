package recall

// conceptGroups are the looser cousins of synonymGroups: words that name
// the same software-engineering concept from different sides, the way a
// task title and a review finding describe one problem. A planner asks for
// "brute-force protection for login"; the reviewer wrote "sign-in has no
// rate limiting". A request says a call "hangs"; the lesson says it has no
// timeout. Each group is one concept, written from general knowledge of
// the trade, not from any particular memory: symptoms next to their usual
// causes and remedies, a tool next to the thing it does, the spellings of
// one idea across languages and frameworks.
//
// A member with a space is a phrase: it matches the words run together
// ("rate limit" matches rateLimit, rate_limit and "rate limiting" in
// prose) — see the phrase handling in parseQuery and the matcher.
//
// Concept matches count for much less than the word itself (conceptWeight)
// and a query word takes its best match only, so an entry that says the
// word outright always beats one that only shares its concept, and a
// concept spelled several ways in one entry counts once.
//
// Words with a common unrelated meaning in code are left out or kept to
// the group where that meaning cannot mislead (limit, page, order, key,
// block, state, value).
var conceptGroups = [][]string{
	// Authentication, sessions, credentials.
	{"login", "signin", "sign in", "logon", "log in", "authenticate", "authentication"},
	{"password", "passphrase", "passwd", "credential"},
	{"secret", "credential", "api key", "apikey", "private key", "access key"},
	{"token", "jwt", "bearer", "access token"},
	{"session", "cookie"},
	{"rate limit", "throttle", "brute force", "lockout", "credential stuffing", "429", "quota"},
	{"authorization", "authz", "permission", "access control", "rbac", "privilege"},
	{"admin", "administrator", "superuser", "is admin"},
	{"tenant", "organization", "org", "multitenant", "cross tenant"},
	{"hash", "bcrypt", "argon2", "argon2id", "scrypt", "pbkdf2"},
	{"random", "rand", "unguessable", "entropy", "nonce"},
	{"signature", "hmac", "signing secret", "verify signature"},
	{"encrypt", "encryption", "decrypt", "cipher"},
	{"tls", "https", "certificate", "cert", "x509", "cert pool"},

	// Web security.
	{"xss", "sanitize", "dangerouslysetinnerhtml", "innerhtml", "dompurify"},
	{"csrf", "xsrf", "samesite"},
	{"cors", "cross origin", "origin"},
	{"injection", "inject", "sqli", "parameterized", "placeholder"},
	{"traversal", "path traversal", "zip slip", "dotdot"},
	{"ssrf", "metadata endpoint", "internal network"},
	{"redirect", "open redirect", "return url", "returnto", "next url"},
	{"redact", "redaction", "mask", "scrub"},
	{"leak", "expose", "exposure", "disclose", "disclosure"},
	{"vulnerability", "vulnerable", "cve", "advisory", "govulncheck", "npm audit", "dependabot", "supply chain"},
	{"untrusted", "user supplied", "user input", "user provided", "attacker"},
	{"deserialize", "deserialization", "pickle", "yaml load", "unmarshal"},
	{"regex", "regexp", "redos", "backtrack", "backtracking"},

	// Network, HTTP, APIs.
	{"timeout", "deadline", "hang", "hung", "stall", "stalled", "stuck", "freeze", "unresponsive", "forever"},
	{"retry", "retries", "backoff", "back off", "jitter", "try again", "redeliver", "redelivery"},
	{"connection", "socket", "conn", "keepalive", "keep alive", "time wait", "connection pool"},
	{"exhaust", "exhausted", "exhaustion", "run out", "pile up", "too many", "max connections", "file descriptor"},
	{"endpoint", "route", "handler", "controller", "api"},
	{"webhook", "callback url", "event delivery"},
	{"proxy", "nginx", "load balancer", "ingress", "reverse proxy"},
	{"compress", "compression", "gzip", "brotli", "deflate"},
	{"stream", "streaming", "sse", "eventsource", "live update", "realtime", "real time", "websocket", "push"},
	{"pagination", "paginate", "paginated", "page size", "offset", "cursor", "keyset", "infinite scroll", "next page"},
	{"select related", "prefetch related", "dataloader", "eager load", "batch load"},
	{"graphql", "resolver"},
	{"grpc", "protobuf", "proto", "rpc"},
	{"upload", "multipart", "presigned", "attachment"},
	{"download", "attachment", "serve file"},
	{"url", "uri", "link", "href"},
	{"unfurl", "link preview", "url preview"},
	{"status code", "http status", "4xx", "5xx"},
	{"versioning", "api version", "breaking change", "backward compatible", "backwards compatible", "deprecate"},
	{"contract", "stable shape", "breaking change", "rename field"},
	{"idempotent", "idempotency", "exactly once", "deduplicate", "duplicate", "double submit", "twice"},
	{"cancel", "abort", "cancellation", "abortcontroller", "abortsignal", "disconnect"},

	// Data, databases, migrations.
	{"migration", "migrate", "schema change", "ddl", "alter table", "add column", "backfill"},
	{"index", "indexes", "indices", "table scan", "seq scan"},
	{"transaction", "tx", "commit", "rollback", "roll back", "atomic", "atomically"},
	{"database", "db", "sql", "postgres", "postgresql", "mysql", "sqlite", "datastore"},
	{"orm", "gorm", "prisma", "sqlalchemy", "activerecord", "sqlc", "query builder"},
	{"lock", "locking", "locked", "mutex", "contention", "deadlock"},
	{"race", "race condition", "data race", "concurrent", "concurrency", "lost update", "interleave"},
	{"unique", "uniqueness", "unique constraint", "unique violation", "duplicate", "upsert", "on conflict"},
	{"null", "nil", "none", "undefined", "nullable", "not null"},
	{"cache", "caching", "cached", "memoize", "memoization", "ttl", "expire", "expiry", "evict", "eviction", "invalidate", "invalidation", "stale"},
	{"stale", "outdated", "obsolete", "superseded"},
	{"redis", "memcached", "key value store"},
	{"serialize", "serialization", "marshal", "encode", "stringify", "json"},
	{"parse", "parser", "decode", "unmarshal", "deserialize"},
	{"precision", "float", "float64", "floating point", "rounding", "decimal", "numeric", "bigint", "int64"},
	{"money", "currency", "price", "amount", "cents", "minor units", "monetary"},
	{"timezone", "time zone", "tz", "utc", "local time", "dst", "daylight saving", "clocks change", "naive datetime", "timestamptz"},
	{"timestamp", "datetime", "date"},
	{"schedule", "scheduled", "cron", "nightly", "daily", "periodic", "every night"},
	{"delete", "remove", "purge", "prune"},
	{"bulk", "batch", "batches", "in bulk", "millions"},
	{"import", "ingest", "ingestion"},
	{"export", "dump"},
	{"csv", "spreadsheet", "excel", "xlsx", "tsv"},
	{"encoding", "utf8", "utf 8", "unicode", "charset", "bom", "cp1252", "unicodedecodeerror"},
	{"emoji", "rune", "multibyte", "multi byte", "grapheme", "character"},
	{"normalize", "normalization", "nfkc", "nfc", "case folding", "casefold", "look alike", "lookalike", "homoglyph"},
	{"case insensitive", "case sensitive", "lowercase", "citext"},
	{"sort", "sorting", "ordering", "order by", "tie breaker", "tiebreaker"},
	{"deterministic", "nondeterministic", "stable", "unstable", "random order"},
	{"search", "lookup", "full text", "trigram"},
	{"jsonb", "json column", "gin index"},
	{"event", "publish", "broker", "kafka", "pubsub", "outbox", "dual write"},
	{"queue", "job", "background job", "enqueue", "worker", "celery", "sidekiq", "river", "task queue"},

	// Concurrency and lifecycle.
	{"goroutine", "thread", "coroutine", "green thread"},
	{"parallel", "concurrently", "fan out", "fanout", "fan in", "errgroup", "waitgroup", "gather", "promise all"},
	{"async", "await", "promise", "asynchronous", "asyncio", "coroutine"},
	{"shutdown", "shut down", "sigterm", "sigint", "graceful", "terminate", "drain", "in flight"},
	{"interrupt", "ctrl c", "keyboardinterrupt", "sigint"},
	{"exit", "exit code", "exit status", "os exit"},
	{"crash", "panic", "fatal", "dies", "segfault", "unhandled", "uncaught"},
	{"leak", "leaking", "leaked", "not closed", "never closed"},
	{"memory", "oom", "heap", "allocation", "allocate", "alloc", "gc"},
	{"cpu", "cpu bound", "compute bound", "gil"},
	{"slow", "latency", "performance", "perf", "speed", "speed up", "sluggish", "bottleneck"},
	{"blocking", "event loop", "synchronous"},
	{"timer", "clock", "time now", "sleep", "settimeout", "setinterval", "fake timers"},

	// Testing.
	{"flaky", "flake", "intermittent", "intermittently", "nondeterministic", "sporadic", "randomly", "sometimes fails", "fails randomly"},
	{"mock", "stub", "fake", "spy", "patch", "monkeypatch", "test double"},
	{"fixture", "testdata", "test data", "seed data"},
	{"golden", "snapshot", "golden file", "expected output"},
	{"e2e", "end to end", "integration test", "playwright", "cypress", "browser test"},
	{"isolation", "isolated", "shared state", "order dependent", "test pollution"},
	{"table driven", "table test", "subtest"},
	{"assert", "assertion", "expect"},

	// Build, CI, release, infrastructure.
	{"ci", "pipeline", "workflow", "github actions", "actions", "runner", "ci job"},
	{"build", "compile", "bundle", "bundler", "webpack", "esbuild", "vite", "tsc"},
	{"docker", "container", "dockerfile", "container image", "distroless", "alpine", "scratch image"},
	{"deploy", "deployment", "release", "rollout", "roll out", "ship", "publish"},
	{"pin", "pinned", "lockfile", "lock file", "reproducible", "unreproducible", "exact version"},
	{"dependency", "dependencies", "package", "module", "library", "third party", "transitive"},
	{"install", "npm install", "npm ci", "pip install", "uv sync", "pnpm add", "yarn"},
	{"lint", "linter", "eslint", "ruff", "vet", "shellcheck", "staticcheck", "golangci"},
	{"type check", "typecheck", "type checking", "type errors", "tsc", "mypy", "strict mode", "strictnullchecks"},
	{"kubernetes", "k8s", "pod", "helm", "kubectl", "helm chart"},
	{"probe", "liveness", "readiness", "health check", "healthcheck", "healthz", "health endpoint"},
	{"monorepo", "workspace", "workspaces"},
	{"git", "branch", "merge", "checkout", "clone"},
	{"environment variable", "env var", "env", "dotenv", "getenv", "setenv"},
	{"terraform", "iac", "state file"},
	{"cache key", "hashfiles", "restore cache"},
	{"version", "versions", "upgrade", "bump", "toolchain"},
	{"generate", "generated", "codegen", "code generation", "regenerate"},
	{"makefile", "make target", "phony"},
	{"shell", "bash", "sh", "shell script", "pipefail"},
	{"precommit", "pre commit", "git hook", "lefthook", "husky"},

	// Frontend.
	{"react", "component", "jsx", "tsx"},
	{"rerender", "re render", "render", "renders"},
	{"state management", "redux", "zustand", "global state"},
	{"server state", "react query", "tanstack query", "usequery", "swr", "data fetching"},
	{"form", "input", "controlled", "uncontrolled"},
	{"i18n", "translate", "translation", "localize", "localization", "locale", "language", "german", "french", "plural"},
	{"a11y", "accessibility", "accessible", "keyboard", "screen reader", "aria", "focusable", "mouse"},
	{"ssr", "server render", "server rendered", "hydration", "server component", "client component"},
	{"image", "img", "hero", "lcp", "next image", "picture"},
	{"bundle size", "client bundle", "tree shaking", "code splitting", "barrel"},
	{"typeahead", "autocomplete", "debounce", "keystroke"},
	{"button", "click", "double click", "submit"},
	{"esm", "commonjs", "cjs", "require", "import meta", "type module"},
	{"alias", "path alias", "module name mapper", "paths"},
	{"navigation", "navigate", "unmount", "unmounted"},

	// CLI, configuration, logging, errors.
	{"cli", "command", "subcommand", "flag", "argument", "argv", "usage", "argparse"},
	{"stdout", "stderr", "output", "print"},
	{"color", "colour", "ansi", "tty", "terminal", "escape code", "no color"},
	{"config", "configuration", "settings", "options", "preferences"},
	{"precedence", "override", "overrides", "priority"},
	{"log", "logging", "logger", "slog", "structured logging", "log level", "debug log"},
	{"trace", "tracing", "span", "opentelemetry", "otel", "distributed tracing"},
	{"metric", "metrics", "prometheus", "instrumentation", "observability"},
	{"error", "err", "exception", "failure", "errors"},
	{"wrap", "wrapping", "wrapped", "errors is", "errors as", "sentinel"},
	{"stack trace", "traceback", "internals", "error details", "error page"},
	{"path", "filepath", "file path", "pathlib", "directory", "folder"},
	{"windows", "crlf", "line endings", "backslash"},
	{"atomic write", "temp file", "rename", "fsync", "truncated"},
	{"stdin", "pipe", "eof", "end of input"},
	{"subprocess", "exec", "shell out", "child process", "spawn"},
	{"feature flag", "feature toggle", "toggle"},
	{"email", "mail", "smtp", "welcome email", "notification"},
	{"signup", "sign up", "register", "registration", "onboarding"},

	// Architecture and code organization.
	{"layout", "project structure", "directory structure", "folder structure"},
	{"microservice", "monolith", "separate service"},
	{"interface", "abstraction", "implementation"},
	{"dependency injection", "inject", "pass explicitly", "context value"},
	{"commit message", "pull request", "branch name"},
}
