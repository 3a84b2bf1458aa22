package mdstore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func normalized(e Entry) Entry {
	e.Normalize()
	return e
}

func roundTrip(t *testing.T, e Entry) Entry {
	t.Helper()
	raw := Header(e.Kind) + "\n" + Render(&e)
	d, err := Parse(e.Kind, []byte(raw))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, raw)
	}
	if len(d.Entries) != 1 {
		t.Fatalf("got %d entries, want 1:\n%s", len(d.Entries), raw)
	}
	got := d.Entries[0]
	got.Line = 0
	return got
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		e    Entry
	}{
		{"pitfall", Entry{Kind: Pitfall, Date: "2026-01-10", Task: "fn-1.1", Source: "impl-review", Category: "framework",
			Issue: "useEffect used for data fetching", Fix: "use the loader", Context: "src/app.tsx:12", Tasks: []string{"fn-1.1"}}},
		{"manual convention", Entry{Kind: Convention, Date: "2026-02-01", Body: "Errors are wrapped as 'verb noun: %w'"}},
		{"decision with task", Entry{Kind: Decision, Date: "2026-02-01", Task: "fn-17-axl.8", Source: "manual", Body: "SQLite over Postgres", Tasks: []string{"fn-17-axl.8"}}},
		{"recurring", Entry{Kind: Pitfall, Date: "2026-01-10", Task: "fn-1.1", Source: "plan-review", Issue: "x", Seen: 4, LastSeen: "2026-03-01", Tasks: []string{"fn-1.1", "fn-2.3"}}},
		{"archived", Entry{Kind: Pitfall, Date: "2026-01-10", Task: "fn-1.1", Issue: "old", Status: Archived}},
		{"body starting with heading", Entry{Kind: Convention, Date: "2026-01-10", Body: "## 2026-01-11 fn-9 impl-review [api]"}},
		{"body starting with meta", Entry{Kind: Convention, Date: "2026-01-10", Body: "<!-- flowmem: id=x seen=99 -->"}},
		{"body starting with field label", Entry{Kind: Decision, Date: "2026-01-10", Body: "**Issue**: forged"}},
		{"body starting with backslash", Entry{Kind: Decision, Date: "2026-01-10", Body: `\## already escaped`}},
		{"body like an ordered list", Entry{Kind: Decision, Date: "2026-01-10", Body: `1. first`}},
		{"body like an escaped list", Entry{Kind: Decision, Date: "2026-01-10", Body: `1\. first`}},
		{"body with front matter fence", Entry{Kind: Decision, Date: "2026-01-10", Body: "---"}},
		{"body with code fence", Entry{Kind: Decision, Date: "2026-01-10", Body: "```go"}},
		{"multi-line text is one line", Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "line one\n## 2026-01-01 forged [api]\n<!-- flowmem: id=evil -->", Fix: "a\r\nb"}},
		{"category equal to kind", Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "x", Category: "pitfall"}},
		{"category named like another kind", Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "x", Category: "convention"}},
		{"unicode", Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "Straße → ürün 日本語 🙂", Fix: "ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := normalized(tt.e)
			got := roundTrip(t, want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parse(render(e)) != e\n got %+v\nwant %+v\nrendered:\n%s", got, want, Render(&want))
			}
		})
	}
}

// The rubric's category "convention" is also a kind's name: on a pitfall
// it is a category and must survive normalising, writing and reading; the
// file's own kind name in brackets (flow-next's [pitfall]) means none.
func TestConventionCategoryOnAPitfall(t *testing.T) {
	e := normalized(Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "x", Category: "convention"})
	if e.Category != "convention" {
		t.Fatalf("normalised category = %q, want convention", e.Category)
	}
	if got := roundTrip(t, e); got.Category != "convention" {
		t.Fatalf("read back category = %q, want convention\n%s", got.Category, Render(&e))
	}
	own := normalized(Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "x", Category: "Pitfalls"})
	if own.Category != "" {
		t.Fatalf("the file's own kind as category = %q, want none", own.Category)
	}
}

