package review

import "testing"

func TestCategorize(t *testing.T) {
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{
			name: "a lesson about how this project already does it",
			f: Finding{Problem: "`Save` writes the key as `userId`, inconsistent with the rest of the code, which reads `user_id`.",
				Fix: "Write `user_id` as the other readers expect."},
			want: CatConvention,
		},
		{
			name: "a directory named auth does not make a lesson about security",
			f: Finding{Location: "internal/auth/views/page.go:9",
				Problem: "`Render` in `internal/auth/views/page.go` parses the template on every request.",
				Fix:     "Parse it once at init with `template.Must`."},
			want: CatFramework,
		},
		{
			name: "reading one page of a paginated list is an API lesson",
			f: Finding{Problem: "`listInvoices` ignores pagination and reads only the first page, so invoices past the hundredth never show up.",
				Fix: "Follow the `next` cursor until the service stops returning one."},
			want: CatAPI,
		},
		{
			name: "original is not origin",
			f: Finding{Problem: "The fallback deletes the original file before the rename, so a crash loses it.",
				Fix: "Do not remove the original until the rename succeeded."},
			want: CatEdgeCase,
		},
		{
			name: "a library's behaviour in a version is a framework lesson, not a stale value",
			f: Finding{Problem: "`last_insert_rowid` is stale after an upsert takes the update path in this SQLite version.",
				Fix: "Use `RETURNING id` in the upsert."},
			want: CatFramework,
		},
		{
			name: "a framework named by name makes its behaviour a framework lesson, whatever fails",
			f: Finding{Problem: "In development React mounts the component twice, so `initFeed` opens two sockets and every message shows up doubled.",
				Fix: "Return a function from the effect that closes the socket."},
			want: CatFramework,
		},
		{
			name: "an error path is an edge case",
			f: Finding{Problem: "`Sync` waits on a peer forever when the peer stops answering, and the timeout error is dropped.",
				Fix: "Guard the call with a deadline and reject the peer after a timeout."},
			want: CatEdgeCase,
		},
		{
			name: "transport trust is security",
			f: Finding{Problem: "The client sets `InsecureSkipVerify: true`, so a MITM on the network reads every call.",
				Fix: "Check certificates against the system pool and keep TLS verification on."},
			want: CatSecurity,
		},
		{
			name: "a CI workflow named by path is a build lesson",
			f: Finding{Location: ".github/workflows/release.yml:12",
				Problem: "The job runs the tests without the race detector.",
				Fix:     "Add `-race` to the test step in `.github/workflows/release.yml`."},
			want: CatBuild,
		},
		{
			name: "a bug in a script the project runs is no build lesson",
			f: Finding{Problem: "The deploy script removes `$TMP/*` when `TMP` is unset.",
				Fix: "Guard the `rm` with `${TMP:?}`."},
			want: CatEdgeCase,
		},
		{
			name: "a manifest as the location is a build lesson",
			f: Finding{Location: "web/package.json:8",
				Problem: "`\"postinstall\"` downloads a binary on every install.",
				Fix:     "Vendor the binary or pin its checksum."},
			want: CatBuild,
		},
		{
			name: "a fix naming the library function to build it with is a framework lesson",
			f: Finding{Problem: "`url.Parse` is skipped and the base is concatenated with the code.",
				Fix: "Build it with `url.JoinPath`."},
			want: CatFramework,
		},
		{
			name: "a situation the code does not handle is an edge case by default",
			f: Finding{Problem: "`mergeRanges` drops the second of two ranges that share an end point.",
				Fix: "Sort by start and union ranges whose ends touch."},
			want: CatEdgeCase,
		},
		{
			name: "a fix that prescribes a library call is a framework idiom",
			f: Finding{Problem: "`loadConfig` reads the whole file into memory before parsing it.",
				Fix: "Use `json.NewDecoder(f)` and decode the stream."},
			want: CatFramework,
		},
		{
			name: "a library call that replaced one gone in a release is a framework lesson",
			f: Finding{Problem: "`parse_obj` is gone in v2 and now raises on import.",
				Fix: "Call `model_validate` instead."},
			want: CatFramework,
		},
		{
			name: "tokens of a tokenizer are not security",
			f: Finding{Problem: "`split_words` counts punctuation tokens as words, so the limit trips early.",
				Fix: "Skip tokens without letters."},
			want: CatEdgeCase,
		},
		{
			name: "a project rule document named is a convention",
			f: Finding{Problem: "`db.rs` calls `unwrap()` on query results, against the rule in CLAUDE.md.",
				Fix: "Return the error with `?`."},
			want: CatConvention,
		},
		{
			name: "access by role is security",
			f: Finding{Problem: "`deleteUser` runs for any signed-in caller; the admin role is never checked.",
				Fix: "Check the caller's role before deleting."},
			want: CatSecurity,
		},
		{
			name: "fails and missing are words of any bug, not an edge case",
			f: Finding{Problem: "`loadPage` fails on relative links because the base is missing.",
				Fix: "Resolve them with `new URL(href, base)`."},
			want: CatFramework,
		},
		{
			name: "a panic is what the code does wrong, not a framework idiom",
			f: Finding{Problem: "`decodeMap` can panic on a map key that holds a map.",
				Fix: "Keep map entries as ordered pairs."},
			want: CatEdgeCase,
		},
		{
			name: "a failure under a condition is an edge case even when the fix names a call",
			f: Finding{Problem: "`Rename` overwrites the target when the source and target are the same file.",
				Fix: "Compare with `os.SameFile` first."},
			want: CatEdgeCase,
		},
		{
			name: "a negated form is about its stem: unauthenticated is security",
			f: Finding{Problem: "The upload handler takes unauthenticated requests from anyone.",
				Fix: "Require a signed-in caller on the upload route."},
			want: CatSecurity,
		},
		{
			name: "an API key is a credential, not an API lesson",
			f: Finding{Problem: "The API key is kept in the app's preferences file.",
				Fix: "Keep the key in the OS keychain."},
			want: CatSecurity,
		},
		{
			name: "a finding placed in a test file is a test gotcha",
			f: Finding{Location: "web/src/cart.test.ts:40",
				Problem: "The test sleeps 500 ms for `render` to settle.",
				Fix:     "Wait for the element to appear instead."},
			want: CatBuild,
		},
		{
			name: "a build tool run in a code span is a build lesson",
			f: Finding{Problem: "`render` fails on a fresh checkout: the generated client is not there.",
				Fix: "Run `uv sync` and then `uv run gen-client` before starting."},
			want: CatBuild,
		},
		{
			name: "a tool run with a flag is a lesson about its CLI",
			f: Finding{Problem: "`render` fails on a fresh checkout: the generated client is not there.",
				Fix: "Run `uv sync --frozen` before starting."},
			want: CatAPI,
		},
		{
			name: "a flag named outside the tool's span still makes a CLI lesson",
			f: Finding{Problem: "`go test` reuses cached results unless it is given -count=1.",
				Fix: "Pass -count=1 when a test reads files outside the package."},
			want: CatAPI,
		},
		{
			name: "a numbered rule of the project is a convention",
			f: Finding{Problem: "`OrderView` reads the table itself, against principle 4 of the layering guide.",
				Fix: "Go through `OrderService`."},
			want: CatConvention,
		},
		{
			name: "a fix stated as an obligation is a convention",
			f: Finding{Problem: "`resize` writes the thumbnail next to the upload.",
				Fix: "Generated files must go under `cache/`."},
			want: CatConvention,
		},
		{
			name: "exposing sensitive data is security",
			f: Finding{Problem: "`dumpState` exposes the session cookie in debug output.",
				Fix: "Mask the cookie before logging."},
			want: CatSecurity,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := categorize(tt.f); got != tt.want {
				t.Errorf("categorize = %s, want %s (scores %v)", got, tt.want, categoryScores(tt.f))
			}
		})
	}
}

