package capture

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/review"
	"github.com/flowmem/flowmem/internal/sanitize"
)

// speaks: the run has something to tell — it recorded lessons, could not
// record lessons it found, or the review asked for changes and the model
// is to be invited to record what the rules missed.
func (r *Result) speaks() bool {
	return r.Recorded() || r.Unrecorded != "" || r.Nudge
}

// writeOutput prints the hook's JSON: a systemMessage for the user and,
// when there is something for the model, additionalContext.
func writeOutput(w io.Writer, r *Result) error {
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	out := struct {
		SystemMessage      string    `json:"systemMessage"`
		HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
	}{SystemMessage: systemMessage(r)}
	if ctx := additionalContext(r); ctx != "" {
		out.HookSpecificOutput = &specific{HookEventName: cmp.Or(r.Event, "PostToolUse"), AdditionalContext: ctx}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write hook output: %w", err)
	}
	return nil
}

func systemMessage(r *Result) string {
	var b strings.Builder
	b.WriteString("flowmem: " + r.Kind)
	if r.Task != "" {
		b.WriteString(" of " + r.Task)
	}
	if r.Unrecorded != "" {
		n := len(r.Lessons)
		fmt.Fprintf(&b, ": %d %s NOT recorded: %s; nothing was written (run the review again, or add them with flowmem memory add)",
			n, plural(n, "lesson", "lessons"), r.Unrecorded)
		return b.String()
	}
	if r.Verdict == review.None {
		fmt.Fprintf(&b, ": no verdict read, nothing recorded; the model is asked whether it asks for changes (%d %s)", r.Findings, plural(r.Findings, "finding", "findings"))
		return b.String()
	}
	added := 0
	for _, o := range r.Outcomes {
		if o.New {
			added++
		}
	}
	seen := len(r.Outcomes) - added
	fmt.Fprintf(&b, ": recorded %d new %s in .flow/memory/pitfalls.md", added, plural(added, "lesson", "lessons"))
	if r.Pending && added > 0 {
		b.WriteString(", waiting for approval (flowmem memory pending)")
	}
	if seen > 0 {
		fmt.Fprintf(&b, "; %d seen before (count updated)", seen)
	}
	if dropped := r.Findings - r.Kept; dropped > 0 {
		fmt.Fprintf(&b, "; %d %s not kept", dropped, plural(dropped, "finding", "findings"))
	}
	if r.Capped > 0 {
		fmt.Fprintf(&b, " (%d of them over the limit of %d lessons per review)", r.Capped, MaxLessons)
	}
	return b.String()
}

