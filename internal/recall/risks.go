package recall

import (
	"strings"
	"sync"
)

// taskAreas associate kinds of engineering work with the pitfalls that
// usually come with them.
//
// The thesaurus (concepts.go) joins words that name one idea. It cannot
// join a piece of work to its risks: a planner asks to "cache the product
// catalog", "show link previews for pasted URLs" or "send the nightly report
// at 8am", while the lesson that matters was written by a reviewer about a
// missing TTL, an SSRF through an unchecked URL, or a cron job that ran
// twice when the clocks changed. The request names the feature; the lesson
// names the risk; they share no word and no synonym.
//
// Each area lists triggers, the words and phrases with which task titles
// and planning requests name that kind of work, and risks, the words with
// which reviewers name its usual pitfalls. When a query says a trigger
// outright (its own words, not their expansions), the area's risks join the
// query as one extra slot at riskWeight (see expandRisks). The association
// is one way: a feature implies its risks, a risk does not imply a feature.
//
// The table was written from general knowledge of the trade, going down a
// checklist of common work (caching, webhooks, external calls, uploads,
// scheduling, money, authentication, data import and export, databases,
// jobs and queues, operations, CLIs, frontend, testing, tooling), without
// reading the quality corpus or its queries: the memory is the same for
// every query set, so a table fitted to its words would flatter them all.
//
// Triggers may be phrases of any length; a phrase matches the query's
// words in order, stop words skipped unless the phrase has them ("log
// in"), and its words run together match one identifier (rateLimiter).
// Risks are single words or two-word phrases, matched like the
// thesaurus's phrases. Words that are too common to point at a risk
// ("user", "data", "error", "time") are left out of the risks, and words
// with a common unrelated meaning in code out of the triggers or kept to a
// phrase ("image" only as "image upload", "import" only as "bulk import").
var taskAreas = []taskArea{
	// Caching.
	{"caching",
		[]string{"cache", "memoize", "memoise", "in memory cache", "lru"},
		[]string{"ttl", "expiry", "invalidation", "stale", "stampede", "thundering herd", "cache key", "eviction", "unbounded", "singleflight", "per tenant", "warm up", "cold cache"}},
	{"redis and key-value stores",
		[]string{"redis", "memcached", "valkey", "key value store", "elasticache"},
		[]string{"ttl", "eviction", "maxmemory", "key prefix", "namespace", "connection pool", "timeout", "serialization", "failover", "persistence", "keys command", "scan", "atomic", "lua script"}},
	{"HTTP and CDN caching",
		[]string{"cdn", "cloudfront", "cloudflare", "cache control", "etag", "http cache", "edge cache", "browser cache"},
		[]string{"cache control", "vary", "max age", "no store", "private", "purge", "etag", "revalidate", "personalized", "set cookie", "authorization header", "cache busting", "surrogate key", "stale"}},

	// Webhooks and calls to other services.
	{"receiving webhooks",
		[]string{"webhook", "webhook endpoint", "webhook handler", "webhook receiver", "incoming webhook", "callback endpoint", "receive events", "event notification"},
		[]string{"signature", "hmac", "verify signature", "raw body", "replay", "timestamp tolerance", "idempotency", "duplicate", "redelivery", "out of order", "acknowledge", "2xx", "secret", "constant time", "process async"}},
	{"sending webhooks",
		[]string{"send webhook", "webhook delivery", "deliver webhook", "outgoing webhook", "webhook sender", "webhook subscriber", "notify subscribers", "callback url"},
		[]string{"ssrf", "private ip", "timeout", "retry", "exponential backoff", "dead letter", "signing secret", "hmac", "idempotency key", "ordering", "circuit breaker", "redirect", "disable endpoint", "delivery log"}},
	{"calling external APIs",
		[]string{"third party api", "external api", "external service", "api client", "integrate with", "sdk", "vendor api", "partner api", "provider api", "call the api", "upstream service", "sync with"},
		[]string{"timeout", "retry", "backoff", "rate limit", "429", "circuit breaker", "idempotency", "pagination", "status code", "api key", "outage", "fallback", "sandbox", "contract test", "partial failure"}},
	{"HTTP clients",
		[]string{"http client", "http request", "outbound request", "fetch", "axios", "requests library", "httpx", "api call", "rest client"},
		[]string{"timeout", "default client", "response body", "body close", "status code", "retry", "context", "keep alive", "connection reuse", "redirect", "tls", "cancellation", "abort"}},
	{"fetching user-supplied URLs",
		[]string{"link preview", "url preview", "unfurl", "fetch url", "pasted url", "pasted link", "remote url", "image url", "avatar url", "import from url", "by url", "open graph", "oembed", "scrape", "scraper", "crawler", "crawl", "rss feed", "favicon"},
		[]string{"ssrf", "internal network", "private ip", "metadata endpoint", "dns rebinding", "redirect", "timeout", "max size", "response size", "content type", "allowlist", "localhost", "loopback", "user agent", "robots"}},

	// Files.
	{"file upload",
		[]string{"upload", "file upload", "file attachment", "email attachment", "attach files", "multipart", "dropzone", "image upload", "avatar", "profile picture"},
		[]string{"max size", "size limit", "content type", "mime", "magic bytes", "extension", "filename", "path traversal", "sanitize", "malware", "virus scan", "presigned", "svg", "stream", "storage quota"}},
	{"serving and downloading files",
		[]string{"download", "serve file", "file download", "static files", "signed url", "presigned url", "content disposition", "file server", "send file"},
		[]string{"path traversal", "content disposition", "content type", "nosniff", "authorization", "access check", "signed url", "expiry", "range request", "stream", "filename", "cache control", "symlink"}},
	{"archives",
		[]string{"zip", "zip file", "unzip", "tar", "tarball", "extract archive", "archive upload", "unpack", "decompress"},
		[]string{"zip slip", "path traversal", "zip bomb", "decompression bomb", "symlink", "size limit", "file count", "permissions", "overwrite", "absolute path", "dotdot"}},
	{"image processing",
		[]string{"thumbnail", "resize image", "image resize", "image processing", "crop", "imagemagick", "sharp", "pillow", "photo", "exif"},
		[]string{"decompression bomb", "pixel limit", "dimensions", "exif", "orientation", "strip metadata", "gps", "svg", "content type", "timeout", "cpu", "memory", "worker", "format"}},
	{"PDF and document generation",
		[]string{"pdf", "pdfs", "generate pdf", "render pdf", "wkhtmltopdf", "puppeteer", "headless chrome", "docx", "document generation", "print view"},
		[]string{"memory", "timeout", "fonts", "unicode", "page break", "ssrf", "local file", "sandbox", "background job", "large", "escape", "template"}},
	{"object storage",
		[]string{"s3", "bucket", "object storage", "gcs", "blob storage", "azure blob", "r2", "minio"},
		[]string{"public bucket", "acl", "presigned", "expiry", "content type", "multipart upload", "lifecycle", "encryption", "cors", "key naming", "list objects", "cost", "region"}},
	{"file system writes",
		[]string{"write file", "save file", "save to disk", "write to disk", "file system", "filesystem", "local file", "state file", "temp file", "temporary file", "cache directory", "data directory", "append to file", "file permissions"},
		[]string{"atomic write", "temp file", "rename", "fsync", "partial write", "crash", "permissions", "umask", "concurrent writers", "file lock", "flock", "cleanup", "symlink", "disk full", "truncate"}},
	{"paths and portability",
		[]string{"on windows", "windows support", "windows paths", "cross platform", "macos", "file path", "home directory", "path handling", "portable"},
		[]string{"path separator", "filepath", "backslash", "case insensitive", "crlf", "line endings", "symlink", "home dir", "unicode normalization", "drive letter", "executable bit"}},

	// Scheduling and time.
	{"scheduled jobs",
		[]string{"cron", "crontab", "cronjob", "scheduled", "nightly", "daily", "hourly", "weekly", "monthly", "every night", "every morning", "every day", "periodic", "recurring", "at midnight"},
		[]string{"time zone", "utc", "dst", "daylight saving", "overlap", "overlapping runs", "concurrent run", "lock", "leader election", "missed run", "catch up", "idempotent", "duplicate", "replicas", "heartbeat"}},
	{"dates and times",
		[]string{"date", "datetime", "timestamp", "time zone", "timezone", "calendar", "local time", "due date", "birthday", "business day", "date range", "date picker", "relative time"},
		[]string{"utc", "time zone", "dst", "daylight saving", "offset", "iso 8601", "rfc 3339", "naive", "timestamptz", "leap year", "month end", "midnight", "day boundary", "parse"}},
	{"expiry and time limits",
		[]string{"expire", "expiry", "valid until", "trial period", "free trial", "grace period", "countdown", "time limit"},
		[]string{"clock skew", "utc", "time zone", "boundary", "off by one", "inclusive", "exclusive", "background job", "monotonic", "server time", "client clock"}},

	// Money.
	{"money and prices",
		[]string{"price", "money", "currency", "amount", "subtotal", "tax", "vat", "fee", "exchange rate"},
		[]string{"float", "floating point", "rounding", "decimal", "cents", "minor units", "integer", "precision", "currency code", "exchange rate", "negative", "bankers rounding", "sum", "overflow"}},
	{"payments",
		[]string{"payment", "checkout page", "checkout flow", "stripe", "paypal", "braintree", "adyen", "charge", "pay", "payment provider", "credit card", "card payment", "card details"},
		[]string{"idempotency key", "idempotent", "double charge", "duplicate", "webhook", "signature", "race", "retry", "refund", "partial", "reconciliation", "pci", "card data", "amount", "currency"}},
	{"refunds and reversals",
		[]string{"refund", "chargeback", "reversal", "void", "credit note", "cancel order"},
		[]string{"partial refund", "idempotency", "double refund", "negative", "balance", "audit log", "webhook", "state machine", "race", "over refund", "amount"}},
	{"subscriptions and billing",
		[]string{"subscription", "billing", "invoice", "billing cycle", "renewal", "proration", "downgrade", "metered", "usage based"},
		[]string{"proration", "time zone", "month end", "leap year", "webhook", "idempotent", "grace period", "dunning", "failed payment", "period end", "rounding", "currency", "duplicate"}},
	{"discounts and promotions",
		[]string{"coupon", "discount", "promo code", "promotion", "voucher", "gift card", "referral"},
		[]string{"stacking", "reuse", "single use", "race", "redemption limit", "expiry", "negative total", "rounding", "brute force", "guessable", "case insensitive", "abuse"}},
	{"orders and checkout state",
		[]string{"order status", "order history", "order confirmation", "place order", "new order", "purchase order", "cart", "shopping cart", "fulfillment"},
		[]string{"state machine", "invalid transition", "race", "idempotent", "double submit", "inventory", "stock", "transaction", "webhook", "partial failure", "compensation", "total", "rounding"}},
	{"balances, counters and inventory",
		[]string{"account balance", "user balance", "credit balance", "wallet balance", "counter", "inventory", "stock", "quantity", "wallet", "credits", "loyalty points", "reward points", "ledger", "view count", "like count", "votes", "increment"},
		[]string{"race condition", "lost update", "atomic", "transaction", "row lock", "for update", "optimistic locking", "version column", "negative", "check constraint", "isolation level", "double spend", "idempotency", "read modify"}},
	{"bookings and reservations",
		[]string{"booking", "reservation", "seat", "time slot", "appointment", "ticket booking", "event tickets", "ticket sales"},
		[]string{"double booking", "race", "overlap", "unique constraint", "exclusion constraint", "lock", "transaction", "hold", "expiry", "time zone", "dst", "concurrency"}},

	// Authentication and access.
	{"login",
		[]string{"login", "log in", "sign in", "signin", "authentication", "auth flow", "login page", "login form"},
		[]string{"rate limit", "brute force", "lockout", "timing attack", "constant time", "user enumeration", "generic error", "bcrypt", "session fixation", "regenerate session", "mfa", "csrf", "credential stuffing", "captcha"}},
	{"passwords",
		[]string{"password", "change password", "set password", "password policy", "password hashing", "passphrase"},
		[]string{"bcrypt", "argon2", "hash", "salt", "plaintext", "log", "min length", "breached", "pwned", "constant time", "reset token", "max length", "unicode"}},
	{"password reset and emailed links",
		[]string{"password reset", "reset password", "forgot password", "magic link", "email verification", "verify email", "confirm email", "invite link", "invitation", "passwordless"},
		[]string{"token expiry", "single use", "one time", "entropy", "hash token", "user enumeration", "host header", "rate limit", "invalidate sessions", "referer", "leak", "guessable", "random"}},
	{"multi-factor authentication",
		[]string{"mfa", "2fa", "two factor", "totp", "otp", "authenticator", "sms code", "verification code", "passkey", "webauthn"},
		[]string{"brute force", "rate limit", "backup codes", "recovery codes", "replay", "time window", "clock skew", "recovery", "encrypt secret", "lockout", "attempts"}},
	{"OAuth and single sign-on",
		[]string{"oauth", "oauth2", "sso", "saml", "oidc", "openid", "social login", "sign in with", "login with", "google login", "github login", "identity provider"},
		[]string{"state parameter", "csrf", "pkce", "redirect uri", "open redirect", "nonce", "id token", "verify signature", "audience", "issuer", "email verified", "account takeover", "account linking", "token storage"}},
	{"sessions and cookies",
		[]string{"session", "cookie", "remember me", "logout", "log out", "sign out", "signout", "stay logged in"},
		[]string{"httponly", "secure flag", "samesite", "expiry", "rotate", "session fixation", "invalidate", "revoke", "csrf", "signed cookie", "idle timeout", "server side"}},
	{"tokens and API keys",
		[]string{"jwt", "jwts", "bearer token", "access token", "refresh token", "api token", "api key", "personal access token", "service account"},
		[]string{"expiry", "alg none", "algorithm", "verify signature", "audience", "issuer", "revoke", "revocation", "rotation", "localstorage", "leak", "hash", "scope", "clock skew", "prefix"}},
	{"permissions and roles",
		[]string{"permission", "role", "rbac", "acl", "authorization", "access control", "admin only", "sharing", "share link", "invite members", "team members", "owner", "collaborator"},
		[]string{"idor", "ownership", "object level", "authorization check", "tenant", "scope", "forbidden", "403", "404", "privilege escalation", "least privilege", "default deny", "server side", "bypass", "horizontal"}},
	{"multi-tenancy",
		[]string{"tenant", "multi tenant", "multitenant", "multi tenancy", "per organization", "across organizations", "organization data", "per customer", "customer data", "workspace isolation"},
		[]string{"tenant id", "cross tenant", "leak", "isolation", "row level security", "scoping", "where clause", "cache key", "unique constraint", "background job", "missing filter", "noisy neighbor"}},
	{"admin panels and internal tools",
		[]string{"admin panel", "admin page", "admin dashboard", "admin ui", "backoffice", "back office", "internal tool", "impersonate", "support tool"},
		[]string{"authorization", "audit log", "role check", "csrf", "bulk action", "confirmation", "pii", "exposure", "mass assignment", "rate limit"}},
	{"signup and accounts",
		[]string{"signup", "sign up", "registration", "onboarding", "create account", "new account", "user account", "account creation"},
		[]string{"email verification", "unique email", "case insensitive", "race", "rate limit", "bot", "captcha", "enumeration", "password policy", "welcome email", "transaction", "disposable"}},
	{"account and data deletion",
		[]string{"delete account", "account deletion", "soft delete", "purge", "gdpr", "data retention", "retention policy", "right to be forgotten", "erase", "anonymize", "anonymise", "close account"},
		[]string{"cascade", "foreign key", "orphan", "backups", "logs", "search index", "cache", "audit", "hard delete", "unique constraint", "restore", "batch", "pii", "third party"}},

	// Messaging and notifications.
	{"sending email",
		[]string{"email", "send email", "mail", "mailer", "newsletter", "smtp", "sendgrid", "postmark", "mailgun", "welcome email", "email digest", "transactional email", "email template"},
		[]string{"queue", "background job", "retry", "duplicate", "bounce", "unsubscribe", "spam", "dkim", "spf", "escape", "rate limit", "pii", "timeout", "preview", "plain text"}},
	{"email addresses",
		[]string{"email address", "email validation", "validate email", "change email"},
		[]string{"case insensitive", "normalize", "unicode", "plus addressing", "unique", "lowercase", "verification", "regex", "idn", "trim"}},
	{"SMS and push notifications",
		[]string{"sms", "text message", "push notification", "notification", "notify users", "notify customers", "twilio", "apns", "fcm", "reminder", "alert users"},
		[]string{"rate limit", "cost", "opt out", "consent", "duplicate", "retry", "quiet hours", "time zone", "phone number", "e164", "device token", "batching", "queue", "fan out"}},
	{"real-time updates",
		[]string{"websocket", "web socket", "socket io", "realtime", "real time", "live updates", "sse", "server sent events", "push updates", "chat", "presence", "collaborative", "live feed"},
		[]string{"reconnect", "backoff", "heartbeat", "ping", "authentication", "origin", "memory leak", "unbounded", "backpressure", "ordering", "missed messages", "resume", "sticky session", "idle timeout", "load balancer"}},

	// Data in and out.
	{"CSV and spreadsheets",
		[]string{"csv", "csvs", "spreadsheet", "excel", "xlsx", "tsv", "google sheets"},
		[]string{"encoding", "utf 8", "bom", "delimiter", "quoting", "header row", "formula injection", "csv injection", "escaping", "leading zeros", "date format", "newline", "large file", "stream"}},
	{"bulk import",
		[]string{"bulk import", "data import", "import from", "import users", "import contacts", "import customers", "upload csv", "csv import", "import csv", "import job", "ingest"},
		[]string{"validation", "row errors", "partial failure", "transaction", "batch", "memory", "stream", "duplicate", "idempotent", "upsert", "encoding", "progress", "background job", "max rows", "dry run"}},
	{"data export",
		[]string{"export", "data export", "export to csv", "csv export", "download report", "download as", "export button"},
		[]string{"formula injection", "csv injection", "escaping", "stream", "memory", "timeout", "background job", "pagination", "authorization", "pii", "encoding", "bom", "large", "tenant"}},
	{"search and filtering",
		[]string{"search", "full text", "filter", "typeahead", "autocomplete", "elasticsearch", "opensearch", "meilisearch", "algolia", "search bar", "search box", "faceted"},
		[]string{"index", "like", "wildcard", "escape", "sql injection", "case insensitive", "unicode", "debounce", "pagination", "relevance", "trigram", "slow query", "leading wildcard", "tenant", "reindex"}},
	{"lists, sorting and pagination",
		[]string{"pagination", "infinite scroll", "page size", "sort", "sortable", "list endpoint", "load more", "list view", "table view", "next page"},
		[]string{"offset", "cursor", "keyset", "stable order", "tie breaker", "deterministic", "max page", "count", "index", "duplicates", "skipped rows", "order by", "limit"}},
	{"reports, analytics and dashboards",
		[]string{"report", "dashboard", "analytics", "chart", "aggregate", "statistics", "stats", "kpi", "summary email", "weekly summary"},
		[]string{"time zone", "utc", "day boundary", "slow query", "index", "read replica", "materialized view", "cache", "rounding", "divide by", "null", "count distinct", "timeout", "double counting"}},
	{"tracking and product analytics",
		[]string{"product analytics", "analytics events", "telemetry", "mixpanel", "posthog", "amplitude", "google analytics", "track events", "usage data"},
		[]string{"consent", "pii", "opt out", "gdpr", "batching", "sampling", "blocking", "timeout", "privacy", "ad blocker", "fire and forget"}},

	// Databases.
	{"schema migrations",
		[]string{"migration", "schema change", "add column", "new column", "rename column", "drop column", "alter table", "new table", "add index", "change column", "column type"},
		[]string{"table lock", "lock", "downtime", "backfill", "default", "not null", "rollback", "down migration", "concurrently", "batch", "deploy order", "backward compatible", "old code", "expand contract", "long running"}},
	{"backfills and data migrations",
		[]string{"backfill", "data migration", "migrate data", "one off script", "bulk update", "mass update", "rewrite rows", "reprocess", "recompute"},
		[]string{"batch", "transaction", "lock", "idempotent", "resume", "checkpoint", "dry run", "throttle", "replica lag", "progress", "memory", "rollback", "verify"}},
	{"query performance and indexes",
		[]string{"slow query", "query performance", "optimize query", "speed up query", "database index", "missing index", "db index", "database performance", "slow page", "slow endpoint"},
		[]string{"explain", "seq scan", "composite index", "column order", "eager load", "select related", "covering index", "create index", "concurrently", "write amplification", "limit", "select star"}},
	{"SQL and data access",
		[]string{"orm", "sql query", "raw sql", "query builder", "repository layer", "data access", "dao", "stored procedure", "dynamic query", "sql"},
		[]string{"sql injection", "parameterized", "placeholder", "transaction", "connection leak", "rows close", "context", "timeout", "null", "lazy load", "allowlist", "identifier quoting"}},
	{"database connections",
		[]string{"database connection", "connection pool", "db pool", "pgbouncer", "connection string", "connect to database"},
		[]string{"pool size", "max connections", "exhaustion", "leak", "close", "timeout", "idle", "prepared statements", "transaction mode", "retry", "tls", "secret"}},
	{"data modelling",
		[]string{"data model", "schema design", "new model", "entity", "foreign key", "relationship", "database schema", "table design"},
		[]string{"index", "foreign key", "not null", "default", "unique", "cascade", "enum", "soft delete", "timestamps", "naming", "check constraint", "normalization"}},
	{"uniqueness and deduplication",
		[]string{"deduplicate", "dedupe", "upsert", "unique", "no duplicates", "duplicate detection", "prevent duplicates"},
		[]string{"race", "unique index", "unique constraint", "on conflict", "case insensitive", "normalize", "check then", "transaction", "retry", "whitespace"}},
	{"audit logs and history",
		[]string{"audit log", "audit trail", "activity log", "activity feed", "change history", "track changes", "version history"},
		[]string{"append only", "tamper", "immutable", "pii", "actor", "transaction", "async", "retention", "who changed", "same transaction"}},
	{"backups and restore",
		[]string{"backup", "restore from backup", "disaster recovery", "point in time"},
		[]string{"test restore", "retention", "encryption", "offsite", "consistency", "rpo", "rto", "credentials", "verify"}},

	// Jobs, queues, concurrency.
	{"background jobs and queues",
		[]string{"background job", "queue", "worker", "celery", "sidekiq", "sqs", "rabbitmq", "bullmq", "resque", "enqueue", "async task", "task queue", "job queue", "delayed job"},
		[]string{"idempotent", "retry", "at least once", "duplicate", "visibility timeout", "ack", "dead letter", "poison message", "serialization", "after commit", "timeout", "concurrency", "ordering", "graceful shutdown"}},
	{"events and message brokers",
		[]string{"kafka", "pubsub", "pub sub", "message bus", "event bus", "nats", "event driven", "event sourcing", "kafka consumer", "message consumer", "queue consumer", "kafka producer", "publish events", "domain events", "kinesis"},
		[]string{"at least once", "ordering", "partition key", "duplicate", "idempotent", "outbox", "dual write", "schema", "versioning", "offset commit", "rebalance", "dead letter", "lag", "replay"}},
	{"retries and idempotency",
		[]string{"retry", "idempotent", "resend", "redeliver", "at least once", "exactly once", "resilience"},
		[]string{"exponential backoff", "jitter", "max attempts", "retry storm", "idempotency key", "non idempotent", "duplicate", "deadline", "transient", "permanent", "circuit breaker", "retry budget", "4xx"}},
	{"rate limiting",
		[]string{"rate limit", "throttle", "quota", "abuse", "spam protection", "brute force protection"},
		[]string{"per ip", "per user", "forwarded for", "proxy", "distributed", "redis", "sliding window", "token bucket", "429", "retry after", "fail open", "burst", "atomic", "clock"}},
	{"goroutines, threads and async code",
		[]string{"goroutine", "concurrency", "parallel", "thread", "worker pool", "async", "asyncio", "await", "multithreaded"},
		[]string{"data race", "race detector", "mutex", "deadlock", "leak", "goroutine leak", "cancellation", "waitgroup", "errgroup", "channel", "unbounded", "semaphore", "panic", "shared state", "blocking"}},
	{"services starting and stopping",
		[]string{"shutdown", "graceful shutdown", "restart", "daemon", "long running", "service lifecycle", "server startup", "startup", "process manager", "systemd"},
		[]string{"sigterm", "drain", "in flight", "context", "timeout", "close connections", "flush", "health check", "readiness", "init process", "signal", "restart loop", "crash loop"}},
	{"serverless functions",
		[]string{"lambda", "serverless", "cloud function", "edge function", "vercel function", "cloud run"},
		[]string{"cold start", "timeout", "connection reuse", "global state", "max connections", "payload size", "idempotent", "retry", "concurrency", "tmp", "memory"}},

	// Operations.
	{"logging",
		[]string{"log", "logger", "structured logging", "log line", "slog", "zap", "winston", "log message", "audit logging"},
		[]string{"pii", "secret", "token", "password", "redact", "log level", "noise", "volume", "sampling", "correlation id", "request id", "stack trace", "log injection", "newline", "cost"}},
	{"metrics, monitoring and alerting",
		[]string{"metric", "prometheus", "monitoring", "alert", "grafana", "datadog", "instrument", "statsd", "observability", "sli", "slo"},
		[]string{"cardinality", "label", "high cardinality", "histogram", "buckets", "counter", "gauge", "rate", "alert fatigue", "runbook", "threshold", "missing data", "cost"}},
	{"tracing",
		[]string{"tracing", "opentelemetry", "otel", "jaeger", "zipkin", "distributed tracing"},
		[]string{"context propagation", "context", "span end", "sampling", "attribute", "pii", "cardinality", "async", "overhead", "baggage", "headers"}},
	{"health checks",
		[]string{"health check", "healthcheck", "health endpoint", "readiness probe", "readiness check", "liveness probe", "liveness check", "status page", "uptime check", "probe"},
		[]string{"dependency check", "cascading", "timeout", "cheap", "database ping", "restart loop", "readiness", "liveness", "startup probe", "auth"}},
	{"configuration",
		[]string{"config", "configuration", "env var", "environment variable", "settings file", "app settings", "dotenv", "config file", "feature config"},
		[]string{"default", "validation", "fail fast", "startup", "missing", "typo", "unknown key", "precedence", "override", "secret", "string to", "parse", "documented", "example", "empty string"}},
	{"secrets",
		[]string{"secret", "api key", "credentials", "vault", "kms", "secrets manager", "private key", "encryption key", "key rotation", "service account key"},
		[]string{"commit", "git history", "log", "redact", "rotate", "leak", "plaintext", "least privilege", "gitignore", "env file", "secret scanning", "gitleaks", "expose"}},
	{"encryption and hashing",
		[]string{"encrypt", "decrypt", "crypto", "cryptography", "code signing", "request signing", "hmac", "aes", "rsa", "checksum"},
		[]string{"iv", "nonce reuse", "ecb", "random", "key rotation", "key management", "constant time", "authenticated encryption", "gcm", "md5", "sha1", "salt", "padding", "timing"}},
	{"random tokens and codes",
		[]string{"generate token", "random token", "random id", "invite code", "short code", "short link", "url shortener", "one time code", "unique code", "reference number", "public id"},
		[]string{"crypto random", "math random", "predictable", "entropy", "collision", "unique", "guessable", "enumerate", "brute force", "sequential", "length"}},
	{"feature flags and rollouts",
		[]string{"feature flag", "feature toggle", "rollout", "gradual rollout", "canary", "ab test", "launchdarkly", "kill switch", "beta", "percentage rollout"},
		[]string{"default", "fallback", "stale flag", "cleanup", "remove flag", "consistency", "sticky", "bucketing", "hash", "both paths", "evaluation", "cache", "flag debt"}},
	{"deploys and releases",
		[]string{"deploy", "release", "go live", "production", "rollout", "blue green", "zero downtime"},
		[]string{"rollback", "zero downtime", "migration order", "backward compatible", "feature flag", "canary", "health check", "smoke test", "version skew", "old clients", "cache busting", "rolling", "drain"}},
	{"Docker images",
		[]string{"docker", "dockerfile", "docker image", "container image", "containerize", "containerise", "docker container", "docker compose", "compose file", "image build"},
		[]string{"root", "non root", "layer cache", "layer order", "dockerignore", "build args", "image size", "multi stage", "pin", "base image", "latest tag", "healthcheck", "init process", "sigterm", "secrets"}},
	{"Kubernetes",
		[]string{"kubernetes", "k8s", "helm", "helm chart", "pod", "kubectl", "kubernetes manifest", "k8s manifest", "deployment yaml", "cronjob", "statefulset", "ingress"},
		[]string{"readiness probe", "liveness probe", "resource limits", "requests", "oom", "oomkilled", "graceful shutdown", "sigterm", "prestop", "rolling update", "replicas", "disruption budget", "configmap", "image tag", "security context"}},
	{"CI pipelines",
		[]string{"ci", "pipeline", "github actions", "workflow", "ci job", "gitlab ci", "circleci", "jenkins", "continuous integration", "build pipeline", "ci config"},
		[]string{"cache key", "pin", "commit sha", "secrets", "permissions", "fork", "pull request target", "timeout", "flaky", "matrix", "concurrency", "artifact", "lockfile", "least privilege"}},
	{"infrastructure as code",
		[]string{"terraform", "pulumi", "cloudformation", "infrastructure", "iac", "provision", "cdk"},
		[]string{"state file", "state lock", "drift", "destroy", "secrets", "least privilege", "public access", "encryption", "tags", "import", "lifecycle"}},

	// Command-line tools and scripts.
	{"CLI tools",
		[]string{"cli", "command line", "commandline", "subcommand", "cli flag", "cli tool", "argv", "argparse", "cobra", "clap", "terminal tool"},
		[]string{"exit code", "stdout", "stderr", "usage error", "help", "json output", "machine readable", "tty", "no color", "stdin", "pipe", "signal", "ctrl c", "quiet", "backward compatible"}},
	{"command output",
		[]string{"json output", "output format", "machine readable", "table output", "progress bar", "print output", "pretty print", "verbose output", "quiet mode"},
		[]string{"stdout", "stderr", "stable", "schema", "exit code", "tty", "color", "ansi", "buffering", "flush", "pipe", "partial output", "trailing newline", "sigpipe"}},
	{"shell scripts",
		[]string{"shell script", "bash script", "sh script", "install script", "entrypoint script", "wrapper script"},
		[]string{"errexit", "pipefail", "nounset", "quoting", "word splitting", "spaces", "unquoted", "shellcheck", "exit code", "posix", "trap", "mktemp", "cleanup"}},
	{"running subprocesses",
		[]string{"subprocess", "shell out", "exec", "spawn", "child process", "run command", "run a command", "invoke git", "external command", "popen"},
		[]string{"command injection", "shell injection", "argument list", "quoting", "timeout", "exit code", "stderr", "zombie", "kill", "process group", "path lookup", "environment", "deadlock", "pipe buffer"}},
	{"installers, hooks and plugins",
		[]string{"installer", "uninstall", "plugin", "editor extension", "vscode extension", "install hook", "hook install", "hook config", "hook entry", "settings json", "setup command", "init command", "settings file", "dotfile", "bashrc", "zshrc", "shell profile", "editor config"},
		[]string{"idempotent", "merge", "preserve", "existing keys", "formatting", "comments", "backup", "atomic write", "remove exactly", "dry run", "absolute path", "malformed", "overwrite", "duplicate entries", "user settings"}},
	{"git hooks",
		[]string{"pre commit", "precommit", "git hook", "husky", "lefthook", "commit hook", "pre push"},
		[]string{"slow", "staged files", "no verify", "bypass", "portable", "executable bit", "shebang", "path", "partial staging"}},
	{"packaging and distribution",
		[]string{"homebrew", "brew", "go install", "npm package", "publish package", "binary release", "release binaries", "goreleaser", "pypi", "distribute"},
		[]string{"checksum", "signature", "signing", "version", "semver", "cross compile", "static binary", "cgo", "path", "permissions", "reproducible", "changelog"}},
	{"dependency upgrades",
		[]string{"upgrade", "bump", "update dependency", "dependency update", "dependency upgrade", "new dependency", "add dependency", "dependabot", "renovate", "major version", "framework upgrade", "migrate to"},
		[]string{"breaking change", "changelog", "lockfile", "pin", "transitive", "peer dependency", "deprecated", "compatibility", "migration guide", "minimum version", "toolchain", "vulnerability"}},
	{"build tooling",
		[]string{"build step", "build time", "build config", "build script", "bundler", "webpack", "vite", "esbuild", "rollup", "tsconfig", "monorepo", "babel", "turbo"},
		[]string{"cache", "incremental", "path alias", "tree shaking", "bundle size", "source map", "esm", "commonjs", "transpile", "reproducible", "env", "clean", "lockfile"}},

	// APIs.
	{"JSON and REST endpoints",
		[]string{"endpoint", "api endpoint", "rest api", "json api", "http api", "new route", "handler", "route", "controller"},
		[]string{"validation", "status code", "error format", "pagination", "authorization", "rate limit", "versioning", "content type", "body limit", "request size", "timeout", "idempotency", "null", "omitempty", "breaking change"}},
	{"API versioning and compatibility",
		[]string{"api version", "breaking change", "deprecate", "v2", "public api", "api contract", "backwards compatibility"},
		[]string{"backward compatible", "old clients", "contract", "rename field", "remove field", "default", "sunset", "changelog", "openapi", "consumer", "additive", "required field"}},
	{"GraphQL",
		[]string{"graphql", "graphql resolver", "apollo", "graphql schema", "graphql mutation"},
		[]string{"dataloader", "depth limit", "complexity", "authorization", "field level", "introspection", "pagination", "nullability", "error handling"}},
	{"gRPC and protobuf",
		[]string{"grpc", "protobuf", "proto", "rpc"},
		[]string{"deadline", "field number", "reserved", "backward compatible", "breaking change", "status code", "retry", "streaming", "keepalive", "max message", "unknown fields"}},
	{"HTTP servers and middleware",
		[]string{"http server", "web server", "middleware", "api server", "http handler", "reverse proxy"},
		[]string{"read timeout", "write timeout", "timeout", "graceful shutdown", "body limit", "max bytes", "panic recovery", "request id", "keep alive", "slowloris", "order", "forwarded for"}},
	{"parsing and decoding input",
		[]string{"parse", "parser", "deserialize", "unmarshal", "decode", "yaml", "xml", "parse json", "json parsing", "config parsing"},
		[]string{"unknown fields", "strict", "disallow unknown", "type coercion", "null", "missing field", "xxe", "entity expansion", "safe load", "max size", "malformed", "error position", "trailing data"}},
	{"regular expressions",
		[]string{"regex", "regexp", "regular expression", "pattern matching", "glob"},
		[]string{"redos", "catastrophic backtracking", "anchor", "escape", "unicode", "timeout", "input length", "greedy", "case insensitive", "multiline", "compile once"}},
	{"errors and error handling",
		[]string{"error handling", "handle errors", "exception handling", "error message", "error page", "error response", "error codes", "stack trace"},
		[]string{"wrap", "swallow", "silently", "ignored", "stack trace", "internals", "status code", "retryable", "sentinel", "context", "log once", "user facing", "leak"}},
	{"timeouts and long requests",
		[]string{"timeout", "long request", "long running request", "slow request", "request deadline", "takes too long"},
		[]string{"context deadline", "cancellation", "client disconnect", "background job", "proxy timeout", "retry", "partial", "idle timeout", "streaming", "progress"}},
	{"large data and memory",
		[]string{"large file", "big file", "millions of", "large dataset", "huge", "bulk", "large payload", "large response"},
		[]string{"memory", "oom", "stream", "buffer", "read all", "chunk", "batch", "pagination", "backpressure", "limit", "timeout", "max size"}},
	{"performance work",
		[]string{"speed up", "faster", "optimize", "optimise", "performance issue", "performance problem", "improve performance", "performance regression", "slow", "latency", "throughput", "p99", "hot path"},
		[]string{"profile", "pprof", "benchmark", "measure", "allocation", "cache", "index", "batch", "regression", "flame graph", "baseline"}},

	// Frontend.
	{"React pages and data fetching",
		[]string{"react", "react component", "nextjs", "next js", "useeffect", "usestate", "jsx", "tsx", "data fetching", "fetch data", "load data", "custom hook", "react hook", "vue", "svelte", "angular", "frontend page", "new page", "spa"},
		[]string{"loading state", "error state", "empty state", "race", "stale", "abort", "cleanup", "unmount", "dependency array", "infinite loop", "rerender", "waterfall", "suspense", "key prop", "memo"}},
	{"server rendering",
		[]string{"server side rendering", "ssr", "server component", "app router", "getserversideprops", "static generation", "ssg", "isr", "remix"},
		[]string{"hydration mismatch", "window", "client component", "secret leak", "next public", "revalidate", "dynamic", "bundle", "server only", "cache", "date"}},
	{"forms and validation",
		[]string{"form", "form validation", "validate input", "input validation", "user input", "checkout form", "signup form", "contact form", "wizard", "multi step form"},
		[]string{"server side validation", "client side", "trim", "whitespace", "required", "max length", "error message", "double submit", "disable button", "accessibility", "label", "unicode", "xss"}},
	{"user-generated content and rich text",
		[]string{"markdown", "rich text", "user comments", "comment section", "comment thread", "user content", "user generated", "render html", "wysiwyg", "bio", "profile page", "forum"},
		[]string{"xss", "sanitize", "escape", "dangerouslysetinnerhtml", "allowlist", "links", "noopener", "nofollow", "script", "iframe", "csp", "max length", "moderation"}},
	{"redirects and return URLs",
		[]string{"redirect", "return url", "return to", "next parameter", "deep link", "callback url"},
		[]string{"open redirect", "allowlist", "relative path", "validate", "scheme", "javascript url", "encoding", "double slash", "host"}},
	{"browser calls to APIs",
		[]string{"cors", "cross origin", "cross domain", "browser extension", "embed widget", "third party embed", "iframe embed"},
		[]string{"allow origin", "wildcard", "credentials", "preflight", "options request", "allowlist", "vary", "reflect origin", "csrf", "samesite", "postmessage", "origin check"}},
	{"security headers",
		[]string{"csp", "content security policy", "security headers", "clickjacking", "hsts", "embeddable", "iframe"},
		[]string{"frame ancestors", "x frame options", "nonce", "unsafe inline", "hsts", "report only", "nosniff", "referrer policy"}},
	{"browser storage and offline",
		[]string{"localstorage", "local storage", "sessionstorage", "indexeddb", "offline", "pwa", "service worker", "offline mode", "persist state"},
		[]string{"quota", "private mode", "stale", "versioning", "schema migration", "sensitive data", "xss", "token", "cache busting", "sync conflict", "json parse", "try catch"}},
	{"accessibility and UI components",
		[]string{"accessibility", "a11y", "modal", "dialog", "dropdown", "menu", "tooltip", "keyboard", "screen reader", "combobox", "date picker", "carousel"},
		[]string{"aria", "label", "focus", "focus trap", "keyboard navigation", "contrast", "alt text", "tab order", "escape key", "role", "announce", "reduced motion"}},
	{"styling and layout",
		[]string{"css", "styling", "tailwind", "responsive design", "responsive layout", "mobile view", "dark mode", "theme"},
		[]string{"specificity", "overflow", "zindex", "breakpoint", "contrast", "flash", "prefers color", "long text", "truncation", "rtl"}},
	{"internationalisation and text",
		[]string{"i18n", "internationalization", "internationalisation", "translation", "localize", "localise", "multilingual", "rtl", "non english"},
		[]string{"plural", "hardcoded strings", "concatenation", "date format", "number format", "currency format", "rtl", "utf 8", "fallback", "missing key", "collation", "text expansion", "icu"}},
	{"Unicode and text handling",
		[]string{"unicode", "emoji", "utf8", "truncate", "slug", "slugify", "username", "display name", "character limit", "text length", "string length"},
		[]string{"multibyte", "rune", "grapheme", "byte length", "normalize", "nfc", "nfkc", "homoglyph", "case folding", "case insensitive", "trim", "whitespace", "invalid utf", "surrogate", "combining"}},
	{"phone numbers, addresses and names",
		[]string{"phone number", "postal address", "shipping address", "billing address", "street address", "postal code", "zip code", "country", "full name", "first name", "last name"},
		[]string{"e164", "format", "validation", "unicode", "international", "normalization", "libphonenumber", "assumption", "optional", "free text"}},
	{"maps and locations",
		[]string{"map view", "google maps", "geolocation", "user location", "nearby", "coordinates", "latitude", "longitude", "geocode"},
		[]string{"precision", "float", "haversine", "antimeridian", "spatial index", "postgis", "privacy", "rate limit", "api key", "srid"}},

	// Testing.
	{"writing tests",
		[]string{"test", "unit test", "integration test", "test suite", "test coverage", "add tests", "write tests"},
		[]string{"flaky", "isolation", "shared state", "order dependent", "parallel", "mock", "fixture", "golden", "clock", "sleep", "random seed", "network", "cleanup", "temp dir", "table driven"}},
	{"flaky tests",
		[]string{"flaky", "flaky test", "intermittent", "fails sometimes", "fails randomly", "ci fails", "test fails", "red build"},
		[]string{"sleep", "timing", "race", "order dependent", "shared state", "port", "network", "time now", "fake clock", "random seed", "parallel", "cleanup", "eventually", "polling", "timezone"}},
	{"mocks, fakes and fixtures",
		[]string{"mock", "fake", "stub", "fixture", "test data", "seed data", "test double"},
		[]string{"drift", "over mocking", "contract", "interface", "reset", "shared", "isolation", "golden file", "update flag", "realistic", "hidden dependency"}},
	{"end-to-end and browser tests",
		[]string{"e2e", "end to end", "playwright", "cypress", "selenium", "browser test", "ui test", "smoke test"},
		[]string{"flaky", "wait", "sleep", "selector", "testid", "auto wait", "network idle", "isolation", "seed", "headless", "retries", "trace", "screenshot", "timeout"}},
	{"benchmarks and load tests",
		[]string{"benchmark", "load test", "stress test", "perf test", "k6", "locust"},
		[]string{"warm up", "variance", "noise", "median", "allocation", "realistic data", "coordinated omission", "baseline", "percentile", "cpu"}},

	// LLM and agent tooling.
	{"LLM and agent tooling",
		[]string{"llm", "llms", "gpt", "openai", "anthropic", "claude", "agent", "prompt", "chatbot", "ai", "rag", "vector search", "semantic search", "embedding model", "subagent", "mcp"},
		[]string{"prompt injection", "token limit", "context window", "truncation", "cost", "rate limit", "timeout", "retry", "streaming", "nondeterministic", "temperature", "hallucination", "schema validation", "tool call", "eval"}},
}

