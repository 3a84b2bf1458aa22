package mdstore

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flowmem/flowmem/internal/atomicfile"
)

// Edit decides, from the entries of one memory file as readers see them
// (folded, every sighting counted), which to change: each id in the result
// is replaced by its entry, or removed when the entry is nil. An error
// leaves the file untouched.
type Edit func(entries []Entry) (map[string]*Entry, error)

// Rewrite changes entries of kind k in one atomic replacement of the file,
// under the writer lock, so no hook's append can fall between the read and
// the write. A changed entry is written whole, in place of its first copy,
// with its folded state on one metadata line, which its other copies (a
// union merge of two branches that both captured it) take for theirs.
// Every other byte of the file stays as it was, and no sighting line is
// removed or changed, not even a changed or forgotten entry's own (those of
// other entries in a removed first entry move to the end of the file, to
// stand in an entry): the metadata line counts, and names the tasks of,
// only what the sighting lines do not.
//
// That is what keeps a teammate's count whole. Git's union merge resolves a
// change that touches another (a deleted line next to one appended on the
// other side) by keeping both sides' lines, so any line a rewrite deletes
// near the end of the file, where hooks append, comes back in the merge: a
// sighting folded into its metadata and deleted would be counted twice. A
// sighting line kept counts once however the merge goes, and the metadata
// line a rewrite changes never stands at the end of an entry, where an
// append could touch it. A forgotten entry last in the file, with no
// sighting after it, still comes back that way (its lines are all it
// has), so a forget leaves a mark that readers honour (Forgotten).
func (s *Store) Rewrite(ctx context.Context, k Kind, edit Edit) error {
	unlock, err := s.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	path := s.Path(k)
	d, err := s.ReadDoc(k)
	if err != nil {
		return err
	}
	if n := ConflictLine(d.Raw); n > 0 {
		// Rewritten, the markers would become text of the lessons they
		// fall in, where nobody would find them.
		return fmt.Errorf("%s:%d: %s; nothing was changed", k.File(), n, ConflictAdvice)
	}
	folded := d.Folded()
	changes, err := edit(folded)
	if err != nil || len(changes) == 0 {
		return err
	}
	for i := range folded {
		// A count raised by a rewrite (a merge's survivor counts the
		// lessons merged into it) holds sightings that are not its
		// captures': another clone's copy of it may hold them too.
		if e := changes[folded[i].ID]; e != nil && e.Seen > folded[i].Seen {
			e.Copies = ""
		}
	}
	for id, e := range changes {
		if e == nil {
			continue
		}
		e.Kind = k
		e.Normalize()
		if e.ID != id {
			return fmt.Errorf("rewrite %s: an entry cannot change its id (to %s)", id, e.ID)
		}
	}
	out, err := rewriteRaw(d, changes)
	if err != nil {
		return err
	}
	if path, err = writeTarget(path); err != nil {
		return err
	}
	if err := atomicfile.Write(path, out, 0o644); err != nil {
		return fmt.Errorf("rewrite memory: %w", err)
	}
	return nil
}

// ConflictAdvice says what git's conflict markers in a memory file are and
// how to resolve them (ConflictLine).
const ConflictAdvice = "git's conflict markers (<<<<<<<, =======, >>>>>>>) from a merge without merge=union: " +
	"delete the marker lines (and a ||||||| section up to its =======) and keep both sides' lines, as merge=union does; then git add the file"

