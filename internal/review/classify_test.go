package review

import (
	"strings"
	"testing"
)

// TestClassify pins each rule of ClassifyWith with a finding that only
// that rule decides.
func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		f        Finding
		keep     bool
		category string // checked when non-empty
		reason   string // substring of Reason
	}{
		{
			name: "a secret written in a README is a security lesson, not a document's one-off",
			f: Finding{Severity: SevMajor, Location: "README.md:12",
				Problem: "The quick-start block sets `POSTGRES_PASSWORD` to the staging database password for every reader",
				Fix:     "Read the password from the environment and rotate the published one"},
			keep: true, category: CatSecurity,
		},
		{
			name: "a ranked defect placed only at a file implies nothing",
			f: Finding{Severity: SevMajor, Location: "svc/poller.py",
				Problem: "Polling loop waits on a fixed sleep instead of the job's done event"},
			keep: false, reason: reasonNoFix,
		},
		{
			name: "a ranked label of a few words, with nothing under it, implies no fix",
			f:    Finding{Severity: SevMajor, Problem: "`JobQueue` (persistent mode)"},
			keep: false, reason: reasonNoFix,
		},
		{
			name: "a ranked defect stated in a sentence or two implies its fix",
			f: Finding{Severity: SevMajor,
				Problem: "`JobQueue` drops jobs on restart. Jobs enqueued during shutdown are never written to disk."},
			keep: true, reason: "the fix is implied",
		},
		{
			name: "a short statement about named code is enough",
			f: Finding{Severity: SevMajor,
				Problem: "`EvictOldest` drops pinned entries.",
				Fix:     "Skip entries with `Pinned` set in `EvictOldest`."},
			keep: true, reason: "reusable",
		},
		{
			name: "a doc word in a tool's name or a quoted rule is no documentation finding",
			f: Finding{Severity: SevMajor,
				Problem: "`build/gen.ts` passes a relative glob to swagger-jsdoc, which resolves it against the process cwd, and breaks the \"no paths in docs\" rule.",
				Fix:     "Resolve the glob with `path.resolve(__dirname, …)` before passing it."},
			keep: true, reason: "reusable",
		},
		{
			name: "a dead-code compound names a thing, not dead code",
			f: Finding{Severity: SevMajor,
				Problem: "The dead-code pass in `prune.ts` treats a symbol with no local import as removable, so exports consumed by other packages are deleted.",
				Fix:     "Consult the package's `exports` map before pruning a symbol."},
			keep: true, reason: "reusable",
		},
		{
			name: "a test named as the broken thing is no request for tests",
			f: Finding{Severity: SevMajor,
				Problem: "The `retry` test passes without retrying: `fakeClock` never advances, so `Backoff.Next` returns zero and the loop exits at once.",
				Fix:     "Advance `fakeClock` inside the test's send stub."},
			keep: true, reason: "reusable",
		},
		{
			name: "docs named after the subject are not what the finding is about",
			f: Finding{Severity: SevMajor,
				Problem: "Event names drift between the `emit` calls, the consumer and the docs: `order.paid` is sent, `orders.paid` is read.",
				Fix:     "Define the names once in `events.ts` and import them on both sides."},
			keep: true, reason: "reusable",
		},
		{
			name: "a short finding that names no code in its problem is vague",
			f: Finding{Severity: SevMajor, Location: "billing/",
				Problem: "Reconciliation feels fragile under load.",
				Fix:     "Harden `reconcile` before launch."},
			keep: false, reason: "vague",
		},
		{
			name: "coverage words past the title are detail, not the subject",
			f: Finding{Severity: SevMajor,
				Problem: "Quoted commas split the CSV field. lib/csv.ex:12 splits on every comma, and this path is untested.",
				Fix:     "Parse rows with `NimbleCSV` instead of `String.split/2`."},
			keep: true, reason: "reusable",
		},
		{
			name: "a naming finding with no rule is style",
			f: Finding{Severity: SevMajor,
				Problem: "Naming of `tmpVal2` in `parse.go` is unclear.",
				Fix:     "Rename `tmpVal2` to something descriptive."},
			keep: false, reason: "how text looks",
		},
		{
			name: "a requirement id deep in the text does not make a code finding a one-off",
			f: Finding{Severity: SevMajor,
				Problem: "`exportReport` builds the CSV with string concatenation, so a field holding a comma splits the row; this breaks R12.",
				Fix:     "Write rows with `encoding/csv`'s `csv.Writer`, which quotes fields."},
			keep: true, reason: "reusable",
		},
		{
			name: "a duplicate that breaks something is titled by what breaks",
			f: Finding{Severity: SevMajor,
				Problem: "A retried `Import` inserts every row again, so the table ends up duplicated. The batch has no idempotency key.",
				Fix:     "Upsert rows on `(source, external_id)` instead of inserting them."},
			keep: true, reason: "reusable",
		},
		{
			name: "a modal opening a risk is no proposal",
			f: Finding{Severity: SevMajor,
				Problem: "Could write the lock file of another host: `lockPath` joins the host name only when `--host` is set.",
				Fix:     "Always join the host name in `lockPath`."},
			keep: true, reason: "reusable",
		},
		{
			name: "a source file in a doc directory is code",
			f: Finding{Severity: SevMajor,
				Problem: "`doc/lower.mbt:81` keys origins by span start only, so two spans at one offset collide.",
				Fix:     "Key origins by start and end in `doc/lower.mbt`."},
			keep: true, reason: "reusable",
		},
		{
			name: "library idiom is a framework lesson",
			f: Finding{Severity: SevMajor, Location: "src/Search.tsx:4",
				Problem: "The `useEffect` fetch has no cleanup, so a slow stale response overwrites newer results.",
				Fix:     "Abort the request with an `AbortController` in the effect cleanup."},
			keep: true, reason: "reusable",
		},
		{
			name: "security",
			f: Finding{Severity: SevCritical,
				Problem: "The CORS check uses `origin.includes(host)`, so https://evil.com?host passes.",
				Fix:     "Parse the Origin with `URL` and compare the hostname exactly."},
			keep: true, category: CatSecurity,
		},
		{
			name: "build gotcha",
			f: Finding{Severity: SevMajor, Location: "package.json:37",
				Problem: "`prepublishOnly` only builds, so a red lint or test run can still be published.",
				Fix:     "Run lint and tests in `prepublishOnly` or in CI before release."},
			keep: true, category: CatBuild,
		},
		{
			name: "boundary class is an edge case",
			f: Finding{Problem: "After a daemon restart the `ipam` allocator starts empty and re-issues addresses still in use.",
				Fix: "Load existing allocations from the DB in `NewIPAM` before serving."},
			keep: true, category: CatEdgeCase,
		},
		{
			name: "unranked severity is not held against a finding",
			f:    Finding{Problem: "`http.DefaultClient` has no timeout.", Fix: "Use a client with `Timeout` set."},
			keep: true,
		},
		{
			name:   "low severity",
			f:      Finding{Severity: SevNit, Problem: "`x` could use `y`.", Fix: "Use `y`."},
			reason: "below capture.min_severity",
		},
		{
			name:   "typo",
			f:      Finding{Problem: "Typo in the `Load` doc comment.", Fix: "Fix the typo in `Load`."},
			reason: "how text looks",
		},
		{
			name:   "the task's requirement ids and no code: too vague to learn from",
			f:      Finding{Problem: "R3 is not met by the current plan.", Fix: "Add the missing step to the plan."},
			reason: "vague",
		},
		{
			name:   "a finding about the plan that names nothing concrete",
			f:      Finding{Location: "Epic Approach", Problem: "The ordering of steps is backwards.", Fix: "Reorder the steps."},
			reason: "names no code",
		},
		{
			name:   "no fix",
			f:      Finding{Problem: "`parse()` panics on empty input."},
			reason: "no concrete fix",
		},
		{
			name: "a ranked defect in named code implies its fix",
			f:    Finding{Severity: SevMinor, Problem: "`Cache.Put` stores the caller's slice, so later writes to it change the cached value that every reader of the key sees."},
			keep: true,
		},
		{
			name: "a major one-line defect in named code implies its fix",
			f:    Finding{Severity: SevMajor, Problem: "`Cache.Put` stores the caller's slice, so later writes to it change the cached value."},
			keep: true,
		},
		{
			name:   "a minor one-line remark on named code without a fix is dropped",
			f:      Finding{Severity: SevMinor, Location: "cache/put.go:40", Problem: "`Cache.Put` keeps the caller's slice."},
			reason: "no concrete fix",
		},
		{
			name:   "an unranked defect without a fix is dropped",
			f:      Finding{Problem: "`Cache.Put` stores the caller's slice, so later writes to it change the cached value."},
			reason: "no concrete fix",
		},
		{
			name:   "a hedged fix naming nothing",
			f:      Finding{Problem: "The handler is hard to follow.", Fix: "Consider making it simpler."},
			reason: "names no code",
		},
		{
			name:   "nothing concrete named",
			f:      Finding{Problem: "The flow is confusing for first users.", Fix: "Make the flow clearer for them."},
			reason: "names no code",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			d := ClassifyWith(tt.f, o)
			if d.Keep != tt.keep {
				t.Fatalf("Keep = %v (%s), want %v", d.Keep, d.Reason, tt.keep)
			}
			if d.Reason == "" || d.Category == "" {
				t.Errorf("decision without reason or category: %+v", d)
			}
			if tt.category != "" && d.Category != tt.category {
				t.Errorf("Category = %s, want %s", d.Category, tt.category)
			}
			if tt.reason != "" && !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", d.Reason, tt.reason)
			}
		})
	}
}

