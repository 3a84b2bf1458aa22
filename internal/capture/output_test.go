package capture

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/review"
)

// outcome is a recorded lesson as Record reports it: new, or a repeat
// seen n times.
func outcome(id, issue string, seen int) mdstore.Outcome {
	e := mdstore.Entry{ID: id, Issue: issue, Seen: seen, LastSeen: "2026-11-20", Tasks: []string{"fn-3.1"}}
	return mdstore.Outcome{ID: id, New: seen == 1, Seen: seen, Entry: e}
}

// TestSecondLook: after a review that asks for changes, the context names
// every recorded lesson by the id the curation commands take, asks the
// model to archive (or, with approval on, approve or reject) the new ones
// that would not help a later task, and invites it to add what is missing.
func TestSecondLook(t *testing.T) {
	outs := []mdstore.Outcome{
		outcome("p-0a1b2c3d4e5f", "sqlx.In expands slices only for ? placeholders, so $1 queries fail on Postgres.", 1),
		outcome("p-1b2c3d4e5f60", "The step 3 checklist in the plan lists the wrong file.", 1),
		outcome("p-2c3d4e5f6071", "Migrations run outside a transaction leave a half-applied schema.", 2),
	}
	base := Result{Verdict: review.NeedsWork, Nudge: true, Task: "fn-4.2", Findings: 5, Kept: 3, Outcomes: outs}

	c := additionalContext(&base)
	for _, want := range []string{
		`flowmem recorded 3 lessons of this review in .flow/memory/pitfalls.md:`,
		`[p-0a1b2c3d4e5f] "sqlx.In expands slices only for ? placeholders, so $1 queries fail on Postgres".`,
		`[p-1b2c3d4e5f60] "The step 3 checklist`,
		`[p-2c3d4e5f6071] seen 2 times, in tasks fn-3.1: "Migrations`,
		"read before later, unrelated tasks",
		"flowmem memory archive ID",
		`flowmem memory add --type pitfall --task fn-4.2 "<the lesson>" --fix "<what to do instead>"`,
	} {
		if !strings.Contains(c, want) {
			t.Errorf("context lacks %q:\n%s", want, c)
		}
	}
	if strings.Contains(c, "approve") || len(c) > maxContext {
		t.Errorf("context (%d bytes):\n%s", len(c), c)
	}

	pending := base
	pending.Pending = true
	c = additionalContext(&pending)
	for _, want := range []string{"new ones wait for approval", "flowmem memory approve ID", "flowmem memory reject ID", "[p-0a1b2c3d4e5f]"} {
		if !strings.Contains(c, want) {
			t.Errorf("with approval on, context lacks %q:\n%s", want, c)
		}
	}
	if strings.Contains(c, "archive") {
		t.Errorf("with approval on, context asks to archive:\n%s", c)
	}

	// Nothing new: there is nothing to archive, only the invitation.
	repeats := base
	repeats.Outcomes = outs[2:]
	if c = additionalContext(&repeats); strings.Contains(c, "archive") || !strings.Contains(c, "seen 2 times") || !strings.Contains(c, "memory add") {
		t.Errorf("repeats only:\n%s", c)
	}

	// A task id that is not a plain word stays out of the command.
	odd := base
	odd.Task = "fn-1; rm -rf ~"
	if c = additionalContext(&odd); strings.Contains(c, "--task") || !strings.Contains(c, "memory add --type pitfall \"<the lesson>\"") {
		t.Errorf("task that is not a plain word:\n%s", c)
	}

	// capture.nudge off: new lessons are not mentioned, repeats are.
	off := base
	off.Nudge = false
	c = additionalContext(&off)
	if strings.Contains(c, "p-0a1b2c3d4e5f") || strings.Contains(c, "archive") || strings.Contains(c, "memory add") || !strings.Contains(c, "[p-2c3d4e5f6071] seen 2 times") {
		t.Errorf("nudge off:\n%s", c)
	}
	off.Outcomes = outs[:2]
	if c = additionalContext(&off); c != "" {
		t.Errorf("nudge off, only new lessons: %q", c)
	}
}

// TestSecondLookBudget: a review with many long lessons still fits
// maxContext, with every lesson's id in it — the issues are clipped, the
// ids are not dropped.
func TestSecondLookBudget(t *testing.T) {
	for _, n := range []int{1, 3, 6, 12, 40} {
		var outs []mdstore.Outcome
		for i := range n {
			issue := fmt.Sprintf("Lesson %d: the cache key omits the tenant id, so %s", i, strings.Repeat("one tenant reads another tenant's rows ", 8))
			outs = append(outs, outcome(fmt.Sprintf("p-%012x", 0xabc000+i), issue, 1+i%2))
		}
		for _, pending := range []bool{false, true} {
			r := Result{Verdict: review.NeedsWork, Nudge: true, Pending: pending, Task: "fn-17-axl.8", Outcomes: outs}
			c := additionalContext(&r)
			if len(c) > maxContext || !strings.Contains(c, "memory add --type pitfall --task fn-17-axl.8") {
				t.Fatalf("%d lessons: %d bytes:\n%s", n, len(c), c)
			}
			named := 0
			for _, o := range outs {
				if strings.Contains(c, o.ID) {
					named++
				}
			}
			if named < n && !strings.Contains(c, fmt.Sprintf("(%d lessons: the last entries of .flow/memory/pitfalls.md)", n)) {
				t.Errorf("%d lessons: %d ids named and no pointer to the rest:\n%s", n, named, c)
			}
			if n <= 12 && named < n {
				t.Errorf("%d lessons: only %d ids fit:\n%s", n, named, c)
			}
			if n <= 3 && strings.Count(c, "the cache key omits the tenant id") != n {
				t.Errorf("%d lessons: each should be quoted:\n%s", n, c)
			}
		}
	}
}
