package insight

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

func entry(k mdstore.Kind, id, text, date, last string, seen int) mdstore.Entry {
	return mdstore.Entry{Kind: k, ID: id, Issue: text, Date: date, LastSeen: last, Seen: seen, Status: mdstore.Active}
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestAudit(t *testing.T) {
	now := at("2026-11-27T12:00:00Z")
	archived := entry(mdstore.Pitfall, "p-e", "archived lesson", "2026-01-01", "2026-01-01", 1)
	archived.Status = mdstore.Archived
	entries := []mdstore.Entry{
		entry(mdstore.Pitfall, "p-a", "recurs after hand-over", "2026-11-01", "2026-11-20", 2),
		entry(mdstore.Pitfall, "p-b", "holds after hand-over", "2026-11-01", "2026-11-01", 1),
		entry(mdstore.Pitfall, "p-c", "never handed, old", "2026-09-01", "2026-09-01", 1),
		entry(mdstore.Pitfall, "p-d", "never handed, new", "2026-11-26", "2026-11-26", 1),
		archived,
		entry(mdstore.Convention, "c-f", "convention seen later per metadata", "2026-10-01", "2026-11-25", 2),
		entry(mdstore.Pitfall, "p-g", "recurred only before the hand-over", "2026-11-01", "2026-11-10", 2),
	}
	reviews := []reviewlog.Review{
		{Time: at("2026-11-01T10:00:00Z"), Task: "fn-1.1", Kind: "impl-review", Verdict: "NEEDS_WORK", IDs: []string{"p-a", "p-b", "p-g"}},
		{Time: at("2026-11-10T10:00:00Z"), Task: "fn-1.2", Kind: "impl-review", Verdict: "NEEDS_WORK", IDs: []string{"p-g"}},
		{Time: at("2026-11-20T10:00:00Z"), Task: "fn-2.1", Kind: "impl-review", Verdict: "NEEDS_WORK", IDs: []string{"p-a"}},
		{Time: at("2026-11-21T10:00:00Z"), Task: "fn-2.2", Kind: "impl-review", Verdict: "SHIP"},
	}
	injections := []Injection{
		{Time: at("2026-11-15T09:00:00Z"), By: "prime", Task: "fn-2.1", IDs: []string{"p-a", "p-g"}},
		{Time: at("2026-11-21T09:00:00Z"), By: "read", Task: "fn-2.2", IDs: []string{"p-b"}},
		{Time: at("2026-11-16T09:00:00Z"), By: "read", IDs: []string{"c-f", "p-e"}},
	}
	a := Run(entries, reviews, injections, now, 120, 30)
	ids := func(fs []Finding) string {
		var s []string
		for _, f := range fs {
			s = append(s, f.ID)
		}
		return strings.Join(s, " ")
	}
	if got := ids(a.NotWorking); got != "c-f p-a" {
		t.Errorf("not working: %q", got)
	}
	if got := ids(a.Holding); got != "p-g p-b" {
		t.Errorf("holding: %q", got)
	}
	if got := ids(a.Unused); got != "p-c" {
		t.Errorf("unused: %q", got)
	}
	nw := a.NotWorking[1]
	if len(nw.Recurred) != 1 || nw.Recurred[0].Task != "fn-2.1" || nw.Advice != "reword it or promote it to a convention" {
		t.Errorf("p-a evidence: %+v", nw)
	}
	if cf := a.NotWorking[0]; !cf.Recurred[0].FromMetadata || !strings.Contains(cf.Advice, "convention already") {
		t.Errorf("c-f evidence: %+v", cf)
	}
	if hb := a.Holding[1]; hb.ReviewsSince != 1 || len(hb.Since) != 1 || hb.Since[0].Verdict != "SHIP" {
		t.Errorf("p-b evidence: %+v", hb)
	}
	var out bytes.Buffer
	if err := WriteAudit(&out, a); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"Not working (2)",
		"  p-a  recurs after hand-over",
		"      handed over 2026-11-15 (prime, fn-2.1)",
		"      recurred in fn-2.1 on 2026-11-20 (NEEDS_WORK)",
		"      recurred last seen 2026-11-25 (entry metadata)",
		"Holding (2)",
		"      1 review(s) since, none repeated it: in fn-2.2 on 2026-11-21 (SHIP)",
		"Not recalled in 30 days (1)",
		"      captured 2026-09-01, never handed over",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > Width {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

// TestAuditHugeWindow: a window longer than a time.Duration holds (292
// years) lists no lesson made today as unused.
func TestAuditHugeWindow(t *testing.T) {
	now := at("2026-06-01T09:00:00Z")
	entries := []mdstore.Entry{entry(mdstore.Pitfall, "p-000000000001", "a fresh lesson", "2026-06-01", "2026-06-01", 1)}
	for _, days := range []int{999999, 1 << 40} {
		if a := Run(entries, nil, nil, now, 120, days); len(a.Unused) != 0 {
			t.Errorf("--days %d: unused %+v", days, a.Unused)
		}
	}
}