func TestClassifyMinSeverity(t *testing.T) {
	f := Finding{Severity: SevMinor, Problem: "`time.After` in a loop allocates a timer per iteration.", Fix: "Reuse one `time.NewTimer` and `Reset` it."}
	tests := []struct {
		min  string
		keep bool
	}{
		{"", true}, {"major", false}, {"critical", false}, {"minor", true}, {"nit", true}, {"P2", true}, {"P1", false},
	}
	for _, tt := range tests {
		t.Run(tt.min, func(t *testing.T) {
			if d := ClassifyWith(f, Options{MinSeverity: tt.min}); d.Keep != tt.keep {
				t.Errorf("MinSeverity %q: Keep = %v (%s), want %v", tt.min, d.Keep, d.Reason, tt.keep)
			}
		})
	}
}

// TestAnalyzeInfersVerdict: a review that writes no verdict but ranks a
// finding major, or several minor without saying none blocks, asks for
// changes; one with only low findings, or one minor, does not.
func TestOptionalSectionRanksNit(t *testing.T) {
	a := Analyze("VERDICT: NEEDS_WORK\n\n## Optional issues\n\n1. **Streaming large bodies**\n   - Decode `resp.Body` with `json.NewDecoder` instead of `io.ReadAll`.\n")
	if len(a.Findings) != 1 || a.Findings[0].Severity != SevNit || len(a.Kept()) != 0 {
		t.Errorf("optional suggestion: %+v kept %d, want one nit finding dropped", a.Findings, len(a.Kept()))
	}
}