// additionalContext tells the model, as facts, which lessons of this
// review memory now holds, each with its id — new ones, and repeats with
// how often they have come up — and, with capture.nudge on, asks for a
// second look: rules judge "learnable" far worse than the model that has
// just read the review, so it is asked to run flowmem memory judge on the
// new ones — the note has no room for what memory keeps, and a model
// judging clipped titles archives too much — to archive (or approve and
// reject) by what it prints, and to record a reusable lesson the rules
// missed. Without the nudge only repeats are worth the model's attention.
// At most maxContext bytes: titles are clipped, then dropped; the judge
// command is whole.
func additionalContext(r *Result) string {
	if r.Unrecorded != "" {
		return ""
	}
	if r.Nudge && r.Verdict == review.None {
		return fmt.Sprintf("flowmem read no verdict in this review (%d %s) and recorded nothing. If it asks for changes, record one lesson for each finding of it whose rule carries over to other tasks (a framework idiom, API or tool quirk, build or test gotcha, project convention, class of edge case), none for a fix only this change needs: %s. If it approves the work, do nothing.",
			r.Findings, plural(r.Findings, "finding", "findings"), AddCommand(r.Task, false))
	}
	nudge := r.Nudge && r.Verdict.Actionable()
	var shown []mdstore.Outcome
	var fresh []string
	for _, o := range r.Outcomes {
		if o.New {
			fresh = append(fresh, o.ID)
		}
		if !o.New || nudge {
			shown = append(shown, o)
		}
	}
	var head, tail string
	n := len(r.Outcomes)
	switch {
	case !nudge && len(shown) == 0:
		return ""
	case !nudge:
		head = "flowmem: this review repeats lessons already in project memory (.flow/memory/pitfalls.md):"
	case n == 0:
		head = fmt.Sprintf("flowmem recorded no lesson from this review (%d %s, none kept as a reusable lesson).", r.Findings, plural(r.Findings, "finding", "findings"))
	case r.Pending && len(fresh) > 0:
		// Approval is on: new lessons reach no prompt until approved, and
		// the model should not count on them.
		head = fmt.Sprintf("flowmem recorded %d %s of this review in .flow/memory/pitfalls.md; new ones wait for approval:", n, plural(n, "lesson", "lessons"))
	default:
		head = fmt.Sprintf("flowmem recorded %d %s of this review in .flow/memory/pitfalls.md:", n, plural(n, "lesson", "lessons"))
	}
	if r.Capped > 0 && strings.HasSuffix(head, ":") {
		// The model reads this, not the user's line: without it a review
		// cut to the limit looks recorded whole.
		head = fmt.Sprintf("%s (%d more kept %s left out: one review records at most %d):", strings.TrimSuffix(head, ":"), r.Capped, plural(r.Capped, "finding", "findings"), MaxLessons)
	}
	if nudge && len(fresh) > 0 {
		act := "archive those that fail, keep those that hold as they are"
		if r.Pending {
			act = "approve those that hold, reject the rest"
		}
		// At most MaxLessons ids: the command always fits
		// (TestSecondLookBudget).
		tail = " Judge the new ones now: run " + JudgeCommand(fresh) + " (it prints them in full with what memory keeps), " + act +
			", and add one lesson per missing finding whose rule carries over to other tasks (flowmem memory add), none from its summary or praise."
	} else if nudge {
		tail = " Record one lesson for each missing finding of the review whose rule carries over to other tasks (a framework idiom, API or tool quirk, build or test gotcha, project convention, class of edge case), none for a fix only this change needs nor from its summary or praise: " + AddCommand(r.Task, false) + ". No need to run flowmem memory judge."
	}
	list := lessonList(shown, maxContext-len(head)-len(tail), len(fresh) > 0 && nudge)
	if list == "" && strings.HasSuffix(head, ":") {
		head = strings.TrimSuffix(head, ":") + "."
	}
	return head + list + tail
}

// lessonList names each lesson by id with its issue clipped to an equal
// share of room bytes. When the share would be too short to judge a
// lesson by, the last ones are named by id alone — or not at all when
// judged, for new lessons the judge command names — and when even that
// does not fit, counted with a pointer to the file.
func lessonList(outs []mdstore.Outcome, room int, judged bool) string {
	prefix := make([]string, len(outs))
	for i, o := range outs {
		prefix[i] = " [" + o.ID + "] "
		if e := o.Entry; !o.New {
			prefix[i] += fmt.Sprintf("seen %d times", e.Seen)
			if len(e.Tasks) > 0 {
				prefix[i] += ", in tasks " + mdstore.Clip(strings.Join(e.Tasks, ", "), 40)
			}
			// Not a lesson memory hands back: say so, or the model
			// counts on it.
			switch e.Status {
			case mdstore.Archived:
				prefix[i] += ", archived (never recalled)"
			case mdstore.Pending:
				prefix[i] += ", pending approval"
			}
			prefix[i] += ": "
		}
	}
	for k := len(outs); k >= 0; k-- {
		var rest string
		var ids []string
		for _, o := range outs[k:] {
			if !judged || !o.New {
				ids = append(ids, o.ID)
			}
		}
		if len(ids) > 0 {
			rest = fmt.Sprintf(" Also %s (see flowmem memory show ID).", strings.Join(ids, ", "))
			if k == 0 && len(rest) > room {
				rest = fmt.Sprintf(" (%d %s: the last entries of .flow/memory/pitfalls.md)", len(ids), plural(len(ids), "lesson", "lessons"))
			}
		}
		share, fixed := 200, len(rest)
		for _, p := range prefix[:k] {
			fixed += len(p) + 6 // two quotes, a full stop and "…"
		}
		if k > 0 {
			share = min(share, (room-fixed)/k)
		}
		var b strings.Builder
		for i, o := range outs[:k] {
			fmt.Fprintf(&b, "%s%q.", prefix[i], sanitize.Tags(mdstore.Clip(strings.TrimRight(o.Entry.Issue, ". "), max(share, 1))))
		}
		b.WriteString(rest)
		if (k == 0 || share >= 30) && b.Len() <= room {
			return b.String()
		}
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
