package insight

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

// hostile is entry text that would run, load or restyle something if the
// page did not escape it.
const hostile = `Never trust <script>alert("x")</script> or <img src=x onerror=alert(1)> & "quotes" in <b>names</b>`

// realLessons are learnable findings of the real dev reviews (their
// labelled summaries) with their categories: what a memory actually holds.
func realLessons(t testing.TB, n int) [][2]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "review", "real", "dev", "*.labels.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no labelled dev reviews: %v", err)
	}
	sort.Strings(files)
	var out [][2]string
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var l struct {
			Findings []struct {
				Summary   string `json:"summary"`
				Learnable bool   `json:"learnable"`
				Category  string `json:"category"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, x := range l.Findings {
			if x.Learnable && x.Summary != "" && len(out) < n {
				out = append(out, [2]string{x.Summary, x.Category})
			}
		}
	}
	return out
}

// demoMemory builds a memory folder the way flowmem fills it: lessons
// recorded by the store over several weeks of reviews (some repeating),
// the reviews log, and the record of what recall handed over.
func demoMemory(t testing.TB, now time.Time) (string, []mdstore.Entry, []reviewlog.Review, []Injection) {
	t.Helper()
	dir := t.TempDir()
	s := mdstore.Open(dir)
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	lessons := realLessons(t, 24)
	for i, l := range lessons {
		day := now.AddDate(0, 0, -7*(len(lessons)-i)/3-1)
		task := fmt.Sprintf("fn-%d.%d", i/4+1, i%4+1)
		e := mdstore.Entry{Issue: l[0], Category: l[1], Task: task, Tasks: []string{task}, Source: "impl-review"}
		out, err := s.Record(ctx, mdstore.Pitfall, []mdstore.Entry{e}, day)
		if err != nil {
			t.Fatal(err)
		}
		r := reviewlog.Review{Time: day.Add(time.Hour), Task: task, Kind: "impl-review", Verdict: "NEEDS_WORK", Findings: 3, Kept: 1, New: 1, IDs: []string{out[0].ID}}
		if err := appendReview(dir, r); err != nil {
			t.Fatal(err)
		}
		// Every third lesson is handed to the model for the next task; half
		// of those come back in its review anyway.
		if i%3 == 0 {
			next := fmt.Sprintf("fn-%d.%d", i/4+1, i%4+2)
			when := day.Add(24 * time.Hour)
			if err := NoteInjected(dir, "prime", next+": next task", []string{out[0].ID}, when); err != nil {
				t.Fatal(err)
			}
			verdict, ids := "SHIP", []string(nil)
			if i%2 == 0 {
				verdict, ids = "NEEDS_WORK", []string{out[0].ID}
				if _, err := s.Record(ctx, mdstore.Pitfall, []mdstore.Entry{{Issue: l[0], Category: l[1], Task: next, Tasks: []string{next}}}, when.Add(2*time.Hour)); err != nil {
					t.Fatal(err)
				}
			}
			r := reviewlog.Review{Time: when.Add(2 * time.Hour), Task: next, Kind: "impl-review", Verdict: verdict, IDs: ids, Recurred: len(ids)}
			if err := appendReview(dir, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Record(ctx, mdstore.Convention, []mdstore.Entry{{Body: "Errors are wrapped as 'verb noun: %w'", Task: "manual"}, {Body: hostile, Task: "manual"}}, now.AddDate(0, 0, -3)); err != nil {
		t.Fatal(err)
	}
	entries, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	reviews, skipped, err := reviewlog.Read(dir)
	if err != nil || len(skipped) > 0 {
		t.Fatalf("reviews log: %v %v", err, skipped)
	}
	injections, _, err := ReadInjections(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, entries, reviews, injections
}

func demoReport(t testing.TB) (Report, []byte) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	_, entries, reviews, injections := demoMemory(t, now)
	r := Report{Title: "flowmem memory — demo", Now: now, Entries: entries, StaleAfterDays: 120,
		Stats: Compute(entries, reviews, 0, now, 120),
		Audit: Run(entries, reviews, injections, now, 120, 30)}
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return r, b.Bytes()
}

// The page is self-contained and escapes what memory holds.
func TestReportHTML(t *testing.T) {
	r, page := demoReport(t)
	s := string(page)
	if strings.Contains(s, "<script") || strings.Contains(s, "<img") {
		t.Fatal("entry text reached the page unescaped")
	}
	if !strings.Contains(s, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Error("the hostile entry is not shown escaped")
	}
	// Nothing is fetched: no URL, no external reference of any kind.
	if m := regexp.MustCompile(`(?i)(https?:|//[a-z]|src=|href=|@import|url\()`).FindString(strings.ReplaceAll(s, esc(hostile), "")); m != "" {
		t.Errorf("page refers to something outside itself: %q", m)
	}
	if !strings.Contains(s, "default-src 'none'") {
		t.Error("no Content Security Policy")
	}
	if len(r.Audit.NotWorking) == 0 || len(r.Stats.Recurrent) == 0 {
		t.Fatalf("demo memory has no audit or recurrence: %d not working, %d recurrent", len(r.Audit.NotWorking), len(r.Stats.Recurrent))
	}
	for _, f := range r.Audit.NotWorking {
		if !strings.Contains(s, esc(f.ID)) {
			t.Errorf("not-working lesson %s missing", f.ID)
		}
	}
	for i := range r.Entries {
		if !strings.Contains(s, esc(r.Entries[i].Text())) {
			t.Errorf("entry %s not shown", r.Entries[i].ID)
		}
	}
}

// browser is headless Chromium from the distribution's packages; .ci/run
// installs it and sets FLOWMEM_BROWSER=require so CI never skips.
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("FLOWMEM_BROWSER") == "require" {
		t.Fatal("FLOWMEM_BROWSER=require but no chromium on PATH (apt-get install -y chromium)")
	}
	t.Skip("no chromium on PATH (apt-get install -y chromium); set FLOWMEM_BROWSER=require to fail instead")
	return ""
}

