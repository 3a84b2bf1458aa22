package recall

import (
	"slices"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// topK keeps the k best hits offered so far; w is the worst of them.
type topK struct {
	k    int
	hits []Hit
	w    int
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

func (t *topK) full() bool { return len(t.hits) >= t.k }

// worst is the score an entry must reach to enter a full top k.
func (t *topK) worst() float64 { return t.hits[t.w].Score }

func (t *topK) offer(h Hit) {
	// A union merge can leave one lesson twice in a file: keep its best.
	i := -1
	for j := range t.hits {
		if h.Entry.ID != "" && t.hits[j].Entry.ID == h.Entry.ID {
			i = j
			break
		}
	}
	switch {
	case i >= 0:
		if !better(&h, &t.hits[i]) {
			return
		}
	case len(t.hits) < t.k:
		i = len(t.hits)
		t.hits = append(t.hits, Hit{})
	case better(&h, &t.hits[t.w]):
		i = t.w
	default:
		return
	}
	t.hits[i] = h
	t.w = 0
	for j := range t.hits {
		if better(&t.hits[t.w], &t.hits[j]) {
			t.w = j
		}
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
