package recall

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func withTask(e mdstore.Entry, task string) mdstore.Entry {
	e.Task, e.Tasks = task, []string{task}
	return e
}

func TestRankOrder(t *testing.T) {
	tests := []struct {
		name    string
		entries []mdstore.Entry
		query   string
		want    []string // the head of the ranking, best first
	}{
		{
			name: "issue outweighs context",
			entries: []mdstore.Entry{
				pit("ctx", "Sender loses events", "Persist before sending", "pkg/webhook/sender.go"),
				pit("issue", "Webhook events are lost", "Persist before sending", "pkg/events/sender.go"),
			},
			query: "webhook",
			want:  []string{"issue", "ctx"},
		},
		{
			name: "issue outweighs fix",
			entries: []mdstore.Entry{
				pit("fix", "Upstream blocks workers", "Set a timeout on the client", ""),
				pit("issue", "Client has no timeout", "Bound each request", ""),
			},
			query: "timeout",
			want:  []string{"issue", "fix"},
		},
		{
			name: "camelCase query finds prose",
			entries: []mdstore.Entry{
				pit("other", "Temp files survive cleanup", "Use t.TempDir", ""),
				pit("prose", "The use effect hook fetches without cleanup", "Abort in the cleanup function", ""),
			},
			query: "useEffect cleanup",
			want:  []string{"prose", "other"},
		},
		{
			name: "prose query finds identifier",
			entries: []mdstore.Entry{
				pit("word", "Retries are logged at debug level", "Log at info", ""),
				pit("ident", "maxRetries from the config is ignored", "Pass max_retries through", ""),
			},
			query: "max retries",
			want:  []string{"ident", "word"},
		},
		{
			name: "stems join word forms",
			entries: []mdstore.Entry{
				pit("stem", "Delivery retried without backoff", "Back off exponentially", ""),
				pit("none", "Logs rotate daily", "Keep a week", ""),
			},
			query: "retrying failed deliveries",
			want:  []string{"stem"},
		},
		{
			name: "abbreviations join spellings",
			entries: []mdstore.Entry{
				pit("abbr", "Request context not passed to database queries", "Thread r.Context() through", ""),
				pit("none", "Logs rotate daily", "Keep a week", ""),
			},
			query: "pass ctx to db calls",
			want:  []string{"abbr"},
		},
		{
			name: "more query words matched wins",
			entries: []mdstore.Entry{
				pit("one", "Webhook payload too large", "Compress it", ""),
				pit("two", "Webhook retry has no backoff", "Add jitter", ""),
			},
			query: "webhook retry",
			want:  []string{"two", "one"},
		},
		{
			name: "kinds other than pitfalls rank on their body",
			entries: []mdstore.Entry{
				note(mdstore.Decision, "dec", "We chose chi over gin for routing"),
				note(mdstore.Convention, "conv", "Handlers live in internal/api"),
			},
			query: "chi router",
			want:  []string{"dec"},
		},
		{
			name: "task words weigh little",
			entries: []mdstore.Entry{
				pit("verb", "Add a lock around the map", "Add it", ""),
				pit("topic", "Webhook sender drops events", "Persist first", ""),
			},
			query: "Add webhook",
			want:  []string{"topic"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ids(Rank(t, tc.entries, tc.query, Options{Now: testNow}))
			if len(got) < len(tc.want) || !slices.Equal(got[:len(tc.want)], tc.want) {
				t.Errorf("Rank(%q) = %q, want %q", tc.query, got, tc.want)
			}
		})
	}
}

// One name spelled as one word or in camelCase must weigh the same: parts
// are not counted on top of the joined form.
func TestRankSpellingsWeighTheSame(t *testing.T) {
	entries := []mdstore.Entry{
		pit("camel", "GitHub Actions cache is stale", "Key it on the lockfile", ""),
		pit("lower", "github actions cache is stale", "Key it on the lockfile", ""),
	}
	for _, q := range []string{"GitHub cache", "github cache", "git_hub cache"} {
		hits := Rank(t, entries, q, Options{})
		if len(hits) != 2 || hits[0].Score != hits[1].Score {
			t.Errorf("Rank(%q): %v, want two equal scores", q, hits)
		}
	}
}

