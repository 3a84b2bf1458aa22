package capture

import (
	"regexp"
	"strings"
	"sync"

	"github.com/flowmem/flowmem/internal/hookevent"
	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/review"
)

// taskID picks the task a review is about: from the review command (or the
// subagent's description and prompt), else what the wrapper names (a
// receipt's "id"), else the review text, else the FLOW_TASK_ID
// environment variable. A task id (with ".N") beats an epic id from the
// same source.
func taskID(env string, ev *hookevent.Payload, wrapper, text string) string {
	var srcs []string
	if ev != nil {
		srcs = append(srcs, ev.Command(), ev.Description(), ev.Prompt())
	}
	for _, src := range append(srcs, wrapper, text) {
		if id := findTaskID(src); id != "" {
			return id
		}
	}
	return envTask(env)
}

// envTask is FLOW_TASK_ID when it is a task id, as memory add's --task must
// be, and no secret.
func envTask(s string) string {
	s = strings.TrimSpace(s)
	if !TaskShaped(s) || redact.String(s) != s {
		return ""
	}
	return s
}

// TaskShaped reports whether s can be an entry's task: letters, digits and
// . _ - : / #, at most 80 bytes. It goes into the entry's heading, which is
// committed with the file, so a pasted token must not pass as one.
func TaskShaped(s string) bool {
	return len(s) <= 80 && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-:/#", r))
	})
}

func findTaskID(s string) string {
	if !strings.Contains(s, "fn-") {
		return ""
	}
	ids := review.TaskIDRe().FindAllString(s, 50)
	for _, id := range ids {
		if strings.Contains(id, ".") {
			return id
		}
	}
	if len(ids) > 0 {
		return ids[0]
	}
	return ""
}

var reviewKindRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(impl|plan|completion)-review\b`)
})

// kindFromCommand names the review a command ran: flowctl's impl-review,
// plan-review or completion-review, or plain "review" (chat-send and other
// wrappers do not say).
func kindFromCommand(command string) string {
	if m := reviewKindRe().FindStringSubmatch(command); m != nil {
		return m[1] + "-review"
	}
	return "review"
}

// kindFromAgent names a reviewer subagent's review from its type and
// description.
func kindFromAgent(subagentType, description string) string {
	s := strings.ToLower(subagentType + " " + description)
	switch {
	case strings.Contains(s, "impl"):
		return "impl-review"
	case strings.Contains(s, "plan"):
		return "plan-review"
	case strings.Contains(s, "completion"):
		return "completion-review"
	}
	return "review"
}
