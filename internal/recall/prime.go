package recall

import (
	"bytes"
	"cmp"
	"math"
	"slices"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// Confirmed reports whether a lesson has been borne out: seen in more than
// one review, or written down by a person.
func Confirmed(e *mdstore.Entry) bool {
	return e.Seen >= 2 || e.Source == "manual"
}

// PrimeIDs returns the prompt-ready block of the lessons that matter most
// for task within opt.MaxChars (PrimeMaxChars by default, never above
// PrimeHardCap), and the ids of the entries it holds (for the injection
// record memory audit reads). It takes the lessons Search would return and
// puts the confirmed ones first, so that they are the ones kept when the
// budget runs out. With no task words it lists the top confirmed lessons
// by recurrence and recency. The block is "" when nothing qualifies, so
// callers can leave it out: a prompt is better without lessons than with
// unrelated ones; when lessons qualify but none fits, the error is a
// NoFitError.
func PrimeIDs(files []File, task string, opt Options) (string, []string, error) {
	limit := limitOf(opt)
	budget := min(cmp.Or(max(opt.MaxChars, 0), PrimeMaxChars), PrimeHardCap)
	opt.Floor = cmp.Or(opt.Floor, StrictFloor)
	var hits []Hit
	var err error
	if q := parseQuery(task); len(q.terms) > 0 {
		var lists [][]Hit
		lists, err = search(files, []*query{q}, opt, limit)
		hits = slices.Concat(lists...)
		// Lessons that answer the task lead, confirmed ones first in each
		// group: they are the ones kept when the budget runs out.
		lead(hits, func(h *Hit) bool { return Confirmed(&h.Entry) })
		lead(hits, func(h *Hit) bool { return h.answers })
	} else {
		hits, err = topConfirmed(files, opt, limit)
	}
	if err != nil || len(hits) == 0 {
		return "", nil, err
	}
	// Stale lessons come last, so they are the ones the budget cuts.
	lead(hits, func(h *Hit) bool { return !h.Entry.Stale(opt.Now, opt.StaleAfterDays) })
	var ids []string
	if out := block(header+primeIntro, hits, limit, budget, ageingOf(&opt), &ids); out != "" {
		return out, ids, nil
	}
	return "", nil, noFit(header+primeIntro, hits, budget, ageingOf(&opt))
}

// topConfirmed ranks confirmed lessons without a query: recurrence first,
// weighed down as they age. Only entries whose metadata says seen=2 or
// more, or whose heading says manual, are parsed. A lesson a file holds
// more than once (a union merge's copies) is confirmed as one: the pass
// counts the ids, and when one came twice it is made again with the
// copies folded (foldCopies).
func topConfirmed(files []File, opt Options, k int) ([]Hit, error) {
	var r reader
	sightings, err := r.collectSightings(files, nil)
	if err != nil {
		return nil, err
	}
	ids := newIDCount(files)
	hits, err := r.confirmed(files, sightings, ids, nil, opt, k)
	if err != nil || !ids.twice() {
		return hits, err
	}
	folds, err := foldCopies(files, ids)
	if err != nil {
		return nil, err
	}
	return r.confirmed(files, sightings, nil, folds, opt, k)
}

// confirmed is one pass of topConfirmed, counting the ids it reads, the
// copies in folds read as their fold.
func (r *reader) confirmed(files []File, sightings map[string]sighting, ids *idCount, folds map[at]*copies, opt Options, k int) ([]Hit, error) {
	top := topK{k: k}
	err := r.eachSegment(files, func(fi int, seg []byte, _ int64, line int) {
		e, skip := take(folds, fi, line)
		if skip || e == nil && !mayBeConfirmed(seg, sightings, ids) {
			return
		}
		if e == nil {
			pe, ok := mdstore.ParseSegment(files[fi].Kind, seg, line)
			if !ok {
				return
			}
			e = &pe
		}
		addSightings(sightings, e)
		if !eligible(e) || !Confirmed(e) {
			return
		}
		rec := 1.0
		if !opt.Now.IsZero() {
			rec = recency(e, opt.Now)
		}
		top.offer(Hit{Entry: *e, Score: (1 + math.Log(math.Max(float64(e.Seen), 1))) * (0.5 + 0.5*rec)})
	})
	return top.sorted(), err
}

// mayBeConfirmed reads only an entry's heading and metadata line: whether
// it is manual, seen twice or more, or has sightings. It counts the
// metadata line's id in ids.
func mayBeConfirmed(seg []byte, sightings map[string]sighting, ids *idCount) bool {
	head, rest, _ := bytes.Cut(seg, []byte("\n"))
	if bytes.Contains(head, []byte(" manual")) {
		if id := metaID(rest); id != nil {
			ids.add(id)
		}
		return true
	}
	if id, ok := seenOnce(rest); ok {
		// Most lessons: confirmed only by a sighting. (ReadMeta reads
		// every field, tasks too: it was most of the pass.)
		ids.add(id)
		_, seen := sightings[string(id)]
		return seen
	}
	i := bytes.Index(rest, metaOpen)
	if i < 0 {
		return false
	}
	meta, _, _ := bytes.Cut(rest[i:], []byte("\n"))
	m, ok := mdstore.ReadMeta(meta)
	if ok && !m.Sighting {
		ids.add(m.ID)
	}
	_, seen := sightings[string(m.ID)]
	return ok && (seen || m.Seen >= 2)
}

// seenOnce reads the metadata line rest begins when it is as flowmem
// writes it and says seen=1: one id field, the first, one seen field, the
// line closed. Its id and true then: what ReadMeta would read (the last of
// each field counts, so a line with two is left to it).
func seenOnce(rest []byte) ([]byte, bool) {
	l, _, _ := bytes.Cut(rest, []byte("\n"))
	id := metaID(l)
	if id == nil || !bytes.HasSuffix(l, []byte(" -->")) {
		return nil, false
	}
	after := l[len(metaIDOpen)+len(id):]
	i := bytes.Index(after, []byte(" seen="))
	if i < 0 || !bytes.HasPrefix(after[i+len(" seen="):], []byte("1 ")) {
		return nil, false
	}
	rest = after[i+len(" seen=1"):]
	if bytes.Contains(after[:i], []byte(" id=")) || bytes.Contains(rest, []byte(" id=")) || bytes.Contains(rest, []byte(" seen=")) {
		return nil, false
	}
	return id, true
}

// recordLines records every sighting line of b, which is whole lines,
// and with ids counts the id of every metadata line (a search for those
// stops at every entry; most files hold no sighting).
func recordLines(b []byte, m map[string]sighting, ids *idCount) {
	open := seenOpen
	if ids != nil {
		open = metaOpen
	}
	// A line's own comment only, as mdstore reads records: a '<' that
	// begins a line (most end one: the id tags), then the opening.
	for at := 0; ; {
		i := bytes.IndexByte(b[at:], '<')
		if i < 0 {
			return
		}
		i += at
		if (i > 0 && b[i-1] != '\n') || !bytes.HasPrefix(b[i:], open) {
			at = i + 1
			continue
		}
		l, _, _ := bytes.Cut(b[i:], []byte("\n"))
		recordLine(l, m, ids)
		at = i + len(l)
	}
}
