package capture

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func TestStem(t *testing.T) {
	same := [][]string{
		{"retry", "retries", "retried", "retrying"},
		{"cache", "cached", "caching", "caches"},
		{"validate", "validates", "validated", "validating", "validation"},
		{"run", "running", "runs"},
		{"lock", "locks", "locked", "locking"},
	}
	for _, group := range same {
		want := stem(group[0])
		for _, w := range group[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", w, got, group[0], want)
			}
		}
	}
	if stem("37") != "37" || stem("go") != "go" {
		t.Error("numbers and short words must stay")
	}
}

func TestTokens(t *testing.T) {
	var got []string
	forEachToken("Use `t.TempDir()` with --workdir /home/agent, HOME=/x and %w in fn-1.2.", func(s string) { got = append(got, s) })
	want := "Use t.TempDir with --workdir /home/agent HOME /x and %w in fn-1.2"
	if strings.Join(got, " ") != want {
		t.Errorf("tokens %q\nwant   %q", strings.Join(got, " "), want)
	}
	for tok, anchor := range map[string]bool{"t.TempDir": true, "--workdir": true, "HOME": true, "%w": true, "37": true, "camelCase": true, "word": false, "Word": false} {
		if isAnchor(tok) != anchor {
			t.Errorf("isAnchor(%q) = %v", tok, !anchor)
		}
	}
}

func entry(issue, fix string) mdstore.Entry {
	e := mdstore.Entry{Kind: mdstore.Pitfall, Issue: issue, Fix: fix}
	e.Normalize()
	return e
}