func TestRankLift(t *testing.T) {
	relevant := pit("relevant", "Webhook retries hammer the receiver", "Back off with jitter", "pkg/webhook/deliver.go")
	relevant.Date, relevant.LastSeen = "2024-01-01", "2024-01-01"
	frequent := pit("frequent", "Retries are logged too verbosely", "Log once", "")
	frequent.Seen, frequent.LastSeen = 100, "2026-02-01"
	got := ids(Rank(t, []mdstore.Entry{frequent, relevant}, "webhook retries", Options{Now: testNow}))
	if len(got) == 0 || got[0] != "relevant" {
		t.Errorf("a frequent, recent but less relevant lesson must not win: got %q", got)
	}

	// Between lessons equally relevant, recurrence and recency decide.
	a := pit("a", "Webhook retries hammer the receiver", "Back off", "")
	b := a
	b.ID, b.Seen = "b", 5
	c := a
	c.ID, c.LastSeen = "c", "2026-01-31"
	got = ids(Rank(t, []mdstore.Entry{a, b}, "webhook retries", Options{Now: testNow}))
	if !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("recurrence: got %q", got)
	}
	got = ids(Rank(t, []mdstore.Entry{a, c}, "webhook retries", Options{Now: testNow}))
	if !slices.Equal(got, []string{"c", "a"}) {
		t.Errorf("recency: got %q", got)
	}
	for _, e := range []mdstore.Entry{a, b, c, frequent} {
		if l := lift(&e, testNow); l < 1 || l > 1+recurrenceLift+recencyLift {
			t.Errorf("lift(%s) = %v, outside [1, %v]", e.ID, l, 1+recurrenceLift+recencyLift)
		}
	}
}

