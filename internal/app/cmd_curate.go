package app

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowmem/flowmem/internal/capture"
	"github.com/flowmem/flowmem/internal/curate"
	"github.com/flowmem/flowmem/internal/insight"
	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/sanitize"
	"github.com/urfave/cli/v2"
)

// curationCommands are the memory subcommands that look after entries one
// by one: show, judge, retire, restore, approve, and join duplicates.
func curationCommands(e *env) []*cli.Command {
	return []*cli.Command{
		{
			Name:      "show",
			Usage:     "print one entry whole, with its metadata in words",
			ArgsUsage: "ID",
			Description: `ID is an entry's id or any unique start of it (memory read, memory search
and memory curate print ids).

Examples:
   flowmem memory show p-3f2a9c1b04de
   flowmem memory show p-3f2a --json`,
			Flags: []cli.Flag{jsonFlag()},
			Action: func(c *cli.Context) error {
				// Several ids: judge is the command that prints several whole.
				if c.NArg() > 1 {
					return usagef("show prints one entry; to print several whole: flowmem memory judge %s", strings.Join(c.Args().Slice(), " "))
				}
				return args(1, "ID", e.runShow)(c)
			},
		},
		judgeCommand(e),
		statusCommand(e, curate.Archive, "archive", "keep entries for the record but never recall them again",
			`An archived entry stays in its file, marked status=archived: read, prime and
the scout leave it out, memory show still prints it, memory restore brings it
back. A lesson that is wrong or obsolete is better archived than forgotten
when a teammate may ask why it went. An entry archived already is said and
left alone (exit 0), as restore does with an active one.

Examples:
   flowmem memory archive p-3f2a9c1b04de
   flowmem memory archive p-3f2a c-91 --json`),
		statusCommand(e, curate.Restore, "restore", "make archived entries active again",
			`An entry that memory merge archived is split off again: it is active, and
the entry it was merged into no longer counts its sightings, its tasks or
its dates (it is again as it was, with what was merged into it since and
its own sightings since); when that entry was merged on into a third, the
third gives them back too.

Examples:
   flowmem memory restore p-3f2a9c1b04de
   flowmem memory restore p-3f2a --json`),
		statusCommand(e, curate.Forget, "forget", "remove entries from memory for good",
			`The entry is deleted from its file (git still has it). To keep it for the
record instead, use memory archive. An id forgotten already is said and
left alone (exit 0), so a list of ids can be forgotten again after a stop.

Examples:
   flowmem memory forget p-3f2a9c1b04de
   flowmem memory forget p-3f2a d-07 --json`),
		{
			Name:  "pending",
			Usage: "list captured lessons waiting for approval",
			Description: `With capture.approval on (flowmem config set capture.approval true), the hook
writes the lessons it captures as pending: read, prime and the scout leave them
out until a person approves them, and so do the lessons the model adds with
memory add (Claude Code runs it with CLAUDECODE=1). A person's memory add is
active at once.

Examples:
   flowmem memory pending
   flowmem memory pending --json
   flowmem memory approve p-3f2a     (or --all)
   flowmem memory reject p-77c0`,
			Flags: []cli.Flag{jsonFlag()},
			Action: args(0, "no arguments", func(c *cli.Context) error {
				_, _, s, err := e.memoryStore()
				if err != nil {
					return err
				}
				pending, err := pendingEntries(s)
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return e.writeJSON(map[string]any{"entries": pending, "count": len(pending)})
				}
				if len(pending) == 0 {
					e.say("no lessons are waiting for approval")
					return nil
				}
				for _, en := range pending {
					fmt.Fprintf(e.Out, "%s [%s, %s, seen %dx] %s\n", en.ID, en.Kind, en.Task, en.Seen, sanitize.Tags(en.Text()))
					if en.Fix != "" {
						fmt.Fprintf(e.Out, "    fix: %s\n", sanitize.Tags(en.Fix))
					}
				}
				return nil
			}),
		},
		statusCommand(e, curate.Approve, "approve", "let captured lessons waiting for approval reach prompts",
			`Examples:
   flowmem memory approve p-3f2a9c1b04de
   flowmem memory approve --all --json`),
		statusCommand(e, curate.Reject, "reject", "turn down captured lessons waiting for approval",
			`A rejected lesson is archived, not deleted: if a later review makes the same
point, it is counted there and stays out of prompts.

Examples:
   flowmem memory reject p-77c0
   flowmem memory reject p-77c0 p-91ab --json`),
		{
			Name:  "curate",
			Usage: "propose groups of entries that probably say the same thing",
			Description: `Each active entry's text is asked as a query against the others; a pair
at least --threshold alike starts a group (at the default threshold or
below, so do two entries each other's nearest from 0.4 times it), and an
entry that alike to its members on average joins it. Groups come best first, with ids, texts, seen
counts and a similarity score (the least of two members, 0 to 1).
Beside each group are up to 6 entries near it but less alike (near in
--json): a lesson reworded by another reviewer often shares fewer words
than the threshold asks, so judge them too. One that is in a group of its
own comes with that group's other members (with in --json).
Nothing is changed: judge each group, then join true duplicates with
memory merge. The memory-curator subagent does this with --json.

Examples:
   flowmem memory curate
   flowmem memory curate --json --limit 10
   flowmem memory curate --threshold 0.3     (looser: more groups, more near misses)
   flowmem memory merge p-3f2a p-77c0    (after reading a group)`,
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Usage: "at most `N` groups (default: all)"},
				&cli.Float64Flag{Name: "threshold", Value: curate.DefaultThreshold, Usage: "least similarity `X`, from 0 to 1, of the pair that starts a group and of a member to the others on average (at the default or below, two entries each other's nearest start a group from 0.4 times X)"},
				jsonFlag(),
			},
			Action: args(0, "no arguments", func(c *cli.Context) error {
				if c.IsSet("limit") && c.Int("limit") < 1 {
					return usagef("--limit must be at least 1")
				}
				threshold := c.Float64("threshold")
				if !(threshold > 0 && threshold <= 1) {
					return usagef("--threshold must be above 0 and at most 1")
				}
				_, _, s, err := e.memoryStore()
				if err != nil {
					return err
				}
				entries, err := s.Load()
				if err != nil {
					return err
				}
				groups := curate.Groups(entries, threshold, c.Int("limit"))
				// The curator subagent reads the --json form: its texts get
				// the same care as printed ones (sanitize.Tags).
				for i := range groups {
					for j := range groups[i].Entries {
						m := &groups[i].Entries[j]
						m.Text, m.Fix = sanitize.Tags(m.Text), sanitize.Tags(m.Fix)
					}
					for j := range groups[i].Near {
						m := &groups[i].Near[j].Member
						m.Text, m.Fix = sanitize.Tags(m.Text), sanitize.Tags(m.Fix)
					}
				}
				if c.Bool("json") {
					return e.writeJSON(map[string]any{"groups": groups, "count": len(groups), "threshold": threshold})
				}
				if len(groups) == 0 {
					e.say("no entries look alike enough to propose a merge")
					return nil
				}
				for n, g := range groups {
					if n > 0 {
						fmt.Fprintln(e.Out)
					}
					fmt.Fprintf(e.Out, "group %d (similarity %.2f):\n", n+1, g.Score)
					ids := make([]string, 0, len(g.Entries))
					for _, m := range g.Entries {
						printMember(e, m, "")
						ids = append(ids, m.ID)
					}
					fmt.Fprintf(e.Out, "  if they say the same thing: flowmem memory merge %s\n", strings.Join(ids, " "))
					if len(g.Near) > 0 {
						fmt.Fprintln(e.Out, "  near it, less alike (another wording may share fewer words):")
					}
					for _, m := range g.Near {
						printMember(e, m.Member, fmt.Sprintf(", similarity %.2f", m.Score))
						if len(m.With) > 0 {
							ids := make([]string, 0, len(m.With))
							for _, w := range m.With {
								ids = append(ids, w.ID)
							}
							fmt.Fprintf(e.Out, "      in a group of its own with %s\n", strings.Join(ids, " "))
						}
					}
				}
				return nil
			}),
		},
		{
			Name:      "merge",
			Usage:     "join entries that say the same thing into one",
			ArgsUsage: "ID ID...",
			Description: `The survivor (the first ID, or --into) keeps its text; its seen count becomes
the sum, its dates the first and last of all, its tasks all of theirs. The
others are archived with merged-into=<survivor> in their metadata, beside
what the survivor held of its own (into-own=first/last/tasks) and the count
each gave it (gave=N), so memory restore takes back exactly what one of them
brought, even after a teammate's sightings of it arrived. The survivor's
metadata names what each took in (took=id:N,...), so two teammates who merge
different entries into it add up after a pull. One atomic rewrite of
the file, under the memory lock. Only entries of one type merge.

Examples:
   flowmem memory merge p-3f2a p-77c0
   flowmem memory merge p-3f2a p-77c0 p-0b1e --into p-77c0 --json`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "into", Usage: "the entry `ID` that survives (default: the first); an ID not among the others joins the merge"},
				jsonFlag(),
			},
			Action: func(c *cli.Context) error {
				if c.NArg() < 2 && !(c.NArg() == 1 && c.String("into") != "") {
					return usagef("expected two or more IDs, got %d", c.NArg())
				}
				_, _, s, err := e.memoryStore()
				if err != nil {
					return err
				}
				m, err := curate.Merge(c.Context, s, c.Args().Slice(), c.String("into"))
				if err != nil {
					return err
				}
				if c.Bool("json") {
					return e.writeJSON(m)
				}
				ids := make([]string, 0, len(m.Merged))
				for _, o := range m.Merged {
					ids = append(ids, o.ID)
				}
				e.say("merged %s into %s (now seen %dx); %s archived", strings.Join(ids, ", "), m.Into.ID, m.Into.Seen, plural(len(ids), "entry", "entries"))
				return nil
			},
		},
	}
}