func TestAnalyzeInfersVerdict(t *testing.T) {
	a := Analyze("## Findings\n\n1. High: `Close` is never called on `rows`.\n   - Suggestion: `defer rows.Close()`.\n")
	if a.Verdict != NeedsWork || !a.Inferred {
		t.Errorf("verdict %q inferred=%v, want NEEDS_WORK inferred", a.Verdict, a.Inferred)
	}
	a = Analyze("## Findings\n\n1. Low: `x` is unused.\n")
	if a.Verdict != None {
		t.Errorf("verdict %q for a review of low findings, want none", a.Verdict)
	}
	// Several medium findings ask for their fixes, unless the reviewer
	// says none of them blocks; a single one is a passing remark.
	medium := "## Findings\n\n1. Medium: `cache` grows without bound; cap it with an LRU.\n2. Medium: `Dial` has no timeout; use `DialTimeout`.\n"
	if a = Analyze(medium); a.Verdict != NeedsWork || !a.Inferred {
		t.Errorf("medium findings: verdict %q inferred=%v, want NEEDS_WORK inferred", a.Verdict, a.Inferred)
	}
	if a = Analyze("Two small notes, neither of them blocking.\n\n" + medium); a.Verdict != None {
		t.Errorf("medium findings the reviewer calls non-blocking: verdict %q, want none", a.Verdict)
	}
	if a = Analyze("## Findings\n\n1. Medium: `cache` grows without bound; cap it with an LRU.\n"); a.Verdict != None {
		t.Errorf("one medium finding: verdict %q, want none", a.Verdict)
	}
	// A review that is only a list of unranked notes asks for them; one
	// whose lead-in ranks them informational does not.
	notes := "# Review notes\n\n- Retries: `fetch` retries a POST on timeout, so a slow server charges twice. Retry only idempotent requests.\n- Paging: `list` pages by `name`, which is not unique, so rows repeat across pages. Page by the primary key.\n"
	if a = Analyze(notes); a.Verdict != NeedsWork || len(a.Findings) != 2 {
		t.Errorf("notes: verdict %q with %d findings, want NEEDS_WORK with 2", a.Verdict, len(a.Findings))
	}
	info := "No issues above the threshold.\n\nMinor notes (informational):\n- `a.go` lacks the package doc comment the other packages carry.\n- `b.go` could share the retry helper that `c.go` already uses.\n"
	if a = Analyze(info); a.Verdict != None {
		t.Errorf("informational notes: verdict %q, want none", a.Verdict)
	}
	a = Analyze("## Findings\n\n1. High: `Close` is never called.\n\nVERDICT: SHIP\n")
	if a.Verdict != Ship || a.Inferred {
		t.Errorf("a written verdict must win: %q inferred=%v", a.Verdict, a.Inferred)
	}
}