func TestRankFilters(t *testing.T) {
	archived := pit("archived", "Webhook retries hammer the receiver", "Back off", "")
	archived.Status = mdstore.Archived
	entries := []mdstore.Entry{
		archived,
		pit("pitfall", "Webhook retries without jitter", "Add jitter", ""),
		note(mdstore.Convention, "convention", "Webhook handlers live in internal/hooks"),
		note(mdstore.Decision, "decision", "Webhooks are delivered from a job queue"),
	}
	tests := []struct {
		name  string
		kinds []mdstore.Kind
		want  []string
	}{
		{"all kinds, archived left out", nil, []string{"pitfall", "convention", "decision"}},
		{"one kind", []mdstore.Kind{mdstore.Convention}, []string{"convention"}},
		{"two kinds", []mdstore.Kind{mdstore.Decision, mdstore.Pitfall}, []string{"pitfall", "decision"}},
	}
	s := storeOf(t, entries)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ids(must(Search(must(Load(s, tc.kinds...)), []string{"webhook"}, Options{})))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestRankLimitAndTies(t *testing.T) {
	var entries []mdstore.Entry
	for i := range 30 {
		entries = append(entries, pit(fmt.Sprintf("p-%02d", 29-i), "Webhook retries hammer the receiver", "Back off", ""))
	}
	for _, limit := range []int{0, 1, 5, 30, 100} {
		hits := Rank(t, entries, "webhook", Options{Limit: limit})
		want := min(max(limit, 0), 30)
		if limit == 0 {
			want = DefaultLimit
		}
		if len(hits) != want {
			t.Errorf("limit %d: %d hits, want %d", limit, len(hits), want)
		}
		if !slices.IsSorted(ids(hits)) {
			t.Errorf("limit %d: equal scores not ordered by id: %q", limit, ids(hits))
		}
	}
	first := ids(Rank(t, entries, "webhook", Options{}))
	for range 5 {
		if again := ids(Rank(t, entries, "webhook", Options{})); !slices.Equal(first, again) {
			t.Fatalf("ranking changed between calls: %q then %q", first, again)
		}
	}
}

// TestRankFloor: a lesson qualifies only by saying a specific word of the
// request, never by a task id, stop words or generic words.
func TestRankFloor(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		withTask(pit("task", "Unrelated lesson", "Fix it", ""), "fn-9.1"),
		pit("generic", "Add a page to the client", "Update the user", ""),
		pit("webhook", "Webhook sender drops events", "Persist first", ""),
	}
	for _, tc := range []struct{ query, want string }{
		{"fn-9.1: add a kubernetes helm chart", ""},
		{"Fix the client page for new users", ""},
		{"fn-9.1: webhook events", "webhook"},
	} {
		got := ids(Rank(t, entries, tc.query, Options{}))
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Rank(%q) = %q, want %q", tc.query, got, tc.want)
		}
	}
	// Prime's floor also wants most of the request said: one word of four
	// specific ones is not enough.
	if got := prime(t, entries, "webhook carousel swipe gestures", Options{}); got != "" {
		t.Errorf("Prime of a request the memory barely touches = %q", got)
	}
	if got := prime(t, entries, "webhook events", Options{}); !strings.Contains(got, "drops events") {
		t.Errorf("Prime(webhook events) = %q", got)
	}
	// The floor is asked of the request: once one lesson answers it, a
	// lesson sharing one specific word of it comes along, after it.
	entries = append(entries, pit("signature", "Webhook signature checked after parsing the body", "Verify the raw bytes", ""))
	got := prime(t, entries, "webhook events", Options{})
	if i, j := strings.Index(got, "drops events"), strings.Index(got, "signature"); i < 0 || j < i {
		t.Errorf("Prime(webhook events) with a second webhook lesson = %q", got)
	}
	if got := prime(t, entries, "webhook carousel swipe gestures", Options{}); got != "" {
		t.Errorf("Prime of a request the memory barely touches = %q", got)
	}
}

// A long request (a task file given to prime) asks no more of a lesson
// than its title would: the floor weighs the most specific words only.
func TestPrimeLongTask(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("retry", "Webhook delivery retries immediately without backoff, hammering the receiver", "Back off exponentially with jitter", "pkg/webhook/sender.go"),
		pit("other", "CSV export writes formulas Excel evaluates", "Prefix cells with a quote", ""),
	}
	task := "fn-3.1: Webhook delivery retries\n\nWhen a subscriber's endpoint fails, the sender should try again later. " +
		"Persist each attempt, honour the subscriber's rate limits, expose attempt counts on the admin dashboard, " +
		"document the payload schema, add metrics for latency and failures, and write integration tests with a fake receiver. " +
		"Coordinate the rollout with the platform team, announce the change in the changelog, translate the dashboard labels, " +
		"archive stale subscriptions quarterly and review the on-call runbook before launch."
	if got := prime(t, entries, task, Options{}); !strings.Contains(got, "hammering the receiver") || strings.Contains(got, "CSV") {
		t.Errorf("Prime(long task) = %q", got)
	}
}

func TestRankNothing(t *testing.T) {
	entries := []mdstore.Entry{pit("a", "Webhook retries", "Back off", "")}
	for _, q := range []string{"", "   ", "the of and", "unrelated words entirely", "!!!"} {
		if hits := Rank(t, entries, q, Options{}); len(hits) != 0 {
			t.Errorf("Rank(%q) = %v, want none", q, ids(hits))
		}
	}
	if hits := Rank(t, nil, "webhook", Options{}); len(hits) != 0 {
		t.Errorf("Rank on no entries = %v", hits)
	}
}

func TestHitJSON(t *testing.T) {
	b, err := json.Marshal(Hit{Entry: pit("p-1", "Issue", "Fix", ""), Score: 1.5})
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]json.RawMessage
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if string(back["score"]) != "1.5" || !strings.Contains(string(back["entry"]), `"id":"p-1"`) {
		t.Errorf("Hit JSON = %s", b)
	}
}