func TestMatcher(t *testing.T) {
	memory := []mdstore.Entry{
		entry("`docker exec --user agent` runs without setting HOME, so `~` resolves to /root", "Pass `-e HOME=/home/agent` on every `docker exec --user agent` call"),
		entry("Tests create scratch files with os.MkdirTemp and never remove them", "Use t.TempDir(), which the testing package removes"),
		entry("archived lesson about HOME in docker exec --user agent", "set HOME"),
		entry("The handler calls context.WithTimeout but never calls the returned cancel function, so the timer leaks until the deadline fires", "Capture cancel and `defer cancel()` right after context.WithTimeout"),
	}
	memory[2].Status = mdstore.Archived
	tests := []struct {
		name       string
		issue, fix string
		want       int
	}{
		{"same text", memory[0].Issue, memory[0].Fix, 0},
		{"re-wrapped text, same id", strings.ToUpper(memory[1].Issue) + ".", "", 1},
		{"paraphrase", "The sync test runs `docker exec --user agent` without HOME, so `~` still resolves to /root", "Add `-e HOME=/home/agent` to each `docker exec --user agent` call", 0},
		{"paraphrase, same remedy in other words", "context.WithTimeout is called and its cancel func is thrown away, so the context lives until the timeout", "Keep the cancel function and defer cancel() right after creating the context", 3},
		{"near miss", "The container is started as root and files created by the setup step are owned by root, so `docker exec --user agent` cannot write them", "chown the fixtures to agent in the setup step", -1},
		{"near miss, same subject, other remedy", "The handler creates its context with context.Background() instead of the request's context, so a client disconnect does not cancel the query", "Derive the context from r.Context() so cancellation propagates", -1},
		{"unrelated", "The CSV importer fails on a UTF-8 BOM in the header", "Strip the BOM before parsing", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Matcher
			e := entry(tt.issue, tt.fix)
			if got := m.Match(memory, &e); got != tt.want {
				t.Errorf("Match = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestWeights: rare and specific terms weigh more than everyday ones, from
// the background list alone (an empty memory), and a word that most of a
// large memory uses stops counting for much.
func TestWeights(t *testing.T) {
	var empty Matcher
	w := func(m *Matcher, text string) float32 {
		f := m.features(text, "")
		if len(f.terms) != 1 {
			t.Fatalf("%q: %d terms", text, len(f.terms))
		}
		return f.terms[0].w
	}
	for _, pair := range [][2]string{
		{"returns", "omitempty"},
		{"value", "goroutine"},
		{"file", "fsync"},
		{"request", "Slowloris"},
	} {
		if common, rare := w(&empty, pair[0]), w(&empty, pair[1]); !(rare > 1.5*common) {
			t.Errorf("weight(%q) = %.2f, weight(%q) = %.2f: the rare word should weigh far more", pair[1], rare, pair[0], common)
		}
	}
	// In a memory where every entry mentions "zeppelin", it weighs little.
	memory := generatedEntries(2000)
	for i := range memory {
		memory[i].Issue += " zeppelin"
		memory[i].ID = ""
		memory[i].Normalize()
	}
	var full Matcher
	full.sync(memory)
	if a, b := w(&empty, "zeppelin"), w(&full, "zeppelin"); !(b < a/3) {
		t.Errorf("weight of a word in every entry: %.2f, in an empty memory %.2f", b, a)
	}
	if a, b := w(&empty, "kubelet"), w(&full, "kubelet"); !(b > a*0.8) {
		t.Errorf("weight of a word in no entry: %.2f, in an empty memory %.2f", b, a)
	}
	// The same matcher on another memory forgets the first one's counts.
	full.sync(generatedEntries(2000))
	if a, b := w(&empty, "zeppelin"), w(&full, "zeppelin"); !(b > a*0.8) {
		t.Errorf("weight after switching to a memory without the word: %.2f, in an empty memory %.2f", b, a)
	}
}

// TestScoreParts: each part of the score moves it the way the design says.
func TestScoreParts(t *testing.T) {
	var m Matcher
	sc := func(a, b [2]string) float32 {
		fa, fb := m.features(a[0], a[1]), m.features(b[0], b[1])
		return score(&fa, &fb)
	}
	base := [2]string{"The handler never closes resp.Body, so connections leak", "defer resp.Body.Close() after the error check"}
	sameFix := [2]string{"The client code forgets the response body and the connections pile up", "defer resp.Body.Close() after checking the error"}
	otherFix := [2]string{"The client code forgets the response body and the connections pile up", "Drain the body with io.Copy before returning it to the pool"}
	if a, b := sc(base, sameFix), sc(base, otherFix); !(a > b) {
		t.Errorf("same remedy %.3f, other remedy %.3f: sharing the fix should count", a, b)
	}
	// Short lessons need more than identity to be sure of (the size
	// factor), but a lesson always folds into itself.
	if s := sc(base, base); s < foldThreshold+0.2 {
		t.Errorf("a lesson against itself scores %.3f", s)
	}
	if s := sc(base, [2]string{"", ""}); s != 0 {
		t.Errorf("against an empty lesson: %.3f", s)
	}
	// Without fixes the score rests on the rest alone, not on a fix part
	// of zero.
	noFix := sc([2]string{base[0], ""}, [2]string{base[0], ""})
	if noFix < foldThreshold+0.2 {
		t.Errorf("a fixless lesson against itself scores %.3f", noFix)
	}
}

// TestCounts: the memory's counts estimate how many entries hold a word:
// exactly in a small memory, within sampling error in a large one.
func TestCounts(t *testing.T) {
	for _, n := range []int{500, 10000} {
		memory := generatedEntries(n)
		var m Matcher
		m.sync(memory)
		exact := map[string]int{}
		for i := range memory {
			seen := map[string]bool{}
			forEachWord(memory[i].Text()+" "+memory[i].Fix, func(w string) {
				lw := strings.ToLower(w)
				if len(lw) > 5 {
					lw = lw[:5]
				}
				if !seen[lw] {
					seen[lw] = true
					exact[lw]++
				}
			})
		}
		for _, w := range []string{"omitempty", "docker", "hook", "the", "kubelet"} {
			k := w[:min(5, len(w))]
			got, want := float64(m.count(countCell(w))), float64(exact[k])
			// Sampling one entry in `every`: a binomial count, scaled up.
			slack := 1 + 4*math.Sqrt(want*float64(m.every))
			if math.Abs(got-want) > slack {
				t.Errorf("%d entries: count(%q) = %.1f, %v entries hold it", n, w, got, want)
			}
		}
	}
}

// TestPrefilterKeepsMatches: the signature prefilter must never drop a
// paraphrase (S or H line) that the full score would fold into its lesson,
// on any development corpus. (Dropping a near miss is fine.) The memory
// behind the word weights is the corpus's lessons among 2,000 generated
// entries, as in a project with a large memory.
func TestPrefilterKeepsMatches(t *testing.T) {
	checked := 0
	for _, name := range []string{"corpus.txt", "reviews.txt", "holdout.txt", "blind.txt"} {
		groups := loadRecurrenceCorpus(t, name)
		memory := generatedEntries(2000)
		first := len(memory)
		for _, g := range groups {
			memory = append(memory, g.a.entry())
		}
		var m Matcher
		m.sync(memory)
		for gi, g := range groups {
			fa := m.features(g.a.issue, g.a.fix)
			for _, l := range append(append([]lesson{g.a}, g.same...), g.hard...) {
				fl := m.features(l.issue, l.fix)
				if score(&fl, &fa) < foldThreshold {
					continue
				}
				checked++
				pf := m.prefilterOf(l.issue, l.fix)
				if !pf.candidate(&m.sigs[first+gi]) {
					t.Errorf("%s: prefilter drops a pair scoring %.2f:\n  %s\n  %s", name, score(&fl, &fa), l.issue, g.a.issue)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d folding pairs checked", checked)
	}
}

// TestPrefilterExact: the prefilter that reads only the signature words
// holding a telling word decides as the plain test over every word does,
// its weight sum to the last bit, for every lesson of the corpora against
// every entry of a generated memory.
func TestPrefilterExact(t *testing.T) {
	plain := func(p *prefilter, sig *signature) bool {
		var both signature
		n := 0
		for i := range sig {
			both[i] = sig[i] & p.key[i]
			n += bits.OnesCount64(both[i])
		}
		if n < 2 {
			return false
		}
		var got float32
		for i, w := range both {
			for w != 0 {
				got += p.w[i*64+bits.TrailingZeros64(w)]
				w &= w - 1
			}
		}
		if got < prefilterShare*p.total {
			return false
		}
		inter, union := 0, 0
		for i := range sig {
			inter += bits.OnesCount64(sig[i] & p.sig[i])
			union += bits.OnesCount64(sig[i] | p.sig[i])
		}
		return float32(inter) >= prefilterJaccard*float32(union)
	}
	memory := generatedEntries(3000)
	var m Matcher
	m.sync(memory)
	passed := 0
	for _, name := range []string{"corpus.txt", "holdout.txt"} {
		for _, g := range loadRecurrenceCorpus(t, name) {
			for _, l := range append([]lesson{g.a}, g.near...) {
				pf := m.prefilterOf(l.issue, l.fix)
				for i := range m.sigs {
					got, want := pf.candidate(&m.sigs[i]), plain(pf, &m.sigs[i])
					if got != want {
						t.Fatalf("%q against entry %d: candidate %v, the plain test %v", l.issue, i, got, want)
					}
					if got {
						passed++
					}
				}
			}
		}
	}
	if passed < 1000 {
		t.Errorf("only %d candidates: the test does not exercise the weights", passed)
	}
}

// TestMatcherAppends: Upsert appends the lessons it adds to the slice it
// passes back in; the matcher counts each entry once and sees the new one.
func TestMatcherAppends(t *testing.T) {
	memory := generatedEntries(50)
	var m Matcher
	l := entry("The hook reads stdin with io.ReadAll and hangs when Claude Code leaves stdin open", "Decode one JSON object with json.Decoder")
	if m.Match(memory, &l) >= 0 {
		t.Fatal("matched before it was added")
	}
	memory = append(memory, l)
	again := entry("The hook uses io.ReadAll on stdin and hangs, because Claude Code does not always close stdin", "Decode one JSON object with json.Decoder and stop there")
	if got := m.Match(memory, &again); got != len(memory)-1 {
		t.Errorf("Match = %d, want the appended entry %d", got, len(memory)-1)
	}
	if m.nDocs != len(memory) || len(m.sigs) != len(memory) {
		t.Errorf("counted %d entries, memory holds %d", m.nDocs, len(memory))
	}
	// A different memory (another kind's file, say) starts over.
	other := generatedEntries(10)
	m.Match(other, &again)
	if m.nDocs != len(other) {
		t.Errorf("after switching memories: counted %d entries, memory holds %d", m.nDocs, len(other))
	}
}

// BenchmarkMatcher is the matcher's share of capturing a 5-finding review
// into a 10,000-entry memory: a cold matcher (as every hook process has)
// matching five new lessons, each appended as Upsert does. With
// "cache=warm" the matcher reads a match cache that describes the memory,
// as the hook's does after an earlier capture.
func BenchmarkMatcher(b *testing.B) {
	for _, tc := range []struct {
		n     int
		cache bool
	}{{1000, false}, {10000, false}, {10000, true}} {
		name := fmt.Sprintf("entries=%d", tc.n)
		if tc.cache {
			name += "/cache=warm"
		}
		b.Run(name, func(b *testing.B) {
			base := generatedEntries(tc.n)
			var lessons []mdstore.Entry
			for _, g := range loadRecurrenceCorpus(b, "holdout.txt")[:5] {
				lessons = append(lessons, g.a.entry())
			}
			path := ""
			if tc.cache {
				path = filepath.Join(b.TempDir(), "pitfalls.match")
				m := Matcher{CachePath: path}
				m.sync(base)
				m.SaveCache()
			}
			// Room for the five, so appending does not copy the memory
			// (Upsert's own cost, not the matcher's).
			base = append(base, lessons...)[:tc.n]
			b.ReportAllocs()
			for b.Loop() {
				memory := base[:tc.n]
				m := Matcher{CachePath: path}
				for i := range lessons {
					if m.Match(memory, &lessons[i]) < 0 {
						memory = append(memory, lessons[i])
					}
				}
			}
		})
	}
}

// TestGenerateBackground rebuilds the background word list in words.go
// from programming prose on this machine: Go's standard library comments,
// Python's standard library docstrings and comments, npm's documentation
// and code comments, and the manual pages. Each source counts equally; a
// document is one comment block, docstring paragraph or manual paragraph.
// It prints the Go literal to paste into words.go.
//
//	FLOWMEM_GEN_BACKGROUND=1 go test -run TestGenerateBackground ./internal/capture > /tmp/bg.txt
func TestGenerateBackground(t *testing.T) {
	if os.Getenv("FLOWMEM_GEN_BACKGROUND") == "" {
		t.Skip("set FLOWMEM_GEN_BACKGROUND=1 to rebuild the background list")
	}
	goroot := filepath.Join(strings.TrimSpace(runOut(t, "go", "env", "GOROOT")), "src")
	sources := map[string]*docCounts{}
	add := func(src, text string) {
		c := sources[src]
		if c == nil {
			c = &docCounts{df: map[string]int{}}
			sources[src] = c
		}
		c.doc(text)
	}
	fset := token.NewFileSet()
	walk(goroot, ".go", func(p string, b []byte) {
		if strings.Contains(p, "/testdata/") || strings.Contains(p, "/vendor/") {
			return
		}
		f, err := parser.ParseFile(fset, p, b, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return
		}
		for _, cg := range f.Comments {
			add("go", cg.Text())
		}
	})
	pyDoc := regexp.MustCompile(`(?s)"""(.*?)"""|'''(.*?)'''`)
	pys, _ := filepath.Glob("/usr/lib/python3*")
	for _, root := range pys {
		walk(root, ".py", func(p string, b []byte) {
			if strings.Contains(p, "/test/") || strings.Contains(p, "-packages/") {
				return
			}
			for _, m := range pyDoc.FindAllStringSubmatch(string(b), -1) {
				for _, para := range paragraphs(m[1] + m[2]) {
					add("python", para)
				}
			}
			for _, c := range lineComments(string(b), "#") {
				add("python", c)
			}
		})
	}
	jsBlock := regexp.MustCompile(`(?s)/\*(.*?)\*/`)
	walk("/usr/lib/node_modules/npm", "", func(p string, b []byte) {
		switch {
		case strings.HasSuffix(p, ".md"):
			for _, para := range paragraphs(string(b)) {
				add("npm", para)
			}
		case strings.HasSuffix(p, ".js") && len(b) < 400000:
			for _, m := range jsBlock.FindAllStringSubmatch(string(b), -1) {
				add("npm", strings.ReplaceAll(m[1], "*", " "))
			}
			for _, c := range lineComments(string(b), "//") {
				add("npm", c)
			}
		}
	})
	troff := regexp.MustCompile(`\\f[BIRP]|\\\(..|\\[-&e|^]|\\s[-+]?\d`)
	mans, _ := filepath.Glob("/usr/share/man/man[158]/*.gz")
	for _, p := range mans {
		for _, para := range manParagraphs(p, troff) {
			add("man", para)
		}
	}
	if len(sources) < 2 {
		t.Fatalf("found only %d sources", len(sources))
	}
	// p(w): the mean over sources of the share of documents holding w.
	p := map[string]float64{}
	var names []string
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names) // the same sums, in the same order, every run
	for _, name := range names {
		c := sources[name]
		t.Logf("%s: %d documents, %d words", name, c.docs, len(c.df))
		for w, n := range c.df {
			p[w] += float64(n) / float64(c.docs) / float64(len(sources))
		}
	}
	bands := map[float64][]string{}
	for w, v := range p {
		if v < backgroundCutoff || stopWords()[w] {
			continue
		}
		b := math.Round(-math.Log(v)*2) / 2
		bands[b] = append(bands[b], w)
	}
	var keys []float64
	for b := range bands {
		keys = append(keys, b)
	}
	sort.Float64s(keys)
	var out strings.Builder
	for _, b := range keys {
		ws := bands[b]
		sort.Strings(ws)
		line := fmt.Sprintf("%.1f:", b)
		for _, w := range ws {
			if len(line)+1+len(w) > 110 {
				out.WriteString(line + "\n")
				line = fmt.Sprintf("%.1f:", b)
			}
			line += " " + w
		}
		out.WriteString(line + "\n")
	}
	fmt.Print(out.String())
}

// backgroundCutoff: words in fewer than 3 in 10,000 background documents
// are left out of the list and count as rare.
const backgroundCutoff = 3e-4

type docCounts struct {
	docs int
	df   map[string]int
}

// doc counts the plain words (not identifiers) of one document of six or
// more words.
func (c *docCounts) doc(text string) {
	seen := map[string]bool{}
	n := 0
	forEachToken(text, func(tok string) {
		if isAnchor(tok) {
			return
		}
		lw := strings.ToLower(tok)
		if len(lw) < 2 || !isLetters(lw) {
			return
		}
		n++
		seen[lw] = true
	})
	if n < 6 {
		return
	}
	c.docs++
	for w := range seen {
		c.df[w]++
	}
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func runOut(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func walk(root, ext string, fn func(path string, b []byte)) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ext) {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			fn(p, b)
		}
		return nil
	})
}

func paragraphs(s string) []string {
	return regexp.MustCompile(`\n\s*\n`).Split(s, -1)
}

// lineComments joins runs of consecutive line comments into one text each.
func lineComments(src, prefix string) []string {
	var out, cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, prefix) {
			cur = append(cur, strings.TrimPrefix(t, prefix))
			continue
		}
		flush()
	}
	flush()
	return out
}

// manParagraphs is the running text of a gzipped manual page, by
// paragraph, with troff requests dropped and font escapes removed.
func manParagraphs(path string, escapes *regexp.Regexp) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil
	}
	b, _ := io.ReadAll(z)
	var out, para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.Join(para, " "))
			para = nil
		}
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'"):
			for _, req := range []string{".PP", ".SH", ".TP", ".IP", ".P", ".LP"} {
				if strings.HasPrefix(l, req) {
					flush()
				}
			}
		case strings.TrimSpace(l) == "":
			flush()
		default:
			para = append(para, escapes.ReplaceAllString(l, " "))
		}
	}
	flush()
	return out
}

