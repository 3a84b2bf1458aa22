package recall

import (
	"container/heap"
	"slices"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// topK keeps the k best hits offered so far in a min-heap whose root is
// the worst of them.
type topK struct {
	k    int
	hits []Hit
}

// better orders hits: higher score, then seen more often, then seen more
// recently, then by id and line so the order never depends on chance.
func better(a, b *Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	ea, eb := &a.Entry, &b.Entry
	if ea.Seen != eb.Seen {
		return ea.Seen > eb.Seen
	}
	if la, lb := lastSeen(ea), lastSeen(eb); la != lb {
		return la > lb
	}
	if ea.ID != eb.ID {
		return ea.ID < eb.ID
	}
	return ea.Line < eb.Line
}

func lastSeen(e *mdstore.Entry) string {
	if e.LastSeen != "" {
		return e.LastSeen
	}
	return e.Date
}

func (t *topK) Len() int           { return len(t.hits) }
func (t *topK) Less(i, j int) bool { return better(&t.hits[j], &t.hits[i]) }
func (t *topK) Swap(i, j int)      { t.hits[i], t.hits[j] = t.hits[j], t.hits[i] }
func (t *topK) Push(x any)         { t.hits = append(t.hits, x.(Hit)) }
func (t *topK) Pop() any {
	h := t.hits[len(t.hits)-1]
	t.hits = t.hits[:len(t.hits)-1]
	return h
}

func (t *topK) full() bool { return len(t.hits) >= t.k }

// worst is the score an entry must reach to enter a full top k.
func (t *topK) worst() float64 { return t.hits[0].Score }

func (t *topK) offer(h Hit) {
	// A union merge can leave one lesson twice in a file: keep its best.
	for i := range t.hits {
		if t.hits[i].Entry.ID == h.Entry.ID && h.Entry.ID != "" {
			if better(&h, &t.hits[i]) {
				t.hits[i] = h
				heap.Fix(t, i)
			}
			return
		}
	}
	if len(t.hits) < t.k {
		heap.Push(t, h)
		return
	}
	if better(&h, &t.hits[0]) {
		t.hits[0] = h
		heap.Fix(t, 0)
	}
}

// sorted returns the kept hits, best first.
func (t *topK) sorted() []Hit {
	slices.SortFunc(t.hits, func(a, b Hit) int {
		if better(&a, &b) {
			return -1
		}
		if better(&b, &a) {
			return 1
		}
		return 0
	})
	return t.hits
}