// TestPrimeAnswersLead: prime puts a lesson that answers the task before
// one that only shares a word of it, even one scoring more and confirmed.
func TestPrimeAnswersLead(t *testing.T) {
	t.Parallel()
	one := pit("one", "Carousel carousel carousel", "Carousel", "")
	one.Seen = 20
	both := pit("both", strings.Repeat("A long lesson about something else entirely. ", 30), "Keep going", "web/carousel/swipe.ts")
	entries := []mdstore.Entry{one, both, pit("swipe", "Swipe", "", ""), pit("z", "Other", "", "")}
	loose := ids(Rank(t, entries, "carousel swipe", Options{}))
	if len(loose) < 2 || loose[0] != "one" {
		t.Fatalf("without the floor %v: want the one-word lesson first (else this test shows nothing)", loose)
	}
	_, got, err := PrimeIDs(FilesOf(t, entries), "carousel swipe", Options{})
	if err != nil || len(got) < 2 || got[0] != "both" || !slices.Contains(got, "one") {
		t.Errorf("prime = %v, %v, want both, one, …", got, err)
	}
}

// TestRankFloorSpread: with the floor, a request whose specific words are
// each said by a different lesson, none saying enough alone, gets them
// when there are three words or more and every one is said; a request with
// a word no lesson says, or of two words, gets nothing.
func TestRankFloorSpread(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("c", "Carousel resets its index", "", ""),
		pit("s", "Swipe fires twice", "", ""),
		pit("g", "Gesture handler leaks", "", ""),
		pit("z", "Other topic entirely", "", ""),
	}
	opt := Options{Floor: StrictFloor}
	if got := ids(Rank(t, entries, "carousel swipe gesture", opt)); len(got) != 3 || slices.Contains(got, "z") {
		t.Errorf("every word said = %v, want c, s and g", got)
	}
	// A shorter list is the first part of the default one: the floor
	// weighs the same lessons whatever the limit.
	full := ids(Rank(t, entries, "carousel swipe gesture", opt))
	if got := ids(Rank(t, entries, "carousel swipe gesture", Options{Floor: StrictFloor, Limit: 1})); !slices.Equal(got, full[:1]) {
		t.Errorf("limit 1 = %v, want %v", got, full[:1])
	}
	for _, q := range []string{"carousel swipe tooltip", "carousel swipe"} {
		if got := ids(Rank(t, entries, q, opt)); len(got) != 0 {
			t.Errorf("Rank(%q) = %v, want nothing", q, got)
		}
	}
}

// TestRankFloorForeign: with the floor, a request the memory lacks as many
// specific words of as it has gets nothing from one lesson sharing two of
// its words; a second lesson answering it shows the memory covers it.
func TestRankFloorForeign(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("lamp", "Lantern flickers near the harbor", "", ""),
		pit("tide", "Harbor tide tables drift", "", ""),
		pit("a", "Webhook retries hammer the receiver", "", ""),
		pit("b", "CSV export writes formulas", "", ""),
		pit("c", "Cache keys collide across tenants", "", ""),
		pit("d", "Cron job runs twice on a clock change", "", ""),
	}
	opt := Options{Floor: StrictFloor}
	const q = "quilt saffron velvet lantern harbor"
	// In a memory this small most words of any request are missing, so
	// a pair of shared words still answers it.
	if got := ids(Rank(t, entries, q, opt)); len(got) == 0 || got[0] != "lamp" {
		t.Fatalf("a small memory = %v, want lamp first", got)
	}
	// From vocabularyMin lessons on, the memory's gaps count.
	for i := range vocabularyMin {
		entries = append(entries, pit(fmt.Sprintf("fill%d", i), fmt.Sprintf("Filler note number%d about topic%d", i, i), "", ""))
	}
	if got := ids(Rank(t, entries, q, Options{})); len(got) == 0 || got[0] != "lamp" {
		t.Fatalf("without the floor %v: want lamp first (else this test shows nothing)", got)
	}
	if got := ids(Rank(t, entries, q, opt)); len(got) != 0 {
		t.Errorf("one lesson sharing two words = %v, want nothing", got)
	}
	// A long request (a task file) is weighed by its most specific words,
	// as the floor's share is: the prose words the memory lacks beyond
	// them do not make it foreign.
	long := append(slices.Clone(entries), pit("e", "Sessions expire early", "", ""))
	const task = "lantern harbor webhook formulas tenants clock sessions " +
		"quilt saffron velvet marble orchid pebble walnut meadow ember"
	if got := ids(Rank(t, long, task, opt)); len(got) == 0 || got[0] != "lamp" {
		t.Errorf("a long request = %v, want lamp first", got)
	}
	entries = append(entries, pit("glass", "Lantern glass cracks in the harbor wind", "", ""))
	if got := ids(Rank(t, entries, q, opt)); len(got) < 2 || !slices.Contains(got[:2], "lamp") || !slices.Contains(got[:2], "glass") {
		t.Errorf("two lessons sharing two words = %v, want lamp and glass first", got)
	}
}