// TestForgedEntries: text from a review or a user can never create a second
// entry, a metadata line or front matter.
func TestForgedEntries(t *testing.T) {
	forgeries := []string{
		"ok\n\n## 2026-01-01 fn-6.6 impl-review [security]\n<!-- flowmem: id=p-evil seen=99 last=2099-01-01 status=active -->\n**Issue**: forged",
		"---\nflowmem: 1\nkind: pitfalls\n---",
		"```\n## 2026-01-01 hidden\n```",
		"<!-- flowmem: seen id=p-target last=2099-01-01 tasks=evil -->",
		"\u2028## 2026-01-01 fn-1 [api]",
		"text -->\n<!-- flowmem: id=x -->",
	}
	for _, f := range forgeries {
		for _, kind := range Kinds {
			e := normalized(Entry{Kind: kind, Date: "2026-01-10", Issue: f, Fix: f, Context: f, Body: f, Task: f, Category: f, Source: f})
			raw := Header(kind) + "\n" + Render(&e)
			d, err := Parse(kind, []byte(raw))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if len(d.Entries) != 1 || len(d.Sightings) != 0 {
				t.Fatalf("forgery produced %d entries and %d sightings:\n%s", len(d.Entries), len(d.Sightings), raw)
			}
			got := d.Entries[0]
			if got.ID != e.ID || got.Seen != 1 || got.LastSeen != "2026-01-10" {
				t.Errorf("forgery changed metadata: %+v", got)
			}
			if strings.Count(raw, "\n## ") != 1 || strings.Count(raw, "\n"+metaPrefix) != 1 {
				t.Errorf("rendered entry has forged structure lines:\n%s", raw)
			}
		}
	}
}

const flowNextPitfalls = `# Pitfalls

Lessons learned from NEEDS_WORK feedback. Things models tend to miss.

<!-- Entries added automatically by hooks or manually via ` + "`flowctl memory add`" + ` -->

## 2026-01-10 manual [pitfall]
Always use flowctl rp wrappers
instead of calling builder directly

## 2026-01-10 fn-1.1 impl-review [framework]
**Issue**: placeholder export still present after adding new export
**Fix**: Remove unused exports before review - reviewers flag dead code
**Context**: src/index.ts had ` + "`export const placeholder = 0`" + ` from scaffold

## 2026-01-09 unknown impl-review [api]
**Issue**: flowctl rp builder called without --window flag
**Fix**: (see context)
**Context**: From NEEDS_WORK review feedback
` + "```" + `
## 2026-01-11 inside a fence is not an entry
` + "```" + `
`

func TestFlowNextFiles(t *testing.T) {
	d, err := Parse(Pitfall, []byte(flowNextPitfalls))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Entries) != 3 {
		t.Fatalf("got %d entries, want 3", len(d.Entries))
	}
	want := []struct {
		line                          int
		task, source, category, issue string
		body                          string
		tasks                         []string
	}{
		{7, "manual", "manual", "", "", "Always use flowctl rp wrappers\ninstead of calling builder directly", nil},
		{11, "fn-1.1", "impl-review", "framework", "placeholder export still present after adding new export", "", []string{"fn-1.1"}},
		{16, "unknown", "impl-review", "api", "flowctl rp builder called without --window flag", "```\n## 2026-01-11 inside a fence is not an entry\n```", nil},
	}
	for i, w := range want {
		e := d.Entries[i]
		if e.Line != w.line || e.Task != w.task || e.Source != w.source || e.Category != w.category || e.Issue != w.issue || e.Body != w.body || !e.Legacy || !reflect.DeepEqual(e.Tasks, w.tasks) {
			t.Errorf("entry %d = %+v", i, e)
		}
		if e.ID == "" || e.Seen != 1 || e.Status != Active {
			t.Errorf("entry %d metadata not derived: %+v", i, e)
		}
	}
}

