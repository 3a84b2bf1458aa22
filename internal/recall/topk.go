package recall

import (
	"sort"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// topK keeps the k best entries seen so far in a min-heap whose root is the
// worst of them, so a long scan costs O(n log k) and k entries of memory.
type topK struct {
	k       int
	entries []mdstore.Entry
	heap    []scored
}

type scored struct {
	entry int32
	score float64
	pass  float64 // what rank tests against its relevance floor
}

// better orders hits: higher score, then seen more often, then seen more
// recently, then by id and position so the order never depends on chance.
func (t *topK) better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	ea, eb := &t.entries[a.entry], &t.entries[b.entry]
	if ea.Seen != eb.Seen {
		return ea.Seen > eb.Seen
	}
	if la, lb := lastSeen(ea), lastSeen(eb); la != lb {
		return la > lb
	}
	if ea.ID != eb.ID {
		return ea.ID < eb.ID
	}
	return a.entry < b.entry
}

func lastSeen(e *mdstore.Entry) string {
	if e.LastSeen != "" {
		return e.LastSeen
	}
	return e.Date
}

func (t *topK) offer(entry int32, score, pass float64) {
	s := scored{entry, score, pass}
	if len(t.heap) < t.k {
		t.heap = append(t.heap, s)
		// Sift up: the worst entry rises to the root.
		i := len(t.heap) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !t.better(t.heap[p], t.heap[i]) {
				break
			}
			t.heap[p], t.heap[i] = t.heap[i], t.heap[p]
			i = p
		}
		return
	}
	if !t.better(s, t.heap[0]) {
		return
	}
	t.heap[0] = s
	i := 0
	for {
		l, r, w := 2*i+1, 2*i+2, i
		if l < len(t.heap) && t.better(t.heap[w], t.heap[l]) {
			w = l
		}
		if r < len(t.heap) && t.better(t.heap[w], t.heap[r]) {
			w = r
		}
		if w == i {
			return
		}
		t.heap[i], t.heap[w] = t.heap[w], t.heap[i]
		i = w
	}
}

// sorted returns the kept entries as hits, best first; t.heap is left in
// the same order.
func (t *topK) sorted() []Hit {
	sort.Slice(t.heap, func(i, j int) bool { return t.better(t.heap[i], t.heap[j]) })
	hits := make([]Hit, len(t.heap))
	for i, s := range t.heap {
		hits[i] = Hit{Entry: t.entries[s.entry], Score: s.score}
	}
	return hits
}