// TestRankFloorJoinedPart: with the floor, a part of a joined word no
// entry says whole is not one of a pair's two words: a lesson saying it
// and one other word of the request does not answer it, where the same
// words written apart do.
func TestRankFloorJoinedPart(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("tide", "Harbor tide tables drift", "", ""),
		pit("a", "Webhook retries hammer the receiver", "", ""),
		pit("b", "CSV export writes formulas", "", ""),
	}
	for i := range vocabularyMin {
		entries = append(entries, pit(fmt.Sprintf("fill%d", i), fmt.Sprintf("Filler note number%d about topic%d", i, i), "", ""))
	}
	opt := Options{Floor: StrictFloor}
	if got := ids(Rank(t, entries, "marble harbor tide webhook", opt)); len(got) == 0 || got[0] != "tide" {
		t.Fatalf("the words apart = %v, want tide first (else this test shows nothing)", got)
	}
	const q = "marble-harbor tide webhook"
	if got := ids(Rank(t, entries, q, Options{})); len(got) == 0 || got[0] != "tide" {
		t.Fatalf("without the floor = %v, want tide first", got)
	}
	if got := ids(Rank(t, entries, q, opt)); len(got) != 0 {
		t.Errorf("a part of a joined word no entry says = %v, want nothing", got)
	}
}

// TestRankFloorPlace: with the floor, a lesson whose context names a word
// of the request that no other lesson says answers it; the same word in
// its issue does not.
func TestRankFloorPlace(t *testing.T) {
	t.Parallel()
	rest := []mdstore.Entry{
		pit("lamp", "Lantern flickers near the harbor", "", ""),
		pit("tide", "Harbor tide tables drift", "", ""),
		pit("a", "Webhook retries hammer the receiver", "", ""),
		pit("b", "CSV export writes formulas", "", ""),
		pit("c", "Cache keys collide across tenants", "", ""),
	}
	opt := Options{Floor: StrictFloor}
	const q = "quilt toolbar harbor"
	place := pit("icons", "Icons lose their focus outline", "Give each icon a visible focus ring", "web/toolbar/Icons.tsx")
	if got := ids(Rank(t, append(slices.Clone(rest), place), q, opt)); len(got) == 0 || got[0] != "icons" {
		t.Errorf("the word in the lesson's context = %v, want icons first", got)
	}
	issue := pit("icons", "Toolbar icons lose their focus outline", "Give each icon a visible focus ring", "web/Icons.tsx")
	if got := ids(Rank(t, append(slices.Clone(rest), issue), q, opt)); len(got) != 0 {
		t.Errorf("the word in the lesson's issue = %v, want nothing", got)
	}
}

