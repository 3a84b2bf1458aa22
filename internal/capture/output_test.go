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
// model to judge the new ones — and only those — with flowmem memory judge,
// and to add what is missing; with nothing new, only the invitation.
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
		"Judge the new ones now: run flowmem memory judge p-0a1b2c3d4e5f p-1b2c3d4e5f60 (it prints them in full with what memory keeps), archive those that fail, keep those that hold as they are, and add one lesson per missing finding whose rule carries over to other tasks (flowmem memory add), none from its summary or praise.",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("context lacks %q:\n%s", want, c)
		}
	}
	// A repeat is not put up for judging; the add command is judge's to give.
	if strings.Contains(c, "judge p-0a1b2c3d4e5f p-1b2c3d4e5f60 p-2c3d4e5f6071") || strings.Contains(c, "approve") || strings.Contains(c, "memory add --type") || len(c) > maxContext {
		t.Errorf("context (%d bytes):\n%s", len(c), c)
	}

	pending := base
	pending.Pending = true
	c = additionalContext(&pending)
	for _, want := range []string{"new ones wait for approval", "flowmem memory judge p-0a1b2c3d4e5f p-1b2c3d4e5f60 (", "approve those that hold, reject the rest", "[p-0a1b2c3d4e5f]"} {
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
	if c = additionalContext(&repeats); strings.Contains(c, "archive") || !strings.Contains(c, "seen 2 times") ||
		!strings.Contains(c, `flowmem memory add --type pitfall --task fn-4.2 --category <framework|convention|api|build|edge-case|security|general> "<lesson>" --fix "<what to do instead>".`) || !strings.Contains(c, "No need to run flowmem memory judge.") {
		t.Errorf("repeats only:\n%s", c)
	}
	none := base
	none.Outcomes = nil
	if c = additionalContext(&none); !strings.HasPrefix(c, "flowmem recorded no lesson from this review (5 findings") || !strings.Contains(c, "memory add") || !strings.Contains(c, "No need to run flowmem memory judge.") {
		t.Errorf("nothing recorded:\n%s", c)
	}

	// A task id that is not a plain word stays out of the command.
	odd := repeats
	odd.Task = "fn-1; rm -rf ~"
	if c = additionalContext(&odd); strings.Contains(c, "--task") || !strings.Contains(c, "memory add --type pitfall --category <") {
		t.Errorf("task that is not a plain word:\n%s", c)
	}

	// capture.nudge off: new lessons are not mentioned, repeats are.
	off := base
	off.Nudge = false
	c = additionalContext(&off)
	if strings.Contains(c, "p-0a1b2c3d4e5f") || strings.Contains(c, "judge") || strings.Contains(c, "memory add") || !strings.Contains(c, "[p-2c3d4e5f6071] seen 2 times") {
		t.Errorf("nudge off:\n%s", c)
	}
	off.Outcomes = outs[:2]
	if c = additionalContext(&off); c != "" {
		t.Errorf("nudge off, only new lessons: %q", c)
	}
}

// TestSecondLookBudget: a review with many long lessons still fits
// maxContext, and the judge command names every new lesson — the quoted
// issues are clipped, then dropped, first; repeats keep their ids.
func TestSecondLookBudget(t *testing.T) {
	for _, n := range []int{1, 3, 6, 12, MaxLessons} {
		var outs []mdstore.Outcome
		var fresh []string
		for i := range n {
			issue := fmt.Sprintf("Lesson %d: the cache key omits the tenant id, so %s", i, strings.Repeat("one tenant reads another tenant's rows ", 8))
			seen := 1 + i%2
			if n == MaxLessons {
				seen = 1 // the most one review records, every one new
			}
			o := outcome(fmt.Sprintf("p-%012x", 0xabc000+i), issue, seen)
			outs = append(outs, o)
			if o.New {
				fresh = append(fresh, o.ID)
			}
		}
		for _, pending := range []bool{false, true} {
			r := Result{Verdict: review.NeedsWork, Nudge: true, Pending: pending, Task: "fn-17-axl.8", Outcomes: outs}
			c := additionalContext(&r)
			if len(c) > maxContext {
				t.Fatalf("%d lessons: %d bytes:\n%s", n, len(c), c)
			}
			if judge := JudgeCommand(fresh) + " ("; !strings.Contains(c, judge) {
				t.Errorf("%d lessons: no %q:\n%s", n, judge, c)
			}
			named := 0
			for _, o := range outs {
				if strings.Contains(c, o.ID) {
					named++
				}
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

// TestRepeatNamesItsStatus: a repeat of a lesson someone archived or
// rejected, or that still waits for approval, is not one memory hands to
// the model; the note says so rather than count it like an active one.
func TestRepeatNamesItsStatus(t *testing.T) {
	archived := outcome("p-3d4e5f607182", "Retries without jitter stampede the upstream after an outage.", 2)
	archived.Entry.Status = mdstore.Archived
	pending := outcome("p-4e5f60718293", "A cron spec in local time fires twice on the autumn clock change.", 3)
	pending.Entry.Status = mdstore.Pending
	active := outcome("p-5f6071829304", "An unbuffered channel in the handler blocks the sender forever.", 2)
	for _, nudge := range []bool{true, false} {
		r := Result{Verdict: review.NeedsWork, Nudge: nudge, Task: "fn-4.2", Findings: 3, Kept: 3, Outcomes: []mdstore.Outcome{archived, pending, active}}
		c := additionalContext(&r)
		for _, want := range []string{
			`[p-3d4e5f607182] seen 2 times, in tasks fn-3.1, archived (never recalled): "Retries`,
			`[p-4e5f60718293] seen 3 times, in tasks fn-3.1, pending approval: "A cron`,
			`[p-5f6071829304] seen 2 times, in tasks fn-3.1: "An unbuffered`,
		} {
			if !strings.Contains(c, want) {
				t.Errorf("nudge %v: context lacks %q:\n%s", nudge, want, c)
			}
		}
	}
}
