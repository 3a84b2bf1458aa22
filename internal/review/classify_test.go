package review

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		f        Finding
		keep     bool
		category string // checked when non-empty
		reason   string // substring of Reason
	}{
		{
			name: "framework idiom",
			f: Finding{Severity: SevMajor, Location: "src/Search.tsx:4",
				Problem: "The `useEffect` fetch has no cleanup, so a slow stale response overwrites newer results.",
				Fix:     "Abort the request with an `AbortController` in the effect cleanup."},
			keep: true, category: CatFramework, reason: "reusable framework lesson",
		},
		{
			name: "security",
			f: Finding{Severity: SevCritical,
				Problem: "SQL is built with an f-string from the query parameter: SQL injection.",
				Fix:     "Use parameterized queries: `cursor.execute(sql, (region,))`."},
			keep: true, category: CatSecurity,
		},
		{
			name: "build gotcha",
			f: Finding{Severity: SevMajor, Location: "Dockerfile:8",
				Problem: "`COPY . .` before `go mod download` invalidates the layer cache on every source change.",
				Fix:     "Copy go.mod and go.sum first, run `go mod download`, then copy the source."},
			keep: true, category: CatBuild,
		},
		{
			name: "project convention",
			f: Finding{Severity: SevMajor,
				Problem: "The handler is registered with `mux.HandleFunc`; in this repo every handler must be registered through `routes.Register` to get auth.",
				Fix:     "Register it with `routes.Register`."},
			keep: true, category: CatConvention,
		},
		{
			name: "tool quirk",
			f: Finding{Severity: SevMajor,
				Problem: "`docker exec --user agent` keeps `HOME=/root`, so `~` resolves to root's home.",
				Fix:     "Pass `-e HOME=/home/agent` to every `docker exec --user agent`."},
			keep: true, category: CatAPI,
		},
		{
			name: "edge case class",
			f: Finding{Severity: SevMajor,
				Problem: "Names are truncated with `s[:80]`, cutting a multi-byte UTF-8 rune in half.",
				Fix:     "Truncate on a rune boundary with `utf8.RuneStart`."},
			keep: true, category: CatEdgeCase,
		},
		{
			name: "unranked severity is not held against a finding",
			f: Finding{Problem: "`requests.get` without a timeout hangs forever on a stuck host.",
				Fix: "Always pass `timeout=(3.05, 30)`."},
			keep: true, category: CatFramework,
		},
		{
			name: "anchored finding outside every lexicon is kept as general",
			f: Finding{Severity: SevMajor,
				Problem: "The wrapper calls `fn()` directly, so `this` is lost for methods passed to `debounce`.",
				Fix:     "Call `fn.apply(this, args)` from a regular `function`."},
			keep: true, category: CatGeneral, reason: "reusable general lesson",
		},
		{
			name:   "minor severity",
			f:      Finding{Severity: SevMinor, Problem: "`time.After` in a loop leaks timers.", Fix: "Use `time.NewTimer`."},
			reason: "severity minor is below the minimum (major)",
		},
		{
			name:   "typo",
			f:      Finding{Severity: SevMajor, Problem: "Typo in the log message: recieved.", Fix: "Spell it received."},
			reason: "typo/style/formatting",
		},
		{
			name:   "style",
			f:      Finding{Severity: SevMajor, Problem: "Error strings are capitalized.", Fix: "Use lowercase error strings."},
			reason: "typo/style/formatting",
		},
		{
			name:   "vague fix",
			f:      Finding{Severity: SevMajor, Problem: "Error handling in the retry loop swallows `context.Canceled`.", Fix: "Consider improving it."},
			reason: "vague fix",
		},
		{
			name:   "generic advice",
			f:      Finding{Severity: SevMajor, Problem: "Tests are thin.", Fix: "Add more tests."},
			reason: "generic advice",
		},
		{
			name:   "no fix",
			f:      Finding{Severity: SevCritical, Problem: "The `lib/` ignore rule hides `test/lib/pdf.test.ts` from commits."},
			reason: "no concrete fix",
		},
		{
			name: "plan one-off",
			f: Finding{Severity: SevMajor, Location: "fn-89.2 Approach / fn-89.2 Acceptance",
				Problem: "Task .2 still says `event: work.completionReview`, contradicting the epic.",
				Fix:     "Replace every `work.completionReview` in task .2 with `completionReview`."},
			reason: "one-off tied to this task's plan",
		},
		{
			name:   "ticket detail",
			f:      Finding{Severity: SevMajor, Problem: "The Gold discount is 10% but the ticket says 15%.", Fix: "Change `0.10` to `0.15`."},
			reason: "one-off tied to this task",
		},
		{
			name:   "docs wording",
			f:      Finding{Severity: SevMajor, Location: "README.md:12", Problem: "Step 3 names the old binary.", Fix: "Update the step to use `billing-cli`."},
			reason: "docs-only",
		},
		{
			name:   "nothing reusable",
			f:      Finding{Severity: SevMajor, Location: "src/review.py:42", Problem: "The current result reuses stale review state.", Fix: "Select the newest matching lineage."},
			reason: "no reusable lesson",
		},
		{
			name:   "empty",
			f:      Finding{},
			reason: "no problem text",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Classify(tt.f)
			if d.Keep != tt.keep {
				t.Errorf("Keep = %v (%s), want %v", d.Keep, d.Reason, tt.keep)
			}
			if tt.category != "" && d.Category != tt.category {
				t.Errorf("Category = %q, want %q", d.Category, tt.category)
			}
			if !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", d.Reason, tt.reason)
			}
			if d.Reason == "" || d.Category == "" {
				t.Errorf("empty reason or category: %+v", d)
			}
			if d.Finding != tt.f {
				t.Errorf("decision does not carry its finding")
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
		{"", false}, {"major", false}, {"critical", false}, {"minor", true}, {"nit", true}, {"P2", true},
	}
	for _, tt := range tests {
		t.Run(tt.min, func(t *testing.T) {
			if d := ClassifyWith(f, Options{MinSeverity: tt.min}); d.Keep != tt.keep {
				t.Errorf("MinSeverity %q: Keep = %v (%s), want %v", tt.min, d.Keep, d.Reason, tt.keep)
			}
		})
	}
}