// TestRankFloorRemedy: with the floor, in a memory of vocabularyMin
// lessons or more, a word a lesson says only in its fix counts
// remedyShare towards the request's share: a lesson whose fix alone names
// the request's one specific word does not answer it; the same word in
// its issue does, and then the other lesson comes along. In a small
// memory the fix's word counts whole.
func TestRankFloorRemedy(t *testing.T) {
	t.Parallel()
	rest := []mdstore.Entry{
		pit("a", "Webhook retries hammer the receiver", "", ""),
		pit("b", "CSV export writes formulas", "", ""),
	}
	opt := Options{Floor: StrictFloor}
	const q = "add a lantern"
	fix := pit("fix", "Quilt seams fray after washing", "Hang a lantern over the drying rack", "")
	if got := ids(Rank(t, append(slices.Clone(rest), fix), q, opt)); !slices.Equal(got, []string{"fix"}) {
		t.Errorf("the word in the lesson's fix, a small memory = %v, want fix", got)
	}
	for i := range vocabularyMin {
		rest = append(rest, pit(fmt.Sprintf("fill%d", i), fmt.Sprintf("Filler note number%d about topic%d", i, i), "", ""))
	}
	if got := ids(Rank(t, append(slices.Clone(rest), fix), q, opt)); len(got) != 0 {
		t.Errorf("the word in the lesson's fix only = %v, want nothing", got)
	}
	if got := ids(Rank(t, append(slices.Clone(rest), fix), q, Options{})); !slices.Equal(got, []string{"fix"}) {
		t.Errorf("without the floor = %v, want fix", got)
	}
	issue := pit("issue", "Lantern flickers over the drying rack", "Trim the wick", "")
	if got := ids(Rank(t, append(slices.Clone(rest), fix, issue), q, opt)); !slices.Equal(got, []string{"issue", "fix"}) {
		t.Errorf("the word in one lesson's issue = %v, want issue, fix", got)
	}
}

// A word glued to Unicode punctuation (curly quotes, dashes, guillemets,
// as models write them) or formed by a stem the stemmer lengthened
// (dying → die) is found like any other.
func TestRankFindsWordsBesideUnicodeAndShortStems(t *testing.T) {
	for _, tc := range []struct{ lesson, query string }{
		{"“timeout” is ignored by the client", "timeout"},
		{"set the deadline—always", "deadline"},
		{"«retry» without backoff", "retry"},
		{"the worker keeps dying after deploy", "die"},
		{"lying timestamps from the cache", "lie"},
		{"using the pool after close", "use pool"},
	} {
		e := pit("s", tc.lesson, "", "")
		if hits := Rank(t, []mdstore.Entry{e}, tc.query, Options{}); len(hits) != 1 {
			t.Errorf("query %q does not find %q", tc.query, tc.lesson)
		}
	}
}

// The labels of a pitfall's fields are markup: that every pitfall has a
// **Context** line does not make "context" a word every lesson says (and
// so a generic word that qualifies nothing).
func TestRankFieldLabelsAreNotWords(t *testing.T) {
	var entries []mdstore.Entry
	for i := range 60 {
		entries = append(entries, pit(fmt.Sprint("p", i), fmt.Sprintf("Topic %d goes wrong", i), "Do it right", "pkg/x.go"))
	}
	entries = append(entries, pit("ctx", "Handler drops the request context", "Pass it on", "api/h.go"))
	if got := ids(Rank(t, entries, "context", Options{})); !slices.Equal(got, []string{"ctx"}) {
		t.Errorf("Rank(context) = %v, want [ctx]", got)
	}
}