// domText is s as a browser serializes a text node: only &, < and >
// escaped.
func domText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

func runBrowser(t *testing.T, bin, profile string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile, "--window-size=1200,1600", "--hide-scrollbars"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+profile)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	return stdout.Bytes()
}

// TestReportInBrowser opens the page in a real browser: the DOM it builds
// holds the sections and the lessons as text (the hostile entry as text,
// no element of it), and a screenshot is produced. FLOWMEM_UPDATE_SCREENSHOT=1
// keeps it as docs/report.png for the README.
func TestReportInBrowser(t *testing.T) {
	bin := browser(t)
	r, page := demoReport(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(runBrowser(t, bin, filepath.Join(dir, "profile1"), "--dump-dom", "file://"+file))
	for _, want := range []string{
		"Captures over time", "Entries by category", "Entries by status", "Most recurrent lessons",
		"Not working: handed to the model, then repeated", "Every entry",
		domText(r.Audit.NotWorking[0].Text), domText(r.Stats.Recurrent[0].Text),
		domText(hostile),
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the browser's DOM lacks %q", want)
		}
	}
	if strings.Contains(dom, "<script") || strings.Contains(dom, "<img") {
		t.Error("the browser built an element from entry text")
	}
	shot := filepath.Join(dir, "report.png")
	runBrowser(t, bin, filepath.Join(dir, "profile2"), "--screenshot="+shot, "file://"+file)
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if len(png) < 10_000 || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot is not a PNG of a rendered page (%d bytes)", len(png))
	}
	if os.Getenv("FLOWMEM_UPDATE_SCREENSHOT") == "1" {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "report.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzWriteHTML: whatever an entry holds, it adds no markup to the page —
// the page has exactly as many '<', '>' and '"' as the same page built from
// plain entries.
func FuzzWriteHTML(f *testing.F) {
	f.Add(hostile, "fix </td></tr></table>", "p-0123456789ab", "fn-1.1", "edge-case", "body\n<b>x</b>")
	f.Add("", "", "", "", "", "")
	f.Add("\x00\xff<", "'\"&amp;", "<!--", "]]>", "<style>", "</details>")
	f.Fuzz(func(t *testing.T, issue, fix, id, task, category, body string) {
		now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
		page := func(issue, fix, id, task, category, body string) string {
			es := []mdstore.Entry{
				{Kind: mdstore.Pitfall, ID: id, Issue: issue, Fix: fix, Context: body, Task: task, Tasks: []string{task}, Category: category, Date: "2026-11-20", LastSeen: "2026-11-21", Seen: 3, Status: mdstore.Active},
				{Kind: mdstore.Decision, ID: id + "d", Body: body, Task: task, Category: category, Date: "2026-11-20", Seen: 1, Status: mdstore.Active},
			}
			rs := []reviewlog.Review{{Time: now.Add(-time.Hour), Task: task, Kind: category, Verdict: issue, IDs: []string{id}}}
			ins := []Injection{{Time: now.Add(-2 * time.Hour), By: fix, Task: task, IDs: []string{id}}}
			r := Report{Title: body, Now: now, Entries: es, StaleAfterDays: 120,
				Stats: Compute(es, rs, 0, now, 120), Audit: Run(es, rs, ins, now, 120, 30)}
			var b bytes.Buffer
			if err := WriteHTML(&b, r); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		got := page(issue, fix, id, task, category, body)
		// Same shape, plain words: empty (or blank) fields stay as they
		// are, since they leave parts of the page out.
		x := func(s string) string {
			if strings.TrimSpace(s) == "" {
				return s
			}
			return "x" + strings.Repeat("\nx", strings.Count(strings.TrimSpace(s), "\n")) // a body's line breaks become <br>
		}
		plain := page(x(issue), x(fix), x(id), x(task), x(category), x(body))
		for _, c := range []string{"<", ">", `"`} {
			if strings.Count(got, c) != strings.Count(plain, c) {
				t.Fatalf("entry text added %q to the page: %d vs %d", c, strings.Count(got, c), strings.Count(plain, c))
			}
		}
	})
}

// appendReview appends r to the reviews log as the hook does.
func appendReview(dir string, r reviewlog.Review) error {
	_, err := reviewlog.AppendLine(reviewlog.Path(dir), reviewlog.Line(r))
	return err
}
