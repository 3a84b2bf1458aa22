package text

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

func TestTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"words", "Retry the webhook", []string{"retry", "the", "webhook"}},
		{"camelCase", "useEffect", []string{"useeffect", "use", "effect"}},
		{"PascalCase acronym", "HTTPServer", []string{"httpserver", "http", "server"}},
		{"acronym inside", "parseJSONResponse", []string{"parsejsonresponse", "parse", "json", "response"}},
		{"trailing acronym", "getID", []string{"getid", "get", "id"}},
		{"acronym plurals", "JWTs APIs CVEs IDs", []string{"jwt", "api", "cve", "id"}},
		{"an s that digits follow is no plural", "IDs2 AAs00", []string{"ids2", "aas00"}},
		{"acronym plural inside a name", "listURLsFor", []string{"listurlfor", "list", "url", "for"}},
		{"acronym then word starting with s", "HTTPSession", []string{"httpsession", "http", "session"}},
		{"lower-case s after one capital", "Ss Ts", []string{"ss", "ts"}},
		{"snake_case", "max_retries", []string{"maxretries", "max", "retries"}},
		{"SCREAMING_SNAKE", "GIT_TERMINAL_PROMPT", []string{"gitterminalprompt", "git", "terminal", "prompt"}},
		{"kebab and flags", "--repo-root", []string{"reporoot", "repo", "root"}},
		{"path", "internal/mdstore/entry.go", []string{"internalmdstoreentrygo", "internal", "mdstore", "entry", "go"}},
		{"dotted call", "http.Client{Timeout: 10}", []string{"httpclient", "http", "client", "timeout", "10"}},
		{"task id", "fn-12.3:", []string{"fn123", "fn", "12"}},
		{"letters and digits stay together", "utf8 sha256 v2 int64", []string{"utf8", "sha256", "v2", "int64"}},
		{"sentence punctuation", "(see: the end.)", []string{"see", "the", "end"}},
		{"single letters dropped", "a b c 1 x", nil},
		{"apostrophe splits", "don't user's", []string{"don", "user"}},
		{"unicode letters", "naïve Ünïcode École", []string{"naïve", "ünïcode", "école"}},
		{"unicode camel", "ÉcoleNormale", []string{"écolenormale", "école", "normale"}},
		{"unspaced script in overlapping pairs", "東京タワー 配置", []string{"東京", "京タ", "タワ", "ワー", "配置"}},
		{"unspaced script beside latin", "HTTPの接続を", []string{"http", "の接", "接続", "続を"}},
		{"lone unspaced character dropped", "x 字 y", nil},
		{"spaced script kept whole", "한국어 단어", []string{"한국어", "단어"}},
		{"long run skipped", strings.Repeat("a", 70), nil},
		{"long part skipped, name kept", "x_" + strings.Repeat("b", 70), []string{"x" + strings.Repeat("b", 70)}},
		{"invalid utf8 separates", "bad\xffbytes", []string{"bad", "bytes"}},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		if got := Tokens(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Tokens(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestScanKinds(t *testing.T) {
	t.Parallel()
	var got []Kind
	var z Tokenizer
	z.Scan("retry useEffect", func(_ []byte, k Kind) { got = append(got, k) })
	if want := []Kind{Word, Whole, Part, Part}; !slices.Equal(got, want) {
		t.Errorf("kinds = %v, want %v", got, want)
	}
}

func TestStem(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]string{
		"retries": "retri", "retry": "retri", "running": "run", "ran": "run",
		"thrown": "throw", "threw": "throw", "settings": "setting", "setting": "setting",
		"sets": "set", "production": "production", "products": "product",
		"authorization": "authoriz", "author": "author", "go": "go", "2026": "2026", "v2": "v2",
	} {
		if got := Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	t.Parallel()
	pairs := [][2]string{
		{"ctx", "context"}, {"k8s", "kubernetes"}, {"db", "databases"}, {"cfg", "configuration"},
		{"repos", "repository"}, {"authn", "authentication"}, {"args", "argument"}, {"paging", "pagination"},
	}
	for _, p := range pairs {
		if Fold(p[0]) != Fold(p[1]) {
			t.Errorf("Fold(%q) = %q, Fold(%q) = %q: want the same", p[0], Fold(p[0]), p[1], Fold(p[1]))
		}
	}
	for _, p := range [][2]string{{"authentication", "authorization"}, {"ts", "typescript"}, {"set", "settings"}, {"page", "paging"}, {"went", "go"}, {"gone", "go"}} {
		if Fold(p[0]) == Fold(p[1]) {
			t.Errorf("Fold(%q) = Fold(%q) = %q: want them apart", p[0], p[1], Fold(p[0]))
		}
	}
}

func TestIsStop(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"the", "and", "should", "ve", "instead"} {
		if !IsStop(w) {
			t.Errorf("IsStop(%q) = false", w)
		}
	}
	for _, w := range []string{"not", "never", "no", "without", "don", "doesn", "timeout", "go", "theirselves"} {
		if IsStop(w) {
			t.Errorf("IsStop(%q) = true", w)
		}
	}
}

func TestContentWords(t *testing.T) {
	t.Parallel()
	got := ContentWords("Never pass the ctx to http.Client retries")
	want := []string{"never", "pass", Fold("context"), "httpclient", "http", "client", "retri"}
	if !slices.Equal(got, want) {
		t.Errorf("ContentWords = %q, want %q", got, want)
	}
	if a, b := ContentWords("Always validate input"), ContentWords("Never validate input"); slices.Equal(a, b) {
		t.Errorf("a lesson and its negation have the same content words %q", a)
	}
}

// TestDataFiles keeps the tables honest: no word twice in abbrev.txt (it
// would fold into two words) and no stop word in it (it is never looked
// up).
func TestDataFiles(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	lines(abbrevData, func(ws []string) {
		for _, w := range ws {
			if prev, ok := seen[w]; ok {
				t.Errorf("abbrev.txt: %q in the lines of %q and %q", w, prev, ws[0])
			}
			seen[w] = ws[0]
			if IsStop(w) {
				t.Errorf("abbrev.txt: %q is a stop word", w)
			}
		}
	})
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"", "useEffect", "HTTPServer JWTs", "a_b-c.d/e", "naïve ÉcoleNormale", "bad\xff", "fn-1.2: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var z Tokenizer
		z.Scan(s, func(tok []byte, k Kind) {
			if len(tok) == 0 || (k != Whole && len(tok) > maxTokenBytes) {
				t.Fatalf("token %q (kind %d) out of bounds", tok, k)
			}
			if !utf8.Valid(tok) {
				t.Fatalf("token %q is not valid UTF-8", tok)
			}
			if string(tok) != strings.ToLower(string(tok)) && !hasSpecialCase(string(tok)) {
				t.Fatalf("token %q is not lower-case", tok)
			}
		})
		for _, w := range ContentWords(s) {
			if w == "" {
				t.Fatalf("empty content word from %q", s)
			}
		}
	})
}