// A taskArea is one kind of work: the words that name it and the words of
// its usual pitfalls. See taskAreas.
type taskArea struct {
	name     string
	triggers []string
	risks    []string
}

const (
	// riskWeight is the weight of an area's risks, taken together, against
	// one query word: half a concept expansion (conceptWeight), so that an
	// entry sharing only an area's risks with the request stays below one
	// that shares a word of the same specificity.
	riskWeight = 0.15
	// maxRiskAreas is how many areas one query brings in, first triggered
	// first; at most 8 (term.areas is a byte). The first trigger of a task
	// title is usually the work itself ("Cache the product catalog for
	// the storefront"); later ones qualify it.
	maxRiskAreas = 1
)

// riskIndex is taskAreas compiled: trigger stems to areas, and each area's
// risk stems.
type riskIndex struct {
	// single maps the stem of a one-word trigger, and the joined stem of a
	// phrase trigger (ratelimit for "rate limit"), to areas.
	single map[string][]int32
	// phrases maps the first word's stem of a phrase trigger to its
	// phrases.
	phrases map[string][]phraseTrigger
	// risks are each area's risk stems, in table order.
	risks [][]string
	// heads maps the concatenated stems of a two-word risk to the stem of
	// its first word, as phraseHeadsOf does for the thesaurus.
	heads map[string]string
}