func pendingEntries(s *mdstore.Store) ([]mdstore.Entry, error) {
	all, err := s.Load()
	if err != nil {
		return nil, err
	}
	// Never nil: --json says "entries": [].
	return append([]mdstore.Entry{}, slices.DeleteFunc(all, func(en mdstore.Entry) bool { return en.Status != mdstore.Pending })...), nil
}

// statusCommand is a command that takes one action on the entries named
// and says what it did to them (as they were before it). Approve takes
// --all too: every pending lesson.
func statusCommand(e *env, action curate.Action, name, usage, description string) *cli.Command {
	past := map[curate.Action]string{curate.Archive: "archived", curate.Restore: "restored", curate.Forget: "forgot",
		curate.Approve: "approved", curate.Reject: "rejected"}[action]
	cmd := &cli.Command{Name: name, Usage: usage, ArgsUsage: "ID...", Description: description, Flags: []cli.Flag{jsonFlag()}}
	want := "one or more IDs"
	if action == curate.Approve {
		cmd.ArgsUsage, want = "ID... | --all", want+", or --all"
		cmd.Flags = []cli.Flag{&cli.BoolFlag{Name: "all", Usage: "approve every pending lesson"}, jsonFlag()}
	}
	cmd.Action = func(c *cli.Context) error {
		all := c.Bool("all") // false where there is no --all
		if all && c.NArg() > 0 {
			return usagef("give IDs or --all, not both")
		}
		if !all && c.NArg() == 0 {
			return usagef("expected %s", want)
		}
		_, _, s, err := e.memoryStore()
		if err != nil {
			return err
		}
		var entries, gone []mdstore.Entry
		switch {
		case all:
			entries, err = pendingEntries(s)
		case action == curate.Forget:
			// Forgetting a forgotten id again is done already, as
			// archiving an archived one is.
			entries, gone, err = curate.LookupGone(s, c.Args().Slice())
		default:
			entries, err = curate.Lookup(s, c.Args().Slice())
		}
		if err != nil {
			return err
		}
		already, err := curate.Apply(c.Context, s, action, entries)
		if err != nil {
			return err
		}
		type done struct {
			ID   string       `json:"id"`
			Type mdstore.Kind `json:"type"`
			Text string       `json:"text"`
		}
		type kept struct {
			ID     string         `json:"id"`
			Type   mdstore.Kind   `json:"type"`
			Text   string         `json:"text,omitempty"` // none for a forgotten one
			Status mdstore.Status `json:"status"`
		}
		out := make([]done, 0, len(entries))
		same := make([]kept, 0, len(already)+len(gone))
		for _, en := range entries {
			if slices.ContainsFunc(already, func(a mdstore.Entry) bool { return a.ID == en.ID }) {
				continue
			}
			out = append(out, done{ID: en.ID, Type: en.Kind, Text: en.Text()})
		}
		for _, en := range slices.Concat(already, gone) {
			same = append(same, kept{ID: en.ID, Type: en.Kind, Text: en.Text(), Status: en.Status})
		}
		if c.Bool("json") {
			// "entries" are those the command changed; "unchanged" those
			// already as it would leave them, with their status.
			return e.writeJSON(map[string]any{"action": action, "entries": out, "unchanged": same})
		}
		if all && len(out) == 0 {
			e.say("no lessons are waiting for approval")
		}
		for _, d := range out {
			e.say("%s %s %s: %s", past, d.Type, d.ID, insight.Fit(mdstore.OneLine(d.Text), 100))
		}
		for _, d := range same {
			e.say("%s %s is already %s: nothing changed", d.Type, d.ID, d.Status)
		}
		return nil
	}
	return cmd
}

