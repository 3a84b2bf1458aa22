// Package curate keeps memory small, true and trusted: it finds entries by
// id or unique id prefix, retires them (archive, forget), brings them back
// (restore), decides on lessons waiting for approval, joins entries that say
// the same thing (merge), and proposes which entries probably do (Groups).
// Every change is one atomic rewrite of a memory file under the store's
// lock (mdstore.Store.Rewrite), so it cannot lose a concurrent capture.
package curate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// ErrNotFound means no entry has the id or id prefix given.
var ErrNotFound = errors.New("no such entry")

// Find returns the entry whose id is id, or the only one whose id starts
// with it, in any case (ids are lower-case hex; a page or a font may show
// them otherwise). An unknown or ambiguous id is an error that says which.
func Find(entries []mdstore.Entry, id string) (mdstore.Entry, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return mdstore.Entry{}, errors.New("an empty id matches nothing")
	}
	var found mdstore.Entry
	var ids []string
	for _, e := range entries {
		if strings.EqualFold(e.ID, id) {
			return e, nil
		}
		if len(e.ID) >= len(id) && strings.EqualFold(e.ID[:len(id)], id) {
			found, ids = e, append(ids, e.ID)
		}
	}
	n := len(ids)
	switch {
	case n == 0:
		return mdstore.Entry{}, fmt.Errorf("%w: no id is or starts with %q (memory read lists active entries with their ids; memory search --json finds any entry)", ErrNotFound, id)
	case n == 1:
		return found, nil
	case n > 5:
		ids = append(ids[:5], "…")
	}
	return mdstore.Entry{}, fmt.Errorf("id %q is ambiguous: it starts %d ids (%s); give more of it", id, n, strings.Join(ids, ", "))
}

// Lookup resolves ids against every entry of the store, in order. Naming
// one entry twice is an error too: it is almost always a typo. An id of an
// entry memory forget removed is an error that says so.
func Lookup(s *mdstore.Store, ids []string) ([]mdstore.Entry, error) {
	entries, gone, err := LookupGone(s, ids)
	if err == nil && len(gone) > 0 {
		err = fmt.Errorf("%s was forgotten: memory forget removed it from %s (git history still has it)", gone[0].ID, gone[0].Kind.File())
	}
	return entries, err
}

// LookupGone is Lookup that returns, apart, the ids that name no entry but
// one memory forget removed (each with its kind; by a unique start too).
func LookupGone(s *mdstore.Store, ids []string) (entries, gone []mdstore.Entry, err error) {
	all, err := s.Load()
	if err != nil {
		return nil, nil, err
	}
	// Ids that name an entry go to lookupIn, which reports the unknown,
	// the ambiguous and the twice-named; only an id it would call unknown
	// is looked for among the forgotten.
	var known []string
	var forgotten []mdstore.Entry // loaded on the first unknown id
	for _, id := range ids {
		if _, err := Find(all, id); !errors.Is(err, ErrNotFound) {
			known = append(known, id)
			continue
		}
		if forgotten == nil {
			if forgotten, err = forgottenOf(s); err != nil {
				return nil, nil, err
			}
		}
		g, gerr := Find(forgotten, id)
		switch {
		case errors.Is(gerr, ErrNotFound):
			known = append(known, id) // lookupIn says it is unknown
		case gerr != nil:
			return nil, nil, gerr
		case !slices.ContainsFunc(gone, func(o mdstore.Entry) bool { return o.ID == g.ID }):
			gone = append(gone, g)
		}
	}
	if entries, err = lookupIn(all, known); err != nil {
		return nil, nil, err
	}
	return entries, gone, nil
}

// forgottenOf is the entries memory forget removed, as ids and kinds
// alone; never nil.
func forgottenOf(s *mdstore.Store) ([]mdstore.Entry, error) {
	out := []mdstore.Entry{}
	for _, k := range mdstore.Kinds {
		ids, err := s.Forgotten(k)
		if err != nil {
			return nil, err
		}
		for _, id := range slices.Sorted(maps.Keys(ids)) {
			out = append(out, mdstore.Entry{ID: id, Kind: k, Status: mdstore.Forgotten})
		}
	}
	return out, nil
}

