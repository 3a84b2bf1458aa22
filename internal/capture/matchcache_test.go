package capture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
	"github.com/flowmem/flowmem/internal/review"
)

// sameState reports how a matcher's pass differs from want's, or "".
func sameState(got, want *Matcher) string {
	switch {
	case got.nDocs != want.nDocs || got.every != want.every:
		return fmt.Sprintf("nDocs/every %d/%d, want %d/%d", got.nDocs, got.every, want.nDocs, want.every)
	case !slices.Equal(got.sigs, want.sigs):
		return "signatures differ"
	case !slices.Equal(got.idHash, want.idHash):
		return "id hashes differ"
	case got.firstID != want.firstID || got.lastID != want.lastID:
		return "first/last ids differ"
	case (got.table == nil) != (want.table == nil):
		return "one has no count table"
	case got.table == nil:
		return ""
	case !slices.Equal(got.table.counts, want.table.counts):
		return "counts differ"
	case got.table.n != want.table.n || got.table.sampled != want.table.sampled:
		return fmt.Sprintf("table n/sampled %d/%d, want %d/%d", got.table.n, got.table.sampled, want.table.n, want.table.sampled)
	}
	return ""
}

// withCacheSettings sets the cache's thresholds for one test.
func withCacheSettings(t testing.TB, minEntries, rewrite int) {
	t.Helper()
	oldMin, oldRewrite := matchCacheMinEntries, matchCacheRewrite
	matchCacheMinEntries, matchCacheRewrite = minEntries, rewrite
	t.Cleanup(func() { matchCacheMinEntries, matchCacheRewrite = oldMin, oldRewrite })
}