// printMember is one line of a proposed group, and its fix.
func printMember(e *env, m curate.Member, more string) {
	fmt.Fprintf(e.Out, "  %s [%s, seen %dx%s] %s\n", m.ID, m.Type, m.Seen, more, m.Text)
	if m.Fix != "" {
		fmt.Fprintf(e.Out, "      fix: %s\n", m.Fix)
	}
}

// printEntry writes one entry whole, its metadata in words.
func (e *env) printEntry(en *mdstore.Entry, file string, stale bool) {
	w := e.Out
	status := string(en.Status)
	switch {
	case stale:
		status = fmt.Sprintf("active but stale (not seen for over %d days: still recalled, ranked lower)", e.staleAfter)
	case en.Status == mdstore.Pending:
		status = "pending approval (flowmem memory approve " + en.ID + ")"
	}
	fmt.Fprintf(w, "%s  %s, %s\n", en.ID, en.Kind, status)
	if en.Issue != "" {
		fmt.Fprintf(w, "Issue:    %s\n", sanitize.Tags(en.Issue))
	}
	// The lesson itself first, whatever the type: a convention's text is
	// its last line in the file, after its fix and context.
	if en.Body != "" {
		fmt.Fprintf(w, "Text:     %s\n", strings.ReplaceAll(sanitize.Tags(en.Body), "\n", "\n          "))
	}
	if en.Fix != "" {
		fmt.Fprintf(w, "Fix:      %s\n", sanitize.Tags(en.Fix))
	}
	if en.Context != "" {
		fmt.Fprintf(w, "Context:  %s\n", sanitize.Tags(en.Context))
	}
	if en.Category != "" {
		fmt.Fprintf(w, "Category: %s\n", en.Category)
	}
	from := en.Task
	if en.Source != "" && en.Source != en.Task {
		from += " (" + en.Source + ")"
	}
	fmt.Fprintf(w, "Seen:     %s, first on %s from %s, last on %s\n", plural(en.Seen, "once", "times"), orUnknown(en.Date), from, orUnknown(en.LastSeen))
	if len(en.Tasks) > 0 {
		fmt.Fprintf(w, "Tasks:    %s\n", strings.Join(en.Tasks, ", "))
	}
	if en.MergedInto != "" {
		fmt.Fprintf(w, "Merged:   into %s\n", en.MergedInto)
	}
	if en.Legacy {
		fmt.Fprintf(w, "Format:   written without metadata (flow-next); its id is derived from its text\n")
	}
	fmt.Fprintf(w, "File:     %s:%d\n", file, en.Line)
}

