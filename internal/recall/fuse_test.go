package recall

import (
	"slices"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func fuseMemory() []mdstore.Entry {
	return []mdstore.Entry{
		pit("p-cron", "Nightly job scheduled in server local time runs twice on the daylight saving change", "Schedule in UTC", "jobs/cron.go"),
		pit("p-email", "Report email sent without an unsubscribe link", "Add the List-Unsubscribe header", "mail/report.go"),
		pit("p-both", "The nightly report email query scans every order without an index", "Index orders by created_at", "reports/sales.sql"),
		pit("p-webhook", "Webhook retries hammer the receiver", "Back off", "webhook/sender.go"),
	}
}

// RankAll with one query is Rank; with several, an entry each query finds
// leads, every query's own best hits follow, and the limit holds.
func TestRankAll(t *testing.T) {
	entries := fuseMemory()
	opt := Options{Now: testNow}
	for _, q := range []string{"nightly report email", "webhook", "nothing here at all"} {
		if got, want := ids(RankAll(t, entries, []string{q}, opt)), ids(Rank(t, entries, q, opt)); !slices.Equal(got, want) {
			t.Errorf("RankAll(%q) = %q, Rank = %q", q, got, want)
		}
	}

	hits := RankAll(t, entries, []string{"sales report email", "daylight saving time zone"}, opt)
	got := ids(hits)
	if len(got) < 2 || !slices.Contains(got, "p-cron") || !slices.Contains(got, "p-email") {
		t.Fatalf("merged = %q, want both queries' hits", got)
	}
	if slices.Contains(got, "p-webhook") {
		t.Errorf("merged = %q holds an entry neither query matches", got)
	}
	if idx := slices.Index(got, "p-cron"); idx > 1 {
		t.Errorf("merged = %q: the second query's best hit is at %d, want among the first two", got, idx)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("merged scores not descending: %v", hits)
		}
	}

	// p-both is second for the first query and first for the other two:
	// found high by all, it leads.
	both := RankAll(t, entries, []string{"report email unsubscribe", "nightly report orders index", "orders index"}, opt)
	if got := ids(both); len(got) == 0 || got[0] != "p-both" {
		t.Errorf("merged = %q (single lists %q, %q), want p-both first", got,
			ids(Rank(t, entries, "report email unsubscribe", opt)), ids(Rank(t, entries, "nightly report orders index", opt)))
	}

	if n := len(RankAll(t, entries, []string{"report", "nightly", "webhook"}, Options{Limit: 2})); n != 2 {
		t.Errorf("limit 2: %d hits", n)
	}
	if hits := RankAll(t, entries, []string{"", "!!!"}, opt); len(hits) != 0 {
		t.Errorf("empty queries = %q", ids(hits))
	}
	if hits := RankAll(t, entries, nil, opt); len(hits) != 0 {
		t.Errorf("no queries = %q", ids(hits))
	}
}

// Equal merged scores go to the entry the earlier query ranked higher, so
// the request itself, given first, breaks ties. (The lessons are of one
// length: a shorter one would lead, lengthPower.)
func TestRankAllTies(t *testing.T) {
	entries := []mdstore.Entry{
		pit("p-cron", "Nightly job runs twice on the daylight saving change", "", ""),
		pit("p-webhook", "Webhook retries hammer the receivers with no backoff", "", ""),
	}
	opt := Options{Now: testNow}
	a := RankAll(t, entries, []string{"webhook", "daylight saving"}, opt)
	b := RankAll(t, entries, []string{"daylight saving", "webhook"}, opt)
	if len(a) < 2 || len(b) < 2 {
		t.Fatalf("hits %q, %q", ids(a), ids(b))
	}
	if a[0].Entry.ID != "p-webhook" || b[0].Entry.ID != "p-cron" {
		t.Errorf("ties: %q and %q, want each led by its first query's best hit", ids(a), ids(b))
	}
}

// A query that finds a lesson again only by a word an earlier query
// already counted for it adds little: two searches that repeat a word of
// the request are not two findings. Counted twice, d (third for both
// cookie queries, by "cookie" alone) would pass s, the best hit of a query
// of its own.
func TestRankAllRepeatedWord(t *testing.T) {
	entries := []mdstore.Entry{
		pit("a", "Cookie jar expiry too short", "", ""),
		pit("b", "Cookie jar expiry ignored", "", ""),
		pit("d", "Cookie set on every response", "", ""),
		pit("s", "SameSite attribute missing", "", ""),
	}
	got := ids(RankAll(t, entries, []string{"cookie expiry", "cookie jar", "samesite"}, Options{}))
	if i, j := slices.Index(got, "s"), slices.Index(got, "d"); i < 0 || j < 0 || i > j {
		t.Errorf("merged = %q, want s before d", got)
	}
}

// Feedback: a lesson one search finds low in its list, but which shares
// its place and rarer words with the lessons both searches agree on,
// comes before lessons that only share a search's word.
func TestRankAllFeedback(t *testing.T) {
	entries := []mdstore.Entry{
		pit("s1", "Outbound notification retries without backoff flood the partner", "Back off exponentially", "billing/notify/dispatcher.go"),
		pit("s2", "Outbound notification retry loop has no jitter", "Add jitter", "billing/notify/dispatcher.go"),
		pit("x", "Dispatcher builds a fresh transport per notification and leaks sockets", "Share one transport", "billing/notify/dispatcher.go"),
		pit("f1", "Email notification template escapes nothing", "Escape the fields", "mail/templates.go"),
		pit("f2", "Push notification tokens are logged", "Redact them", "mobile/push.go"),
		pit("f3", "Notification preferences page ignores the locale", "Read the user's locale", "web/prefs.tsx"),
		pit("f4", "Retry of the import job restarts from the first row", "Resume from a checkpoint", "jobs/import.go"),
		pit("f5", "Backoff in the poller is capped at one second", "Raise the cap", "jobs/poll.go"),
	}
	got := ids(RankAll(t, entries, []string{"outbound notification", "retry backoff jitter"}, Options{Limit: 4}))
	if !slices.Contains(got, "x") {
		t.Errorf("merged = %q, want x (same dispatcher as the lessons both searches find)", got)
	}
}

// A short lesson that two searches find first comes before a long one
// that three find second: the long one is found by more searches because
// it says more words, not because it bears more on the request.
func TestRankAllShortBeforeLong(t *testing.T) {
	entries := []mdstore.Entry{
		pit("rule", "Store money as integer cents", "", ""),
		pit("long", "Invoice totals computed in floating point drift by a cent after currency conversion and rounding in the nightly export to the ledger", "Keep money as integer cents and round once, at display, in the currency's own minor units", "billing/invoices/export_totals.go"),
		pit("fx", "Currency conversion rates cached forever", "", ""),
	}
	got := ids(RankAll(t, entries, []string{"money", "cents", "currency conversion"}, Options{}))
	if i, j := slices.Index(got, "rule"), slices.Index(got, "long"); i < 0 || j < 0 || i > j {
		t.Errorf("merged = %q, want rule before long", got)
	}
}
