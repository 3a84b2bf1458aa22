package recall

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// areaNames are the names of the areas a query triggers, all of them.
func areaNames(query string) []string {
	_, toks := parseWords(query)
	var out []string
	for _, a := range triggeredAreas(toks, len(taskAreas)) {
		out = append(out, taskAreas[a].name)
	}
	return out
}

func TestTriggeredAreas(t *testing.T) {
	tests := []struct {
		query string
		want  []string // every area, in order
	}{
		{"Cache the product catalog", []string{"caching"}},
		{"Show link previews for pasted URLs", []string{"fetching user-supplied URLs"}},
		{"Nightly report email at 8am", []string{"scheduled jobs", "reports, analytics and dashboards", "sending email"}},
		{"Accept webhooks from the payment provider", []string{"receiving webhooks", "payments"}},
		// A phrase takes its words: log in is login, not logging; an
		// email address is not sending email; HTTP caching is not an
		// in-process cache.
		{"Let users log in with a magic link", []string{"login", "password reset and emailed links"}},
		{"Validate the email address on signup", []string{"email addresses", "signup and accounts"}},
		{"Add HTTP caching headers", []string{"HTTP and CDN caching"}},
		// Stop words between the words of a phrase are skipped, unless
		// the phrase has them.
		{"Import contacts from a CSV file", []string{"bulk import", "CSV and spreadsheets"}},
		{"sign in with GitHub", []string{"OAuth and single sign-on"}},
		{"Send the newsletter every morning", []string{"sending email", "scheduled jobs"}},
		{"plan: upgrade React", []string{"dependency upgrades", "React pages and data fetching"}},
		// Identifiers: the joined form and the parts.
		{"rateLimiter", []string{"rate limiting"}},
		{"pkg/webhook/sender.go", []string{"sending webhooks"}},
		{"useEffect", []string{"React pages and data fetching"}},
		// Inflections share the stem.
		{"Caching invoices", []string{"caching", "subscriptions and billing"}},
		// The phrases that replaced ambiguous one-word triggers.
		{"Add a liveness probe", []string{"health checks"}},
		{"Accept file attachments", []string{"file upload"}},
		{"Read the app settings at startup", []string{"configuration", "services starting and stopping"}},
		{"Notify users when the export is ready", []string{"SMS and push notifications", "data export"}},
		{"Add a readiness probe", []string{"health checks"}},
		{"Improve performance of the search page", []string{"performance work", "search and filtering"}},
		{"Add code signing to the release", []string{"encryption and hashing", "deploys and releases"}},
	}
	for _, tc := range tests {
		if got := areaNames(tc.query); !slices.Equal(got, tc.want) {
			t.Errorf("%q: areas %q, want %q", tc.query, got, tc.want)
		}
	}
}

// Words that stem like a trigger but mean something else, and requests
// that name no kind of work, bring in no risks.
func TestTriggeredAreasNone(t *testing.T) {
	for _, q := range []string{
		"Tidy up the README wording",
		"request/response body", // responsive → respons
		"local development",     // locale → local
		"the list contains duplicates",
		"it depends on the order",
		"behind a load balancer", // balance → balanc
		"organize the code",      // organization → organ
		"user experience",        // experiment → experi
		"resolve the conflict",
		"archived entries",
		"embedded struct",
		"hash map lookup",
		"the window size",
		"fast path",
		"git checkout",
		"import cycle",
		"relative path",
		"Node API process",
		// Round 6 audit of single-word triggers whose stem is another
		// common word: liveness → live, attachment → attach, ticketing →
		// ticket, signing → sign, performance → perform, readiness →
		// ready, and the bare
		// settings and notify.
		"live quotes",
		"ready for review",
		"attach the task id",
		"open a support ticket",
		"users stay signed",
		"perform the check",
		"a settings page for users",
		"notify partner systems",
	} {
		if got := areaNames(q); len(got) > 0 {
			t.Errorf("%q: areas %q, want none", q, got)
		}
	}
	if got := areaNames("bump the version"); !slices.Equal(got, []string{"dependency upgrades"}) {
		t.Errorf("bump the version: areas %q, want only dependency upgrades", got)
	}
	// Without a trigger, the query is the request's words alone.
	q := parseQuery("Tidy up the README wording")
	w, _ := parseWords("Tidy up the README wording")
	if q.areas != 0 || len(q.terms) != len(w.terms) {
		t.Errorf("no trigger, yet %d areas and %d terms against %d", q.areas, len(q.terms), len(w.terms))
	}
}