// A word's document frequency counts only the lessons that say it, not
// those saying words its prefix begins: "intl" is looked for as "int",
// which begins "internal" and "integer" in most lessons of a Go memory,
// and counted that way it weighed as a common word. A camelCase
// identifier still says its words run together (SameSite says samesite).
func TestRankCountsOnlyTheWord(t *testing.T) {
	var entries []mdstore.Entry
	for i := range 60 {
		entries = append(entries, pit(fmt.Sprint("p", i), fmt.Sprintf("Topic %d overflows an integer", i), "Check it in internal/limits", "internal/x.go"))
	}
	entries = append(entries,
		note(mdstore.Decision, "intl", "Dates and numbers are shown through the intl-format helpers"),
		pit("cookie", "The session cookie has no SameSite attribute", "Set it to Lax", "web/session.go"))
	for _, tc := range []struct{ query, want string }{
		{"intl", "intl"},
		{"samesite", "cookie"},
	} {
		if got := ids(Rank(t, entries, tc.query, Options{})); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("Rank(%s) = %v, want [%s]", tc.query, got, tc.want)
		}
		q := parseQuery(tc.query)
		if r := must(compile([]*query{q}).scanFiles(FilesOf(t, entries), Options{})); r.df[0][0] != 1 {
			t.Errorf("entries saying %s = %d, want 1", tc.query, r.df[0][0])
		}
	}
}

// TestOwnLift: a candidate's bound takes its own lift and staleness only
// from an entry as flowmem writes it, where that is what the parsed entry
// has; wherever something else may add to them, the most there is.
// Otherwise the search would stop before a lesson that belongs in the
// result.
func TestOwnLift(t *testing.T) {
	e := pit("own", "Lamp flickers when the fan runs", "Replace the bulb", "hall")
	e.Seen, e.LastSeen = 3, "2026-03-01"
	plain := mdstore.Render(&e)
	opt := Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), StaleAfterDays: 90}
	parsed, ok := mdstore.ParseSegment(mdstore.Pitfall, []byte(plain), 1)
	if !ok {
		t.Fatal("the rendered entry does not parse")
	}
	want := lift(&parsed, opt.Now) * staleness(&parsed, opt)
	if got, key := ownLift([]byte(plain), opt, map[liftKey]float64{}); got != want || key != idKey([]byte("own")) || want >= maxLift/2 {
		t.Fatalf("plain entry: lift %v key %x, want %v (below half of %v: stale) and its id's key", got, key, want, maxLift)
	}
	head, rest, _ := strings.Cut(plain, "\n")
	meta, fields, _ := strings.Cut(rest, "\n")
	for name, seg := range map[string]string{
		"a sighting in the segment":          plain + "<!-- flowmem: seen id=own last=2026-10-30 tasks=fn-2.1 -->\n",
		"a second metadata line":             head + "\n" + meta + "\n" + strings.Replace(meta, "seen=3", "seen=9", 1) + "\n" + fields,
		"the heading tags another id":        strings.Replace(head, "<!-- own -->", "<!-- other -->", 1) + "\n" + rest,
		"seen given twice":                   head + "\n" + strings.Replace(meta, "seen=3", "seen=3 seen=9", 1) + "\n" + fields,
		"a last sighting not a date":         head + "\n" + strings.Replace(meta, "last=2026-03-01", "last=2026-3-1", 1) + "\n" + fields,
		"no last sighting":                   head + "\n" + strings.Replace(meta, " last=2026-03-01", "", 1) + "\n" + fields,
		"no metadata line under the heading": head + "\n" + fields + meta + "\n",
	} {
		if got, _ := ownLift([]byte(seg), opt, map[liftKey]float64{}); got != maxLift {
			t.Errorf("%s: lift %v, want %v", name, got, maxLift)
		}
	}
	// A sighting elsewhere (here in another file) lifts the lesson as well.
	s := storeOf(t, []mdstore.Entry{e, pit("next", "Door sticks", "Plane it", "hall"), note(mdstore.Convention, "c", "Label the fuses")})
	f, err := os.OpenFile(s.Path(mdstore.Convention), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("<!-- flowmem: seen id=own last=2026-10-30 tasks=fn-2.1 -->\n")
	f.Close()
	files := must(Load(s))
	r := must(compile([]*query{parseQuery("lamp door")}).scanFiles(files, opt))
	if len(r.cands) != 2 || r.cands[0].lift != maxLift || r.cands[1].lift == maxLift {
		t.Fatalf("candidates %+v: want the sighted lesson at %v, the other below", r.cands, maxLift)
	}
}