func plural(n int, one, many string) string {
	if n == 1 {
		if one == "once" {
			return one
		}
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown date"
	}
	return s
}

// judgeCommand prints lessons whole beside what memory keeps, and the
// commands that act on a judgement: the hook's note has room for ids
// only, and a model that judges lessons by their titles archives too much.
func judgeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "judge",
		Usage:     "print entries whole with what memory keeps, to judge whether they belong",
		ArgsUsage: "ID...",
		Description: `Prints what memory keeps (the criteria), each entry whole, and the commands
to act: archive an active entry that fails, approve or reject a pending one,
add one lesson per missing finding whose rule carries over. Under an entry
that is not archived come up to 2 active entries close to it in memory (near
in --json), with the merge that keeps one when it repeats one of them in other
words; none when nothing is close. Changes nothing.
The hook names this command, with the ids of the lessons it has just
recorded, after a review that asks for changes. IDs are ids or unique starts of them, as in
memory show.

Examples:
   flowmem memory judge p-3f2a9c1b04de p-77c0 p-91ab
   flowmem memory judge p-3f2a --json`,
		Flags: []cli.Flag{jsonFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("expected one or more IDs")
			}
			p, _, s, err := e.memoryStore()
			if err != nil {
				return err
			}
			entries, err := curate.Lookup(s, c.Args().Slice())
			if err != nil {
				return err
			}
			act := capture.Judge(entries)
			near, err := judgeNear(s, entries)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				// The decision per lesson, as the text gives it: a script or a
				// model reading --json must be asked the same question.
				type decision struct {
					ID     string `json:"id"`
					Decide string `json:"decide"`
				}
				decide := make([]decision, len(entries))
				for i := range entries {
					decide[i] = decision{entries[i].ID, capture.Decide(&entries[i])}
				}
				// The active entries close to each lesson, for lessons that
				// have any: a repeat in other words is merged, not kept twice.
				type nearOf struct {
					ID      string             `json:"id"`
					Entries []curate.Neighbour `json:"entries"`
					Merge   string             `json:"merge"`
				}
				nears := []nearOf{}
				for i := range entries {
					if len(near[i]) > 0 {
						nears = append(nears, nearOf{entries[i].ID, near[i], mergeCommand("<that id>", entries[i].ID)})
					}
				}
				return e.writeJSON(map[string]any{"criteria": capture.Criteria, "entries": entries, "decide": decide, "commands": act, "near": nears})
			}
			fmt.Fprintf(e.Out, "flowmem memory judge: %s to judge against what memory keeps. Nothing has been changed.\n\n", plural(len(entries), "lesson", "lessons"))
			fmt.Fprintf(e.Out, "%s\n\n", capture.Criteria)
			for i := range entries {
				en := &entries[i]
				fmt.Fprintf(e.Out, "--- %d of %d\n", i+1, len(entries))
				e.printEntry(en, e.rel(p, s.Path(en.Kind)), en.Live() && en.Stale(e.Now(), e.staleAfter))
				fmt.Fprintf(e.Out, "Decide:   %s\n", capture.Decide(en))
				if len(near[i]) > 0 {
					fmt.Fprintln(e.Out, "Near it in memory:")
					for _, m := range near[i] {
						fmt.Fprintf(e.Out, "  %s (seen %dx): %s\n", m.ID, m.Seen, mdstore.Clip(mdstore.OneLine(m.Text), 300))
					}
					fmt.Fprintf(e.Out, "If it is one of these in other words: %s (keeps that entry's wording and adds this one's sightings to it; --into %s keeps this wording); if not, nothing to do\n", mergeCommand("<that id>", en.ID), en.ID)
				}
				fmt.Fprintln(e.Out)
			}
			fmt.Fprintln(e.Out, "To act (ID: one or more of the ids above):")
			if act.Archive != "" {
				fmt.Fprintf(e.Out, "- archive each of %s that fails: %s; keep each that holds, however it is worded\n", strings.Join(act.Active, " "), act.Archive)
			}
			if act.Approve != "" {
				fmt.Fprintf(e.Out, "- %s waiting for approval: approve each that holds: %s; reject each that fails: %s\n", strings.Join(act.Pending, " "), act.Approve, act.Reject)
			}
			if act.Restore != "" {
				fmt.Fprintf(e.Out, "- %s already archived: if one holds after all: %s\n", strings.Join(act.Gone, " "), act.Restore)
			}
			fmt.Fprintf(e.Out, "- add one lesson for each missing finding whose rule would guide code this change did not touch (none for a fix only this change needs, none from its summary, praise or passed checks): %s\n", act.Add)
			return nil
		},
	}
}