// referenceFeatures is features written plainly, as it was before the
// lexicon cached identifiers' words and terms were sorted by insertion:
// the optimised builder must give exactly this.
func referenceFeatures(m *Matcher, issue, fix string) lessonFeatures {
	var terms []term
	var grams gramSet
	word := func(w string, fix bool) {
		if len(w) < 2 && !isDigits(w) {
			return
		}
		wi := analyzeWord(strings.ToLower(w))
		if wi.skip {
			return
		}
		for _, h := range wi.grams {
			grams.add(h)
		}
		terms = append(terms, term{wi.stem, m.idf(wi.bg, m.count(wi.key)), fix})
	}
	add := func(text string, fix bool) {
		forEachToken(text, func(tok string) {
			if !isAnchor(tok) {
				word(tok, fix)
				return
			}
			whole := strings.ToLower(strings.Trim(tok, "-./:"))
			switch {
			case len(whole) < 2:
			case synonyms()[whole] != "":
				word(synonyms()[whole], fix)
				return
			default:
				bg := float32(anchorIDF)
				if v, ok := background()[whole]; ok {
					bg = v
				}
				terms = append(terms, term{hash64("§" + whole), m.idf(bg, m.anchorCount(tok)), fix})
			}
			splitIdent(tok, func(part string) { word(part, fix) })
		})
	}
	add(issue, false)
	add(fix, true)
	sort.SliceStable(terms, func(i, j int) bool {
		if terms[i].h != terms[j].h {
			return terms[i].h < terms[j].h
		}
		return terms[i].w > terms[j].w
	})
	var out []term
	for _, t := range terms {
		if n := len(out); n > 0 && out[n-1].h == t.h {
			out[n-1].fix = out[n-1].fix || t.fix
			continue
		}
		out = append(out, t)
	}
	f := lessonFeatures{terms: out, grams: grams}
	for _, t := range out {
		f.total += t.w
		if t.fix {
			f.fixTotal += t.w
		}
	}
	return f
}