// TestMatchCacheEquivalence: whatever the cache holds — nothing, the same
// memory, a shorter or longer one, one edited in the middle, a memory whose
// sampling step has since changed, analyses written by another build, a
// damaged or forged file — a matcher reading it ends in exactly the state
// of a matcher without a cache fed the same entries, and matches (and
// appends) every lesson the same way, rebuilding the features of the
// entries whose analysis the cache kept.
func TestMatchCacheEquivalence(t *testing.T) {
	pool := generatedEntries(10000)
	var lessons []mdstore.Entry // recur in some stores, new in others
	for _, g := range loadRecurrenceCorpus(t, "holdout.txt") {
		lessons = append(lessons, g.a.entry())
		for _, s := range g.same {
			lessons = append(lessons, s.entry())
		}
	}
	if len(lessons) < 20 {
		t.Fatal("holdout corpus missing")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	edit := func(e mdstore.Entry, what int) mdstore.Entry {
		switch what {
		case 0:
			e.Issue += " (again)"
		case 1:
			e.Fix = "rather " + e.Fix
		case 2:
			e.ID += "x" // the id alone: same text, another identity
		default:
			e.Issue, e.Fix = e.Fix, e.Issue
		}
		return e
	}
	ops := []string{"same", "append", "append-across-step", "edit", "edit-sampled", "edit-id", "delete", "insert", "truncate", "other", "empty-cache-file",
		"flip-byte", "truncate-file", "extend-file", "forged-constant", "forged-counts", "forged-analysis", "other-build"}
	kept := 0
	for trial := range 180 {
		op := ops[trial%len(ops)]
		withCacheSettings(t, rng.IntN(3)*40, []int{0, 3, 64}[rng.IntN(3)])
		path := filepath.Join(t.TempDir(), mdstore.CacheDir, "pitfalls.match")
		n0 := 1 + rng.IntN(1300)
		switch {
		case trial%5 == 0:
			n0 = 700 + rng.IntN(200) // around the first step change, at 800
		case trial%11 == 0:
			n0 = 4000 + rng.IntN(4000) // the pass split across cores
		}
		off := rng.IntN(len(pool) - n0 - 600)
		a := slices.Clone(pool[off : off+n0])
		// Some stores hold lessons the queries repeat.
		for range rng.IntN(4) {
			i := rng.IntN(len(a) + 1)
			a = slices.Insert(a, i, lessons[rng.IntN(len(lessons))])
		}
		// The lessons Upsert is given below: from the corpus, or close
		// rewordings of entries in memory, which have many candidates.
		seq := make([]mdstore.Entry, 5)
		for k := range seq {
			if rng.IntN(2) == 0 {
				seq[k] = lessons[rng.IntN(len(lessons))]
				continue
			}
			e := a[rng.IntN(len(a))]
			e.Issue, e.ID = "Again: "+e.Issue, ""
			e.Normalize()
			seq[k] = e
		}
		// The cache of a, built as the hook builds it: the pass, then the
		// analyses of the lessons' candidates.
		mc := Matcher{CachePath: path}
		mc.sync(a)
		for k := range seq {
			mc.Match(a, &seq[k])
		}
		mc.SaveCache()

		b := slices.Clone(a)
		every := max(1, len(a)/countSample)
		switch op {
		case "append":
			b = append(b, pool[off+n0:off+n0+1+rng.IntN(80)]...)
		case "append-across-step":
			b = append(b, pool[off+n0:off+n0+countSample+rng.IntN(200)]...)
		case "edit":
			i := rng.IntN(len(b))
			b[i] = edit(b[i], rng.IntN(4))
		case "edit-sampled":
			i := rng.IntN(len(b)) / every * every
			b[i] = edit(b[i], rng.IntN(2))
		case "edit-id":
			i := rng.IntN(len(b))
			b[i] = edit(b[i], 2)
		case "delete":
			i := rng.IntN(len(b))
			b = slices.Delete(b, i, i+1)
		case "insert":
			b = slices.Insert(b, rng.IntN(len(b)), pool[len(pool)-1-rng.IntN(100)])
		case "truncate":
			b = b[:rng.IntN(len(b))]
		case "other":
			o := rng.IntN(len(pool) - n0)
			b = slices.Clone(pool[o : o+n0])
		case "other-build":
		default:
			corruptMatchCache(t, path, op, rng)
		}

		c := Matcher{CachePath: path}
		var u Matcher
		if op == "other-build" {
			stamp := featStamp
			featStamp = func() string { return "another build" }
			c.sync(b)
			featStamp = stamp
		} else {
			c.sync(b)
		}
		u.sync(b)
		if op == "other-build" && c.fc != nil {
			t.Fatalf("trial %d: analyses of another build used", trial)
		}
		if d := sameState(&c, &u); d != "" {
			t.Fatalf("trial %d (%s, %d → %d entries): with the cache: %s", trial, op, len(a), len(b), d)
		}
		if len(b) >= matchCacheMinEntries && len(b) > 0 {
			switch {
			case op == "same" && c.reused != len(b):
				t.Errorf("trial %d (same memory): %d of %d signatures reused", trial, c.reused, len(b))
			case op == "same" && c.save != nil:
				t.Errorf("trial %d (same memory): the current cache is rewritten", trial)
			case op == "append" && len(a) >= matchCacheMinEntries && c.reused != len(a):
				t.Errorf("trial %d (append): %d of %d signatures reused", trial, c.reused, len(a))
			}
		}
		for i := range c.cachedAt {
			if c.cached(i) {
				kept++
			}
		}
		// Upsert's calls: lessons matched in turn, the new ones appended.
		bc, bu := slices.Clone(b), slices.Clone(b)
		for k, l := range seq {
			gc, gu := c.Match(bc, &l), u.Match(bu, &l)
			if gc != gu {
				t.Fatalf("trial %d (%s): Match = %d with the cache, %d without", trial, op, gc, gu)
			}
			// The same memory, before any append: every candidate was
			// analysed when the cache was written.
			if k == 0 && op == "same" && len(b) >= matchCacheMinEntries && len(c.fresh) > 0 {
				t.Errorf("trial %d (same memory): %d entries analysed again", trial, len(c.fresh))
			}
			if gc < 0 {
				bc, bu = append(bc, l), append(bu, l)
			}
		}
		if d := sameState(&c, &u); d != "" {
			t.Fatalf("trial %d (%s): after the appends: %s", trial, op, d)
		}
		// What the hook then writes describes b, and serves the memory
		// as the appends left it.
		c.SaveCache()
		c2 := Matcher{CachePath: path}
		var u2 Matcher
		c2.sync(bc)
		u2.sync(bc)
		if d := sameState(&c2, &u2); d != "" {
			t.Fatalf("trial %d (%s): from the rewritten cache: %s", trial, op, d)
		}
		for _, l := range seq[:2] {
			l.Issue += " (later)"
			l.Normalize()
			if gc, gu := c2.Match(bc, &l), u2.Match(bc, &l); gc != gu {
				t.Fatalf("trial %d (%s): from the rewritten cache: Match = %d with the cache, %d without", trial, op, gc, gu)
			}
		}
		if left := tempFiles(t, filepath.Dir(path)); len(left) > 0 {
			t.Fatalf("temp files left: %v", left)
		}
	}
	if kept < 1000 {
		t.Errorf("only %d entries with analyses in the cache: the test does not exercise the analyses", kept)
	}
}

// corruptMatchCache damages the cache file at path in the way op names.
func corruptMatchCache(t *testing.T, path, op string, rng *rand.Rand) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return // a small memory: no cache
	}
	switch op {
	case "empty-cache-file":
		b = nil
	case "flip-byte":
		b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
	case "truncate-file":
		b = b[:rng.IntN(len(b))]
	case "extend-file":
		b = append(b, make([]byte, 1+rng.IntN(200))...)
	case "forged-constant":
		// Another sampling constant, with a valid checksum.
		binary.LittleEndian.PutUint32(b[20:], countSample+1)
		reseal(b)
	case "forged-counts":
		// Counts that do not add up to the increments, with a valid
		// checksum.
		b[matchHeaderSize+2*rng.IntN(1<<countBits)]++
		reseal(b)
	case "forged-analysis":
		// An analysis naming a source the cache does not have, with a
		// valid checksum.
		n := int(binary.LittleEndian.Uint32(b[36:]))
		if binary.LittleEndian.Uint64(b[56:]) == 0 {
			return // no analysis kept
		}
		sec := b[featAt(n):]
		var c [6]int
		for i := range c {
			c[i] = int(binary.LittleEndian.Uint32(sec[4*i:]))
		}
		nSrc, nCells, nIdx, nRefs := c[1], c[2], c[4], c[5]
		if nRefs == 0 {
			return
		}
		refs := featHeaderSize + 8*nSrc + 4*(nSrc+2*(nSrc+1)+nCells+2*nIdx+1)
		binary.LittleEndian.PutUint32(sec[refs+4*rng.IntN(nRefs):], uint32(nSrc)<<1)
		reseal(b)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// reseal gives a match cache a valid checksum (at 44, over every other
// byte), so that what is forged is what the decoder has to catch.
func reseal(b []byte) {
	if len(b) >= matchHeaderSize {
		binary.LittleEndian.PutUint32(b[44:], matchCacheCRC(b))
	}
}

func tempFiles(t testing.TB, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range list {
		if strings.Contains(e.Name(), ".tmp-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestMatchCacheTail: after a capture appends entries, the next matcher
// reuses every cached signature, scans only the appended entries and leaves
// the cache as it is until more than matchCacheRewrite entries are new.
func TestMatchCacheTail(t *testing.T) {
	withCacheSettings(t, 1, 10)
	es := generatedEntries(1000)
	path := MatchCachePath(t.TempDir(), mdstore.Pitfall)
	m := Matcher{CachePath: path}
	m.sync(es[:900])
	if m.save == nil {
		t.Fatal("no cache to write on a first pass")
	}
	m.SaveCache()
	ignore, err := os.ReadFile(filepath.Join(filepath.Dir(path), ".gitignore"))
	if err != nil || !strings.Contains(string(ignore), "\n*\n") {
		t.Fatalf(".gitignore: %q %v", ignore, err)
	}
	for _, tc := range []struct {
		n       int
		rewrite bool
	}{{900, false}, {905, false}, {910, false}, {911, true}} {
		m := Matcher{CachePath: path}
		m.sync(es[:tc.n])
		if m.reused != 900 || (m.save != nil) != tc.rewrite {
			t.Errorf("%d entries: %d reused, rewrite %v, want 900, %v", tc.n, m.reused, m.save != nil, tc.rewrite)
		}
	}
	// The step changes at 1,200 entries (every = 3): signatures stay,
	// the table is counted again and the cache rewritten.
	more := append(slices.Clone(es), generatedEntries(1300)[1000:]...)
	m = Matcher{CachePath: path}
	m.sync(more[:1200])
	if m.reused != 900 || m.save == nil || m.every != 3 {
		t.Errorf("across the step: %d reused, rewrite %v, every %d", m.reused, m.save != nil, m.every)
	}
}

// TestMatchCachePreload: a cache read ahead by Preload serves the first
// pass as a cache read by it; one read for a memory larger than the one
// the pass is given is not used, and the state is the uncached one.
func TestMatchCachePreload(t *testing.T) {
	withCacheSettings(t, 256, 64)
	es := generatedEntries(1100)
	path := MatchCachePath(t.TempDir(), mdstore.Pitfall)
	w := Matcher{CachePath: path}
	w.sync(es[:1000])
	w.SaveCache()
	for _, tc := range []struct {
		name      string
		preload   int // the count Preload is told
		n         int // the entries the pass is given
		reused    int
		preloaded bool
	}{
		{"the same memory", 1000, 1000, 1000, true},
		{"a count above the folded entries", 1010, 1000, 1000, true},
		{"appended since", 1030, 1030, 1000, true},
		{"a shorter memory", 1000, 900, 0, true},
		{"too small to cache", 200, 200, 0, false},
	} {
		m := Matcher{CachePath: path}
		m.Preload(tc.preload)
		if (m.pre != nil) != tc.preloaded {
			t.Errorf("%s: preloading %v, want %v", tc.name, m.pre != nil, tc.preloaded)
		}
		m.sync(es[:tc.n])
		var u Matcher
		u.sync(es[:tc.n])
		if d := sameState(&m, &u); d != "" {
			t.Errorf("%s: %s", tc.name, d)
		}
		if m.reused != tc.reused || m.pre != nil {
			t.Errorf("%s: %d signatures reused, want %d", tc.name, m.reused, tc.reused)
		}
	}
}

// TestMatchCacheWriteFails: a cache that cannot be written is skipped
// without a trace: no error, no temp file, the matcher still right.
func TestMatchCacheWriteFails(t *testing.T) {
	withCacheSettings(t, 1, 64)
	es := generatedEntries(300)
	var u Matcher
	u.sync(es)
	check := func(path string) {
		t.Helper()
		m := Matcher{CachePath: path}
		m.sync(es)
		m.SaveCache()
		if d := sameState(&m, &u); d != "" {
			t.Error(d)
		}
	}
	// A file where the memory folder should be; a missing memory folder.
	file := filepath.Join(t.TempDir(), "memory")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	check(MatchCachePath(file, mdstore.Pitfall))
	missing := filepath.Join(t.TempDir(), "gone")
	check(MatchCachePath(missing, mdstore.Pitfall))
	if _, err := os.Stat(missing); err == nil {
		t.Error("the cache write created the memory folder")
	}
	// A read-only cache folder.
	if os.Getuid() == 0 {
		t.Log("root ignores permissions: read-only folder not checked")
		return
	}
	mem := t.TempDir()
	cache := filepath.Join(mem, mdstore.CacheDir)
	if err := os.Mkdir(cache, 0o555); err != nil {
		t.Fatal(err)
	}
	check(MatchCachePath(mem, mdstore.Pitfall))
	if list, _ := os.ReadDir(cache); len(list) != 0 {
		t.Errorf("read-only cache folder holds %d files", len(list))
	}
}

// TestMatchCacheConcurrent: writers racing on one cache and readers
// reading it meanwhile: every reader ends in the uncached state, and no
// temp file is left.
func TestMatchCacheConcurrent(t *testing.T) {
	withCacheSettings(t, 1, 0)
	es := generatedEntries(1200)
	path := filepath.Join(t.TempDir(), mdstore.CacheDir, "pitfalls.match")
	want := make([]*Matcher, 4)
	for k := range want {
		want[k] = &Matcher{}
		want[k].sync(es[:900+100*k])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w := range 16 {
		wg.Go(func() {
			k := w % 4
			m := Matcher{CachePath: path}
			m.sync(es[:900+100*k])
			if d := sameState(&m, want[k]); d != "" {
				errs <- d
			}
			m.SaveCache()
		})
	}
	wg.Wait()
	close(errs)
	for d := range errs {
		t.Error(d)
	}
	if left := tempFiles(t, filepath.Dir(path)); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
	if _, ok := decodeMatchCache(mustRead(t, path), 0); !ok {
		t.Error("the cache left by the race does not decode")
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMatchCacheThroughHook: the same reviews captured into the same
// memory with the cache and with the cache deleted before every capture
// record the same outcomes and leave the same file.
func TestMatchCacheThroughHook(t *testing.T) {
	withCacheSettings(t, 256, 3)
	review5 := fiveFindingReview(t)
	var reviews []string
	reviews = append(reviews, review5, review5) // the second time, all five recur
	for _, g := range loadRecurrenceCorpus(t, "holdout.txt")[5:12] {
		reviews = append(reviews, fmt.Sprintf("1. **Severity: Major**\n   **File:Line:** `src/y.go:3`\n   **Problem:** %s\n   **Suggestion:** %s\n\n<verdict>NEEDS_WORK</verdict>\n", g.a.issue, g.a.fix))
		if len(g.same) > 0 {
			s := g.same[0]
			reviews = append(reviews, fmt.Sprintf("1. **Severity: Major**\n   **File:Line:** `src/z.go:9`\n   **Problem:** %s\n   **Suggestion:** %s\n\n<verdict>NEEDS_WORK</verdict>\n", s.issue, s.fix))
		}
	}
	store := generatedStore(600)
	var files [2]string
	var outcomes [2][]string
	for k, keep := range []bool{true, false} {
		dir := newProject(t, true)
		mem := filepath.Join(dir, ".flow", "memory")
		if err := os.MkdirAll(mem, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mem, "pitfalls.md"), store, 0o644); err != nil {
			t.Fatal(err)
		}
		cache := MatchCachePath(mem, mdstore.Pitfall)
		for i, r := range reviews {
			if !keep {
				_ = os.Remove(cache)
			}
			p := withField(t, fixture(t, "bash_review"), "tool_response", map[string]any{"stdout": r, "stderr": ""})
			p = withField(t, p, "cwd", "/nonexistent")
			res, err := handle(t, dir, p)
			if err != nil {
				t.Fatal(err)
			}
			if keep && i == 0 {
				if _, ok := decodeMatchCache(mustRead(t, cache), 0); !ok {
					t.Fatal("the hook wrote no usable cache")
				}
			}
			for _, o := range res.Outcomes {
				outcomes[k] = append(outcomes[k], fmt.Sprintf("%d %s %v %d", i, o.Entry.ID, o.Recurred, o.Entry.Seen))
			}
		}
		files[k] = string(mustRead(t, filepath.Join(mem, "pitfalls.md")))
	}
	if !slices.Equal(outcomes[0], outcomes[1]) {
		t.Errorf("outcomes with the cache:\n%s\nwithout:\n%s", strings.Join(outcomes[0], "\n"), strings.Join(outcomes[1], "\n"))
	}
	recurred := 0
	for _, o := range outcomes[0] {
		if strings.Contains(o, " true ") {
			recurred++
		}
	}
	if recurred < 5 {
		t.Errorf("only %d recurrences: the test does not exercise folding", recurred)
	}
	if files[0] != files[1] {
		t.Error("the memory files differ")
	}
}

// TestMatchCacheProcesses: 32 hook processes capture at once into a
// memory large enough to have a match cache. Every lesson lands, no temp
// file is left, and the cache left behind gives the uncached state.
func TestMatchCacheProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 32 processes")
	}
	const n = 32
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base := generatedEntries(matchCacheMinEntries + 100)
	// One-finding reviews from the corpus that the matcher folds neither
	// into the memory nor into one another.
	var lines []string
	for _, name := range []string{"corpus.txt", "holdout.txt"} {
		b := mustRead(t, filepath.Join("..", "..", "testdata", "capture", "recurrence", name))
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	var reviews []string
	kept := slices.Clone(base)
	var m Matcher
	for _, line := range lines {
		body, ok := strings.CutPrefix(line, "A: ")
		if !ok || len(reviews) == n {
			continue
		}
		cut := strings.LastIndex(body, " | ")
		issue, fix := body[:cut], body[cut+3:]
		text := fmt.Sprintf("1. **Severity: Major**\n   **File:Line:** `src/x.go:1`\n   **Problem:** %s\n   **Suggestion:** %s\n\n<verdict>NEEDS_WORK</verdict>\n", issue, fix)
		if len(review.Analyze(text).Kept()) != 1 {
			continue
		}
		e := entry(issue, fix)
		if m.Match(kept, &e) >= 0 {
			continue
		}
		kept = append(kept, e)
		reviews = append(reviews, text)
	}
	if len(reviews) < n {
		t.Fatalf("only %d usable lessons", len(reviews))
	}
	dir := newProject(t, true)
	mem := filepath.Join(dir, ".flow", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	md.WriteString(mdstore.Header(mdstore.Pitfall))
	for i := range base {
		md.WriteString("\n" + mdstore.Render(&base[i]))
	}
	if err := os.WriteFile(filepath.Join(mem, "pitfalls.md"), md.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg, start sync.WaitGroup
	start.Add(1)
	errs := make([]string, n)
	for i := range n {
		wg.Go(func() {
			p := withField(t, fixture(t, "bash_review"), "tool_response", map[string]any{"stdout": reviews[i], "stderr": ""})
			p = withField(t, p, "tool_input", map[string]any{"command": fmt.Sprintf("flowctl codex impl-review fn-%d.1", 100+i)})
			p = withField(t, p, "cwd", "/nonexistent")
			cmd := exec.Command(exe, "hook")
			cmd.Env = append(os.Environ(), "FLOWMEM_TEST_AS_CLI=1", "CLAUDE_PROJECT_DIR="+dir, "FLOWMEM_DISABLE=", "FLOW_TASK_ID=")
			cmd.Stdin = bytes.NewReader(p)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			start.Wait()
			if err := cmd.Run(); err != nil || errOut.Len() > 0 || !strings.Contains(out.String(), "recorded 1 new lesson") {
				errs[i] = fmt.Sprintf("hook %d: %v %q %q", i, err, errOut.String(), out.String())
			}
		})
	}
	start.Done()
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	es, err := mdstore.Open(mem).Load(mdstore.Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != len(base)+n {
		t.Fatalf("%d entries after %d captures into %d, want %d", len(es), n, len(base), len(base)+n)
	}
	if left := tempFiles(t, filepath.Join(mem, mdstore.CacheDir)); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
	path := MatchCachePath(mem, mdstore.Pitfall)
	if _, ok := decodeMatchCache(mustRead(t, path), 0); !ok {
		t.Fatal("no usable match cache after the captures")
	}
	c := Matcher{CachePath: path}
	var u Matcher
	c.sync(es)
	u.sync(es)
	if d := sameState(&c, &u); d != "" {
		t.Error(d)
	}
	if c.reused < len(base) {
		t.Errorf("%d signatures reused, the memory had %d entries before the captures", c.reused, len(base))
	}
}

// FuzzMatchCacheDecode: no cache file, however damaged or forged, panics
// the decoder; one it accepts is exactly what encoding what it read gives.
func FuzzMatchCacheDecode(f *testing.F) {
	for _, n := range []int{0, 1, 3, 40} {
		var m Matcher
		m.sync(generatedEntries(n))
		s := &matchState{every: max(1, n/countSample), counts: make([]uint16, 1<<countBits), sums: make([]uint32, n)}
		if m.table != nil {
			s.sampled, s.incs, s.counts, s.idHash, s.sigs = m.table.sampled, m.table.n, m.table.counts, m.idHash, m.sigs
		}
		good := encodeMatchCache(s)
		f.Add(good, false)
		f.Add(good[:len(good)/2], true)
		f.Add(good[:matchHeaderSize], true)
	}
	// Caches with analyses kept, as a hook writes them.
	withCacheSettings(f, 1, 0)
	for _, n := range []int{1, 3, 40} {
		es := generatedEntries(n)
		m := Matcher{CachePath: filepath.Join(f.TempDir(), "pitfalls.match")}
		m.sync(es)
		m.featuresOf(es, []int{0, n - 1})
		m.SaveCache()
		good := mustRead(f, m.CachePath)
		f.Add(good, false)
		f.Add(good[:len(good)-8], true)
		b := slices.Clone(good)
		b[featAt(n)+featHeaderSize+8] ^= 1 // in the section
		f.Add(b, true)
	}
	f.Add([]byte(matchCacheMagic), true)
	f.Fuzz(func(t *testing.T, c []byte, resealIt bool) {
		if resealIt {
			// A valid checksum, so the fuzzer reaches past it.
			c = bytes.Clone(c)
			reseal(c)
		}
		s, ok := decodeMatchCache(c, len(c)%7)
		if !ok {
			return
		}
		if again := encodeMatchCache(s); !bytes.Equal(again, c) {
			t.Fatalf("decoded cache re-encodes differently (%d bytes, was %d)", len(again), len(c))
		}
		if len(s.sigs) != len(s.sums) || len(s.idHash) != len(s.sums) || len(s.counts) != 1<<countBits {
			t.Fatal("inconsistent lengths")
		}
		if f := s.feat; f != nil {
			// What the matcher indexes with is in range.
			for k := range f.idx {
				for _, r := range f.refs[f.off[k]:f.off[k+1]] {
					src := r >> 1
					_, _, _ = f.srcH[src], f.cells[f.srcCell[src]:f.srcCell[src+1]], f.grams[f.srcGram[src]:f.srcGram[src+1]]
				}
				if int(f.idx[k]) >= len(s.sigs) {
					t.Fatal("analysis of an entry the cache does not have")
				}
			}
		}
	})
}

// BenchmarkMatchCacheLoad is the warm cache's own cost at 10,000 entries:
// read and check the file, checksum the entries, reuse the signatures.
func BenchmarkMatchCacheLoad(b *testing.B) {
	es := generatedEntries(10000)
	path := filepath.Join(b.TempDir(), "pitfalls.match")
	m := Matcher{CachePath: path}
	m.sync(es)
	m.SaveCache()
	b.Run("sync", func(b *testing.B) {
		for b.Loop() {
			m := Matcher{CachePath: path}
			m.sync(es)
		}
	})
	b.Run("checksums", func(b *testing.B) {
		sums := make([]uint32, len(es))
		for b.Loop() {
			var buf []byte
			for i := range es {
				sums[i], buf = entryChecksum(buf, &es[i])
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			loadMatchCache(path, len(es))
		}
	})
	b.Run("encode+write", func(b *testing.B) {
		m := Matcher{CachePath: path}
		m.sync(es)
		s := m.save
		if s == nil {
			mm := Matcher{CachePath: filepath.Join(b.TempDir(), "x")}
			mm.sync(es)
			s = mm.save
		}
		for b.Loop() {
			mdstore.WriteCacheFile(path, encodeMatchCache(s))
		}
	})
}
