package doctor

import (
	"fmt"
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// checkWhole looks for entries that are not whole: one that holds another
// entry's lines (a git merge of files written before entries carried their
// id on every line two entries could share, or a hand edit), and an append
// cut off before its closing newline (a full disk or a killed process),
// which readers leave out.
func (d *doctor) checkWhole(docs []*mdstore.Doc) {
	var damaged, cut, torn, stray, astray, conflicts []string
	var astrayFix string
	reworded := 0 // damaged entries that hold one lesson in two wordings
	// Which file holds each entry: a record of it in another file (a hand
	// edit, a forged change) counts for read and prime, which gather
	// records from every file, and not for show and list, which read each
	// file alone.
	home := map[string]mdstore.Kind{}
	for _, doc := range docs {
		for _, e := range doc.Entries {
			home[e.ID] = doc.Kind
		}
	}
	for _, doc := range docs {
		if l := mdstore.ConflictLine(doc.Raw); l > 0 {
			conflicts = append(conflicts, fmt.Sprintf("%s:%d", doc.Kind.File(), l))
		}
		seen := map[string]bool{}
		for _, r := range doc.Sightings {
			if k, ok := home[r.ID]; ok && k != doc.Kind && !seen[r.ID] {
				seen[r.ID] = true
				astray = append(astray, fmt.Sprintf("%s holds a record of %s, an entry of %s", doc.Kind.File(), r.ID, k.File()))
				if astrayFix == "" {
					astrayFix = fmt.Sprintf("move that line (grep -n 'id=%s' .flow/memory/%s) under its entry in %s, or delete it", r.ID, doc.Kind.File(), k.File())
				}
			}
		}
		for _, dm := range doc.Damaged {
			if dm.Reworded {
				reworded++
			}
			damaged = append(damaged, fmt.Sprintf("%s:%d: entry %s %s", doc.Kind.File(), dm.Line, dm.ID, dm.What))
		}
		// A lesson with fields and free text too: a field a hand edit
		// wrapped onto two lines, whose rest no reader shows with it.
		for _, e := range doc.Entries {
			if e.Issue != "" && e.Body != "" {
				text, _, _ := strings.Cut(e.Body, "\n")
				if r := []rune(text); len(r) > 60 {
					text = string(r[:60]) + "…"
				}
				stray = append(stray, fmt.Sprintf("%s:%d: entry %s holds a line that is no field (%q)", doc.Kind.File(), e.Line, e.ID, text))
			}
		}
		if doc.Incomplete > 0 {
			cut = append(cut, fmt.Sprintf("%s:%d", doc.Kind.File(), doc.Incomplete))
		}
		for _, l := range doc.Torn {
			torn = append(torn, fmt.Sprintf("%s:%d", doc.Kind.File(), l))
		}
	}
	switch {
	case len(conflicts) > 0:
		// Before the rest: the marker lines also read as stray text
		// and would be named with the wrong fix.
		d.add("entries whole", Fail, "an unresolved git merge conflict (<<<<<<<) at "+list(conflicts, ", ")+": its marker lines stand between entries",
			"keep both sides: delete the <<<<<<<, ======= and >>>>>>> lines (lessons are only ever appended, so both sides belong), then git add the file; "+
				"the .gitattributes line "+UnionLine+" (flowmem init) makes git merge memory files this way itself, but a web merge or a git without it does not")
	case len(damaged) > 0 && reworded == len(damaged):
		d.add("entries whole", Fail, list(damaged, "; "),
			"keep one wording: delete the **Issue** line you do not want (leave both metadata lines: readers fold them); then run flowmem doctor again")
	case len(damaged) > 0:
		d.add("entries whole", Fail, list(damaged, "; "),
			"open the file at the line named and move the lines that belong to the other lesson under a heading of their own "+
				"(a copy of the heading with that lesson's id), with its own metadata line; then run flowmem doctor again")
	case len(cut) > 0:
		d.add("entries whole", Warn, "text without a closing newline at the end of "+list(cut, ", ")+" is left out by every reader (an append that failed half-way)",
			"if that entry is complete, add a newline at the end of the file; otherwise delete it from the line named")
	case len(torn) > 0:
		d.add("entries whole", Warn, "an append cut off (a crash or a full disk) ends before the torn mark at "+list(torn, ", ")+"; every reader leaves it out",
			"delete the cut-off text (from the blank line before the mark) and the mark line; if it was a lesson, it comes back the next time a review finds it")
	case len(astray) > 0:
		d.add("entries whole", Warn, list(astray, "; ")+": read, prime and the scout count it, memory show and list do not", astrayFix)
	case len(stray) > 0:
		d.add("entries whole", Warn, list(stray, "; ")+", which read, prime and the scout do not show: a field wrapped onto two lines?",
			"join that line to the field above it (each field is one line), or start it with its own label (**Fix**: or **Context**:)")
	default:
		d.add("entries whole", OK, "every entry is whole, and every file ends with a complete one", "")
	}
}
