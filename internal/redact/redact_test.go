package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/redact/secrettest"
)

func TestCorpusRedacted(t *testing.T) {
	cases := secrettest.Corpus(t)
	if len(cases) < 130 {
		t.Fatalf("corpus has %d cases, want at least 130", len(cases))
	}
	for _, c := range cases {
		got := String(c.Text)
		if strings.Contains(got, c.Secret) {
			t.Errorf("corpus.tsv:%d (%s): secret survived:\n  in:  %s\n  out: %s", c.Line, c.Kind, c.Text, got)
		}
		// Also with the text flattened and wrapped the way a finding is.
		flat := String("**Problem**: " + strings.Join(strings.Fields(c.Text), " ") + ".")
		if strings.Contains(flat, c.Secret) {
			t.Errorf("corpus.tsv:%d (%s): secret survived in a sentence: %s", c.Line, c.Kind, flat)
		}
		if again := String(got); again != got {
			t.Errorf("corpus.tsv:%d: not idempotent:\n  once:  %s\n  twice: %s", c.Line, got, again)
		}
	}
}

func TestCleanTextUnchanged(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture", "secrets", "clean.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if got := String(line); got != line {
			t.Errorf("clean.txt:%d changed:\n  in:  %s\n  out: %s", i+1, line, got)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "Use t.TempDir for temp files", "Use t.TempDir for temp files"},
		{"private block", "keep <private>host db-7.corp</private> out", "keep [PRIVATE] out"},
		{"private multiline upper case", "a <PRIVATE>x\ny</Private> b", "a [PRIVATE] b"},
		{"private unterminated", "a <private>rest of it", "a [PRIVATE]"},
		{"private with attributes", `a <private reason="customer">acme-prod-db</private> b`, "a [PRIVATE] b"},
		{"private with spaces", "a < private >acme-prod-db</ private > b", "a [PRIVATE] b"},
		{"private mixed case and newline in tag", "a <Private\n  class='x'>acme\nprod</PRIVATE\n> b", "a [PRIVATE] b"},
		{"not a private tag", "the <privateKey> field and private fields", "the <privateKey> field and private fields"},
		{"url credentials without a user", "redis://:S3cretPassw0rd@cache:6379", "redis://:[REDACTED:url-credentials]@cache:6379"},
		{"mysql password glued to -p", "mysql -u root -pS3cretPass app", "mysql -u root -p[REDACTED:cli-password] app"},
		{"mysql port is not a password", "mysql -h db -P 3306 -u app", "mysql -h db -P 3306 -u app"},
		{"key word before a flag assignment", "pass -count=1", "pass -count=1"},
		{"key word before a long flag assignment", "pass --count=1", "pass --count=1"},
		{"strong key word before a name=value", "set the token GOFLAGS=-mod=mod", "set the token GOFLAGS=-mod=mod"},
		{"weak key assigned", "pass=hunter2", "pass=[REDACTED:assignment]"},
		{"password with a colon", "password: hunter2", "password: [REDACTED:assignment]"},
		{"password flag assigned", "--password=hunter2", "--password=[REDACTED:assignment]"},
		{"password flag with a space", "--password hunter2x9", "--password [REDACTED:assignment]"},
		{"key word before base64 with padding", "the secret c2VjcmV0dG9rZW4x=", "the secret [REDACTED:assignment]"},
		{"weak key name needs a credential-like value", "sort_key=name and cache_key: user_id", "sort_key=name and cache_key: user_id"},
		{"random token without a name", "value 9kf5Cuwmb0FMyYud4SY8SdnuFjo0GcbE here", "value [REDACTED:random-token] here"},
		{"identifiers, paths and hashes kept", "TestLoadOnlyRegularBounded in docs/reviews/2026-07-09-code-3403-codex-r1.md at 3f9c2a1b7e4d5f60718293a4b5c6d7e8f9012345",
			"TestLoadOnlyRegularBounded in docs/reviews/2026-07-09-code-3403-codex-r1.md at 3f9c2a1b7e4d5f60718293a4b5c6d7e8f9012345"},
		{"zero-width space cannot hide a token", "key gh\u200bp_0123456789abcdefghijABCDEFGHIJ012345 end", "key [REDACTED:github-token] end"},
		{"escape inside an assignment", "DB_PASS\x1b[0mWORD=hunter2x9", "DB_PASSWORD=[REDACTED:assignment]"},
		{"bidi override goes", "access \u202eresu\u2066 ok", "access resu ok"},
		{"two private blocks", "<private>a</private> and <private>b</private>", "[PRIVATE] and [PRIVATE]"},
		{"url credentials keep user and host", "postgres://app:S3cr3tPass@db:5432/x", "postgres://app:[REDACTED:url-credentials]@db:5432/x"},
		// A review quotes settings in code spans: the closing backtick stays,
		// or the span runs on and swallows the markdown after it.
		{"assignment in a code span", "sets `password: hunter2secretvalue` in `app.yaml`", "sets `password: [REDACTED:assignment]` in `app.yaml`"},
		{"value in backticks", "DB_PASSWORD=`S3cretValue9` here", "DB_PASSWORD=`[REDACTED:assignment]` here"},
		{"authorization in a code span", "send `Authorization: abcdefgh12345678` once", "send `Authorization: [REDACTED:authorization]` once"},
		{"authorization value in backticks", "Authorization: `abcdefgh12345678` once", "Authorization: `[REDACTED:authorization]` once"},
		{"env assignment", "DB_PASSWORD=hunter2 ./run", "DB_PASSWORD=[REDACTED:assignment] ./run"},
		{"json assignment", `{"api_key": "abc123def456"}`, `{"api_key": "[REDACTED:assignment]"}`},
		{"prose after colon kept", "token: the next one", "token: the next one"},
		{"variable reference kept", "password=${DB_PASSWORD}", "password=${DB_PASSWORD}"},
		{"bearer", "Authorization: Bearer abcdefghijklmnop1234", "Authorization: Bearer [REDACTED:authorization]"},
		{"aws id", "key AKIAIOSFODNN7EXAMPLE here", "key [REDACTED:aws-access-key] here"},
		{"jwt", "cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
			"cookie [REDACTED:jwt] end"},
		{"pem one line", "k -----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC -----END PRIVATE KEY----- done", "k [REDACTED:private-key] done"},
		{"sk-learn kept", "import sk-learn-compatible-estimators", "import sk-learn-compatible-estimators"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got  %q\n want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzString(f *testing.F) {
	for _, c := range secrettest.Corpus(f) {
		f.Add(c.Text)
	}
	f.Add("<private><private></private>")
	f.Fuzz(func(t *testing.T, s string) {
		once := String(s)
		if twice := String(once); twice != once {
			t.Errorf("not idempotent:\n in:    %q\n once:  %q\n twice: %q", s, once, twice)
		}
	})
}

func BenchmarkStringClean(b *testing.B) {
	text := strings.Repeat("The retry loop re-sends the request without the idempotency key, so a timeout creates duplicate charges. ", 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		String(text)
	}
}

// TestRulesCompile: the rules are compiled only when a text needs one,
// so each is compiled here once.
func TestRulesCompile(t *testing.T) {
	for i, c := range compiled() {
		if rules[i].scan == nil && c() == nil {
			t.Errorf("rule %d (%s) did not compile", i, rules[i].kind)
		}
	}
}

// BenchmarkStringReviews: the development reviews, real and invented, as
// one text (the hook redacts up to 1 MB of a review at once).
func BenchmarkStringReviews(b *testing.B) {
	var sb strings.Builder
	for _, glob := range []string{"../../testdata/review/real/dev/*.md", "../../testdata/review/real/dev/*.txt", "../../testdata/review/dev/*.md"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			sb.Write(data)
		}
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		String(text)
	}
}

// BenchmarkStringDense: 1 MB in which every line names secrets, URLs and
// headers without holding any, the worst case for the keyword windows.
func BenchmarkStringDense(b *testing.B) {
	para := "The auth handler logs the bearer token and the api_key header; the session secret and password reset token are compared with ==, and the private key path is read from `signing.key`. Authorization: Basic is accepted over http://user@host; see https://example.com/docs?token=abc and the mysql login docs.\n"
	text := strings.Repeat(para, (1<<20)/len(para))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		String(text)
	}
}