// TestFeaturesExact: the builder (lexicon, cached identifier parts, the
// insertion sort) and featuresOf split across goroutines give exactly the
// plain computation's features, for every lesson of the corpora and
// entries of a large generated memory.
func TestFeaturesExact(t *testing.T) {
	memory := generatedEntries(3000)
	var texts [][2]string
	for _, name := range []string{"corpus.txt", "reviews.txt", "holdout.txt", "blind.txt"} {
		for _, g := range loadRecurrenceCorpus(t, name) {
			for _, l := range append(append(append([]lesson{g.a}, g.same...), g.near...), g.hard...) {
				texts = append(texts, [2]string{l.issue, l.fix})
				memory = append(memory, l.entry())
			}
		}
	}
	texts = append(texts, [2]string{"Use `t.TempDir()` with --workdir /home/agent, HOME=/x, %w, sign-in, e-mail and fn-1.2 in a_b-c.d:e", "x y 42 Ünïcode naïve-café"})
	var m Matcher
	m.sync(memory)
	same := func(what string, got, want lessonFeatures) {
		t.Helper()
		if !slices.Equal(got.terms, want.terms) || got.grams != want.grams || got.total != want.total || got.fixTotal != want.fixTotal {
			t.Fatalf("%s: features differ from the plain computation", what)
		}
	}
	for _, tx := range texts {
		same(tx[0], m.features(tx[0], tx[1]), referenceFeatures(&m, tx[0], tx[1]))
	}
	// The same entries analysed in parallel parts, from a fresh lexicon.
	old := featuresPerWorker
	t.Cleanup(func() { featuresPerWorker = old })
	for _, per := range []int{1, 7, 1 << 30} {
		featuresPerWorker = per
		var p Matcher
		p.sync(memory)
		idx := make([]int, 0, len(memory))
		for i := range memory {
			if i%3 != 1 {
				idx = append(idx, i)
			}
		}
		p.featuresOf(memory, idx)
		for _, i := range idx {
			same(fmt.Sprintf("entry %d, %d per worker", i, per), *p.feats[i], referenceFeatures(&p, memory[i].Text(), memory[i].Fix))
		}
	}
}