// TestFlowNextFolderUntouched: reading, listing and searching a flow-next
// folder leaves it byte-identical; the first flowmem write only appends.
func TestFlowNextFolderUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pitfalls.md")
	if err := os.WriteFile(path, []byte(flowNextPitfalls), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Open(dir)
	entries, err := s.Load()
	if err != nil || len(entries) != 3 {
		t.Fatalf("load: %d entries, %v", len(entries), err)
	}
	if err := s.SearchEach(regexpMust("flowctl"), func(Hit) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, []byte(flowNextPitfalls)) {
		t.Fatal("reading changed the file")
	}
	// A recurrence of a legacy entry is an appended sighting: the old bytes
	// stay as they were.
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	out, err := s.Record(context.Background(), Pitfall, []Entry{{Issue: "placeholder export still present after adding new export", Tasks: []string{"fn-4.2"}}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].New || out[0].Entry.Seen != 2 {
		t.Fatalf("outcome %+v, want a recurrence seen twice", out[0])
	}
	b, _ := os.ReadFile(path)
	if !bytes.HasPrefix(b, []byte(flowNextPitfalls)) {
		t.Fatal("writing rewrote the existing bytes")
	}
	entries, _ = s.Load()
	if e := entries[1]; e.Seen != 2 || e.LastSeen != "2026-03-01" || !reflect.DeepEqual(e.Tasks, []string{"fn-1.1", "fn-4.2"}) {
		t.Errorf("after sighting: %+v", e)
	}
}

func TestRecord(t *testing.T) {
	s := Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	day1 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	day2 := day1.AddDate(0, 0, 3)
	lesson := Entry{Issue: "Go test caches results", Fix: "use -count=1", Task: "fn-1.1", Tasks: []string{"fn-1.1"}, Source: "impl-review"}
	out, err := s.Record(ctx, Pitfall, []Entry{lesson, {Issue: "another lesson", Fix: "x"}}, day1)
	if err != nil || len(out) != 2 || !out[0].New || !out[1].New {
		t.Fatalf("first record: %+v %v", out, err)
	}
	// Same words, other case and punctuation: the same content id.
	again := Entry{Issue: "go test  caches results!", Fix: "use -count=1", Task: "fn-2.1", Tasks: []string{"fn-2.1"}}
	out, err = s.Record(ctx, Pitfall, []Entry{again}, day2)
	if err != nil || out[0].New || out[0].Entry.Seen != 2 {
		t.Fatalf("second record: %+v %v", out, err)
	}
	entries, err := s.Load(Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("got %d entries, want 2", len(entries))
	}
	e := entries[0]
	if e.Seen != 2 || e.Date != "2026-01-01" || e.LastSeen != "2026-01-04" || !reflect.DeepEqual(e.Tasks, []string{"fn-1.1", "fn-2.1"}) {
		t.Errorf("bumped entry = %+v", e)
	}
	if _, err := s.Record(ctx, Pitfall, []Entry{{Issue: "  "}}, day2); err == nil {
		t.Error("empty lesson accepted")
	}
}

// TestRecordSymbolTwins: lessons with the same words but other symbols
// ("=== not ==" and "== not ===", C# and C++) share a content id yet are
// different lessons: each is kept, each recurs into itself, and
// re-punctuating one still finds it.
func TestRecordSymbolTwins(t *testing.T) {
	s := Open(t.TempDir())
	ctx := context.Background()
	day := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	texts := []string{"Compare with === not ==", "Compare with == not ===", "Prefer x != nil checks", "Prefer x == nil checks", "Write it in C#", "Write it in C++", "Write it in C"}
	ids := map[string]string{}
	for _, text := range texts {
		out, err := s.Record(ctx, Convention, []Entry{{Body: text}}, day)
		if err != nil {
			t.Fatal(err)
		}
		if !out[0].New {
			t.Errorf("%q folded into %q", text, out[0].Entry.Body)
		}
		ids[text] = out[0].Entry.ID
	}
	again := map[string]string{
		"Compare with == not ===": "compare with `==` not `===`.",
		"Compare with === not ==": "Compare with \"===\" — not \"==\"",
		"Write it in C++":         "write it in C++!",
		"Write it in C":           "Write it in C.",
		"Prefer x == nil checks":  "prefer `x == nil` checks",
		"Write it in C#":          "Write it in “C#”…",
	}
	for want, text := range again {
		out, err := s.Record(ctx, Convention, []Entry{{Body: text}}, day)
		if err != nil {
			t.Fatal(err)
		}
		if out[0].New || out[0].Entry.ID != ids[want] {
			t.Errorf("%q: new=%v into %q, want %q", text, out[0].New, out[0].Entry.Body, want)
		}
	}
	entries, err := s.Load(Convention)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(texts) {
		t.Fatalf("got %d entries, want %d", len(entries), len(texts))
	}
	for _, e := range entries {
		if _, ok := again[e.Body]; ok && e.Seen != 2 {
			t.Errorf("%q seen %d, want 2", e.Body, e.Seen)
		}
	}
}

func TestLockTimeout(t *testing.T) {
	s := Open(t.TempDir())
	s.LockTimeout = 50 * time.Millisecond
	unlock, err := s.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	other := Open(s.Dir)
	other.LockTimeout = 50 * time.Millisecond
	_, err = other.Record(context.Background(), Pitfall, []Entry{{Issue: "x"}}, time.Now())
	if err == nil || !strings.Contains(err.Error(), ErrLockTimeout.Error()) {
		t.Fatalf("got %v, want a lock timeout", err)
	}
	if _, err := os.Stat(s.Path(Pitfall)); err == nil {
		t.Error("a write happened without the lock")
	}
}

func TestFrontMatter(t *testing.T) {
	d, err := Parse(Decision, []byte(Header(Decision)+"\n## 2026-01-01 manual [decision]\nx\n"))
	if err != nil || len(d.Entries) != 1 || d.Entries[0].Line != 15 {
		t.Fatalf("template front matter: %+v %v", d, err)
	}
	// Only "---" YAML is front matter; a bare JSON object is body text.
	d, err = Parse(Decision, []byte("{\"a\": 1}\n\n## 2026-01-01 manual [decision]\nx\n"))
	if err != nil || len(d.Entries) != 1 {
		t.Fatalf("json-looking body: %+v %v", d, err)
	}
	_, err = Parse(Decision, []byte("---\nflowmem: [unclosed\n---\n"))
	if err == nil {
		t.Fatal("broken front matter accepted")
	}
}

// TestOpenBlockHidesNoEntry: a code fence or HTML block that a hand edit
// left open does not hide the entries flowmem appends after it, so every
// reader sees what Record wrote (and what a second add finds as a repeat).
func TestOpenBlockHidesNoEntry(t *testing.T) {
	later := Entry{Kind: Pitfall, Date: "2026-01-11", LastSeen: "2026-01-11", Issue: "the client retries without a jittered backoff", Fix: "add jitter"}
	later.Normalize()
	for name, edit := range map[string]string{
		"fence":        "\nNotes by hand:\n```go\nfunc half() {\n",
		"html comment": "\nNotes by hand\n<!-- to tidy\n",
		"pre":          "\n<pre>\nraw notes\n",
	} {
		first := Entry{Kind: Pitfall, Date: "2026-01-10", LastSeen: "2026-01-10", Issue: "the pool drops idle connections", Fix: "set the idle limit"}
		first.Normalize()
		raw := Header(Pitfall) + "\n" + Render(&first) + edit + "\n" + Render(&later)
		d, err := Parse(Pitfall, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		got := d.Folded()
		if len(got) != 2 || got[1].ID != later.ID || got[1].Issue != later.Issue {
			t.Errorf("%s: entries %+v, want %s and %s", name, got, first.ID, later.ID)
		}
		if len(d.Damaged) != 0 {
			t.Errorf("%s: damage %+v", name, d.Damaged)
		}
	}
}

func TestFoldUnionCopies(t *testing.T) {
	raw := Header(Pitfall) + `
## 2026-01-01 fn-1 impl-review [api]
<!-- flowmem: id=p-1 seen=2 last=2026-01-02 tasks=fn-1,fn-2 status=active -->
<!-- flowmem: id=p-1 seen=2 last=2026-01-03 tasks=fn-1,fn-3 status=active -->
**Issue**: shared
## 2026-01-05 fn-4 impl-review [api]
<!-- flowmem: id=p-1 seen=1 last=2026-01-05 tasks=fn-4 status=active -->

<!-- flowmem: seen id=p-1 last=2026-01-06 tasks=fn-5 -->
`
	d, err := Parse(Pitfall, []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	got := d.Folded()
	if len(got) != 1 {
		t.Fatalf("got %d entries, want 1", len(got))
	}
	e := got[0]
	if e.Issue != "shared" || e.Seen != 5 || e.LastSeen != "2026-01-06" || !reflect.DeepEqual(e.Tasks, []string{"fn-1", "fn-2", "fn-3", "fn-4", "fn-5"}) {
		t.Errorf("folded = %+v", e)
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\nb\r\nc\td", "a b c d"},
		{"  lead and trail  ", "lead and trail"},
		{"bad \xff utf8", "bad utf8"},
		{"nul\x00byte\u2028sep", "nulbyte sep"},
		{strings.Repeat("word ", 1000), strings.TrimSpace(strings.Repeat("word ", 400)) + "…"},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in[:min(len(tt.in), 40)], got, tt.want)
		}
	}
}

// TestRecordRepeats: a repeat is found by its id (re-punctuated,
// re-wrapped), by its fingerprint (the same content words in another order
// or form), and in an entry flow-next wrote without metadata; a lesson
// that differs by a negation or a number is new.
func TestRecordRepeats(t *testing.T) {
	s := Open(t.TempDir())
	if err := os.WriteFile(s.Path(Pitfall), []byte(flowNextPitfalls), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	day := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	first := "Go tests cache their results between runs"
	if out, err := s.Record(ctx, Pitfall, []Entry{{Issue: first, Fix: "pass -count=1"}}, day); err != nil || !out[0].New {
		t.Fatalf("%+v %v", out, err)
	}
	for _, tt := range []struct {
		issue string
		new   bool
	}{
		{"go tests cache their results\nbetween runs.", false},              // id
		{"Results of Go tests are cached between the runs", false},          // fingerprint
		{"placeholder export still present after adding new export", false}, // flow-next's entry
		{"Go tests never cache their results between runs", true},
		{"Go tests cache their results between 2 runs", true},
	} {
		out, err := s.Record(ctx, Pitfall, []Entry{{Issue: tt.issue, Tasks: []string{"fn-9.1"}}}, day)
		if err != nil {
			t.Fatal(err)
		}
		if out[0].New != tt.new {
			t.Errorf("%q: new = %v, want %v (as %s)", tt.issue, out[0].New, tt.new, out[0].ID)
		}
	}
	es, err := s.Load(Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range es {
		seen[e.Text()] = e.Seen
	}
	if seen[first] != 3 || seen["placeholder export still present after adding new export"] != 2 {
		t.Errorf("seen counts %v", seen)
	}
}

// TestIncompleteEntry: an entry cut off before its closing newline (an
// append that failed half-way) is not read, nor is a sighting cut off after
// a whole entry; the whole entries before it are.
func TestIncompleteEntry(t *testing.T) {
	e := normalized(Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "whole", Fix: "fine"})
	whole := Header(Pitfall) + "\n" + Render(&e)
	cut := normalized(Entry{Kind: Pitfall, Date: "2026-01-10", Issue: "cut off", Fix: "stream with io.LimitReader"})
	for _, tail := range []string{
		"\n" + strings.TrimSuffix(Render(&cut), " -->\n"),
		"\n" + Render(&cut)[:20],
		"\n" + strings.TrimSuffix(renderSighting(e.ID, "2026-01-11", "fn-2"), "\n"),
	} {
		raw := []byte(whole + tail)
		d, err := Parse(Pitfall, raw)
		if err != nil {
			t.Fatal(err)
		}
		var got []Entry
		Segments(raw, func(seg []byte, line int) bool {
			if e, ok := ParseSegment(Pitfall, seg, line); ok {
				got = append(got, e)
			}
			return true
		})
		if f := d.Folded(); len(f) != 1 || f[0].Issue != "whole" || f[0].Seen != 1 || len(got) != 1 || d.Incomplete == 0 {
			t.Errorf("tail %q: read %+v (Segments %d), incomplete line %d", tail, f, len(got), d.Incomplete)
		}
		path := filepath.Join(t.TempDir(), "pitfalls.md")
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		es, err := Open(filepath.Dir(path)).Load(Pitfall)
		if err != nil || len(es) != 1 || es[0].Issue != "whole" || es[0].Seen != 1 {
			t.Errorf("tail %q: Load read %+v, %v", tail, es, err)
		}
	}
}

// TestFIFONeverWaits: a FIFO (or any file that is not a regular one) in
// place of a memory file is an error for every reader and for Record, at
// once: nothing waits for a writer that never comes.
func TestFIFONeverWaits(t *testing.T) {
	s := Open(t.TempDir())
	if err := syscall.Mkfifo(s.Path(Pitfall), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan []error, 1)
	go func() {
		var errs []error
		_, err := s.Load(Pitfall)
		errs = append(errs, err)
		err = s.SearchEach(regexp.MustCompile("x"), func(Hit) error { return nil }, Pitfall)
		errs = append(errs, err)
		_, err = s.Record(context.Background(), Pitfall, []Entry{{Issue: "x"}}, time.Now())
		errs = append(errs, err)
		err = new(Reader).Scan(s.Path(Pitfall), nil, func([]byte, int64, int) bool { return true })
		errs = append(errs, err)
		done <- errs
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("call %d: %v, want a not-a-regular-file error", i, err)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a reader waited on the FIFO")
	}
}