// rewriteRaw is d's file with changes made: the bytes between entries are
// copied, changed entries rendered anew with the records of them that stay
// in the file (sightings, metadata lines a merge moved) left out of their
// count, and every record kept.
func rewriteRaw(d *Doc, changes map[string]*Entry) ([]byte, error) {
	raw := d.Raw
	var out bytes.Buffer
	out.Grow(len(raw) + 256)
	// What the records that stay say of each changed entry, which its new
	// metadata line leaves to them: readers fold two metadata lines of one
	// lesson by their largest count or number of tasks, so a task a
	// sighting names, written there too, could count once more. The
	// tasks are kept cleaned, as Normalize left the changed entry's: a
	// sighting's task as read ("f" and a control byte) is another string
	// than the same task cleaned, and would not keep it off the line.
	records := make(map[string]*Entry, len(changes))
	for i := range d.Sightings {
		r := &d.Sightings[i]
		if _, ok := changes[r.ID]; ok {
			if records[r.ID] == nil {
				records[r.ID] = &Entry{}
			}
			records[r.ID].Seen++
			for _, t := range r.Tasks {
				records[r.ID].Tasks = append(records[r.ID].Tasks, token(t))
			}
		}
	}
	metaLine := make(map[string]string, len(changes))
	written := make(map[string]bool, len(changes))
	pos := 0
	skipGap := false
	// wrote says an entry is in out, so a record written next is inside
	// it; moved holds the records of a removed first entry, which have no
	// entry before them to stay in and go to the end of the file.
	wrote := false
	var moved bytes.Buffer
	for i, sp := range d.spans {
		if !skipGap {
			out.Write(raw[pos:sp.start])
		}
		skipGap = false
		pos = sp.end
		seg := raw[sp.start:sp.end]
		id := d.Entries[i].ID
		e, touched := changes[id]
		if !touched {
			out.Write(seg)
			wrote = true
			continue
		}
		first := !written[id]
		written[id] = true
		if first && e != nil {
			own := *e
			if r := records[id]; r != nil {
				own.Seen = max(1, e.Seen-r.Seen)
				own.Tasks = slices.DeleteFunc(slices.Clone(e.Tasks), func(t string) bool { return slices.Contains(r.Tasks, t) })
			}
			text := Render(&own)
			metaLine[id] = strings.SplitN(text, "\n", 3)[1]
			out.WriteString(text)
			wrote = true
		}
		before := out.Len()
		// The entry's own lines are replaced; the records that an append
		// or a merge left in its segment stay, its own sightings too.
		keep := func(l string) bool { return isRecord(l, id) }
		switch {
		case e != nil && !first && slices.ContainsFunc(strings.Split(string(seg), "\n"), func(l string) bool { return ownMeta(l, id) }):
			// Another copy of the entry (a union merge of two branches
			// that both captured it) keeps its lines, its metadata made
			// the entry's new one: removed, it would come back in the
			// next union merge next to a teammate's append, and its old
			// status would count as much as the new one.
			writeLines(&out, seg, true, func(string) bool { return true }, func(l string) string {
				if ownMeta(l, id) {
					return metaLine[id]
				}
				return l
			})
		case e != nil:
			writeLines(&out, seg, true, keep, nil)
		case wrote:
			// A removed entry's records now stand in the entry before
			// it, written as sightings: an entry with no metadata line
			// of its own (flow-next's format) would take a plain
			// metadata line as its own and change id, while a sighting
			// counts for its id wherever it stands, as the record did
			// where it was. The forget's mark stands there too.
			writeLines(&out, seg, false, keep, asSighting)
			if first {
				out.WriteString(forgetMark(id))
			}
		default:
			// No entry before it: the records of others go to the end
			// of the file, in the last entry. Its own sightings count for
			// nothing now and stay where they are, before every entry:
			// gone, they would leave nothing of it between its lines and
			// the end of the file, where a teammate's append would bring
			// it all back in a union merge.
			own := func(l string) bool {
				if !strings.HasPrefix(l, metaPrefix) {
					return false
				}
				m, sighting, ok := parseMeta(strings.TrimRight(l, "\r"))
				return ok && sighting && m.ID == id
			}
			writeLines(&out, seg, false, own, nil)
			writeLines(&moved, seg, true, func(l string) bool { return keep(l) && !own(l) }, asSighting)
			if first {
				// The mark goes in an entry where one follows; with
				// none, after the entry's own sightings.
				moved.WriteString("\n" + forgetMark(id))
			}
		}
		if e == nil && out.Len() == before {
			// A removed entry takes the blank lines after it along.
			skipGap = true
		}
	}
	if !skipGap {
		out.Write(raw[pos:])
	}
	if moved.Len() > 0 && !wrote {
		// Nothing was left to hold the records: the mark alone stays, at
		// the end (the records of others had no entry either).
		moved.Reset()
		for _, id := range slices.Sorted(maps.Keys(changes)) {
			if changes[id] == nil {
				moved.WriteString("\n" + forgetMark(id))
			}
		}
		wrote = true
	}
	if moved.Len() > 0 && wrote {
		// Before text an append left unfinished at the end, which must
		// stay last and unfinished for readers to leave it out.
		b := out.Bytes()
		tail := slices.Clone(b[bytes.LastIndexByte(b, '\n')+1:])
		out.Truncate(len(b) - len(tail))
		if bytes.HasSuffix(out.Bytes(), []byte("\n\n")) {
			out.Truncate(out.Len() - 1)
		}
		for _, l := range strings.SplitAfter(strings.TrimLeft(moved.String(), "\n"), "\n") {
			if strings.TrimSpace(l) != "" {
				out.WriteString("\n" + l)
			}
		}
		if len(tail) > 0 {
			out.WriteString("\n")
			out.Write(tail)
		}
	}
	for id := range changes {
		if !written[id] {
			return nil, fmt.Errorf("rewrite memory: no entry %s in %s", id, d.Kind.File())
		}
	}
	return out.Bytes(), nil
}

