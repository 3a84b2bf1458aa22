package mdstore

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// withCache makes every file, however small, go through the cache, and sets
// the tail length above which readers rewrite it.
func withCache(t testing.TB, rewriteTail int) {
	t.Helper()
	oldMin, oldTail := cacheMinSize, cacheRewriteTail
	cacheMinSize, cacheRewriteTail = 0, rewriteTail
	t.Cleanup(func() { cacheMinSize, cacheRewriteTail = oldMin, oldTail })
}

// checkCached compares a read through the cache with a fresh parse of the
// file: the same entries and sightings, unfolded and folded, or the same
// error. It returns how the cached read went.
func checkCached(t *testing.T, s *Store, k Kind, what string) string {
	t.Helper()
	want, werr := s.ReadDoc(k)
	got, gerr := s.readKind(k)
	if gerr == nil {
		gerr = got.decode(nil)
	}
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%s: cached read error %v, parse error %v", what, gerr, werr)
	}
	if werr != nil {
		return "error"
	}
	if !reflect.DeepEqual(got.doc.Entries, want.Entries) {
		t.Fatalf("%s (%s): entries differ\n got %s\nwant %s", what, got.via, dump(got.doc.Entries), dump(want.Entries))
	}
	if !reflect.DeepEqual(got.doc.Sightings, want.Sightings) {
		t.Fatalf("%s (%s): sightings differ\n got %+v\nwant %+v", what, got.via, got.doc.Sightings, want.Sightings)
	}
	wantF := want.Folded()
	if folded := got.doc.fold(true); !reflect.DeepEqual(folded, wantF) {
		t.Fatalf("%s (%s): folded entries differ\n got %s\nwant %s", what, got.via, dump(folded), dump(wantF))
	}
	if got.save != nil {
		got.save()
	}
	// Load, of this kind alone and of all three.
	folded, err := s.Load(k)
	if err != nil {
		t.Fatalf("%s: load: %v", what, err)
	}
	if !reflect.DeepEqual(folded, wantF) {
		t.Fatalf("%s: loaded entries differ\n got %s\nwant %s", what, dump(folded), dump(wantF))
	}
	all, err := s.Load()
	if err != nil {
		t.Fatalf("%s: load all: %v", what, err)
	}
	var wantAll []Entry
	for _, kk := range Kinds {
		d, err := s.ReadDoc(kk)
		if err != nil {
			t.Fatal(err)
		}
		wantAll = append(wantAll, d.Folded()...)
	}
	if !reflect.DeepEqual(all, wantAll) {
		t.Fatalf("%s: loaded entries of all kinds differ\n got %s\nwant %s", what, dump(all), dump(wantAll))
	}
	return got.via
}

func dump(es []Entry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "\n  %+v", e)
	}
	return b.String()
}

// storeGen writes random memory files of the shapes flowmem, flow-next and
// hand edits leave: entries, copies of one lesson (folded by id), sighting
// records, archived and legacy entries, code fences and comments, CRLF
// lines, and text that is not a record.
type storeGen struct {
	rng *rand.Rand
	ids []string
}

var genWords = []string{"retry", "backoff", "webhook", "deadline", "context", "mutex", "map", "cache", "Straße", "日本", "token", "loader"}

func (g *storeGen) text() string {
	n := 1 + g.rng.Intn(4)
	w := make([]string, n)
	for i := range w {
		w[i] = genWords[g.rng.Intn(len(genWords))]
	}
	return strings.Join(w, " ")
}

func (g *storeGen) entry(k Kind) string {
	e := Entry{Kind: k, Date: fmt.Sprintf("2026-01-%02d", 1+g.rng.Intn(28)), Task: fmt.Sprintf("fn-%d.%d", g.rng.Intn(5), g.rng.Intn(3)),
		Source: "impl-review", Category: []string{"api", "build", "", "pitfall"}[g.rng.Intn(4)]}
	if g.rng.Intn(2) == 0 {
		e.Issue, e.Fix = g.text(), g.text()
		if g.rng.Intn(2) == 0 {
			e.Context = "src/x.go:12"
		}
	} else {
		e.Body = g.text()
	}
	if g.rng.Intn(3) == 0 {
		e.Tasks = []string{e.Task, fmt.Sprintf("fn-%d.1", g.rng.Intn(9))}
	}
	if g.rng.Intn(6) == 0 {
		e.Status = Archived
	}
	e.Seen = g.rng.Intn(4)
	e.Normalize()
	g.ids = append(g.ids, e.ID)
	return Render(&e)
}