// goneOr is err, a failed lookup of ids among the entries, or, when it
// found no such entry and one of ids names an entry memory forget removed,
// the error that says so, as Lookup says it.
func goneOr(s *mdstore.Store, ids []string, err error) error {
	if !errors.Is(err, ErrNotFound) {
		return err
	}
	if _, lerr := Lookup(s, ids); lerr != nil {
		return lerr
	}
	return err
}

// lookupIn is Lookup among entries already loaded.
func lookupIn(all []mdstore.Entry, ids []string) ([]mdstore.Entry, error) {
	var out []mdstore.Entry
	for _, id := range ids {
		e, err := Find(all, id)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(o mdstore.Entry) bool { return o.ID == e.ID }) {
			return nil, fmt.Errorf("%s is named twice", e.ID)
		}
		out = append(out, e)
	}
	return out, nil
}

// Action is a change of one entry's status.
type Action string

// The actions Apply takes.
const (
	Archive Action = "archive" // kept for the record, never recalled
	Restore Action = "restore" // an archived entry is active again
	Forget  Action = "forget"  // removed from the file
	Approve Action = "approve" // a pending lesson becomes active
	Reject  Action = "reject"  // a pending lesson is archived, so a repeat stays out too
)

// check says whether e is already as the action would leave it (done),
// or why the action cannot apply to it. Already done is no error: a
// script that archives or approves a list of ids can run again after a
// stop and get the same answer. A state the action does not lead from
// (restoring a lesson that waits for approval, approving an archived one)
// is: doing nothing there would leave a state nobody asked for.
func (a Action) check(e *mdstore.Entry) (done bool, err error) {
	switch a {
	case Archive:
		return e.Status == mdstore.Archived, nil
	case Restore:
		switch e.Status {
		case mdstore.Active:
			return true, nil
		case mdstore.Pending:
			return false, fmt.Errorf("%s is pending approval, not archived: memory approve %s lets it reach prompts", e.ID, e.ID)
		}
	case Approve:
		switch e.Status {
		case mdstore.Active:
			return true, nil
		case mdstore.Archived:
			return false, fmt.Errorf("%s is archived, not pending approval: memory restore %s brings it back", e.ID, e.ID)
		}
	case Reject:
		switch e.Status {
		case mdstore.Archived:
			return true, nil
		case mdstore.Active:
			return false, fmt.Errorf("%s is active, not pending approval: memory archive %s retires it", e.ID, e.ID)
		}
	case Forget:
	default:
		return false, fmt.Errorf("unknown action %q", a)
	}
	return false, nil
}

// apply changes e as the action does; false means remove it.
func (a Action) apply(e *mdstore.Entry) bool {
	switch a {
	case Archive, Reject:
		e.Status = mdstore.Archived
	case Restore, Approve:
		e.Status, e.MergedInto, e.IntoOwn = mdstore.Active, "", ""
	case Forget:
		return false
	}
	return true
}