// TestTaskAreasWellFormed checks the table: every trigger brings in its
// own area, every risk can be found in a lesson that says it, and the
// sizes stay those of a hand-written table.
func TestTaskAreasWellFormed(t *testing.T) {
	if n := len(taskAreas); n < 60 || n > 120 {
		t.Errorf("%d areas, want 60 to 120", n)
	}
	for i, a := range taskAreas {
		if len(a.triggers) < 3 || len(a.risks) < 5 || len(a.risks) > 15 {
			t.Errorf("%s: %d triggers, %d risks", a.name, len(a.triggers), len(a.risks))
		}
		for _, tr := range a.triggers {
			if !slices.Contains(areaNames(tr), a.name) {
				t.Errorf("%s: trigger %q does not trigger it (%q)", a.name, tr, areaNames(tr))
			}
			if w := strings.Fields(tr); len(w) == 1 && (isTaskWord(tr) || isStopWord([]byte(tr))) {
				t.Errorf("%s: trigger %q is a task or stop word", a.name, tr)
			}
		}
		for _, r := range a.risks {
			w := strings.Fields(r)
			if len(w) == 1 && (isTaskWord(r) || isStopWord([]byte(r))) {
				t.Errorf("%s: risk %q is a task or stop word", a.name, r)
			}
			// Two-word risks match in prose; longer ones only as one
			// identifier or hyphenated (off-by-one, X-Frame-Options).
			text := r
			if len(w) > 2 {
				text = strings.Join(w, "-")
			}
			if !riskFound(int32(i), text) && !riskFound(int32(i), strings.Join(w, "-")) {
				t.Errorf("%s: a lesson saying %q does not match the risk", a.name, text)
			}
		}
	}
}

// stemsOf is the stems of the words of s.
func stemsOf(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		out = append(out, stemOf(w))
	}
	return out
}

// riskFound reports whether an entry whose issue is text matches a risk of
// area a.
func riskFound(a int32, text string) bool {
	q, _ := parseWords("")
	q.addAreas([]int32{a})
	m := &matcher{q: q, memo: map[string]memoEntry{}}
	var z tokenizer
	e := mdstore.Entry{Issue: text}
	m.scanEntry(&z, &e)
	for _, h := range m.hits {
		if q.terms[h.term].areas&1 != 0 {
			return true
		}
	}
	return false
}

func TestRiskExpansion(t *testing.T) {
	q := parseQuery("Cache the product catalog")
	if q.areas != 1 {
		t.Fatalf("areas = %d, want 1", q.areas)
	}
	for _, st := range []string{"stamped", "thunderingherd"} {
		i, ok := q.index[st]
		if !ok {
			t.Fatalf("no risk term %q", st)
		}
		if tm := q.terms[i]; tm.slot != -1 || tm.areas != 1 {
			t.Errorf("%q: slot %d areas %b, want a risk of no slot", st, tm.slot, tm.areas)
		}
	}
	// A risk the query already holds, here through the thesaurus (cache
	// → ttl), keeps its slot and counts for the area too.
	if tm := q.terms[q.index["ttl"]]; tm.slot < 0 || tm.areas != 1 {
		t.Errorf("ttl: slot %d areas %b, want its concept slot and the area", tm.slot, tm.areas)
	}
	if q.heads == nil {
		t.Error("no phrase heads: thundering herd could not match in prose")
	}
	// Bounded like any query.
	var b strings.Builder
	for _, a := range taskAreas {
		b.WriteString(a.triggers[0] + " ")
	}
	q = parseQuery(b.String())
	if q.areas > maxRiskAreas || len(q.terms) > maxQueryTerms || len(q.groupWhole) > maxQueryGroups {
		t.Errorf("areas %d terms %d groups %d exceed the bounds", q.areas, len(q.terms), len(q.groupWhole))
	}
}

