package recall

import (
	"slices"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"words", "Retry the webhook", []string{"retry", "webhook"}},
		{"camelCase", "useEffect", []string{"useeffect", "use", "effect"}},
		{"PascalCase acronym", "HTTPServer", []string{"httpserver", "http", "server"}},
		{"acronym inside", "parseJSONResponse", []string{"parsejsonresponse", "parse", "json", "response"}},
		{"trailing acronym", "getID", []string{"getid", "get", "id"}},
		{"acronym plurals", "JWTs APIs CVEs IDs", []string{"jwt", "api", "cve", "id"}},
		{"acronym plural inside a name", "listURLsFor", []string{"listurlfor", "list", "url"}},
		{"acronym then word starting with s", "HTTPSession", []string{"httpsession", "http", "session"}},
		{"lower-case s after one capital", "Ss Ts", []string{"ss", "ts"}},
		{"snake_case", "max_retries", []string{"maxretries", "max", "retries"}},
		{"SCREAMING_SNAKE", "GIT_TERMINAL_PROMPT", []string{"gitterminalprompt", "git", "terminal", "prompt"}},
		{"kebab and flags", "--repo-root", []string{"reporoot", "repo", "root"}},
		{"path", "internal/mdstore/entry.go", []string{"internalmdstoreentrygo", "internal", "mdstore", "entry", "go"}},
		{"dotted call", "http.Client{Timeout: 10}", []string{"httpclient", "http", "client", "timeout", "10"}},
		{"method call", "ctx.Done()", []string{"ctxdone", "ctx", "done"}},
		{"task id", "fn-12.3:", []string{"fn123", "fn", "12"}},
		{"letters and digits stay together", "utf8 sha256 v2 int64", []string{"utf8", "sha256", "v2", "int64"}},
		{"sentence punctuation", "(see: the end.)", []string{"see", "end"}},
		{"stop words dropped, kept inside names", "is it isEmpty", []string{"isempty", "empty"}},
		{"single letters dropped", "a b c 1 x", nil},
		{"apostrophe splits", "don't user's", []string{"user"}},
		{"unicode letters", "naïve Ünïcode École", []string{"naïve", "ünïcode", "école"}},
		{"unicode camel", "ÉcoleNormale", []string{"écolenormale", "école", "normale"}},
		{"no case script", "東京タワー 配置", []string{"東京タワー", "配置"}},
		{"long run skipped", strings.Repeat("a", 70), nil},
		{"long part skipped, name kept", "x_" + strings.Repeat("b", 70), []string{"x" + strings.Repeat("b", 70)}},
		{"invalid utf8 separates", "bad\xffbytes", []string{"bad", "bytes"}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Tokens(tc.in)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// The prefilter in query.prefix assumes that a stem starts with the same
// two bytes as its word, bar the three words handled in query.add. Check it
// on every token of the corpus.
func TestStemKeepsPrefix(t *testing.T) {
	var c collector
	var z tokenizer
	for _, e := range loadCorpus(t) {
		z.scan(e.Issue+" "+e.Fix+" "+e.Context+" "+e.Body, &c)
	}
	for _, w := range []string{"dying", "lying", "tying", "skies", "news", "tried", "happiness"} {
		c.toks = append(c.toks, collected{text: w})
	}
	for _, tok := range c.toks {
		st := stemOf(tok.text)
		if len(st) < 2 || st[:2] != tok.text[:2] {
			if q := parseQuery(tok.text); !q.mayMatch([]byte(tok.text)) {
				t.Errorf("%q stems to %q: the prefilter would miss it", tok.text, st)
			}
		}
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name   string
		query  string
		stems  []string // in order, expansions included
		groups int
	}{
		{"stems and stop words", "Formatting the invoices", []string{"format", "invoic"}, 2},
		{"identifier is one group", "useEffect cleanup", []string{"useeffect", "use", "effect", "cleanup"}, 2},
		{"abbreviation expands", "ctx", []string{"ctx", "context"}, 1},
		{"repeat counts once", "invoice invoices", []string{"invoic"}, 1},
		{"concept expands", "jitter", []string{"jitter", "retri", "backoff", "tryagain", "triagain", "redeliv", "redeliveri"}, 1},

		{"expansion said outright joins its group", "ctx context", []string{"ctx", "context"}, 1},
		{"only stop words", "the of and", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := parseWords(tc.query)
			var stems []string
			for _, term := range q.terms {
				stems = append(stems, term.stem)
			}
			if !slices.Equal(stems, tc.stems) {
				t.Errorf("stems = %q, want %q", stems, tc.stems)
			}
			if len(q.groupWhole) != tc.groups {
				t.Errorf("groups = %d, want %d", len(q.groupWhole), tc.groups)
			}
		})
	}
	if q := parseQuery("ctx context"); q.terms[1].weight != 1 {
		t.Errorf("a word said outright keeps full weight, got %v", q.terms[1].weight)
	}
	q := parseQuery("timeout")
	for _, term := range q.terms[1:] {
		if term.weight >= abbrevWeight {
			t.Errorf("%s: expansion weight %v, want below %v", term.stem, term.weight, abbrevWeight)
		}
	}
	if q := parseQuery("Add timeout"); q.terms[0].weight != taskWordWeight {
		t.Errorf("task word weight %v, want %v", q.terms[0].weight, taskWordWeight)
	}
}

// Two words that make a phrase of the thesaurus are a group of their own,
// which brings in the phrase's concept; a stop word may end the phrase.
func TestParseQueryPhrases(t *testing.T) {
	tests := []struct {
		query  string
		groups int
		has    []string
	}{
		{"rate limit", 3, []string{"rate", "limit", "ratelimit", "throttl", "bruteforc"}},
		{"rateLimit", 1, []string{"ratelimit", "rate", "limit", "throttl"}},
		{"log in", 2, []string{"log", "login", "signin", "authent"}},
		{"time zone", 3, []string{"time", "zone", "timezon", "timezone", "utc"}},
	}
	for _, tc := range tests {
		q, _ := parseWords(tc.query)
		if len(q.groupWhole) != tc.groups {
			t.Errorf("%q: %d groups, want %d", tc.query, len(q.groupWhole), tc.groups)
		}
		for _, st := range tc.has {
			if _, ok := q.index[st]; !ok {
				t.Errorf("%q: no term %q", tc.query, st)
			}
		}
	}
	if q := parseQuery("rate limit"); len(q.heads) == 0 {
		t.Errorf("rate limit: no phrase heads for the matcher")
	}
}

func TestParseQueryBounded(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString("word")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("Part ")
	}
	q := parseQuery(b.String())
	if len(q.groupWhole) > maxQueryGroups || len(q.terms) > maxQueryTerms {
		t.Errorf("groups %d terms %d exceed the bounds", len(q.groupWhole), len(q.terms))
	}
}