// TestStringShapes: secret shapes that reached the memory files through the
// hook and memory add before round 10 (each value random, of its shape),
// and the text around them that must stay.
func TestStringShapes(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// A key that names a secret, then ":" and a value of letters whose
		// case flips at random.
		{"yaml value of mixed-case letters", "passwd: DkKdkaQIcRoN", "passwd: [REDACTED:assignment]"},
		{"value closing a code span", "sets `passwd: ZqumpmhsEJNp` for admin", "sets `passwd: [REDACTED:assignment]` for admin"},
		{"yaml line of one lower-case word", "db:\n  password: quietmoose\n  user: app", "db:\n  password: [REDACTED:assignment]\n  user: app"},
		{"json quoted value", `{"password": "quietmoose"}`, `{"password": "[REDACTED:assignment]"}`},
		{"struct literal quoted value", `Config{User: "app", Password: "quietmoose"}`, `Config{User: "app", Password: "[REDACTED:assignment]"}`},
		{"escaped json in a string literal", `body := "{\"user\":\"app\",\"password\":\"S3crlqFdAJB8\"}"`, `body := "{\"user\":\"app\",\"password\":\"[REDACTED:assignment]\"}"`},
		{"quoted passphrase with spaces", `password: "pale ostrich cable lantern"`, `password: "[REDACTED:assignment]"`},
		{"bold key", "**secret**: kDHQxKrMUcHphB", "**secret**: [REDACTED:assignment]"},
		{"code span key", "`api_key`: Wm4qTzR8vLp2", "`api_key`: [REDACTED:assignment]"},
		{"table cell", "| DB_PASSWORD | HvN2x4DZWxnZ1zhF |", "| DB_PASSWORD | [REDACTED:assignment] |"},
		{"url-encoded equals", "login?user=a&pass%3DXDf32fUKRCGi", "login?user=a&pass%3D[REDACTED:assignment]"},
		{"said in a sentence", "the admin password is rover77 on staging", "the admin password is [REDACTED:assignment] on staging"},
		{"hex after 'key is'", "the api key is 649b9687e1d37c61c2c3419ef7f93fd3 here", "the api key is [REDACTED:assignment] here"},

		{"yaml block scalar", "stringData:\n  password: |\n    quietmoose77\n  user: app", "stringData:\n  password: |\n    [REDACTED:assignment]\n  user: app"},
		{"yaml folded scalar", "token: >-\n  Zx9qLmW3pRt7\n", "token: >-\n  [REDACTED:assignment]\n"},
		{"docker config auth", `{"auths": {"ghcr.io": {"auth": "Y2k6aHVudGVyMg=="}}}`, `{"auths": {"ghcr.io": {"auth": "[REDACTED:assignment]"}}}`},
		{"npmrc auth", "_auth=Y2k6aHVudGVyMg==", "_auth=[REDACTED:assignment]"},

		// Kept: labels, words after a code span, types, prose after "is".
		{"bold label", "- **Secret Management:** rotate keys yearly", "- **Secret Management:** rotate keys yearly"},
		{"label with colon inside bold", "**Password Hashing:** use bcrypt", "**Password Hashing:** use bcrypt"},
		{"code span then a word", "`store-credentials.ts` 仍然只检查头尾标记", "`store-credentials.ts` 仍然只检查头尾标记"},
		{"file and lines", "see `src/token.ts:1040-1046` and (`auth/secrets.rs:88`)", "see `src/token.ts:1040-1046` and (`auth/secrets.rs:88`)"},
		{"quoted name of a field", `{"ANTHROPIC_API_KEY": "anthropic_api_key"}`, `{"ANTHROPIC_API_KEY": "anthropic_api_key"}`},
		{"auth in prose", "auth: required for /admin, and the author: Jo", "auth: required for /admin, and the author: Jo"},
		{"field type", "class Settings:\n    secret_key: str\n", "class Settings:\n    secret_key: str\n"},
		{"prose after is", "the api key is hard-coded and the token is valid", "the api key is hard-coded and the token is valid"},
		{"short value after a weak key and is", "the sort key is utf8mb4", "the sort key is utf8mb4"},
		{"table of field types", "| password | string | required |", "| password | string | required |"},

		// Checksums named by their algorithm are not secrets.
		{"npm integrity", `"integrity": "sha512-SRg4xiFBQ77rekbaj/J2VGl8LDkkUzZFcTB1t87atQ7su4WgGvgsxgwHhouzJyGCDseGC6oXAA1XKb68zVTjJY=="`,
			`"integrity": "sha512-SRg4xiFBQ77rekbaj/J2VGl8LDkkUzZFcTB1t87atQ7su4WgGvgsxgwHhouzJyGCDseGC6oXAA1XKb68zVTjJY=="`},
		{"go.sum line", "golang.org/x/text v0.14.0 h1:p15e0Ks+53VzzIFCXsZsLiu2f9PNZm0sjdPe0+a/pEw=",
			"golang.org/x/text v0.14.0 h1:p15e0Ks+53VzzIFCXsZsLiu2f9PNZm0sjdPe0+a/pEw="},
		{"subresource integrity", `integrity="sha384-KTCogcMN5xVz/zyiMXb5AJok/wIBefmMDipJdMvXOdfJyI2akT1uu/J+YaVrSqpB"`,
			`integrity="sha384-KTCogcMN5xVz/zyiMXb5AJok/wIBefmMDipJdMvXOdfJyI2akT1uu/J+YaVrSqpB"`},
		{"random token after a word that is no algorithm", "cache shard-KTCogcMN5xVz/zyiMXb5AJok/wIBefmMDipJd", "cache [REDACTED:random-token]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got  %q\n want %q", tt.in, got, tt.want)
			}
			if got := String(tt.want); got != tt.want {
				t.Errorf("not idempotent: String(%q) = %q", tt.want, got)
			}
		})
	}
}

