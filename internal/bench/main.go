// Command bench measures flowmem as users run it: whole processes, median
// wall time over repeated runs and peak resident memory, on generated
// memories of 1,000, 10,000 and 100,000 entries. It is `make bench`; tests
// never assert timings.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
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
	bin := filepath.Join(tmp, "flowmem")
	if out, err := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", bin, "./cmd/flowmem").CombinedOutput(); err != nil {
		return fmt.Errorf("build flowmem: %v\n%s", err, out)
	}
	// Beside flowmem, as make install puts it, so it finds flowmem there.
	front := filepath.Join(tmp, "flowmem-hook")
	if out, err := exec.Command("go", "build", "-o", front, "./cmd/flowmem-hook").CombinedOutput(); err != nil {
		return fmt.Errorf("build flowmem-hook: %v\n%s", err, out)
	}
	decodeOnly := filepath.Join(tmp, "decodeonly")
	haveDecode := false
	if _, err := os.Stat("internal/bench/decodeonly/main.go"); err == nil {
		if out, err := exec.Command("go", "build", "-o", decodeOnly, "./internal/bench/decodeonly").CombinedOutput(); err != nil {
			return fmt.Errorf("build decodeonly: %v\n%s", err, out)
		}
		haveDecode = true
	}

	fmt.Printf("flowmem bench — %s, %s\n", time.Now().UTC().Format("2006-01-02"), goVersion())
	fmt.Printf("median of N runs per row; peak = max resident set size of the process\n\n")
	fmt.Printf("| command | entries | runs | median | peak RSS |\n|---|---:|---:|---:|---:|\n")
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		var n int
		if _, err := fmt.Sscan(strings.TrimSpace(s), &n); err != nil {
			return fmt.Errorf("bad size %q", s)
		}
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		dir := filepath.Join(tmp, fmt.Sprint("p", n))
		// Generate in a child process: on Linux a child's peak RSS counts
		// the resident size its parent had when it forked, so this process
		// must stay small for the figures below to be the commands' own.
		if out, err := exec.Command(os.Args[0], "-generate", dir, "-n", fmt.Sprint(n)).CombinedOutput(); err != nil {
			return fmt.Errorf("generate %d: %v\n%s", n, err, out)
		}
		r := runs
		if n >= 100000 {
			r = max(3, runs/3)
		}
		cmds := []struct {
			name string
			args []string
		}{
			{"memory list", []string{"memory", "list"}},
			{"memory read", []string{"memory", "read"}},
			{"memory search", []string{"memory", "search", "goroutine|deadline"}},
		}
		for _, c := range cmds {
			m, err := measure(r, dir, bin, c.args, nil)
			if err != nil {
				return fmt.Errorf("%s at %d: %w", c.name, n, err)
			}
			fmt.Printf("| %s | %d | %d | %s | %s |\n", c.name, n, r, ms(m.median), mb(m.peakKB))
		}
		// Ranking runs on a memory shaped like the recall corpus (real
		// lessons' words, lengths and identifiers), where a request's words
		// are as rare as they are in a project: in the store above every
		// word is in a tenth of the entries, and nothing would qualify.
		// On one core: the second must not be what meets the target.
		cdir := filepath.Join(tmp, fmt.Sprint("c", n))
		if out, err := exec.Command(os.Args[0], "-generate", cdir, "-n", fmt.Sprint(n), "-corpus").CombinedOutput(); err != nil {
			return fmt.Errorf("generate corpus-shaped %d: %v\n%s", n, err, out)
		}
		const task = "fn-12.3: add retry with backoff to the webhook delivery worker"
		ranked := []struct {
			name string
			args []string
		}{
			{"memory read --relevant", []string{"memory", "read", "--relevant", task}},
			// The scout's command: the request, its terms, its usual
			// mistakes, and 30 candidates for it to choose from.
			{"scout: read --limit 30 -r ×3", []string{"memory", "read", "--limit", "30", "--max-chars", "9000", "-r", task, "-r", "webhook delivery worker retry", "-r", "idempotency duplicate delivery timeout jitter"}},
			{"memory prime", []string{"memory", "prime", task}},
		}
		rbin, pre := bin, []string(nil)
		if ts, err := exec.LookPath("taskset"); err == nil {
			rbin, pre = ts, []string{"-c", "0", bin}
		}
		for _, c := range ranked {
			m, err := measure(r, cdir, rbin, append(pre, c.args...), nil)
			if err != nil {
				return fmt.Errorf("%s at %d: %w", c.name, n, err)
			}
			label := c.name + ", corpus-shaped"
			if pre != nil {
				label += ", one core"
			}
			fmt.Printf("| %s | %d | %d | %s | %s |\n", label, n, r, ms(m.median), mb(m.peakKB))
		}
		if n == 10000 {
			if err := benchHook(dir, bin, front, decodeOnly, haveDecode, runs); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchHook measures the hook on a non-review event next to a program that
// only decodes the same stdin, and a capture of a 5-finding review into the
// 10,000-entry store: through flowmem-hook, the command flowmem install
// writes when it is installed, and through flowmem hook.
func benchHook(dir, bin, front, decodeOnly string, haveDecode bool, runs int) error {
	payload := fmt.Sprintf(`{"session_id":"s1","transcript_path":"/tmp/t.jsonl","cwd":%q,"prompt_id":"p1","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./...","description":"Run tests"},"tool_response":{"stdout":%q,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"tool_use_id":"toolu_1","duration_ms":1234}`,
		dir, strings.Repeat("ok  \tgithub.com/example/pkg\t0.123s\n", 60))
	hookRuns := runs * 4
	type hookCmd struct {
		name string
		bin  string
		args []string
	}
	hooks := []hookCmd{{"flowmem-hook", front, nil}, {"flowmem hook", bin, []string{"hook"}}}
	var d result
	if haveDecode {
		var err error
		if d, err = measure(hookRuns, dir, decodeOnly, nil, []byte(payload)); err != nil {
			return fmt.Errorf("decode-only: %w", err)
		}
		fmt.Printf("| minimal Go program decoding the same stdin | – | %d | %s | %s |\n", hookRuns, ms(d.median), mb(d.peakKB))
	}
	for _, h := range hooks {
		m, err := measure(hookRuns, dir, h.bin, h.args, []byte(payload))
		if err != nil {
			return fmt.Errorf("%s non-review: %w", h.name, err)
		}
		ratio := ""
		if haveDecode {
			ratio = fmt.Sprintf(" (%.2fx decode-only)", float64(m.median)/float64(d.median))
		}
		fmt.Printf("| %s, non-review Bash event%s | 10000 | %d | %s | %s |\n", h.name, ratio, hookRuns, ms(m.median), mb(m.peakKB))
	}
	review, err := os.ReadFile("internal/bench/testdata/review-5.md")
	if err != nil {
		return fmt.Errorf("read review: %w", err)
	}
	reviewPayload := fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"flowctl codex impl-review fn-12.3"},"tool_response":{"stdout":%q,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"tool_use_id":"toolu_2"}`,
		dir, string(review))
	// Every run captures into the same store, as a fresh clone has it:
	// the memory file is put back before each run.
	mem := filepath.Join(dir, ".flow", "memory")
	pitfalls := filepath.Join(mem, "pitfalls.md")
	orig, err := os.ReadFile(pitfalls)
	if err != nil {
		return err
	}
	restore := func() error { return os.WriteFile(pitfalls, orig, 0o644) }
	for _, h := range hooks {
		c, err := measureWith(runs, dir, h.bin, h.args, []byte(reviewPayload), restore)
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

func measure(runs int, dir, bin string, args []string, stdin []byte) (result, error) {
	return measureWith(runs, dir, bin, args, stdin, nil)
}

// measureWith runs the command runs times (after one warm-up run), calling
// before ahead of each run outside the timed part.
func measureWith(runs int, dir, bin string, args []string, stdin []byte, before func() error) (result, error) {
	var times []time.Duration
	var peak int64
	for i := 0; i <= runs; i++ {
		if before != nil {
			if err := before(); err != nil {
				return result{}, err
			}
		}
		cmd := exec.Command(bin, args...)
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
			return result{}, fmt.Errorf("%s %s: %v: %s", bin, strings.Join(args, " "), err, errb.String())
		}
		if i == 0 {
			continue // warm-up: page cache, binary loading
		}
		times = append(times, d)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
			peak = ru.Maxrss
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return result{median: times[len(times)/2], peakKB: peak}, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func mb(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "go ?"
	}
	return strings.TrimSpace(string(out)) + fmt.Sprintf(", %d CPUs", numCPU())
}

func numCPU() int {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte("processor\t:"))
}

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
