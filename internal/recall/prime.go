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
// unrelated ones.
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
	return block(header+primeIntro, hits, limit, budget, &ids), ids, nil
}

// topConfirmed ranks confirmed lessons without a query: recurrence first,
// weighed down as they age. Only entries whose metadata says seen=2 or
// more, or whose heading says manual, are parsed.
func topConfirmed(files []File, opt Options, k int) ([]Hit, error) {
	top := topK{k: k}
	var r reader
	sightings, err := r.collectSightings(files)
	if err != nil {
		return nil, err
	}
	err = r.eachSegment(files, func(fi int, seg []byte, _ int64, line int) {
		if !mayBeConfirmed(seg, sightings) {
			return
		}
		e, ok := mdstore.ParseSegment(files[fi].Kind, seg, line)
		if !ok || !eligible(&e) {
			return
		}
		addSightings(sightings, &e)
		if !Confirmed(&e) {
			return
		}
		r := 1.0
		if !opt.Now.IsZero() {
			r = recency(&e, opt.Now)
		}
		top.offer(Hit{Entry: e, Score: (1 + math.Log(math.Max(float64(e.Seen), 1))) * (0.5 + 0.5*r)})
	})
	return top.sorted(), err
}

// mayBeConfirmed reads only an entry's heading and metadata line: whether
// it is manual, seen twice or more, or has sightings.
func mayBeConfirmed(seg []byte, sightings map[string]sighting) bool {
	head, rest, _ := bytes.Cut(seg, []byte("\n"))
	if bytes.Contains(head, []byte(" manual")) {
		return true
	}
	i := bytes.Index(rest, metaOpen)
	if i < 0 {
		return false
	}
	meta, _, _ := bytes.Cut(rest[i:], []byte("\n"))
	m, ok := mdstore.ReadMeta(meta)
	_, seen := sightings[string(m.ID)]
	return ok && (seen || m.Seen >= 2)
}

// recordSightings records every sighting line of seg.
func recordSightings(seg []byte, m map[string]sighting) {
	for {
		i := bytes.Index(seg, seenOpen)
		if i < 0 {
			return
		}
		l, rest, _ := bytes.Cut(seg[i:], []byte("\n"))
		recordSighting(l, m)
		seg = rest
	}
}