type phraseTrigger struct {
	stems []string // every word's stem, the first included
	stop  bool     // whether a word of the phrase is a stop word
	words int      // its words that are not stop words
	area  int32
}

var risksOf = sync.OnceValue(func() *riskIndex {
	x := &riskIndex{
		single:  map[string][]int32{},
		phrases: map[string][]phraseTrigger{},
		heads:   map[string]string{},
	}
	addSingle := func(st string, a int32) {
		for _, b := range x.single[st] {
			if b == a {
				return
			}
		}
		x.single[st] = append(x.single[st], a)
	}
	for i, ar := range taskAreas {
		a := int32(i)
		for _, tr := range ar.triggers {
			words := strings.Fields(tr)
			if len(words) == 1 {
				addSingle(stemOf(words[0]), a)
				continue
			}
			p := phraseTrigger{area: a}
			for _, w := range words {
				p.stems = append(p.stems, stemOf(w))
				if isStopWord([]byte(w)) {
					p.stop = true
				} else {
					p.words++
				}
			}
			x.phrases[p.stems[0]] = append(x.phrases[p.stems[0]], p)
			addSingle(stemOf(strings.Join(words, "")), a)
		}
		var rs []string
		seen := map[string]bool{}
		for _, r := range ar.risks {
			for _, st := range memberStems(r, x.heads) {
				if !seen[st] {
					seen[st] = true
					rs = append(rs, st)
				}
			}
		}
		x.risks = append(x.risks, rs)
	}
	return x
})