// A request read as it is (a floor) weighs a lesson's fix at remedyShare
// when it orders its lessons: a lesson that says the request's word twice
// in its fix comes after one that says it once in its issue. The scout's
// searches (no floor) weigh the fix whole and keep the other order.
func TestRankFixWeighsLessWithAFloor(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("fix", "Quilt seams fray after washing", "Hang a lantern and a second lantern over the rack", ""),
		pit("issue", "Lantern flickers over the drying rack", "Trim the wick and the oil feed", ""),
	}
	if got := ids(Rank(t, entries, "lantern", Options{Floor: StrictFloor})); !slices.Equal(got, []string{"issue", "fix"}) {
		t.Errorf("with the floor = %v, want issue, fix", got)
	}
	if got := ids(Rank(t, entries, "lantern", Options{})); !slices.Equal(got, []string{"fix", "issue"}) {
		t.Errorf("without the floor = %v, want fix, issue", got)
	}
}

// With a floor, the lessons that answer the request lead, as prime orders
// them: one that says two of its words comes before one that scores more
// by saying a single word over and over.
func TestRankAnswersLead(t *testing.T) {
	t.Parallel()
	entries := []mdstore.Entry{
		pit("one", "Lantern glass: the lantern cracks when the lantern heats", "", ""),
		pit("two", "The wick burns unevenly because the brass collar of the burner is bent out of shape", "Straighten it", ""),
		pit("f1", "Wick trimming notes", "", ""),
		pit("f2", "Brass polish streaks", "", ""),
		pit("f3", "Hook storage", "", ""),
		pit("f4", "Wick soot", "", ""),
		pit("f5", "Brass tarnish", "", ""),
		pit("f6", "Hook rust", "", ""),
	}
	const q = "lantern wick brass hook"
	if got := ids(Rank(t, entries, q, Options{})); len(got) < 2 || got[0] != "one" {
		t.Fatalf("without the floor = %v, want one first (the test's premise)", got)
	}
	if got := ids(Rank(t, entries, q, Options{Floor: StrictFloor})); len(got) < 2 || got[0] != "two" {
		t.Errorf("with the floor = %v, want two (it answers) first", got)
	}
}

// With a floor, the search weighs more lessons than the default limit
// shows (floorDepth): a lesson that answers the request leads from below
// the tenth place.
func TestRankAnswerBelowTheLimitLeads(t *testing.T) {
	t.Parallel()
	words := []string{"lantern", "nail", "rope", "chain", "gear", "bolt", "pipe", "screw", "cable", "spring"}
	var entries []mdstore.Entry
	for _, w := range words {
		entries = append(entries, pit(w, strings.Repeat(w+" ", 4), "", ""))
	}
	// Long and not seen for a year (stale): it scores below the others.
	three := pit("three", "The wick, the brass collar and the hook: "+strings.Repeat("the shed by the meadow holds old garden tools and seed trays ", 100), "", "")
	three.Date, three.LastSeen = "2025-01-01", "2025-01-01"
	entries = append(entries, three)
	q := strings.Join(words, " ") + " wick brass hook"
	opt := Options{Now: testNow, StaleAfterDays: 90}
	loose := ids(Rank(t, entries, q, Options{Limit: 20, Now: opt.Now, StaleAfterDays: opt.StaleAfterDays}))
	if i := slices.Index(loose, "three"); i < 10 {
		t.Fatalf("without the floor three is at %d of %v, want below the tenth (the test's premise)", i+1, loose)
	}
	opt.Floor = StrictFloor
	if got := ids(Rank(t, entries, q, opt)); len(got) == 0 || got[0] != "three" {
		t.Errorf("with the floor = %v, want three (it answers) first", got)
	}
}