// forgetMark is the line memory forget leaves for entry id (Forgotten).
func forgetMark(id string) string {
	return metaPrefix + " seen id=" + id + " status=" + string(Forgotten) + " -->\n"
}

// writeLines copies the lines of seg that keep accepts (given without
// their line ending). Blank lines go with the line after them: every
// append starts with one, so dropping a record drops its blank line too.
// With lead false, the first line kept comes without the blank lines
// before it. conv, if not nil, rewrites each kept line.
func writeLines(out *bytes.Buffer, seg []byte, lead bool, keep func(l string) bool, conv func(l string) string) {
	blanks := 0
	for len(seg) > 0 {
		line := seg
		if i := bytes.IndexByte(seg, '\n'); i >= 0 {
			line, seg = seg[:i+1], seg[i+1:]
		} else {
			seg = nil
		}
		l := strings.TrimRight(string(line), "\r\n")
		if strings.TrimSpace(l) == "" {
			blanks++
			continue
		}
		if keep(l) {
			for ; lead && blanks > 0; blanks-- {
				out.WriteByte('\n')
			}
			if conv != nil {
				out.WriteString(conv(l))
				out.Write(line[len(l):])
			} else {
				out.Write(line)
			}
			lead = true
		}
		blanks = 0
	}
}

// asSighting is record line l as a sighting line, which readers count
// the same way (one recurrence, its last date and tasks) but never take as
// the metadata of the entry it stands in.
func asSighting(l string) string {
	if _, sighting, ok := parseMeta(l); !ok || sighting {
		return l
	}
	return metaPrefix + " seen " + strings.TrimSpace(l[len(metaPrefix):])
}

// ownMeta reports whether l is a metadata line of entry id.
func ownMeta(l, id string) bool {
	if !strings.HasPrefix(l, metaPrefix) {
		return false
	}
	m, sighting, ok := parseMeta(strings.TrimRight(l, "\r"))
	return ok && !sighting && m.ID == id
}

// isRecord reports whether l, a line in entry own's segment, is a record
// that counts by id: a sighting of any entry, or another entry's metadata.
func isRecord(l, own string) bool {
	if !strings.HasPrefix(l, metaPrefix) {
		return false
	}
	m, sighting, ok := parseMeta(l)
	// A torn append's mark goes with the text it marks, which is none of
	// the entry's records: kept alone, it would mark the record before it.
	return ok && m.ID != "" && m.ID != tornID && (sighting || m.ID != own)
}

// survivor follows merged-into pointers from e to the entry that holds its
// lesson now (up the whole chain; a cycle a hand edit made ends at the
// first id seen twice), and returns e itself when there is none: a review
// that repeats a merged wording is a sighting of the entry it was merged
// into.
func (m *memory) survivor(e Entry) Entry {
	seen := []string{e.ID}
	for e.MergedInto != "" && !slices.Contains(seen, e.MergedInto) {
		want := e.MergedInto
		seen = append(seen, want)
		var next Entry
		m.records("id", want, func(doc []byte, start int, sighting bool) bool {
			if sighting {
				return true
			}
			if x, ok := m.entryAt(doc, start); ok && x.ID == want {
				next = x
				return false
			}
			return true
		})
		if next.ID == "" {
			break
		}
		e = m.state(next)
	}
	return e
}