// TestSecretClasses: secrets whose shape the rules missed, by class, in
// invented values: a key id broken across whitespace (a wrapped log line, a
// column, a blockquote), a secret-named key whose value follows a space
// (a config line: redis.conf, keepalived, .netrc), and long hex or base64
// values in a cookie header, whatever the cookie's name. Ordinary hex
// (commit hashes, UUIDs, colours, request ids) stays.
func TestSecretClasses(t *testing.T) {
	leaks := []struct{ name, in, secret string }{
		{"key id split by a line break", "the deploy log printed AKIA7QW3\nXK2ZP9LM4RTB in plain text", "XK2ZP9LM4RTB"},
		{"key id split, next line indented", "aws_key_id (redacted badly): AKIA7QW3XK2Z\n    P9LM4RTB\nend", "P9LM4RTB"},
		{"key id split in a blockquote", "> AKIA7QW3XK2ZP9\n> LM4RTB was in the log", "LM4RTB"},
		{"key id split by a space", "id AKIA7QW3XK2Z P9LM4RTB leaked", "P9LM4RTB"},
		{"github token split", "ghp_Zq81mXc3Vb7Nw2Lk9Pj4\nHt6Rf0Ys5Ud8Ge1Ao3Ti7Eu leaked", "Ht6Rf0Ys5Ud8Ge1Ao3Ti7Eu"},
		{"config line", "redis.conf ships with\nrequirepass Zx81-redis-pw\nin the image", "Zx81-redis-pw"},
		{"config line, indented", "    masterauth 9Kq2vLw7pR\n", "9Kq2vLw7pR"},
		{"config line in a code span", "the chart sets `adminpwd T7m-Qz4wx1` by default", "T7m-Qz4wx1"},
		{"netrc line", "machine api.example.test login deploy password Pq7-xW2m9z", "Pq7-xW2m9z"},
		{"hex cookie of any name", "Cookie: theme=dark; remember_me=9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c", "9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c"},
		{"base64 set-cookie", "Set-Cookie: _app_state=QmFzZTY0U2Vzc2lvbkRhdGFIZXJl==; Path=/; HttpOnly", "QmFzZTY0U2Vzc2lvbkRhdGFIZXJl"},
		{"hex cookie in a code span", "the test sends `Cookie: uid=0a1b2c3d4e5f60718293a4b5c6d7e8f9` with every call", "0a1b2c3d4e5f60718293a4b5c6d7e8f9"},
	}
	for _, c := range leaks {
		t.Run(c.name, func(t *testing.T) {
			got := String(c.in)
			if strings.Contains(got, c.secret) || !strings.Contains(got, maskPrefix) {
				t.Errorf("String(%q) = %q: the secret stays", c.in, got)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
		})
	}
	kept := []string{
		"Fixed in 3f9c2a1b7e4d5f60718293a4b5c6d7e8f9012345, see\n0a1b2c3d4e5f60718293a4b5c6d7e8f901234567 for the revert",
		"the id 123e4567-e89b-12d3-a456-426614174000 is logged, colour #ff8800 and #0a0b0c",
		"Set-Cookie: lang=en-US; Max-Age=31536000; Path=/",
		"X-Request-Id: 4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e",
		"AKIA is the prefix\nof every access key id AWS issues",
		"Bypass caching for health checks\nrequirepass is unset in dev",
		"Password reset\nToken refresh\nSecret rotation",
		"the column `sha` holds 9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a",
	}
	for _, in := range kept {
		if got := String(in); got != in {
			t.Errorf("ordinary text changed:\n  in:  %q\n  out: %q", in, got)
		}
	}
}

// TestFixedLengthRules: the rules brokenTokens joins across a gap are the
// key ids of one exact length; an open-ended token (sk-…{20,}) would take
// the next line's first word for its rest.
func TestFixedLengthRules(t *testing.T) {
	fixed := map[string]bool{}
	for _, r := range rules {
		if fixedLength(r.pattern) {
			fixed[r.kind] = true
		}
	}
	for _, k := range []string{"aws-access-key", "google-api-key", "npm-token", "shopify-token", "age-key"} {
		if !fixed[k] {
			t.Errorf("%s is not joined across a gap", k)
		}
	}
	for _, k := range []string{"openai-key", "jwt", "github-token", "slack-token"} {
		if fixed[k] {
			t.Errorf("%s (open-ended) is joined across a gap", k)
		}
	}
	in := "OPENAI_API_KEY=sk-test-123\nGOOGLE_API_KEY = \"sk-quoted\""
	if got := String(in); strings.Contains(got, "GOOGLE") == false {
		t.Errorf("the next line's key was taken into a token: %q", got)
	}
}

// Unmasked takes out every mask String writes, whatever its kind, and
// keeps the words around them: memory add asks it whether a text is only
// masks.
func TestUnmasked(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{String("token ghp_" + strings.Repeat("a1B2", 9)), "token "},
		{String("password=S3cretPassw0rd"), "password="},
		{String("<private>internal host</private>"), ""},
		{String("use the pool, not new connections"), "use the pool, not new connections"},
		{"half [REDACTED:open", "half [REDACTED:open"},
	} {
		if got := Unmasked(tc.in); got != tc.want {
			t.Errorf("Unmasked(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