func TestSignalCount(t *testing.T) {
	tests := []struct {
		words, stems []string
		want         int
	}{
		{[]string{"secrets", "leak"}, []string{"secret", "secrets"}, 1}, // one word, two forms listed
		{[]string{"unencrypted", "payload"}, []string{"encrypt"}, 1},
		{[]string{"ci", "cli"}, []string{"ci$"}, 1},
		{[]string{"until", "unlock"}, []string{"til", "lock"}, 0}, // "un" negates only a longer word
		{[]string{"nothing"}, []string{"secret"}, 0},
	}
	for _, tt := range tests {
		if got := signalCount(tt.words, tt.stems); got != tt.want {
			t.Errorf("signalCount(%q, %q) = %d, want %d", tt.words, tt.stems, got, tt.want)
		}
	}
}

func TestTestFile(t *testing.T) {
	for loc, want := range map[string]bool{
		"internal/store/save_test.go:12": true,
		"web/cart.spec.js, web/cart.js":  true,
		"tests/test_parse.py:3":          true,
		"app/__tests__/list.tsx":         true,
		"e2e/login.ts:8":                 true,
		"internal/testing/util.go":       false,
		"latest/contest.py":              false,
		"src/attest.go:4":                false,
		"":                               false,
	} {
		if got := testFile(loc); got != want {
			t.Errorf("testFile(%q) = %v, want %v", loc, got, want)
		}
	}
}

func TestAmbiguousWordsAreNoSignal(t *testing.T) {
	// Each of these words has two common senses that point at different
	// categories, so none of them decides one.
	f := Finding{Problem: "In order to reuse the pipeline, the migration leaks state through the SDK."}
	for i, s := range categoryScores(f) {
		if s != 0 {
			t.Errorf("%s scores %d, want 0 (scores %v)", categorySignals[i].name, s, categoryScores(f))
		}
	}
}
