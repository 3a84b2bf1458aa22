// Command bench measures flowmem as users run it: whole processes, median
// wall time over repeated runs and peak resident memory, on generated
// memories of 1,000, 10,000 and 100,000 entries. It is `make bench`; tests
// never assert timings.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/flowmem/flowmem/internal/mdstore"
)

func main() {
	sizes := flag.String("sizes", "1000,10000,100000", "comma-separated store sizes")
	runs := flag.Int("runs", 15, "runs per measurement (fewer at 100,000)")
	gen := flag.String("generate", "", "internal: write a project of -n entries to this folder and exit")
	n := flag.Int("n", 0, "internal: entries for -generate")
	corpus := flag.Bool("corpus", false, "internal: with -generate, entries shaped like the recall corpus")
	flag.Parse()
	if *gen != "" {
		g := generate
		if *corpus {
			g = generateFromCorpus
		}
		if err := g(*gen, *n); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*sizes, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(sizeList string, runs int) error {
	tmp, err := os.MkdirTemp("", "flowmem-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// flowmem-hook beside flowmem, as make install puts it, so it finds
	// flowmem there.
	bin, front, decodeOnly := filepath.Join(tmp, "flowmem"), filepath.Join(tmp, "flowmem-hook"), filepath.Join(tmp, "decodeonly")
	for _, b := range [][]string{
		{"-tags", "urfave_cli_no_docs", "-o", bin, "./cmd/flowmem"},
		{"-o", front, "./cmd/flowmem-hook"},
		{"-o", decodeOnly, "./internal/bench/decodeonly"},
		{"-tags", "goldmark", "-o", decodeOnly + "-goldmark", "./internal/bench/decodeonly"},
	} {
		if out, err := exec.Command("go", append([]string{"build"}, b...)...).CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", b[len(b)-1], err, out)
		}
	}

	fmt.Printf("flowmem bench — %s, %s, %d CPUs\n", time.Now().UTC().Format("2006-01-02"), runtime.Version(), runtime.NumCPU())
	fmt.Printf("median of N runs per row; peak = max resident set size of the process\n\n")
	fmt.Printf("| command | entries | runs | median | peak RSS |\n|---|---:|---:|---:|---:|\n")
	// Ranking runs on one core: the second must not be what meets the
	// target.
	onePrefix, oneCoreLabel := []string{bin}, ""
	if ts, err := exec.LookPath("taskset"); err == nil {
		onePrefix, oneCoreLabel = []string{ts, "-c", "0", bin}, ", one core"
	}
	oneCore := func(args ...string) []string { return append(slices.Clone(onePrefix), args...) }
	const task = "fn-12.3: add retry with backoff to the webhook delivery worker"
	for _, size := range strings.Split(sizeList, ",") {
		var n int
		if _, err := fmt.Sscan(strings.TrimSpace(size), &n); err != nil {
			return fmt.Errorf("bad size %q", size)
		}
		// Generate in a child process: on Linux a child's peak RSS counts
		// the resident size its parent had when it forked, so this process
		// must stay small for the figures below to be the commands' own.
		// Ranking runs on a memory shaped like the recall corpus (real
		// lessons' words, lengths and identifiers), where a request's words
		// are as rare as they are in a project: in the plain store every
		// word is in a tenth of the entries, and nothing would qualify.
		dir, cdir := filepath.Join(tmp, fmt.Sprint("p", n)), filepath.Join(tmp, fmt.Sprint("c", n))
		for _, g := range [][]string{{"-generate", dir, "-n", fmt.Sprint(n)}, {"-generate", cdir, "-n", fmt.Sprint(n), "-corpus"}} {
			if out, err := exec.Command(os.Args[0], g...).CombinedOutput(); err != nil {
				return fmt.Errorf("generate %v: %v\n%s", g, err, out)
			}
		}
		r := runs
		if n >= 100000 {
			r = max(3, runs/3)
		}
		rows := []struct {
			name, dir string
			argv      []string
		}{
			{"memory list", dir, []string{bin, "memory", "list"}},
			{"memory read", dir, []string{bin, "memory", "read"}},
			{"memory search", dir, []string{bin, "memory", "search", "goroutine|deadline"}},
			{"memory read --relevant, corpus-shaped" + oneCoreLabel, cdir, oneCore("memory", "read", "--relevant", task)},
			// The scout's command as agents/memory-scout.md writes it: the
			// request, then four searches of its own (the code, the data
			// side, the failures, the layer's rules), 30 candidates.
			{"scout: read --limit 30 -r ×5, corpus-shaped" + oneCoreLabel, cdir, oneCore("memory", "read", "--limit", "30", "--max-chars", "9000",
				"-r", task, "-r", "webhook delivery worker retry", "-r", "idempotency duplicate delivery timeout jitter",
				"-r", "delivery log table timestamps", "-r", "worker package conventions")},
			{"memory prime, corpus-shaped" + oneCoreLabel, cdir, oneCore("memory", "prime", task)},
		}
		if n <= 10000 {
			// The curator's command as agents/memory-curator.md writes it.
			// It compares every entry with its nearest, which takes seconds
			// at 100,000, and runs when someone tidies memory, not per prompt.
			rows = append(rows, struct {
				name, dir string
				argv      []string
			}{"memory curate --json --limit 20, corpus-shaped" + oneCoreLabel, cdir, oneCore("memory", "curate", "--json", "--limit", "20")})
		}
		for _, row := range rows {
			m, err := measure(r, row.dir, row.argv, nil, nil)
			if err != nil {
				return fmt.Errorf("%s at %d: %w", row.name, n, err)
			}
			fmt.Printf("| %s | %d | %d | %s | %s |\n", row.name, n, r, ms(m.median), mb(m.peakKB))
		}
		if n == 10000 {
			if err := benchHook(dir, bin, front, decodeOnly, runs); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchHook measures the hook on a non-review event next to a program that
// only decodes the same stdin (and the same program with goldmark linked:
// the floor of one binary), and a capture of a 5-finding review into the
// 10,000-entry store: through flowmem-hook, the command flowmem install
// writes when it is installed, and through flowmem hook.
func benchHook(dir, bin, front, decodeOnly string, runs int) error {
	payload := fmt.Sprintf(`{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":%q,"prompt_id":"p1","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./...","description":"Run tests"},"tool_response":{"stdout":%q,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"tool_use_id":"toolu_1","duration_ms":1234}`,
		dir, strings.Repeat("ok  \tgithub.com/example/pkg\t0.123s\n", 60))
	hookRuns := runs * 4
	hooks := []struct {
		name string
		argv []string
	}{{"flowmem-hook", []string{front}}, {"flowmem hook", []string{bin, "hook"}}}
	d, err := measure(hookRuns, dir, []string{decodeOnly}, []byte(payload), nil)
	if err != nil {
		return fmt.Errorf("decode-only: %w", err)
	}
	fmt.Printf("| minimal Go program decoding the same stdin | – | %d | %s | %s |\n", hookRuns, ms(d.median), mb(d.peakKB))
	g, err := measure(hookRuns, dir, []string{decodeOnly + "-goldmark"}, []byte(payload), nil)
	if err != nil {
		return fmt.Errorf("decode-only with goldmark: %w", err)
	}
	fmt.Printf("| the same program with goldmark linked, unused (%.2fx decode-only) | – | %d | %s | %s |\n", float64(g.median)/float64(d.median), hookRuns, ms(g.median), mb(g.peakKB))
	for _, h := range hooks {
		m, err := measure(hookRuns, dir, h.argv, []byte(payload), nil)
		if err != nil {
			return fmt.Errorf("%s non-review: %w", h.name, err)
		}
		fmt.Printf("| %s, non-review Bash event (%.2fx decode-only) | 10000 | %d | %s | %s |\n", h.name, float64(m.median)/float64(d.median), hookRuns, ms(m.median), mb(m.peakKB))
	}
	review, err := os.ReadFile("internal/bench/testdata/review-5.md")
	if err != nil {
		return fmt.Errorf("read review: %w", err)
	}
	reviewPayload := fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"flowctl codex impl-review fn-12.3"},"tool_response":{"stdout":%q,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"tool_use_id":"toolu_2"}`,
		dir, string(review))
	// Every run captures into the same store, as a fresh clone has it:
	// the memory file is put back before each run, and the reviews log
	// lost, or the runs after the first would find the tool call logged
	// and record nothing.
	pitfalls := filepath.Join(dir, ".flow", "memory", "pitfalls.md")
	orig, err := os.ReadFile(pitfalls)
	if err != nil {
		return err
	}
	restore := func() error {
		if err := os.Remove(filepath.Join(dir, ".flow", "memory", "reviews.jsonl")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return os.WriteFile(pitfalls, orig, 0o644)
	}
	for _, h := range hooks {
		c, err := measure(runs, dir, h.argv, []byte(reviewPayload), restore)
		if err != nil {
			return fmt.Errorf("%s capture: %w", h.name, err)
		}
		after, _ := os.ReadFile(pitfalls)
		added := bytes.Count(after, []byte("\n## ")) - bytes.Count(orig, []byte("\n## "))
		fmt.Printf("| %s, capture of a 5-finding review (%d lessons written) | 10000 | %d | %s | %s |\n", h.name, added, runs, ms(c.median), mb(c.peakKB))
	}
	return restore()
}

type result struct {
	median time.Duration
	peakKB int64
}

// measure runs argv runs times (after one warm-up run), calling before
// (when not nil) ahead of each run, outside the timed part.
func measure(runs int, dir string, argv []string, stdin []byte, before func() error) (result, error) {
	var times []time.Duration
	var peak int64
	for i := 0; i <= runs; i++ {
		if before != nil {
			if err := before(); err != nil {
				return result{}, err
			}
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Stdout = io.Discard
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+dir)
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			return result{}, fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, errb.String())
		}
		if i == 0 {
			continue // warm-up: page cache, binary loading
		}
		times = append(times, d)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
			peak = ru.Maxrss
		}
	}
	slices.Sort(times)
	return result{median: times[len(times)/2], peakKB: peak}, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func mb(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }

// generate writes a project with n entries of realistic shape: 70%
// pitfalls from reviews, 15% conventions, 15% decisions.
func generate(dir string, n int) error {
	day := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return writeProject(dir, n, func(rng *rand.Rand, i int) mdstore.Entry {
		k := mdstore.Pitfall
		switch r := rng.Intn(100); {
		case r >= 85:
			k = mdstore.Decision
		case r >= 70:
			k = mdstore.Convention
		}
		d := day.AddDate(0, 0, rng.Intn(600)).Format("2006-01-02")
		task := fmt.Sprintf("fn-%d.%d", rng.Intn(400)+1, rng.Intn(9)+1)
		e := mdstore.Entry{Kind: k, Date: d, Task: task, Tasks: []string{task}, Source: "impl-review", Category: pick(rng, categories)}
		text := fmt.Sprintf("%s %s in %s when %s (case %d)", pick(rng, subjects), pick(rng, problems), pick(rng, places), pick(rng, conditions), i)
		if k == mdstore.Pitfall {
			e.Issue, e.Fix, e.Context = text, pick(rng, fixes)+" in "+pick(rng, places), fmt.Sprintf("%s:%d", pick(rng, places), rng.Intn(400)+1)
		} else {
			e.Body, e.Source = text, "manual"
		}
		if rng.Intn(5) == 0 {
			e.Seen = 2 + rng.Intn(4)
		}
		e.Normalize()
		return e
	})
}

// generateFromCorpus writes a project of n entries made from the recall
// corpus (testdata/recall/memory.jsonl): each keeps a corpus entry's shape
// with a third of its words swapped for words drawn from the corpus, so
// that word frequencies stay those of a real memory at any size.
func generateFromCorpus(dir string, n int) error {
	raw, err := os.ReadFile(filepath.Join("testdata", "recall", "memory.jsonl"))
	if err != nil {
		return err
	}
	var base []mdstore.Entry
	var vocab []string
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var e mdstore.Entry
		if err := json.Unmarshal(l, &e); err != nil {
			return fmt.Errorf("memory.jsonl: %w", err)
		}
		base = append(base, e)
		vocab = append(vocab, strings.Fields(e.Issue+" "+e.Fix+" "+e.Body)...)
	}
	return writeProject(dir, n, func(rng *rand.Rand, i int) mdstore.Entry {
		mutate := func(s string) string {
			w := strings.Fields(s)
			for i := range w {
				if rng.Intn(3) == 0 {
					w[i] = vocab[rng.Intn(len(vocab))]
				}
			}
			return strings.Join(w, " ")
		}
		e := base[i%len(base)]
		e.Issue, e.Fix, e.Body = mutate(e.Issue), mutate(e.Fix), mutate(e.Body)
		e.ID, e.Status = "", mdstore.Active
		e.Normalize()
		e.ID = fmt.Sprintf("%s-%d", e.ID, i)
		return e
	})
}

// writeProject writes a project with memory on and the n entries entry
// makes, each in its kind's file.
func writeProject(dir string, n int, entry func(rng *rand.Rand, i int) mdstore.Entry) error {
	mem := filepath.Join(dir, ".flow", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".flow", "config.json"), []byte(`{"memory":{"enabled":true}}`), 0o644); err != nil {
		return err
	}
	rng := rand.New(rand.NewSource(int64(n)))
	files := map[mdstore.Kind]*strings.Builder{}
	for _, k := range mdstore.Kinds {
		files[k] = &strings.Builder{}
		files[k].WriteString(mdstore.Header(k))
	}
	for i := 0; i < n; i++ {
		e := entry(rng, i)
		files[e.Kind].WriteString("\n")
		files[e.Kind].WriteString(mdstore.Render(&e))
	}
	for k, b := range files {
		if err := os.WriteFile(filepath.Join(mem, k.File()), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func pick(rng *rand.Rand, list []string) string { return list[rng.Intn(len(list))] }

var (
	categories = []string{"framework", "convention", "api", "build", "edge-case", "security", "general"}
	subjects   = []string{"the webhookDelivery worker", "http.Client without timeout", "useEffect cleanup", "sqlc generated query",
		"goroutine per request", "context.WithTimeout", "React Query cache key", "JWT refresh handler", "the migration runner",
		"pytest fixture scope", "S3 multipart upload", "the rate limiter", "GraphQL resolver", "Dockerfile build stage",
		"the retry loop", "CSV import parser", "OAuth callback", "feature flag client", "cron scheduler", "i18n message loader"}
	problems = []string{"leaks connections", "ignores the deadline", "retries without backoff", "swallows the error",
		"races on shared state", "breaks on empty input", "double-encodes the payload", "logs the bearer token",
		"blocks the event loop", "skips validation", "caches stale results", "panics on nil map", "drops the last batch"}
	places = []string{"internal/webhook/sender.go", "src/hooks/useData.ts", "api/handlers/auth.py", "pkg/db/queries.sql",
		"cmd/server/main.go", "web/app/routes.tsx", "scripts/migrate.sh", "services/billing/invoice.go", "Makefile", ".github/workflows/ci.yml"}
	conditions = []string{"the upstream returns 429", "the request is cancelled", "the list is empty", "two workers start at once",
		"the token expires mid-request", "the file has a BOM", "running under -race", "the cache is cold", "the user has no locale"}
	fixes = []string{"wrap it with context.WithTimeout", "use exponential backoff with jitter", "return the wrapped error",
		"guard the map with a mutex", "validate before the write", "redact the header before logging", "flush the final batch",
		"set http.Client.Timeout", "use errgroup with a bounded limit", "add the cache key per tenant"}
)