// judgeNear returns, for each entry judged, the active entries of memory
// closest to it (curate.Close), their texts as printed: the hook folds
// only a lesson worded as one memory holds, so a repeat in other words is
// for the model judging it to see. None for an archived entry: merge
// takes no archived entry, and restore is the question asked of it.
func judgeNear(s *mdstore.Store, entries []mdstore.Entry) ([][]curate.Neighbour, error) {
	var ids []string
	for _, en := range entries {
		if en.Status != mdstore.Archived {
			ids = append(ids, en.ID)
		}
	}
	out := make([][]curate.Neighbour, len(entries))
	if len(ids) == 0 {
		return out, nil
	}
	all, err := s.Load()
	if err != nil {
		return nil, err
	}
	close := curate.Close(all, ids, judgeNearK, curate.CloseFloor)
	for i, en := range entries {
		if n := slices.Index(ids, en.ID); n >= 0 {
			out[i] = close[n]
			for j := range out[i] {
				m := &out[i][j].Member
				m.Text, m.Fix = sanitize.Tags(m.Text), sanitize.Tags(m.Fix)
			}
		}
	}
	return out, nil
}

// judgeNearK is how many entries memory judge shows near a lesson.
const judgeNearK = 2

// mergeCommand is what a model runs when lesson is a repeat of old in
// other words: merge keeps the first id's text, so the wording memory
// already holds stays, and adds the lesson's sightings and tasks to it.
func mergeCommand(old, lesson string) string {
	return "flowmem memory merge " + old + " " + lesson
}

// runShow prints one entry whole (memory show).
func (e *env) runShow(c *cli.Context) error {
	p, _, s, err := e.memoryStore()
	if err != nil {
		return err
	}
	found, err := curate.Lookup(s, c.Args().Slice())
	if err != nil {
		return err
	}
	en := found[0]
	file := e.rel(p, s.Path(en.Kind))
	stale := en.Live() && en.Stale(e.Now(), e.staleAfter)
	if c.Bool("json") {
		return e.writeJSON(map[string]any{"file": file, "entry": en, "stale": stale})
	}
	e.printEntry(&en, file, stale)
	return nil
}