// TestConcrete pins what counts as naming something concrete (hasAnchor)
// and as naming code (hasCode), the two tests several rules rest on.
func TestConcrete(t *testing.T) {
	for _, tt := range []struct {
		text         string
		anchor, code bool
	}{
		{"use `defer rows.Close()` here", true, true},
		{"call rows.Close() after the check", true, true},
		{"the camelCase name", true, true},
		{"the snake_case name", true, true},
		{"edit internal/app/main.go", true, true},
		{"set DATABASE_URL first", true, false},
		{"the CORS check", true, false},
		{"the cache in a/b", true, false},
		{"make the flow clearer for users.", false, false},
		{"Rename it.", false, false},
		{"a < b or c | d in prose", false, false},
		{"long names (e.g., the display label) overflow, i.e. wrap", false, false},
		{"`[ ]` boxes, but `retry()` is named", true, true},
	} {
		if got := hasAnchor(tt.text); got != tt.anchor {
			t.Errorf("hasAnchor(%q) = %v, want %v", tt.text, got, tt.anchor)
		}
		if got := hasCode(tt.text); got != tt.code {
			t.Errorf("hasCode(%q) = %v, want %v", tt.text, got, tt.code)
		}
	}
}

// A review that asks for changes always teaches something: when the filter
// drops every finding, the first ones that name code and lack only a fix
// are kept (at most fallbackKeep), and none is kept when a finding passed
// on its own.
func TestFallbackKeepsDefectsInNamedCode(t *testing.T) {
	review := "VERDICT: NEEDS_WORK\n\n## Problems\n\n" +
		"- `Pool.Get` hands out a connection that `Pool.Close` already closed.\n" +
		"- `flushLoop` exits on the first write error and the buffer grows without bound.\n" +
		"- The status page is slow to load.\n" +
		"- `parseHeader` reads past the end of a short frame.\n" +
		"- `Backoff.Next` overflows after sixty retries.\n"
	a := Analyze(review)
	var kept []string
	for _, d := range a.Kept() {
		kept = append(kept, d.Finding.Problem)
		if !strings.Contains(d.Reason, "no other finding") {
			t.Errorf("fallback keep without its reason: %q", d.Reason)
		}
	}
	if len(kept) != fallbackKeep || !strings.Contains(kept[0], "Pool.Get") || strings.Contains(strings.Join(kept, " "), "status page") || strings.Contains(strings.Join(kept, " "), "Backoff") {
		t.Fatalf("kept %q, want the first %d that name code", kept, fallbackKeep)
	}

	withFix := review + "- `Retry.Do` sleeps a fixed second; use `backoff.Exponential` instead.\n"
	for _, d := range Analyze(withFix).Kept() {
		if strings.Contains(d.Reason, "no other finding") {
			t.Errorf("fallback kept %q beside a finding that passed", d.Finding.Problem)
		}
	}
}

// A finding that restates one already kept (a reviewer's closing list, or
// the same point made twice) is not recorded twice; two findings that
// share a word or two are both kept.
func TestRepeatOfAKeptFindingIsDropped(t *testing.T) {
	review := "VERDICT: NEEDS_WORK\n\n## Findings\n\n" +
		"1. **major** `Cache.Evict` walks the whole map under the write lock, so every reader stalls while a large cache is trimmed. Trim in batches and release the lock between them.\n" +
		"2. **major** `Session.Renew` keeps the old expiry when the clock moves backwards, so a renewed session can expire at once. Compute the expiry from a monotonic clock.\n\n" +
		"3. **major** Readers stall while `Cache.Evict` walks the whole map under the write lock: trim in batches.\n"
	a := Analyze(review)
	var kept []string
	repeated := 0
	for _, d := range a.Decisions {
		if d.Keep {
			kept = append(kept, d.Finding.Problem)
		} else if strings.HasPrefix(d.Reason, "repeats an earlier finding") {
			repeated++
		}
	}
	if len(kept) != 2 || repeated != 1 || !strings.Contains(kept[0], "walks the whole map") || !strings.Contains(kept[1], "Session.Renew") {
		t.Fatalf("kept %q with %d repeats, want the first two and the third dropped as a repeat", kept, repeated)
	}
}
