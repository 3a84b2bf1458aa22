package capture

import (
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Criteria is what memory keeps, in full: the hook's note has room only
// for ids and clipped titles, and a model that judges lessons by those
// alone archives too much, so `flowmem memory judge` prints this beside
// each lesson whole. Kept here, beside the note that points to it.
const Criteria = `What memory is for: its lessons are shown to the coding agent before later,
unrelated tasks in this project. A trivial or task-bound lesson costs attention
there and can mislead. A lesson belongs in memory only when BOTH hold:
1. It carries over to other tasks in this project and names something a
   capable model would plausibly get wrong:
   - how a framework, library or language (version) behaves;
   - how an API, protocol, tool or CLI behaves (quirks, required flags,
     formats, limits);
   - a build, test or CI gotcha;
   - a rule of this project that the code does not make obvious (where things
     go, which helper or layer to use, naming, the language of user-facing
     text);
   - a class of input or state that breaks code (empty, duplicate, concurrent,
     huge, non-ASCII, time zones, partial failure ...) or a class of security
     weakness.
2. It states, or clearly implies, a rule or fix to follow next time.
Not lessons: advice any model already knows (write tests, handle errors,
validate input, split big classes, add docs or logs); plain bugs of this
change with nothing general behind them; typos, style, formatting, naming
nits; anything tied only to this task, plan, spec or report (a requirement not
met, a document out of sync, a number in a report); vague worries with no fix.
When unsure, ask: would a note about this, read before the next unrelated task
in this project, prevent a likely mistake? If a lesson is right in substance
but badly worded, archive it and add it well worded.`

// JudgeCommand is the command that prints lessons whole for judging.
func JudgeCommand(ids []string) string {
	return "flowmem memory judge " + strings.Join(ids, " ")
}

// JudgeActions are the commands that act on a judgement, each for the
// entries it applies to by status (an action with no entry is left
// empty), and the command that adds a missing lesson.
type JudgeActions struct {
	Archive string   `json:"archive,omitempty"` // active entries that fail
	Active  []string `json:"-"`
	Approve string   `json:"approve,omitempty"` // pending entries that hold
	Reject  string   `json:"reject,omitempty"`  // pending entries that fail
	Pending []string `json:"-"`
	Restore string   `json:"restore,omitempty"` // archived entries that hold after all
	Gone    []string `json:"-"`
	Add     string   `json:"add"`
}

// Judge says how to act on a judgement of entries. The add command names
// the task when all entries come from one task whose id can stand in a
// shell command as it is.
func Judge(entries []mdstore.Entry) JudgeActions {
	var a JudgeActions
	task := ""
	for i, en := range entries {
		switch en.Status {
		case mdstore.Pending:
			a.Pending = append(a.Pending, en.ID)
		case mdstore.Archived:
			a.Gone = append(a.Gone, en.ID)
		default:
			a.Active = append(a.Active, en.ID)
		}
		if i == 0 {
			task = en.Task
		} else if en.Task != task {
			task = ""
		}
	}
	if len(a.Active) > 0 {
		a.Archive = "flowmem memory archive ID..."
	}
	if len(a.Pending) > 0 {
		a.Approve, a.Reject = "flowmem memory approve ID...", "flowmem memory reject ID..."
	}
	if len(a.Gone) > 0 {
		a.Restore = "flowmem memory restore ID..."
	}
	a.Add = "flowmem memory add --type pitfall"
	if task != "" && task != "manual" && plainWord(task) {
		a.Add += " --task " + task
	}
	// The rules name a category right about half the time; the model
	// that words the lesson names it better.
	a.Add += ` --category <framework|convention|api|build|edge-case|security|general> "<lesson>" --fix "<what to do instead>"`
	return a
}