// TestMatchSplitExact: candidates found and scored in parts on several
// cores give the entry one pass in order gives — the first of equal
// scores included — for lessons that fold and lessons that do not.
func TestMatchSplitExact(t *testing.T) {
	memory := generatedEntries(3000)
	var lessons []mdstore.Entry
	for _, g := range loadRecurrenceCorpus(t, "corpus.txt") {
		for _, l := range append([]lesson{g.a}, g.same...) {
			memory = append(memory, l.entry())
			if len(g.near) > 0 {
				lessons = append(lessons, g.near[0].entry())
			}
		}
		for _, l := range g.same {
			l.issue += " (again)"
			lessons = append(lessons, l.entry())
		}
	}
	// Exact duplicates under other ids: equal scores, the first wins.
	for i := range 40 {
		e := memory[i*7]
		e.ID = fmt.Sprintf("p-dup%d", i)
		memory = append(memory, e)
		l := e
		l.Issue += " (again)"
		l.Normalize()
		lessons = append(lessons, l)
	}
	match := func() []int {
		var m Matcher
		out := make([]int, len(lessons))
		for i := range lessons {
			out[i] = m.Match(memory, &lessons[i])
		}
		return out
	}
	oldC, oldS, oldP := candidatesPerWorker, scoresPerWorker, runtime.GOMAXPROCS(0)
	t.Cleanup(func() {
		candidatesPerWorker, scoresPerWorker = oldC, oldS
		runtime.GOMAXPROCS(oldP)
	})
	candidatesPerWorker, scoresPerWorker = 1<<30, 1<<30
	want := match()
	folded := 0
	for _, w := range want {
		if w >= 0 {
			folded++
		}
	}
	if folded < 40 {
		t.Fatalf("only %d of %d lessons fold: the test does not exercise the scores", folded, len(lessons))
	}
	for _, procs := range []int{2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		for _, per := range []int{1, 5, 300} {
			candidatesPerWorker, scoresPerWorker = per*10, per
			if got := match(); !slices.Equal(got, want) {
				t.Fatalf("GOMAXPROCS %d, %d per worker: matches differ from one pass", procs, per)
			}
		}
	}
}