func (g *storeGen) sighting() string {
	id := "p-unknown"
	if len(g.ids) > 0 && g.rng.Intn(5) > 0 {
		id = g.ids[g.rng.Intn(len(g.ids))]
	}
	return RenderSighting(id, fmt.Sprintf("2026-02-%02d", 1+g.rng.Intn(28)), fmt.Sprintf("fn-%d.2", g.rng.Intn(9)))
}

// piece is one addition to a file: mostly well-formed records, sometimes
// anything else a person or a merge may leave.
func (g *storeGen) piece(k Kind) string {
	switch r := g.rng.Intn(40); {
	case r < 18:
		return "\n" + g.entry(k)
	case r < 26:
		return "\n" + g.sighting()
	case r < 28:
		return fmt.Sprintf("\n## 2026-01-%02d fn-1.1 impl-review [api]\n**Issue**: %s\n**Fix**: %s\n", 1+g.rng.Intn(9), g.text(), g.text())
	case r < 30:
		return fmt.Sprintf("\n## 2026-01-%02d manual [convention]\n%s\n%s\n", 1+g.rng.Intn(9), g.text(), g.text())
	case r < 31:
		return "\n```go\n## 2026-01-01 not a heading\n```\n"
	case r < 32:
		return "\n<!--\n## 2026-01-02 commented out\n-->\n"
	case r < 33:
		return "\n<!-- unclosed\n"
	case r < 34:
		return strings.ReplaceAll("\n"+g.entry(k), "\n", "\r\n")
	case r < 35:
		return "some text that is not a record\n"
	case r < 36:
		return fmt.Sprintf("<!-- flowmem: id=%s seen=3 last=2026-03-01 status=archived -->\n", g.sightingID())
	case r < 37:
		return "\t## 2026-01-03 tab\n"
	case r < 38:
		return "\n"
	case r < 39:
		return "<!-- flowmem: seen last=2026-01-01 -->\n"
	default:
		return "## 2026-01-0"
	}
}

func (g *storeGen) sightingID() string {
	if len(g.ids) == 0 {
		return "p-x"
	}
	return g.ids[g.rng.Intn(len(g.ids))]
}

func (g *storeGen) file(k Kind) string {
	var b strings.Builder
	switch g.rng.Intn(10) {
	case 0:
		b.WriteString("# Pitfalls\n\n")
	case 1:
	default:
		b.WriteString(Header(k))
	}
	for n := g.rng.Intn(30); n > 0; n-- {
		b.WriteString(g.piece(k))
	}
	return b.String()
}

