package recall

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func TestLine(t *testing.T) {
	seen3 := pit("p", "Retries hammer the endpoint", "Back off with jitter", "pkg/webhook")
	seen3.Seen, seen3.Tasks = 3, []string{"fn-1.1", "fn-2.4", "fn-3.1"}
	noFix := pit("p", "Flaky on Windows", "", "")
	noTask := pit("p", "Issue", "Fix", "")
	noTask.Task, noTask.Tasks = "", nil
	legacy := mdstore.Entry{Kind: mdstore.Pitfall, Body: "Line one\nline two\n\n  line three", Task: "fn-9.9", Seen: 1}
	long := pit("p", strings.Repeat("word ", 200), strings.Repeat("fix ", 200), "")
	tests := []struct {
		name string
		e    mdstore.Entry
		want string
	}{
		{"pitfall seen 3x", seen3, "- [pitfall] Retries hammer the endpoint → Back off with jitter (fn-1.1, seen 3x)"},
		{"seen once", pit("p", "Issue", "Fix", ""), "- [pitfall] Issue → Fix (fn-1.1)"},
		{"no fix", noFix, "- [pitfall] Flaky on Windows (fn-1.1)"},
		{"convention", note(mdstore.Convention, "c", "Barrel exports in index.ts"), "- [convention] Barrel exports in index.ts (manual)"},
		{"decision", note(mdstore.Decision, "d", "chi over gin"), "- [decision] chi over gin (manual)"},
		{"no task at all", noTask, "- [pitfall] Issue → Fix (manual)"},
		{"legacy multi-line body", legacy, "- [pitfall] Line one line two line three (fn-9.9)"},
		{"no kind", mdstore.Entry{Body: "x"}, "- [memory] x (manual)"},
		{"long fields clipped", long, "- [pitfall] " + strings.TrimSpace(strings.Repeat("word ", 99)) + "… → " +
			strings.TrimSpace(strings.Repeat("fix ", 74)) + "… (fn-1.1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Line(tc.e)
			if got != tc.want {
				t.Errorf("Line =\n%q\nwant\n%q", got, tc.want)
			}
			if strings.ContainsAny(got, "\n\r") {
				t.Errorf("Line spans several lines: %q", got)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	var b bytes.Buffer
	if err := Format(&b, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "No relevant entries in project memory.\n" {
		t.Errorf("no hits: %q", b.String())
	}
	b.Reset()
	hits := []Hit{{Entry: pit("a", "First", "Fix", "")}, {Entry: note(mdstore.Convention, "b", "Second")}}
	if err := Format(&b, hits, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "## Relevant Memory\n- [pitfall] First → Fix (fn-1.1)\n- [convention] Second (manual)\n"
	if b.String() != want {
		t.Errorf("Format =\n%s\nwant\n%s", b.String(), want)
	}
}

// Whatever the budget and limit, Format stays within them, keeps rank
// order and writes only whole lines.
func TestFormatBounds(t *testing.T) {
	entries := loadCorpus(t)
	hits := Rank(entries, "webhook retry timeout tests CI", Options{Limit: 50, Now: corpusNow})
	if len(hits) < 20 {
		t.Fatalf("only %d hits to format", len(hits))
	}
	for _, limit := range []int{0, 1, 3, 50} {
		for budget := 0; budget <= 6000; budget += 37 {
			opt := Options{Limit: limit, MaxChars: budget}
			var b bytes.Buffer
			var be *BudgetError
			if err := Format(&b, hits, opt); err != nil {
				// Nothing fits: the error says what would.
				if !errors.As(err, &be) || b.Len() != 0 || be.Need <= budget || be.Hits != len(hits) {
					t.Fatalf("limit %d budget %d: %v", limit, budget, err)
				}
				continue
			}
			if b.Len() == 0 {
				t.Fatalf("limit %d budget %d: nothing written and no error", limit, budget)
			}
			checkBlock(t, fmt.Sprintf("limit %d budget %d", limit, budget), b.String(), "## Relevant Memory\n", hits, limitOf(opt), budget)
		}
	}
	var b bytes.Buffer
	_ = Format(&b, hits, Options{})
	if b.Len() > DefaultMaxChars {
		t.Errorf("default budget exceeded: %d", b.Len())
	}
}

// checkBlock verifies a rendered block: within max bytes (max 0 means the
// default, checked by the caller), at most limit lines, each one a whole
// Line of a hit, in rank order.
func checkBlock(t *testing.T, name, out, head string, hits []Hit, limit, max int) {
	t.Helper()
	if max > 0 && len(out) > max {
		t.Errorf("%s: %d bytes over budget %d", name, len(out), max)
	}
	if out == "" {
		return
	}
	if !strings.HasPrefix(out, head) || !strings.HasSuffix(out, "\n") {
		t.Errorf("%s: malformed block %q", name, out)
		return
	}
	lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(out, head), "\n"), "\n")
	if len(lines) > limit {
		t.Errorf("%s: %d lines over limit %d", name, len(lines), limit)
	}
	next := 0
	for _, l := range lines {
		found := false
		for next < len(hits) {
			next++
			if Line(hits[next-1].Entry) == l {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: line is not a whole hit line in rank order: %q", name, l)
		}
	}
}

func TestPrime(t *testing.T) {
	fresh := pit("fresh", "Webhook retries have no backoff or jitter", "Back off exponentially", "pkg/webhook/deliver.go")
	confirmed := pit("confirmed", "Webhook retry loop ignores Retry-After", "Honour Retry-After", "")
	confirmed.Seen = 3
	manual := note(mdstore.Convention, "manual", "Webhook deliveries go through the job queue")
	grazing := pit("grazing", "Logs are verbose", "Lower the level", "")
	grazing.Seen = 9
	grazing.Context = "webhook"
	filler := func(i int) mdstore.Entry {
		return pit(fmt.Sprintf("filler-%d", i), "Unrelated lesson about caching", "Use a TTL", "")
	}
	entries := []mdstore.Entry{fresh, confirmed, manual, grazing}
	for i := range 20 {
		entries = append(entries, filler(i))
	}

	// Limit 3: the grazing lesson ranks fourth and stays out however often
	// it was seen.
	out := Prime(entries, "fn-12.3: add retry with backoff to webhook delivery", Options{Limit: 3, Now: testNow})
	var order []string
	for _, id := range []string{"confirmed", "manual", "fresh", "grazing"} {
		if i := strings.Index(out, Line(byID(entries, id))); i >= 0 {
			order = append(order, fmt.Sprintf("%s@%d", id, i))
		}
	}
	iConf := strings.Index(out, Line(confirmed))
	iMan := strings.Index(out, Line(manual))
	iFresh := strings.Index(out, Line(fresh))
	if iConf < 0 || iMan < 0 || iFresh < 0 || iFresh < iConf || iFresh < iMan {
		t.Errorf("confirmed lessons must come first: %v\n%s", order, out)
	}
	if strings.Contains(out, Line(grazing)) {
		t.Errorf("a confirmed lesson must not be pulled in from below the limit:\n%s", out)
	}
	if !strings.HasPrefix(out, "## Relevant Memory\n") {
		t.Errorf("missing header:\n%s", out)
	}

	if got := Prime(entries, "kubernetes helm chart", Options{}); got != "" {
		t.Errorf("nothing relevant: want empty, got %q", got)
	}
	if got := Prime(nil, "", Options{}); got != "" {
		t.Errorf("empty memory: want empty, got %q", got)
	}
}

func byID(entries []mdstore.Entry, id string) mdstore.Entry {
	for _, e := range entries {
		if e.ID == id {
			return e
		}
	}
	return mdstore.Entry{}
}

func TestPrimeNoTask(t *testing.T) {
	mk := func(id string, seen int, last string, source string, status mdstore.Status) mdstore.Entry {
		e := pit(id, "Lesson "+id, "Fix", "")
		e.Seen, e.LastSeen, e.Source, e.Status = seen, last, source, status
		return e
	}
	entries := []mdstore.Entry{
		mk("once", 1, "2026-01-30", "impl-review", mdstore.Active),
		mk("twice-old", 2, "2025-01-01", "impl-review", mdstore.Active),
		mk("five", 5, "2026-01-20", "impl-review", mdstore.Active),
		mk("manual", 1, "2026-01-25", "manual", mdstore.Active),
		mk("archived", 9, "2026-01-30", "impl-review", mdstore.Archived),
		mk("twice-new", 2, "2026-01-29", "impl-review", mdstore.Active),
	}
	for _, task := range []string{"", "   ", "the"} {
		out := Prime(entries, task, Options{Now: testNow})
		want := []string{"five", "twice-new", "manual", "twice-old"}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if i := strings.Index(l, "Lesson "); i >= 0 {
				got = append(got, strings.Fields(l[i+len("Lesson "):])[0])
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("Prime(%q) order = %q, want %q\n%s", task, got, want, out)
		}
	}
}

func TestPrimeBudget(t *testing.T) {
	entries := genEntries(t, 2000)
	for i := range entries {
		entries[i].Seen = 2 // all confirmed, so the cap is what bounds
	}
	task := "webhook retry timeout tests CI docker react hooks sql migration"
	tests := []struct {
		name     string
		opt      Options
		max      int
		minBytes int
	}{
		{"default cap", Options{Limit: 100}, PrimeMaxChars, PrimeMaxChars / 2},
		{"hard cap", Options{Limit: 1000, MaxChars: 1 << 20}, PrimeHardCap, PrimeHardCap / 2},
		{"small budget", Options{Limit: 100, MaxChars: 700}, 700, 1},
		{"tiny budget", Options{MaxChars: 10}, 10, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := Prime(entries, task, tc.opt)
			if len(out) > tc.max || len(out) < tc.minBytes {
				t.Errorf("Prime wrote %d bytes, want %d..%d", len(out), tc.minBytes, tc.max)
			}
			if out != "" && !strings.HasPrefix(out, "## Relevant Memory\n"+primeIntro) {
				t.Errorf("malformed block:\n%s", out)
			}
		})
	}
	if out := Prime(entries, "", Options{}); len(out) > PrimeMaxChars || out == "" {
		t.Errorf("no-task prime: %d bytes", len(out))
	}
}