// TestMatcherSymbolTwins: a lesson with the same words as an entry but
// other symbols ("!= nil" and "== nil") is another lesson. It is folded
// neither by id nor by its words, and once recorded under the next id of
// mdstore's chain, its own repeats find it.
func TestMatcherSymbolTwins(t *testing.T) {
	first := entry("The guard in loadUser checks err != nil before using the row", "Return early when err != nil")
	twin := entry("The guard in loadUser checks err == nil before using the row", "Return early when err == nil")
	if first.ID != twin.ID {
		t.Fatalf("the test needs a shared content id: %s, %s", first.ID, twin.ID)
	}
	memory := []mdstore.Entry{generatedEntries(1)[0], first}
	var m Matcher
	if got := m.Match(memory, &twin); got != -1 {
		t.Fatalf("the twin folded into entry %d", got)
	}
	recorded := twin
	recorded.ID = mdstore.DistinctID(recorded.Kind, recorded.Text(), 1)
	memory = append(memory, recorded)
	again := entry("The guard in loadUser checks `err == nil` before using the row.", "Return early when err == nil")
	if got := m.Match(memory, &again); got != 2 {
		t.Errorf("the twin's repeat matched %d, want 2", got)
	}
	if got := m.Match(memory, &first); got != 1 {
		t.Errorf("the first lesson's repeat matched %d, want 1", got)
	}
}