// TestCacheMatchesParse: for random stores and random sequences of appends
// (by Upsert and by hand), same-size rewrites, truncations, rewrites and
// damaged caches, a read through the cache is exactly a fresh parse.
func TestCacheMatchesParse(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 15
	}
	via := map[string]int{}
	for seed := 0; seed < seeds; seed++ {
		rng := rand.New(rand.NewSource(int64(seed)))
		withCache(t, []int{0, 200, 1 << 20}[seed%3])
		g := &storeGen{rng: rng}
		s := Open(t.TempDir())
		k := Kinds[seed%len(Kinds)]
		path := s.Path(k)
		if err := os.WriteFile(path, []byte(g.file(k)), 0o644); err != nil {
			t.Fatal(err)
		}
		// The other kinds' files, read along by Load().
		for _, other := range Kinds {
			if other != k && rng.Intn(3) > 0 {
				if err := os.WriteFile(s.Path(other), []byte(g.file(other)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		via[checkCached(t, s, k, fmt.Sprintf("seed %d start", seed))]++
		for step := 0; step < 40; step++ {
			op := rng.Intn(12)
			what := fmt.Sprintf("seed %d step %d op %d", seed, step, op)
			raw, _ := os.ReadFile(path)
			switch op {
			case 0, 1, 2:
				var lessons []Entry
				for n := 1 + rng.Intn(5); n > 0; n-- {
					lessons = append(lessons, Entry{Issue: g.text(), Fix: g.text(), Tasks: []string{fmt.Sprintf("fn-%d.1", rng.Intn(9))}})
				}
				if _, err := s.Upsert(context.Background(), k, lessons, nil, time.Date(2026, 3, 1+step%28, 0, 0, 0, 0, time.UTC)); err != nil {
					if _, perr := s.ReadDoc(k); perr == nil || perr.Error() != err.Error() {
						t.Fatalf("%s: upsert: %v (parse: %v)", what, err, perr)
					}
				}
			case 3, 4:
				var b strings.Builder
				for n := 1 + rng.Intn(4); n > 0; n-- {
					b.WriteString(g.piece(k))
				}
				appendFile(t, path, b.String())
			case 5:
				appendFile(t, path, "\n"+g.sighting())
			case 6:
				// Same length, one byte different, same modification tick.
				if len(raw) > 0 {
					i := rng.Intn(len(raw))
					raw[i] = "#\n- a0<>`"[rng.Intn(9)]
					writeKeepTime(t, path, raw)
				}
			case 7:
				if len(raw) > 0 {
					writeKeepTime(t, path, raw[:rng.Intn(len(raw))])
				}
			case 8:
				damageCache(t, s, k, rng)
			case 9:
				if err := os.WriteFile(path, []byte(g.file(k)), 0o644); err != nil {
					t.Fatal(err)
				}
			case 10:
				if rng.Intn(4) == 0 {
					os.Remove(path)
				}
			case 11:
				// Swap two lines: same bytes, other order.
				lines := strings.SplitAfter(string(raw), "\n")
				if len(lines) > 2 {
					i, j := rng.Intn(len(lines)-1), rng.Intn(len(lines)-1)
					lines[i], lines[j] = lines[j], lines[i]
					writeKeepTime(t, path, []byte(strings.Join(lines, "")))
				}
			}
			via[checkCached(t, s, k, what)]++
		}
	}
	t.Logf("reads: %v", via)
	for _, v := range []string{"hit", "tail", "parse"} {
		if via[v] < seeds {
			t.Errorf("only %d reads took the %q path: %v", via[v], v, via)
		}
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// writeKeepTime rewrites a file and puts its modification time back, as an
// editor or a git checkout within one timestamp tick may leave it.
func writeKeepTime(t *testing.T, path string, data []byte) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func damageCache(t *testing.T, s *Store, k Kind, rng *rand.Rand) {
	t.Helper()
	path := s.cachePath(k)
	c, err := os.ReadFile(path)
	if err != nil || len(c) == 0 {
		return
	}
	switch rng.Intn(7) {
	case 0:
		c[rng.Intn(len(c))] ^= byte(1 + rng.Intn(255))
	case 1:
		c = c[:rng.Intn(len(c))]
	case 2:
		c = make([]byte, len(c))
		rng.Read(c)
	case 3:
		c = nil
	case 4:
		os.Remove(path)
		return
	case 5:
		// A cache that is valid, for a different file.
		other := Kinds[(kindIndex(k)+1)%len(Kinds)]
		c = encodeCache(cacheHeader{kind: other, stamp: buildStamp(), srcLen: 1}, "x", nil, nil)
	case 6:
		// A cache written by another build of flowmem.
		h, _, ok := decodeCacheHeader(string(c))
		if !ok {
			return
		}
		h.stamp = "other"
		d, err := s.ReadDoc(k)
		if err != nil {
			return
		}
		c = encodeCache(h, string(d.Raw), nil, nil)
	}
	if err := os.WriteFile(path, c, 0o644); err != nil {
		t.Fatal(err)
	}
}

func kindIndex(k Kind) int {
	for i, x := range Kinds {
		if x == k {
			return i
		}
	}
	return -1
}

// TestCacheAppendParsesTail: after an append by Upsert, a read decodes the
// cache and parses only the new bytes; the cache is rewritten once the tail
// is long. A rewrite of the file is parsed in full.
func TestCacheAppendParsesTail(t *testing.T) {
	withCache(t, 64<<10)
	cacheMinSize = 1
	s := Open(t.TempDir())
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(Pitfall), genFile(300), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		do  func()
		via string
	}{
		{func() {}, "parse"},
		{func() {}, "hit"},
		{func() { upsertN(t, s, 3, "first") }, "tail"},
		{func() { upsertN(t, s, 1, "first") }, "tail"}, // a recurrence: sighting lines only
		{func() { appendFile(t, s.Path(Pitfall), string(genFile(300)[len(Header(Pitfall)):])) }, "tail"}, // over 64 KiB: rewritten
		{func() {}, "hit"},
		{func() { appendFile(t, s.Path(Pitfall), "free text after the last entry\n") }, "parse"},
		{func() {}, "hit"},
	}
	for i, st := range steps {
		st.do()
		if got := checkCached(t, s, Pitfall, fmt.Sprint("step ", i)); got != st.via {
			t.Errorf("step %d read via %q, want %q", i, got, st.via)
		}
	}
	b, err := os.ReadFile(filepath.Join(s.Dir, CacheDir, ".gitignore"))
	if err != nil || !strings.Contains(string(b), "\n*\n") {
		t.Errorf("cache .gitignore: %q, %v", b, err)
	}

	// Temp files of a writer killed mid-write go with the next write;
	// one being written now stays.
	stale, fresh := filepath.Join(s.Dir, CacheDir, ".pitfalls.tmp-1"), filepath.Join(s.Dir, CacheDir, ".pitfalls.tmp-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	os.Remove(s.cachePath(Pitfall))
	checkCached(t, s, Pitfall, "rewrite")
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temp file left")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temp file was removed")
	}
}

func upsertN(t *testing.T, s *Store, n int, tag string) {
	t.Helper()
	var lessons []Entry
	for i := 0; i < n; i++ {
		lessons = append(lessons, Entry{Issue: fmt.Sprintf("lesson %s %d about retries", tag, i), Fix: "back off", Tasks: []string{"fn-9.1"}})
	}
	if _, err := s.Upsert(context.Background(), Pitfall, lessons, nil, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
}

// TestCacheNotWritable: a cache that cannot be written (a file where the
// folder should be, a read-only memory folder) changes nothing but speed.
func TestCacheNotWritable(t *testing.T) {
	withCache(t, 0)
	s := Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	upsertN(t, s, 4, "x")
	os.RemoveAll(filepath.Join(s.Dir, CacheDir))
	if err := os.WriteFile(filepath.Join(s.Dir, CacheDir), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if via := checkCached(t, s, Pitfall, "blocked"); via != "parse" {
			t.Errorf("read %d via %q, want parse", i, via)
		}
	}
	upsertN(t, s, 1, "y")
	checkCached(t, s, Pitfall, "blocked after upsert")

	if os.Geteuid() == 0 {
		return // root writes anywhere
	}
	s = Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	upsertN(t, s, 4, "x")
	if err := os.Chmod(s.Dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(s.Dir, 0o755) })
	checkCached(t, s, Pitfall, "read-only")
	if _, err := os.Stat(filepath.Join(s.Dir, CacheDir)); err == nil {
		t.Error("a cache was written into a read-only folder")
	}
}

// TestCacheConcurrent: writers appending under the lock and readers
// rewriting the cache at the same time lose nothing and read nothing wrong.
func TestCacheConcurrent(t *testing.T) {
	withCache(t, 0)
	s := Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < writers; w++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				l := Entry{Issue: fmt.Sprintf("writer %d lesson %d", w, i), Fix: "f", Tasks: []string{"fn-1.1"}}
				if _, err := s.Upsert(context.Background(), Pitfall, []Entry{l}, nil, time.Now()); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				entries, err := s.Load(Pitfall)
				if err != nil {
					errs <- err
					continue
				}
				seen := map[string]bool{}
				for _, e := range entries {
					if seen[e.ID] {
						errs <- fmt.Errorf("id %s twice", e.ID)
					}
					seen[e.ID] = true
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	entries, err := s.Load(Pitfall)
	if err != nil || len(entries) != writers*each {
		t.Fatalf("%d entries after %d upserts, %v", len(entries), writers*each, err)
	}
	checkCached(t, s, Pitfall, "after concurrent writes")
	left, _ := filepath.Glob(filepath.Join(s.Dir, CacheDir, ".*tmp-*"))
	if len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// TestCacheIgnored: the cache never shows up as memory: not in listings
// and searches, and not in git.
func TestCacheIgnored(t *testing.T) {
	withCache(t, 0)
	root := t.TempDir()
	s := Open(filepath.Join(root, ".flow", "memory"))
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	upsertN(t, s, 3, "x")
	if _, err := s.Load(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.cachePath(Pitfall)); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	hits, err := s.Search(regexpMust("."))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if strings.Contains(h.File, CacheDir) {
			t.Errorf("search hit in the cache: %+v", h)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	out := git("status", "--porcelain", "--untracked-files=all")
	if strings.Contains(out, CacheDir) {
		t.Errorf("git sees the cache:\n%s", out)
	}
	if !strings.Contains(out, "pitfalls.md") {
		t.Errorf("git status without the memory files:\n%s", out)
	}
}

// TestCacheSmallFiles: below cacheMinSize nothing is cached.
func TestCacheSmallFiles(t *testing.T) {
	s := Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	upsertN(t, s, 3, "x")
	if _, err := s.Load(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, CacheDir)); err == nil {
		t.Error("a small store got a cache")
	}
}

// TestCacheRoundTrip: encoding what a parse read and decoding it against
// the same bytes gives the same entries, for the fixtures of other tests.
func TestCacheRoundTrip(t *testing.T) {
	for _, raw := range []string{flowNextPitfalls, string(genFile(50)), Header(Decision)} {
		d, err := parseSrc(Pitfall, []byte(raw), raw)
		if err != nil {
			t.Fatal(err)
		}
		c := encodeCache(cacheHeader{kind: Pitfall, srcLen: len(raw)}, raw, d.Entries, d.Sightings)
		_, dec, ok := decodeCacheHeader(string(c))
		if !ok {
			t.Fatal("header does not decode")
		}
		entries, sightings, targets, ok := dec.entries(raw, nil)
		if len(entries) == 0 {
			entries = nil
		}
		if !ok || !reflect.DeepEqual(entries, d.Entries) || !reflect.DeepEqual(sightings, d.Sightings) {
			t.Fatalf("round trip: ok=%v\n got %s\nwant %s", ok, dump(entries), dump(d.Entries))
		}
		cached := &Doc{Entries: entries, Sightings: sightings, uniqueIDs: dec.h.flags&flagUniqueIDs != 0, sightingAt: targets}
		if got, want := cached.Folded(), d.Folded(); !reflect.DeepEqual(got, want) {
			t.Fatalf("folded round trip:\n got %s\nwant %s", dump(got), dump(want))
		}
		if dec.h.flags&flagUniqueIDs != 0 {
			for i := range entries {
				if j := dec.lookup(entries, entries[i].ID); j != i {
					t.Fatalf("id index finds %s at %d, not %d", entries[i].ID, j, i)
				}
			}
			if j := dec.lookup(entries, "p-none"); j != -1 {
				t.Fatalf("id index finds an unknown id at %d", j)
			}
		}
		if len(raw) > 10000 && len(c) > len(raw)/4 {
			t.Errorf("cache of %d bytes for a %d-byte file: text is not referenced", len(c), len(raw))
		}
	}
}

// FuzzCacheDecode: no cache file, however damaged or forged, panics the
// decoder; one it accepts re-encodes to a cache that decodes the same.
func FuzzCacheDecode(f *testing.F) {
	src := string(genFile(3))
	d, err := parseSrc(Pitfall, []byte(src), src)
	if err != nil {
		f.Fatal(err)
	}
	good := encodeCache(cacheHeader{kind: Pitfall, stamp: "s", srcLen: len(src), flags: flagAppendable}, src, d.Entries, d.Sightings)
	f.Add(good, false)
	f.Add(good[:len(good)/2], true)
	f.Add([]byte(cacheMagic), true)
	f.Add(encodeCache(cacheHeader{kind: Pitfall}, "", []Entry{{Tasks: []string{}}, {Tasks: []string{"x"}, Seen: -3}}, []Entry{{ID: "p"}}), true)
	f.Fuzz(func(t *testing.T, c []byte, reseal bool) {
		if reseal && len(c) >= 4 {
			// Give the payload a valid checksum, so the fuzzer reaches
			// past it.
			body := c[:len(c)-4]
			c = append(bytes.Clone(body), 0, 0, 0, 0)
			crc := crcString(0, string(body))
			c[len(c)-4], c[len(c)-3], c[len(c)-2], c[len(c)-1] = byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24)
		}
		h, dec, ok := decodeCacheHeader(string(c))
		if !ok {
			return
		}
		entries, sightings, _, ok := dec.entries(src, nil)
		if !ok {
			return
		}
		for i := range entries {
			dec.lookup(entries, entries[i].ID)
		}
		for _, list := range [][]Entry{entries, sightings} {
			for _, e := range list {
				if e.Tasks != nil && cap(e.Tasks) != len(e.Tasks) {
					t.Fatal("tasks share spare capacity: an append would overwrite another entry's")
				}
			}
		}
		c2 := encodeCache(h, src, entries, sightings)
		_, dec2, ok := decodeCacheHeader(string(c2))
		if !ok {
			t.Fatal("re-encoded cache does not decode")
		}
		e2, s2, _, ok := dec2.entries(src, nil)
		if !ok || !reflect.DeepEqual(e2, entries) || !reflect.DeepEqual(s2, sightings) {
			t.Fatalf("re-encoded cache decodes differently: ok=%v", ok)
		}
	})
}

// FuzzCacheAppend: for any file and any bytes appended to it, reading the
// cache of the file plus the new bytes gives exactly what a parse of the
// whole gives, or declines and the reader parses.
func FuzzCacheAppend(f *testing.F) {
	g := &storeGen{rng: rand.New(rand.NewSource(1))}
	for i := 0; i < 8; i++ {
		f.Add(g.file(Pitfall), g.piece(Pitfall)+g.piece(Pitfall))
	}
	f.Add(Header(Pitfall)+"\n"+g.entry(Pitfall), "\n"+g.sighting()+"\n"+g.entry(Pitfall))
	f.Add(Header(Pitfall)+"\n"+g.entry(Pitfall), "**Fix**: more\n")
	f.Add(Header(Pitfall)+"\n"+g.entry(Pitfall), "<!-- flowmem: id=other seen=2 -->\n")
	f.Add(flowNextPitfalls, "\n## 2026-05-01 fn-2 impl-review [api]\n**Issue**: x\n")
	f.Add("# Notes\n", "intro\n\n## 2026-01-01 manual [decision]\ntext\n")
	f.Add("---\nflowmem: 1\n---\n", "## 2026-01-01 x\n")
	f.Fuzz(func(t *testing.T, prefix, tail string) {
		d, err := parseSrc(Pitfall, []byte(prefix), prefix)
		if err != nil {
			return
		}
		h := cacheHeader{kind: Pitfall, stamp: buildStamp(), srcLen: len(prefix), srcCRC: crcString(0, prefix),
			srcLines: strings.Count(prefix, "\n")}
		if d.appendable {
			h.flags = flagAppendable
		}
		c := encodeCache(h, prefix, d.Entries, d.Sightings)
		whole := prefix + tail
		l := &loaded{k: Pitfall, raw: []byte(whole), src: whole}
		if !l.useCache(string(c)) {
			return
		}
		if err := l.decode(nil); err != nil {
			t.Fatal(err)
		}
		got := l.doc
		want, err := Parse(Pitfall, []byte(whole))
		if err != nil {
			t.Fatalf("cache used for a file that does not parse: %v", err)
		}
		if !reflect.DeepEqual(got.Entries, want.Entries) || !reflect.DeepEqual(got.Sightings, want.Sightings) {
			t.Fatalf("cache + tail differs from a parse\n got %s %+v\nwant %s %+v", dump(got.Entries), got.Sightings, dump(want.Entries), want.Sightings)
		}
		if g, w := got.Folded(), want.Folded(); !reflect.DeepEqual(g, w) {
			t.Fatalf("folded cache + tail differs from a parse\n got %s\nwant %s", dump(g), dump(w))
		}
	})
}

// badPayloadCache forges a cache for kind k that passes its checksum and
// header checks but does not decode: it announces the first n entries and
// trailing bytes follow them.
func badPayloadCache(t *testing.T, s *Store, k Kind, n int) []byte {
	t.Helper()
	raw, err := os.ReadFile(s.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	src := string(raw)
	d, err := parseSrc(k, raw, src)
	if err != nil {
		t.Fatal(err)
	}
	c := encodeCache(cacheHeader{kind: k, stamp: buildStamp(), srcLen: len(src), srcCRC: crcString(0, src),
		srcLines: strings.Count(src, "\n"), flags: flagAppendable}, src, d.Entries[:n], nil)
	body := append(c[:len(c)-4:len(c)-4], 0, 0, 0) // entries do not end where the cache does
	crc := crcString(0, string(body))
	return append(body, byte(crc), byte(crc>>8), byte(crc>>16), byte(crc>>24))
}

// twentyOfEach is a cached memory of 20 lessons in each file.
func twentyOfEach(t *testing.T) *Store {
	t.Helper()
	withCache(t, 1<<20)
	s := Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		var lessons []Entry
		for i := 0; i < 20; i++ {
			lessons = append(lessons, Entry{Body: fmt.Sprintf("%s lesson %d", k, i), Issue: fmt.Sprintf("%s issue %d", k, i)})
		}
		if _, err := s.Upsert(context.Background(), k, lessons, nil, time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestCacheBadPayload: a cache whose checksum and header are right but
// whose entries do not decode (here: a header promising fewer entries than
// follow) is dropped mid-Load, and the file parsed instead.
func TestCacheBadPayload(t *testing.T) {
	s := twentyOfEach(t)
	c := badPayloadCache(t, s, Convention, 2)
	if err := os.WriteFile(s.cachePath(Convention), c, 0o644); err != nil {
		t.Fatal(err)
	}
	if via := checkCached(t, s, Convention, "bad payload"); via != "parse" {
		t.Errorf("read via %q, want parse", via)
	}
	if err := os.WriteFile(s.cachePath(Convention), c, 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := s.Load()
	if err != nil || len(all) != 60 {
		t.Fatalf("load: %d entries, %v", len(all), err)
	}
}

// TestCacheProcesses: processes appending under the lock and reading
// through the cache at once, on a memory large enough to be cached, lose
// nothing, and the cache they leave reads as a fresh parse.
func TestCacheProcesses(t *testing.T) {
	if dir := os.Getenv("MDSTORE_CACHE_CHILD"); dir != "" {
		cacheChild(dir, os.Getenv("MDSTORE_CACHE_CHILD_ID"))
		return
	}
	if testing.Short() {
		t.Skip("spawns processes")
	}
	s := Open(t.TempDir())
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := genFile(300)
	if len(base) < cacheMinSize {
		t.Fatalf("store of %d bytes is below the cache threshold", len(base))
	}
	if err := os.WriteFile(s.Path(Pitfall), base, 0o644); err != nil {
		t.Fatal(err)
	}
	const procs = 16
	var wg sync.WaitGroup
	for i := 0; i < procs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestCacheProcesses$")
			cmd.Env = append(os.Environ(), "MDSTORE_CACHE_CHILD="+s.Dir, fmt.Sprint("MDSTORE_CACHE_CHILD_ID=", i))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child %d: %v\n%s", i, err, out)
			}
		}()
	}
	wg.Wait()
	entries, err := s.Load(Pitfall)
	if err != nil {
		t.Fatal(err)
	}
	if want := 300 + procs*cacheChildLessons; len(entries) != want {
		t.Errorf("%d entries, want %d", len(entries), want)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Issue, "child") && e.Seen != 2 {
			t.Errorf("%s: seen %d, want 2 (one recurrence each)", e.Issue, e.Seen)
		}
	}
	checkCached(t, s, Pitfall, "after concurrent processes")
}

const cacheChildLessons = 4

// cacheChild adds lessons one at a time, each twice, reading the memory
// between writes and checking it holds what this process wrote. Half the
// children rewrite the cache whenever it is stale, so that rewrites race.
func cacheChild(dir, id string) {
	if id[len(id)-1]%2 == 1 {
		cacheRewriteTail = 0 // rewrite the cache on every read that finds it stale
	}
	s := Open(dir)
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; i < cacheChildLessons; i++ {
		l := Entry{Issue: fmt.Sprintf("child %s lesson %d about retries", id, i), Fix: "back off", Tasks: []string{"fn-" + id + ".1"}}
		for rep := 0; rep < 2; rep++ {
			l.Tasks = []string{fmt.Sprintf("fn-%s.%d", id, rep)}
			if _, err := s.Upsert(context.Background(), Pitfall, []Entry{l}, nil, time.Now()); err != nil {
				fail(err)
			}
		}
		entries, err := s.Load()
		if err != nil {
			fail(err)
		}
		mine := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Issue, "child "+id+" ") {
				mine++
			}
		}
		if mine != i+1 {
			fail(fmt.Errorf("child %s sees %d of its %d lessons", id, mine, i+1))
		}
	}
	os.Exit(0)
}

// TestCacheBadPayloadBesideFolding: a cache that fails to decode makes its
// file parsed into more entries than the cache announced while another
// file folds a duplicate, so the total still fits: Load must not let the
// parsed entries spill over the next file's (it once returned a pitfall in
// place of the first convention).
func TestCacheBadPayloadBesideFolding(t *testing.T) {
	s := twentyOfEach(t)
	// The last kind gets one entry twice (a hand copy): it folds to 20.
	last := Kinds[len(Kinds)-1]
	raw, err := os.ReadFile(s.Path(last))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Index(string(raw), "\n## ")
	second := strings.Index(string(raw)[first+1:], "\n## ") + first + 1
	appendFile(t, s.Path(last), string(raw)[first:second])
	if _, err := s.Load(); err != nil { // writes every cache
		t.Fatal(err)
	}
	// The first kind's cache now announces 19 entries and fails to decode.
	k := Kinds[0]
	c := badPayloadCache(t, s, k, 19)
	if err := os.WriteFile(s.cachePath(k), c, 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	var want []Entry
	for _, kk := range Kinds {
		d, err := s.ReadDoc(kk)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d.Folded()...)
	}
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("Load with a bad cache beside a folding file differs from a parse\n got %s\nwant %s", dump(all), dump(want))
	}
}

// TestCacheOversizedIgnored: a cache larger than any cache of its file can
// be is not read at all (a sparse file here; junk of gigabytes must not
// become one allocation), and the file is parsed.
func TestCacheOversizedIgnored(t *testing.T) {
	withCache(t, 1<<20)
	s := Open(t.TempDir())
	if _, err := s.Init(); err != nil {
		t.Fatal(err)
	}
	upsertN(t, s, 30, "big")
	raw, err := os.ReadFile(s.Path(Pitfall))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(s.cachePath(Pitfall)), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(s.cachePath(Pitfall))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(2*len(raw) + 1<<20 + 1)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := readCache(s.cachePath(Pitfall), len(raw)); err == nil {
		t.Fatal("oversized cache was read")
	}
	if via := checkCached(t, s, Pitfall, "oversized cache"); via != "parse" {
		t.Errorf("read via %q, want parse", via)
	}
}
