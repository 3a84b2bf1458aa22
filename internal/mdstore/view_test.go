package mdstore

import (
	"bytes"
	"fmt"
	"testing"
)

// viewAgrees fails t when ViewSegment reads a segment of raw differently
// from ParseSegment; it returns how many segments it read as views.
func viewAgrees(t *testing.T, raw []byte) (views, segs int) {
	t.Helper()
	var v View
	Segments(raw, func(seg []byte, line int) bool {
		segs++
		if !ViewSegment(seg, &v) {
			return true
		}
		views++
		e, ok := ParseSegment(Pitfall, seg, line)
		tasks := make([]string, len(v.Tasks))
		for i, t := range v.Tasks {
			tasks[i] = string(t)
		}
		got := fmt.Sprintf("%s|%s|%s|%s|%s|%q|%d|%s", v.ID, v.Text, v.Fix, v.Context, v.LastSeen, tasks, v.Seen, v.Status)
		want := fmt.Sprintf("%s|%s|%s|%s|%s|%q|%d|%s", e.ID, e.Text(), e.Fix, e.Context, e.LastSeen, e.Tasks, e.Seen, e.Status)
		if !ok || got != want {
			t.Fatalf("view of %q:\n got %s\nwant %s (parsed: %v)", seg, got, want, ok)
		}
		return true
	})
	return views, segs
}

// The entries flowmem writes are read as views; the rest are left to the
// parser.
func TestViewSegment(t *testing.T) {
	var raw bytes.Buffer
	raw.WriteString(Header(Pitfall))
	for i, e := range []Entry{
		{Issue: "a lesson", Fix: "do this", Context: "a.go:1", Tasks: []string{"fn-1.1", "fn-2"}, Seen: 3, Task: "fn-1.1"},
		{Body: "- a convention written as a list item", Task: "fn-4", Tasks: []string{"fn-4"}},
		{Body: "1. an ordered list", Task: "fn-5", Tasks: []string{"fn-5"}},
		{Issue: "archived", Status: Archived, Task: "fn-3", Tasks: []string{"fn-3"}},
	} {
		e.Kind, e.Date, e.LastSeen = Pitfall, "2026-01-0"+fmt.Sprint(i+1), "2026-02-01"
		e.Normalize()
		raw.WriteString("\n" + Render(&e))
	}
	raw.WriteString("\n## 2026-01-05 fn-9 [api]\nflow-next text\n")
	raw.WriteString("\n## 2026-01-06 fn-9 [api] <!-- p-x -->\n<!-- flowmem: id=p-x seen=2 last=2026-01-07 tasks=a -->\n**Issue**: one\n**Issue**: two\n")
	views, segs := viewAgrees(t, raw.Bytes())
	if segs != 6 || views != 3 {
		t.Fatalf("%d of %d segments read as views, want 3 of 6", views, segs)
	}
}

// FuzzViewSegment: whatever a memory file holds, an entry read as a view
// says what the parser says.
func FuzzViewSegment(f *testing.F) {
	f.Add([]byte("## 2026-01-06 fn-9 [api] <!-- p-x -->\n<!-- flowmem: id=p-x seen=2 last=2026-01-07 tasks=a,a,b status=archived status=x -->\n**Issue**: one\n**Fix**: two <!-- p-x -->\n**Context**: c <!-- p-y -->\n"))
	f.Add([]byte("## 2026-01-06 x <!-- p-x -->\n<!-- flowmem:  id=p-x  last=2026-01-07 tasks=,a seen=0 -->\n\\- body <!-- p-x -->\n"))
	f.Add([]byte("## 2026-01-06 x <!-- p-x -->\n<!-- flowmem: id=p-x last=2026-01-07 tasks=a -->\n**Issue**:\n**Issue**: b\n**Fix**: \xff\n"))
	f.Fuzz(func(t *testing.T, raw []byte) { viewAgrees(t, raw) })
}

// escapedOpen is bytes.Contains(f, `<\`) on fields with and without '<'
// and backslashes in every order, and at their ends.
func TestEscapedOpen(t *testing.T) {
	for _, f := range []string{"", "<", `\`, `<\`, `\<`, "a<b", `a<b<\c`, `a<<\`, `a\<\`, `x<`, `<\ text`, "no markup at all", `a << b`, `a <\!-- b`} {
		if got, want := escapedOpen([]byte(f)), bytes.Contains([]byte(f), []byte(`<\`)); got != want {
			t.Errorf("escapedOpen(%q) = %v, want %v", f, got, want)
		}
	}
}