// triggeredAreas returns the areas whose triggers the query's tokens say,
// in the order their first trigger appears, at most limit. Words and
// identifier parts make up the running text a phrase is matched against;
// an identifier's joined form is matched as a word of its own.
func triggeredAreas(toks []collected, limit int) []int32 {
	x := risksOf()
	type word struct {
		stem string
		stop bool
	}
	var all, content []word // with and without stop words
	var found []int32
	note := func(areas []int32) {
		for _, a := range areas {
			if len(found) < limit && !containsArea(found, a) {
				found = append(found, a)
			}
		}
	}
	for _, t := range toks {
		st := stemOf(t.text)
		if t.kind == tokWhole {
			if !t.stop {
				note(x.single[st])
			}
			continue
		}
		w := word{st, t.stop}
		all = append(all, w)
		if !t.stop {
			content = append(content, w)
		}
	}
	// Walk the words in order. At each, the phrases starting there are
	// tried first, against the words with or without stop words as the
	// phrase needs; the longest that match take their words, so that "log
	// in" is login and not logging, "api key" not an endpoint, and "sign
	// in with" single sign-on rather than login. One-word triggers count
	// only for content words no phrase took. A phrase may start with a
	// stop word ("at midnight", "every morning").
	ci, taken := 0, 0 // the next content word; content words taken up to
	for ai, w := range all {
		best, words := 0, 0
		var areas []int32
		for _, p := range x.phrases[w.stem] {
			if w.stop && !p.stop {
				continue
			}
			seq := content[min(ci, len(content)):]
			if p.stop {
				seq = all[ai:]
			}
			if len(seq) < len(p.stems) || len(p.stems) < best {
				continue
			}
			ok := true
			for k, st := range p.stems {
				if seq[k].stem != st {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if len(p.stems) > best {
				best, words, areas = len(p.stems), 0, areas[:0]
			}
			words = max(words, p.words)
			areas = append(areas, p.area)
		}
		note(areas)
		taken = max(taken, ci+words)
		if w.stop {
			continue
		}
		if ci >= taken {
			note(x.single[w.stem])
		}
		ci++
	}
	return found
}

func containsArea(list []int32, a int32) bool {
	for _, b := range list {
		if b == a {
			return true
		}
	}
	return false
}

// expandRisks gives each area the query's own words trigger (at most
// maxRiskAreas) a bit in the areas mask of its risk stems' terms. A risk
// the query holds already, as a word or an expansion, keeps its term and
// its slot and gets the bit too, so an entry naming it is not passed over
// for one naming a risk the request did not think of; any other risk joins
// the query as a term of no slot, which counts for the area alone. The
// scorer adds, per area, one BM25 term over all its risks at riskWeight
// (see scorer.score): like a query word it saturates, so an area counts at
// most about riskWeight of a query word however many of its risks an entry
// names.
func (q *query) expandRisks(toks []collected) {
	q.addAreas(triggeredAreas(toks, maxRiskAreas))
}

// addAreas adds the risks of areas, at most 8, to the query.
func (q *query) addAreas(areas []int32) {
	x := risksOf()
	for k, a := range areas[:min(len(areas), 8)] {
		bit := uint8(1) << k
		for _, st := range x.risks[a] {
			if t, ok := q.index[st]; ok {
				q.terms[t].areas |= bit
				continue
			}
			if len(q.terms) >= maxQueryTerms {
				break
			}
			q.add(st, -1, riskWeight)
			q.terms[len(q.terms)-1].areas = bit
			if h := x.heads[st]; h != "" {
				q.addHead(h)
			}
		}
		q.areas = k + 1
	}
}