// hasSpecialCase reports runes whose lower case is not reached in one
// step (strings.ToLower goes by special cases the tokenizer does not).
func hasSpecialCase(s string) bool {
	for _, r := range s {
		if r >= 0x80 {
			return true
		}
	}
	return false
}

// TestForms: every word of the tables is listed by Forms under the stem
// it folds to, which is what prefix search relies on.
func TestForms(t *testing.T) {
	t.Parallel()
	check := func(ws []string) {
		for _, w := range ws {
			if w == "=" {
				continue
			}
			f := Fold(w)
			if w != f && !slices.Contains(Forms(f), w) {
				t.Errorf("%q folds to %q but Forms(%q) = %q", w, f, f, Forms(f))
			}
		}
	}
	lines(stemData, check)
	lines(abbrevData, check)
	if !slices.Contains(Forms(Fold("context")), "ctx") || !slices.Contains(Forms("run"), "ran") {
		t.Errorf("Forms(context) = %q, Forms(run) = %q", Forms(Fold("context")), Forms("run"))
	}
}

// TestStemmed: stemmed.txt holds the Snowball stem of every word of the
// data files (run go generate ./internal/text after editing one).
func TestStemmed(t *testing.T) {
	t.Parallel()
	m := dataStems()
	n := 0
	for _, data := range []string{stemData, abbrevData} {
		lines(data, func(ws []string) {
			for _, w := range ws {
				if w == "=" {
					continue
				}
				n++
				if s, ok := m[w]; !ok || s != english.Stem(w, true) {
					t.Errorf("stemmed.txt: %q is %q (listed: %v), Snowball says %q", w, s, ok, english.Stem(w, true))
				}
			}
		})
	}
	if n < 300 {
		t.Fatalf("read %d words of the data files", n)
	}
}

// Tokens returns the lower-case tokens of s in order, stop words included:
// for an identifier of several parts, the parts run together and then each
// part.
func Tokens(s string) []string {
	var out []string
	var z Tokenizer
	z.Scan(s, func(tok []byte, _ Kind) { out = append(out, string(tok)) })
	return out
}
