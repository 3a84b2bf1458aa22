package capture

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// speaks: the run has something to tell — it recorded lessons, could not
// record lessons it found, or the review asked for changes and the model
// is to be invited to record what the rules missed.
func (r *Result) speaks() bool {
	return r.Recorded() || r.Unrecorded != "" || (r.Nudge && r.Verdict.Actionable())
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
		ev := r.Event
		if ev == "" {
			ev = "PostToolUse"
		}
		out.HookSpecificOutput = &specific{HookEventName: ev, AdditionalContext: ctx}
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
	b.WriteString("flowmem: ")
	b.WriteString(r.Kind)
	if r.Task != "" {
		b.WriteString(" of " + r.Task)
	}
	if r.Unrecorded != "" {
		n := len(r.Lessons)
		fmt.Fprintf(&b, ": %d %s NOT recorded: %s; nothing was written (run the review again, or add them with flowmem memory add)",
			n, plural(n, "lesson", "lessons"), r.Unrecorded)
		return b.String()
	}
	added, seen := 0, 0
	for _, o := range r.Outcomes {
		if o.New {
			added++
		} else {
			seen++
		}
	}
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
	return b.String()
}

// additionalContext tells the model, as facts, which lessons of this
// review memory now holds — new ones, and repeats with how often they have
// come up — and, with capture.nudge on, invites it to record a reusable
// lesson the review taught that is not among them: rules miss some, the
// model that just read the review does not. Without the nudge only repeats
// are worth the model's attention. At most maxContext bytes.
func additionalContext(r *Result) string {
	if r.Unrecorded != "" {
		return ""
	}
	var invite string
	if r.Nudge && r.Verdict.Actionable() {
		task := ""
		if r.Task != "" && plainWord(r.Task) {
			task = " --task " + r.Task
		}
		invite = fmt.Sprintf(" If this review taught a reusable lesson that is not listed here (a framework idiom, an API or tool quirk, a build or test gotcha, a project convention, a class of edge case), you can record it: flowmem memory add --type pitfall%s \"<the lesson>\" --fix \"<what to do instead>\".", task)
	}
	var lines []string
	recurred := 0
	for _, o := range r.Outcomes {
		e := o.Entry
		switch {
		case !o.New:
			recurred++
			where := ""
			if len(e.Tasks) > 0 {
				where = ", in tasks " + strings.Join(e.Tasks, ", ")
			}
			lines = append(lines, fmt.Sprintf(" Seen %d times, last %s%s: %q.", e.Seen, e.LastSeen, where, clip(strings.TrimRight(e.Issue, ". "), 200)))
		case invite != "":
			lines = append(lines, fmt.Sprintf(" New: %q.", clip(strings.TrimRight(e.Issue, ". "), 200)))
		}
	}
	var head string
	switch {
	case invite == "" && recurred == 0:
		return ""
	case invite == "":
		head = "flowmem: this review repeats lessons already in project memory (.flow/memory/pitfalls.md)."
	case len(r.Outcomes) == 0:
		head = fmt.Sprintf("flowmem recorded no lesson from this review (%d %s, none kept as a reusable lesson).", r.Findings, plural(r.Findings, "finding", "findings"))
	default:
		head = fmt.Sprintf("flowmem recorded %d %s of this review in project memory (.flow/memory/pitfalls.md).", len(r.Outcomes), plural(len(r.Outcomes), "lesson", "lessons"))
		if r.Pending {
			// Approval is on: new lessons reach no prompt until a person
			// approves them, and the model should not count on them.
			head = fmt.Sprintf("flowmem recorded %d %s of this review in project memory (.flow/memory/pitfalls.md); new ones wait for a person's approval before they are recalled.", len(r.Outcomes), plural(len(r.Outcomes), "lesson", "lessons"))
		}
	}
	var b strings.Builder
	b.WriteString(head)
	budget := maxContext - len(invite)
	for i, l := range lines {
		if b.Len()+len(l) > budget {
			more := fmt.Sprintf(" (%d more)", len(lines)-i)
			if b.Len()+len(more) <= budget {
				b.WriteString(more)
			}
			break
		}
		b.WriteString(l)
	}
	b.WriteString(invite)
	return b.String()
}

// clip shortens s to at most n bytes at a word boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// plainWord: s can stand in a shell command as it is (a task id from
// FLOW_TASK_ID might not).
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '.' || c == '-' || c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	return len(s) <= 80
}
