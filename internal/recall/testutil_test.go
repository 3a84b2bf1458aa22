package recall

import (
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

var testNow = time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)

// pit is a pitfall seen once, a month before testNow.
func pit(id, issue, fix, context string) mdstore.Entry {
	return mdstore.Entry{
		Kind: mdstore.Pitfall, ID: id, Issue: issue, Fix: fix, Context: context,
		Date: "2026-01-01", LastSeen: "2026-01-01", Task: "fn-1.1", Tasks: []string{"fn-1.1"},
		Source: "impl-review", Seen: 1, Status: mdstore.Active,
	}
}

func note(kind mdstore.Kind, id, body string) mdstore.Entry {
	return mdstore.Entry{
		Kind: kind, ID: id, Body: body, Date: "2026-01-01", LastSeen: "2026-01-01",
		Task: "manual", Source: "manual", Seen: 1, Status: mdstore.Active,
	}
}

func ids(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Entry.ID)
	}
	return out
}
