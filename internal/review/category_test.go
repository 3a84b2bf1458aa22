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
			name: "electronic is not electron",
			f: Finding{Problem: "`SignDocument` stores the electronic signature after the row is committed, so a failed upload leaves an empty signature.",
				Fix: "Upload first and commit the row only once the signature is stored."},
			want: CatEdgeCase,
		},
		{
			name: "original is not origin",
			f: Finding{Problem: "The fallback deletes the original file before the rename, so a crash loses it.",
				Fix: "Do not remove the original until the rename succeeded."},
			want: CatEdgeCase,
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
			name: "a bug in a script the project runs is no build lesson",
			f: Finding{Problem: "The deploy script removes `$TMP/*` when `TMP` is unset.",
				Fix: "Guard the `rm` with `${TMP:?}`."},
			want: CatEdgeCase,
		},
		{
			name: "a situation the code does not handle is an edge case by default",
			f: Finding{Problem: "`mergeRanges` drops the second of two ranges that share an end point.",
				Fix: "Sort by start and union ranges whose ends touch."},
			want: CatEdgeCase,
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
			name: "a guide of the project by the shape of its name is a convention",
			f: Finding{Problem: "`fetchAll` builds its SQL by string concatenation; docs/DB_GUIDELINES.md asks for the query builder.",
				Fix: "Build the query with the project's builder."},
			want: CatConvention,
		},
		{
			name: "a lower-case markdown file is no project guide",
			f: Finding{Problem: "`render` writes changelog.md before the version is bumped, so it is empty.",
				Fix: "Bump first."},
			want: CatEdgeCase,
		},
		{
			name: "a fix in the file the problem names points nowhere else",
			f: Finding{Problem: "`parseDate` in api/orders.py returns nothing for an empty cell.",
				Fix: "In api/orders.py return an error for an empty cell."},
			want: CatEdgeCase,
		},
		{
			name: "access by role is security",
			f: Finding{Problem: "`deleteUser` runs for any signed-in caller; the admin role is never checked.",
				Fix: "Check the caller's role before deleting."},
			want: CatSecurity,
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
			name: "exposing sensitive data is security",
			f: Finding{Problem: "`dumpState` exposes the session cookie in debug output.",
				Fix: "Mask the cookie before logging."},
			want: CatSecurity,
		},
		{
			name: "how a runtime runs async code is a framework lesson",
			f: Finding{Problem: "`fetchAll` is async but calls the blocking `readFile`, stalling every other request the worker serves.",
				Fix: "Await the non-blocking read instead."},
			want: CatFramework,
		},
		{
			name: "a deprecated library call is a framework lesson",
			f: Finding{Problem: "`Widget.paint` relies on `getColor`, deprecated since the toolkit's last major release.",
				Fix: "Call `theme.color` instead."},
			want: CatFramework,
		},
		{
			name: "what an endpoint answers is an API lesson",
			f: Finding{Problem: "`pushBatch` treats any HTTP answer as success, so a rejected batch is never sent again.",
				Fix: "Check the endpoint's status code and resend on failure."},
			want: CatAPI,
		},
		{
			name: "breaking a stated project rule is a convention",
			f: Finding{Problem: "`loader.py` opens its own database handle, which violates the one-pool-per-process design.",
				Fix: "Take the handle from `db.pool()`."},
			want: CatConvention,
		},
		{
			name: "code that builds a value is no build lesson",
			f: Finding{Problem: "`makeKey` builds the cache key from the name alone, so two tenants with one name share an entry when both are empty.",
				Fix: "Build the key from the tenant id and the name."},
			want: CatEdgeCase,
		},
		{
			name: "a broken CI step is a build lesson",
			f: Finding{Problem: "The CI lint step runs before `npm ci`, so it reads the previous lockfile.",
				Fix: "Install dependencies first."},
			want: CatBuild,
		},
		{
			name: "a finding placed in a test file is a test gotcha",
			f: Finding{Location: "web/src/cart.test.ts:40",
				Problem: "The test sleeps 500 ms for `render` to settle.",
				Fix:     "Wait for the element to appear instead."},
			want: CatBuild,
		},
		{
			name: "a named framework makes a framework lesson",
			f: Finding{Problem: "`loadRows` builds a new Pandas frame per row, copying the whole table each time.",
				Fix: "Collect the rows in a list and build one frame at the end."},
			want: CatFramework,
		},
		{
			name: "where code is imported from is the project's rule",
			f: Finding{Problem: "`Panel` defines its own `formatDate` instead of the import from `lib/dates`.",
				Fix: "Import `formatDate` from `lib/dates`."},
			want: CatConvention,
		},
		{
			name: "nothing else said, a UI component file points at its framework",
			f: Finding{Location: "web/src/Basket.vue:40", Problem: "`total` is recomputed inside the template loop.",
				Fix: "Compute `total` once as a computed property."},
			want: CatFramework,
		},
		{
			name: "in a UI component file a signal still decides",
			f: Finding{Location: "app/Cart.tsx:12", Problem: "`Cart` shows a blank row when `items` is empty.",
				Fix: "Render a placeholder for an empty cart."},
			want: CatEdgeCase,
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
		{[]string{"ci", "cli"}, []string{"ci$"}, 1},
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

func TestUIFile(t *testing.T) {
	for loc, want := range map[string]bool{
		"web/src/Basket.vue:40":              true,
		"App/Views/Login.swift":              true,
		"`ui/menu.tsx`, lib/menu.ts":         true,
		"lib/menu.ts, ui/menu.tsx":           false, // the first file named decides
		"src/server.go:10":                   false,
		"docs/tsx-notes.md":                  false,
		"":                                   false,
		"platform/mac/WindowController.mm:7": true,
	} {
		if got := uiFile(loc); got != want {
			t.Errorf("uiFile(%q) = %v, want %v", loc, got, want)
		}
	}
}

func TestAmbiguousWordsAreNoSignal(t *testing.T) {
	// Each of these words has two common senses that point at different
	// categories, so none of them decides one.
	f := Finding{Problem: "In order to reuse the pipeline, the migration leaks state through the SDK on the beta channel."}
	for i, s := range categoryScores(f) {
		if s != 0 {
			t.Errorf("%s scores %d, want 0 (scores %v)", categorySignals[i].name, s, categoryScores(f))
		}
	}
}

func TestProjectDoc(t *testing.T) {
	for name, want := range map[string]bool{
		"STYLE.md": true, "RELEASE_NOTES.md": true, "ADR-007.md": true,
		"notes.md": false, "Guide.md": false, "MD.md": false, "123.md": false, "STYLE.txt": false,
	} {
		if got := projectDoc(name); got != want {
			t.Errorf("projectDoc(%q) = %v, want %v", name, got, want)
		}
	}
	if got := projectDocs("see docs/PATTERNS.md and HACKING.md, not todo.md"); got != 2 {
		t.Errorf("projectDocs counted %d, want 2", got)
	}
}