// Apply takes action on the entries given, as they were before, and
// returns those it left alone because they were already as the action
// would leave them (archived for archive and reject, active for restore
// and approve). Every entry is checked before anything is written: an
// unknown, ambiguous or unsuitable id changes nothing. Entries of one kind
// change in one atomic rewrite.
func Apply(ctx context.Context, s *mdstore.Store, action Action, entries []mdstore.Entry) (already []mdstore.Entry, err error) {
	for i := range entries {
		if _, err := action.check(&entries[i]); err != nil {
			return nil, err
		}
	}
	for _, k := range mdstore.Kinds {
		var ids []string
		for _, e := range entries {
			if e.Kind == k {
				ids = append(ids, e.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		var left []mdstore.Entry
		err := s.Rewrite(ctx, k, func(current []mdstore.Entry) (map[string]*mdstore.Entry, error) {
			changes := map[string]*mdstore.Entry{}
			left = nil
			for _, id := range ids {
				// The entry is looked up again under the lock: another
				// command may have changed it since.
				i := slices.IndexFunc(current, func(e mdstore.Entry) bool { return e.ID == id })
				if i < 0 {
					return nil, fmt.Errorf("%s: %w (it went while this ran)", id, ErrNotFound)
				}
				e := current[i]
				if c := changes[id]; c != nil {
					// An entry this call changed already (the survivor of
					// one restored before it) is taken as changed.
					e = *c
				}
				if done, err := action.check(&e); err != nil {
					return nil, err
				} else if done {
					left = append(left, e)
					continue
				}
				if action == Restore && e.MergedInto != "" {
					unmerge(current, changes, ids, e)
				}
				if action.apply(&e) {
					changes[id] = &e
				} else {
					changes[id] = nil
				}
			}
			return changes, nil
		})
		if err != nil {
			return nil, err
		}
		already = append(already, left...)
	}
	return already, nil
}

// unmerge undoes restored entry e's part of its merge in changes: the
// survivor no longer counts what e gave it (gave=, else e's count), and
// its dates and tasks are again what it held of its own (into-own=) and
// what the entries still merged into it hold. A survivor that was itself
// merged into another (C into B, then B into A) passes the same back to
// its own survivor, which counted it through B, and gives that much less.
// ids are the entries restored in this call, which count for none.
func unmerge(current []mdstore.Entry, changes map[string]*mdstore.Entry, ids []string, e mdstore.Entry) {
	give := e.Seen
	if e.Gave > 0 {
		give = min(e.Gave, e.Seen)
	}
	// Up the whole chain: a cycle ends at the check below, and no chain is
	// longer than the entries.
	from, seen := e, []string(nil)
	for hops := 0; from.MergedInto != "" && hops < len(current); hops++ {
		j := slices.IndexFunc(current, func(x mdstore.Entry) bool { return x.ID == from.MergedInto })
		if j < 0 {
			return
		}
		sv := current[j]
		if c := changes[sv.ID]; c != nil {
			sv = *c
		}
		sv.Seen = max(1, sv.Seen-give)
		// What it took in names e no more (through from, further on).
		sv.Took = mdstore.ParseTook(sv.Took).With(from.ID, give, func(had, n int) int {
			if from.ID == e.ID {
				return 0
			}
			return had - n
		}).String()
		if own, ok := mdstore.ParseOwn(from.IntoOwn); ok {
			for _, x := range current {
				if c := changes[x.ID]; c != nil {
					x = *c
				}
				if x.Status == mdstore.Archived && x.MergedInto == sv.ID && !slices.Contains(ids, x.ID) {
					own.Add(x.Date, x.LastSeen, x.Tasks)
				}
			}
			sv.Date, sv.LastSeen, sv.Tasks = cmp.Or(own.First, sv.Date), cmp.Or(own.Last, sv.LastSeen), own.Tasks
		}
		changes[sv.ID] = &sv
		if sv.Status != mdstore.Archived || sv.MergedInto == "" || sv.MergedInto == e.ID || slices.Contains(seen, sv.MergedInto) {
			// Not merged on, or merged back into one on the way: two
			// teammates merged a pair opposite ways (a cycle).
			return
		}
		if sv.Gave > 0 {
			sv.Gave = max(1, sv.Gave-give)
		}
		seen = append(seen, sv.ID)
		from = sv
	}
}

// Merged is what Merge did.
type Merged struct {
	Into   mdstore.Entry   `json:"into"`
	Merged []mdstore.Entry `json:"merged"`
}

// Merge joins entries that say the same thing into one survivor: into, or
// the first entry when into is "". The survivor keeps its text; its seen
// count becomes the sum, its first and last dates the earliest and latest,
// its tasks the union. The others are archived with merged-into=<survivor>
// and what the survivor held of its own (into-own=), so memory restore can
// take back exactly what one of them brought. All in one atomic rewrite of
// their file.
func Merge(ctx context.Context, s *mdstore.Store, ids []string, into string) (Merged, error) {
	all, err := s.Load()
	if err != nil {
		return Merged{}, err
	}
	entries, err := lookupIn(all, ids)
	if err != nil {
		return Merged{}, goneOr(s, ids, err)
	}
	if into != "" {
		// The survivor goes first, the others keep their order; --into
		// may name one of them by another spelling.
		sv, err := Find(all, into)
		if err != nil {
			return Merged{}, goneOr(s, []string{into}, err)
		}
		entries = slices.DeleteFunc(entries, func(e mdstore.Entry) bool { return e.ID == sv.ID })
		entries = append([]mdstore.Entry{sv}, entries...)
	}
	if len(entries) < 2 {
		return Merged{}, errors.New("merge needs at least two entries")
	}
	k := entries[0].Kind
	for _, e := range entries {
		if e.Kind != k {
			return Merged{}, fmt.Errorf("%s is a %s and %s a %s: only entries of one type merge (to keep one of them, archive the other: flowmem memory archive ID)", entries[0].ID, k, e.ID, e.Kind)
		}
		if e.Status == mdstore.Archived {
			return Merged{}, fmt.Errorf("%s is archived: restore it first to merge it", e.ID)
		}
	}
	var out Merged
	err = s.Rewrite(ctx, k, func(current []mdstore.Entry) (map[string]*mdstore.Entry, error) {
		out = Merged{}
		changes := map[string]*mdstore.Entry{}
		var group []mdstore.Entry
		for _, want := range entries {
			i := slices.IndexFunc(current, func(e mdstore.Entry) bool { return e.ID == want.ID })
			if i < 0 {
				return nil, fmt.Errorf("%s: %w (it went while this ran)", want.ID, ErrNotFound)
			}
			if current[i].Status == mdstore.Archived {
				return nil, fmt.Errorf("%s is archived: restore it first to merge it", want.ID)
			}
			group = append(group, current[i])
		}
		sv := group[0]
		// What the survivor holds of its own goes on each entry merged
		// into it, for memory restore: what an earlier merge recorded, or
		// what it holds now.
		own, ok := mdstore.Own{}, false
		for _, x := range current {
			if o, isOwn := mdstore.ParseOwn(x.IntoOwn); isOwn && x.Status == mdstore.Archived && x.MergedInto == sv.ID {
				own.Add(o.First, o.Last, o.Tasks)
				ok = true
			}
		}
		if !ok {
			own.Add(sv.Date, sv.LastSeen, sv.Tasks)
		}
		sv.Seen = 0
		for _, e := range group {
			sv.Seen += e.Seen
			if e.Date != "" && (sv.Date == "" || e.Date < sv.Date) {
				sv.Date = e.Date
			}
			sv.LastSeen = max(sv.LastSeen, e.LastSeen)
			for _, t := range e.Tasks {
				if !slices.Contains(sv.Tasks, t) {
					sv.Tasks = append(sv.Tasks, t)
				}
			}
			if e.Status == mdstore.Active {
				// A lesson someone approved stays approved in the merge.
				sv.Status = mdstore.Active
			}
		}
		changes[sv.ID] = &sv
		took := mdstore.ParseTook(sv.Took)
		for _, e := range group[1:] {
			took = took.With(e.ID, e.Seen, func(_, n int) int { return n })
		}
		sv.Took = took.String()
		for _, e := range group[1:] {
			e.Status, e.MergedInto, e.IntoOwn, e.Gave = mdstore.Archived, sv.ID, own.String(), e.Seen
			changes[e.ID] = &e
			out.Merged = append(out.Merged, e)
		}
		out.Into = sv
		return changes, nil
	})
	if err != nil {
		return Merged{}, err
	}
	return out, nil
}
