package insight

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/reviewlog"
)

func TestStats(t *testing.T) {
	now := at("2026-11-27T12:00:00Z")
	archived := entry(mdstore.Pitfall, "p-x", "archived, seen often", "2026-11-01", "2026-11-20", 9)
	archived.Status = mdstore.Archived
	pending := entry(mdstore.Pitfall, "p-y", "waiting for approval", "2026-11-26", "2026-11-26", 1)
	pending.Status = mdstore.Pending
	long := entry(mdstore.Pitfall, "p-l", strings.Repeat("a very long lesson text ", 20), "2026-11-25", "2026-11-26", 3)
	long.Tasks = []string{"fn-1.1", "fn-2.1", strings.Repeat("fn-9.9,", 30)}
	entries := []mdstore.Entry{
		entry(mdstore.Pitfall, "p-a", "seen twice", "2026-11-01", "2026-11-20", 2),
		entry(mdstore.Convention, "c-b", "old", "2026-01-01", "2026-01-02", 1),
		archived, pending, long,
	}
	entries[0].Category = "security"
	reviews := []reviewlog.Review{
		// fn-1: impl first pass fails, plan first pass ships; fn-2 ships
		// first time; a review without a task counts but has no first pass.
		{Time: at("2026-11-16T10:00:00Z"), Task: "fn-1", Kind: "impl-review", Verdict: "NEEDS_WORK"},
		{Time: at("2026-11-17T10:00:00Z"), Task: "fn-1", Kind: "impl-review", Verdict: "SHIP"},
		{Time: at("2026-11-15T10:00:00Z"), Task: "fn-1", Kind: "plan-review", Verdict: "SHIP"},
		{Time: at("2026-11-24T10:00:00Z"), Task: "fn-2", Kind: "impl-review", Verdict: "SHIP"},
		{Time: at("2026-11-24T11:00:00Z"), Kind: "impl-review", Verdict: "NEEDS_WORK"},
	}
	st := Compute(entries, reviews, 2, now, 120)
	if st.Total != 5 || st.Status["active"] != 2 || st.Status["stale"] != 1 || st.Status["archived"] != 1 || st.Status["pending"] != 1 {
		t.Errorf("status: %v of %d", st.Status, st.Total)
	}
	if st.Files[0].Count != 4 || st.Files[1].Count != 1 || st.Categories["security"] != 1 || st.Categories["none"] != 4 {
		t.Errorf("files %v categories %v", st.Files, st.Categories)
	}
	if len(st.Recurrent) != 2 || st.Recurrent[0].ID != "p-l" || st.Recurrent[1].ID != "p-a" {
		t.Errorf("recurrent: %+v", st.Recurrent)
	}
	if st.Captured.Last7 != 2 || st.Captured.Last30 != 4 {
		t.Errorf("captured: %+v", st.Captured)
	}
	if st.Reviews.Total != 5 || st.Reviews.ByVerdict["SHIP"] != 3 || st.Reviews.ByKind["plan-review"] != 1 || st.Reviews.Skipped != 2 {
		t.Errorf("reviews: %+v", st.Reviews)
	}
	// W46 (Nov 9-15 is W46; Nov 16-22 W47; Nov 23-29 W48): plan fn-1 ships
	// in W46, impl fn-1 fails in W47, impl fn-2 ships in W48.
	got := ""
	for _, w := range st.FirstPassShip {
		got += w.Week + " " + strings.Repeat("S", w.Ship) + strings.Repeat("r", w.Reviewed-w.Ship) + "; "
	}
	if got != "2026-W46 S; 2026-W47 r; 2026-W48 S; " {
		t.Errorf("first pass: %s", got)
	}
	var b bytes.Buffer
	if err := WriteStats(&b, st); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if n := len([]rune(l)); n > Width {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.Contains(b.String(), "2 unreadable log lines skipped") {
		t.Errorf("skipped lines not reported:\n%s", b.String())
	}
}
