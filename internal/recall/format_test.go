package recall

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func TestRender(t *testing.T) {
	t.Parallel()
	seen3 := pit("p", "Retries hammer the endpoint", "Back off with jitter", "pkg/webhook")
	seen3.Seen, seen3.Tasks, seen3.LastSeen, seen3.Category = 3, []string{"fn-1.1", "fn-2.4", "fn-3.1"}, "2026-01-20", "api"
	noTask := pit("p", "Issue", "Fix", "")
	noTask.Task, noTask.Tasks = "", nil
	legacy := mdstore.Entry{Kind: mdstore.Pitfall, Body: "Line one\nline two\n\n  line three", Task: "fn-9.9", Seen: 1, Date: "2025-05-05"}
	long := pit("p", strings.Repeat("word ", 200), strings.Repeat("fix ", 200), "")
	tests := []struct {
		name string
		e    mdstore.Entry
		want string
	}{
		{"seen 3x", seen3, "- [pitfall] Retries hammer the endpoint → Back off with jitter\n  context: pkg/webhook · fn-1.1, fn-2.4, fn-3.1 · seen 3x, last 2026-01-20\n"},
		{"seen once", pit("p", "Issue", "Fix", ""), "- [pitfall] Issue → Fix\n  fn-1.1 · 2026-01-01\n"},
		{"convention", note(mdstore.Convention, "c", "Barrel exports in index.ts"), "- [convention] Barrel exports in index.ts\n  manual · 2026-01-01\n"},
		{"no task at all", noTask, "- [pitfall] Issue → Fix\n  manual · 2026-01-01\n"},
		{"legacy multi-line body", legacy, "- [pitfall] Line one line two line three\n  fn-9.9 · 2025-05-05\n"},
		{"long fields clipped", long, "- [pitfall] " + strings.TrimSpace(strings.Repeat("word ", 99)) + "… → " +
			strings.TrimSpace(strings.Repeat("fix ", 74)) + "…\n  fn-1.1 · 2026-01-01\n"},
	}
	for _, tc := range tests {
		if got := Render(&tc.e, true); got != tc.want {
			t.Errorf("%s: Render =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
	if got := Render(&long, false); !strings.Contains(got, strings.TrimSpace(strings.Repeat("word ", 200))) {
		t.Errorf("unclipped Render cut the text: %q", got)
	}
}

func TestFormat(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Format(&b, nil, Options{}); !errors.Is(err, ErrNothing) || b.Len() != 0 {
		t.Errorf("no hits: %q, %v", b.String(), err)
	}
	hits := []Hit{{Entry: pit("a", "First", "Fix", "")}, {Entry: note(mdstore.Convention, "b", "Second")}}
	if err := Format(&b, hits, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "## Relevant Memory\n- [pitfall] First → Fix\n  fn-1.1 · 2026-01-01\n- [convention] Second\n  manual · 2026-01-01\n"
	if b.String() != want {
		t.Errorf("Format =\n%s\nwant\n%s", b.String(), want)
	}
}

// Whatever the budget and limit, Format stays within them, keeps rank
// order and writes only whole entries.
func TestFormatBounds(t *testing.T) {
	t.Parallel()
	hits := Rank(t, loadCorpus(t), "webhook retry timeout tests CI", Options{Limit: 50, Now: corpusNow})
	if len(hits) < 20 {
		t.Fatalf("only %d hits to format", len(hits))
	}
	for _, limit := range []int{0, 1, 3, 50} {
		for budget := 0; budget <= 6000; budget += 37 {
			opt := Options{Limit: limit, MaxChars: budget}
			var b bytes.Buffer
			if err := Format(&b, hits, opt); err != nil {
				if n, need, ok := budgetError(err); !ok || b.Len() != 0 || need <= budget || n != len(hits) {
					t.Fatalf("limit %d budget %d: %v", limit, budget, err)
				}
				continue
			}
			checkBlock(t, fmt.Sprintf("limit %d budget %d", limit, budget), b.String(), header, hits, limitOf(opt), budget)
		}
	}
}

// checkBlock verifies a rendered block: within max bytes, at most limit
// entries, each one a whole rendered hit, in rank order.
// budgetError reads the figures of Format's error when no entry fits.
func budgetError(err error) (hits, need int, ok bool) {
	var nf *NoFitError
	if !errors.As(err, &nf) {
		return 0, 0, false
	}
	return nf.Found, nf.Need, true
}

func checkBlock(t *testing.T, name, out, head string, hits []Hit, limit, max int) {
	t.Helper()
	if max > 0 && len(out) > max {
		t.Errorf("%s: %d bytes over budget %d", name, len(out), max)
	}
	rest, ok := strings.CutPrefix(out, head)
	if !ok || rest == "" {
		t.Errorf("%s: malformed block %q", name, out)
		return
	}
	n, next := 0, 0
	for rest != "" {
		found := false
		for next < len(hits) {
			r := Render(&hits[next].Entry, true)
			next++
			if strings.HasPrefix(rest, r) {
				rest, found = rest[len(r):], true
				break
			}
		}
		if !found {
			t.Errorf("%s: not a whole entry in rank order: %q", name, rest)
			return
		}
		n++
	}
	if n > limit {
		t.Errorf("%s: %d entries over limit %d", name, n, limit)
	}
}

func prime(tb testing.TB, entries []mdstore.Entry, task string, opt Options) string {
	return must(Prime(FilesOf(tb, entries), task, opt))
}

func TestPrime(t *testing.T) {
	t.Parallel()
	fresh := pit("fresh", "Webhook retries have no backoff or jitter", "Back off exponentially", "pkg/webhook/deliver.go")
	confirmed := pit("confirmed", "Webhook delivery retry loop ignores Retry-After", "Honour Retry-After", "")
	confirmed.Seen = 3
	manual := note(mdstore.Convention, "manual", "Webhook deliveries retry from the job queue")
	grazing := pit("grazing", "Logs are verbose", "Lower the level", "webhook")
	grazing.Seen = 9
	entries := []mdstore.Entry{fresh, confirmed, manual, grazing}
	for i := range 20 {
		entries = append(entries, pit(fmt.Sprintf("filler-%d", i), "Unrelated lesson about caching", "Use a TTL", ""))
	}

	// Limit 3: the grazing lesson ranks fourth and stays out however often
	// it was seen; confirmed lessons come first.
	out := prime(t, entries, "fn-12.3: add retry with backoff to webhook delivery", Options{Limit: 3, Now: testNow})
	iConf := strings.Index(out, "Retry-After")
	iMan := strings.Index(out, "job queue")
	iFresh := strings.Index(out, "no backoff")
	if iConf < 0 || iMan < 0 || iFresh < 0 || iFresh < iConf || iFresh < iMan {
		t.Errorf("confirmed lessons must come first:\n%s", out)
	}
	if strings.Contains(out, "verbose") {
		t.Errorf("a confirmed lesson must not be pulled in from below the limit:\n%s", out)
	}
	if !strings.HasPrefix(out, header+primeIntro) {
		t.Errorf("missing header:\n%s", out)
	}
	for _, task := range []string{"kubernetes helm chart", "fn-12.3: add a dark mode toggle", "fn-12.3: fix the client page"} {
		if got := prime(t, entries, task, Options{}); got != "" {
			t.Errorf("Prime(%q): nothing relevant, want empty, got %q", task, got)
		}
	}
	if got := prime(t, nil, "", Options{}); got != "" {
		t.Errorf("empty memory: want empty, got %q", got)
	}
}

func TestPrimeNoTask(t *testing.T) {
	t.Parallel()
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
	entries[3].Task, entries[3].Tasks = "manual", nil
	for _, task := range []string{"", "   ", "the"} {
		out := prime(t, entries, task, Options{Now: testNow})
		var got []string
		for _, l := range strings.Split(out, "\n") {
			if i := strings.Index(l, "Lesson "); i >= 0 {
				got = append(got, strings.Fields(l[i+len("Lesson "):])[0])
			}
		}
		if want := "five twice-new manual twice-old"; strings.Join(got, " ") != want {
			t.Errorf("Prime(%q) order = %q, want %q\n%s", task, got, want, out)
		}
	}
}

// A lesson seen again (a sighting line) primes without a task as it does
// with one: confirmed, with the task it was seen in.
func TestPrimeNoTaskSighting(t *testing.T) {
	t.Parallel()
	files := FilesOf(t, []mdstore.Entry{pit("p-1", "Webhook retries hammer the receiver", "Back off", "")})
	f, err := os.OpenFile(files[0].Path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString("<!-- flowmem: seen id=p-1 last=2026-01-20 tasks=fn-7.2 -->\n")
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []string{"", "webhook retries"} {
		if out := must(Prime(files, task, Options{Now: testNow})); !strings.Contains(out, "fn-1.1, fn-7.2 · seen 2x, last 2026-01-20") {
			t.Errorf("Prime(%q) = %q", task, out)
		}
	}
}

func TestPrimeBudget(t *testing.T) {
	t.Parallel()
	entries := genEntries(t, 2000)
	for i := range entries {
		entries[i].Seen = 2 // all confirmed, so the cap is what bounds
	}
	files := FilesOf(t, entries)
	task := "webhook retry timeout tests CI docker react hooks sql migration"
	for _, tc := range []struct {
		name     string
		opt      Options
		max      int
		minBytes int
	}{
		{"default cap", Options{Limit: 100, Floor: 0.01}, PrimeMaxChars, PrimeMaxChars / 2},
		{"hard cap", Options{Limit: 1000, MaxChars: 1 << 20, Floor: 0.01}, PrimeHardCap, PrimeHardCap / 2},
		{"small budget", Options{Limit: 100, MaxChars: 700, Floor: 0.01}, 700, 1},
		{"tiny budget", Options{MaxChars: 10}, 10, 0},
	} {
		out, err := Prime(files, task, tc.opt)
		if nf := (*NoFitError)(nil); tc.minBytes == 0 {
			// Lessons qualify but none fits: said as read -r says it.
			if !errors.As(err, &nf) || nf.Found == 0 || nf.Budget != tc.max || nf.Need <= tc.max || out != "" {
				t.Errorf("%s: Prime wrote %q, %v; want a NoFitError", tc.name, out, err)
			}
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if len(out) > tc.max || len(out) < tc.minBytes {
			t.Errorf("%s: Prime wrote %d bytes, want %d..%d", tc.name, len(out), tc.minBytes, tc.max)
		}
		if out != "" && !strings.HasPrefix(out, header+primeIntro) {
			t.Errorf("%s: malformed block:\n%s", tc.name, out)
		}
	}
	if out := must(Prime(files, "", Options{})); len(out) > PrimeMaxChars || out == "" {
		t.Errorf("no-task prime: %d bytes", len(out))
	}
}

// render leaves what dst held and adds exactly Render's lines.
func TestRenderAppends(t *testing.T) {
	e := mdstore.Entry{Kind: mdstore.Pitfall, Issue: "retries\tresend\nthe body", Fix: "send the key", Context: "api/retry.go:12",
		Tasks: []string{"fn-1.1", " fn-2.4 "}, Seen: 3, LastSeen: "2026-02-01", ID: "p-1"}
	for _, clip := range []bool{false, true} {
		got := string(render([]byte("prefix\n"), &e, clip, ageing{}))
		if want := "prefix\n" + Render(&e, clip); got != want {
			t.Errorf("clip %v: %q, want %q", clip, got, want)
		}
	}
	want := "- [pitfall] retries resend the body → send the key\n  context: api/retry.go:12 · fn-1.1, fn-2.4 · seen 3x, last 2026-02-01 · p-1\n"
	if got := Render(&e, false); got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
	// Not seen for over 30 days: marked before the id, which stays last;
	// one day less and it is not marked.
	day := must(time.Parse(time.DateOnly, "2026-02-01"))
	want = strings.Replace(want, "2026-02-01 · p-1", "2026-02-01 · stale · p-1", 1)
	if got := string(render(nil, &e, false, ageing{day.AddDate(0, 0, 31), 30})); got != want {
		t.Errorf("stale render = %q, want %q", got, want)
	}
	if got := string(render(nil, &e, true, ageing{day.AddDate(0, 0, 30), 30})); strings.Contains(got, "stale") {
		t.Errorf("fresh render = %q, marked stale", got)
	}
}

// TestPrimeMarksStale: prime and a ranked block mark the stale lesson, and
// only it, and prime puts it last.
func TestPrimeMarksStale(t *testing.T) {
	t.Parallel()
	old := pit("p-old", "webhook sender retries without a request timeout", "set a client timeout", "")
	old.Seen, old.LastSeen = 5, "2025-01-10"
	fresh := pit("p-new", "webhook sender retries hammer the receiver", "back off with jitter", "")
	fresh.LastSeen = "2026-01-20"
	files := FilesOf(t, []mdstore.Entry{old, fresh})
	opt := Options{Now: must(time.Parse(time.DateOnly, "2026-02-01")), StaleAfterDays: 120}
	out := must(Prime(files, "fn-3.1: webhook sender retries", opt))
	if i, j := strings.Index(out, " · 2026-01-20\n"), strings.Index(out, "last 2025-01-10 · stale\n"); i < 0 || j < i || strings.Count(out, "stale") != 1 {
		t.Errorf("prime:\n%s", out)
	}
	var b strings.Builder
	if err := Format(&b, must(Search(files, []string{"webhook sender retries"}, opt)), opt); err != nil || strings.Count(b.String(), "2025-01-10 · stale\n") != 1 || strings.Count(b.String(), "stale") != 1 {
		t.Errorf("read --relevant (%v):\n%s", err, b.String())
	}
}