func TestAnalyzeDetectsPlanReview(t *testing.T) {
	text := "- **Severity**: Major\n  **Location**: Epic R2 / Task fn-1.2\n  **Problem**: `sync check` treats `errored` receipts as clearing the event.\n  **Suggestion**: Do not write the receipt before `sync check`.\n\n" +
		"- **Severity**: Major\n  **Location**: fn-1.3 Approach\n  **Problem**: Ordering is backwards.\n  **Suggestion**: Reorder.\n\n<verdict>NEEDS_WORK</verdict>\n"
	a := Analyze(text)
	if len(a.Findings) != 2 {
		t.Fatalf("got %d findings", len(a.Findings))
	}
	if a.Decisions[0].Keep {
		t.Errorf("plan-located finding kept in a plan review: %s", a.Decisions[0].Reason)
	}
	if d := ClassifyWith(a.Findings[0], Options{}); !d.Keep {
		t.Errorf("without the plan-review context the tool quirk should be kept: %s", d.Reason)
	}
}

func TestExplain(t *testing.T) {
	text := "**Issue**: `rows.Close()` is never called, leaking pooled connections.\n**Fix**: `defer rows.Close()` after the error check.\n\n" +
		"**Issue**: Typo in a comment.\n**Fix**: Fix the typo.\n\nVERDICT: NEEDS_WORK\n"
	var b bytes.Buffer
	if err := Explain(&b, text); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"verdict: NEEDS_WORK\n",
		"findings: 2 (keep 1, drop 1)",
		"1. KEEP [unranked] `rows.Close()` is never called",
		"   fix:      `defer rows.Close()` after the error check.",
		"   category: framework",
		"2. DROP [unranked] Typo in a comment.",
		"   reason:   typo/style/formatting",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Explain output lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := Explain(&b, "Thanks, merged."); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "verdict: none found") || !strings.Contains(b.String(), "findings: 0") {
		t.Errorf("Explain on a non-review:\n%s", b.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestExplainWrapsWriteError(t *testing.T) {
	err := Explain(failWriter{}, "VERDICT: SHIP")
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "explanation") {
		t.Fatalf("err = %v", err)
	}
}