// TestRiskRanking: a lesson about a risk of the requested work surfaces
// though it shares no word with the request; among lessons that match the
// request, one that names a risk comes first; and none that matches only
// risks outranks one that says the request's words.
func TestRiskRanking(t *testing.T) {
	filler := []mdstore.Entry{
		pit("f1", "Docker image runs as root", "Add a USER line", "Dockerfile"),
		pit("f2", "Test sleeps instead of waiting for the server", "Poll the health endpoint", ""),
		pit("f3", "Migration adds a NOT NULL column without a default", "Add it nullable, backfill, then constrain", ""),
		pit("f4", "Form submits twice on double click", "Disable the button while pending", ""),
		pit("f5", "Logs include the bearer token", "Redact the Authorization header", ""),
		pit("f6", "Goroutine leaks when the client disconnects", "Select on ctx.Done()", ""),
	}
	entries := append(slices.Clone(filler),
		pit("risk", "Thundering herd overloads the database at peak", "Coalesce concurrent misses with singleflight", ""),
		pit("both", "Catalog cache has no TTL", "Set an expiry and invalidate on writes", "catalog/cache.go"),
		pit("plain", "Catalog cache lives in a package variable", "Inject it", "catalog/cache.go"),
	)
	const query = "Cache the product catalog"
	got := ids(Rank(entries, query, Options{}))
	if !slices.Contains(got, "risk") {
		t.Errorf("Rank(%q) = %q: the lesson about a caching risk does not surface", query, got)
	}
	if i, j := slices.Index(got, "both"), slices.Index(got, "plain"); i < 0 || j < 0 || i > j {
		t.Errorf("Rank(%q) = %q: a match that names a risk should come before one that does not", query, got)
	}
	if i, j := slices.Index(got, "plain"), slices.Index(got, "risk"); i < 0 || i > j {
		t.Errorf("Rank(%q) = %q: a direct match should beat a risk-only one", query, got)
	}
	w, _ := parseWords(query)
	if slices.Contains(ids(rank(entries, w, Options{}, 10)), "risk") {
		t.Error("without the risks the risk lesson is found anyway: the test shows nothing")
	}
}

// TestRiskNeverOutranksTheWord: for every area, over the quality corpus, a
// lesson that names every risk of the area the request's own words do not
// already match ranks below a short lesson that says the area's trigger —
// the expansion cannot swamp a direct match.
func TestRiskNeverOutranksTheWord(t *testing.T) {
	corpus := loadCorpus(t)
	for _, a := range taskAreas {
		tr := a.triggers[0]
		w, _ := parseWords(tr)
		var only []string // risks that share no stem with the query
	risks:
		for _, r := range a.risks {
			for _, st := range append(memberStems(r, map[string]string{}), stemsOf(r)...) {
				if _, ok := w.index[st]; ok {
					continue risks
				}
			}
			only = append(only, r)
		}
		if len(only) == 0 {
			continue
		}
		entries := append(slices.Clone(corpus),
			pit("direct", fmt.Sprintf("The %s needs a second look", tr), "Review it", ""),
			pit("risks", strings.Join(only, ", "), "Mind all of these", ""),
		)
		got := ids(Rank(entries, tr, Options{Limit: len(entries)}))
		i, j := slices.Index(got, "direct"), slices.Index(got, "risks")
		if i < 0 || (j >= 0 && j < i) {
			t.Errorf("%s: query %q ranks the risks-only lesson %d, the direct one %d", a.name, tr, j, i)
		}
	}
}
