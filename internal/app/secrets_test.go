package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/redact"
	"github.com/flowmem/flowmem/internal/redact/secrettest"
)

// TestMemoryAddNeverWritesSecrets passes every secret of the corpus through
// every field of memory add, then greps every file under .flow for it:
// TEXT, --fix and --context are redacted; a --task or --category that is
// not a task id or category is refused (it used to be written as given).
// A bare secret as --task is refused when redaction knows its shape; one
// it does not (a hand-made password) is indistinguishable from a task id,
// and is left out of the check.
func TestMemoryAddNeverWritesSecrets(t *testing.T) {
	t.Parallel()
	corpus := secrettest.Corpus(t)
	if len(corpus) < 60 {
		t.Fatalf("corpus has %d secrets, want at least 60", len(corpus))
	}
	// Stores of a few secrets each, checked at once: every add reads its
	// store, so one store of them all costs the square of the corpus.
	const chunk = 8
	for start := 0; start < len(corpus); start += chunk {
		part := corpus[start:min(start+chunk, len(corpus))]
		t.Run(fmt.Sprintf("secrets %d-%d", start, start+len(part)-1), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			run := func(args ...string) (int, string) {
				std, _, errb := testIO(dir)
				return Main(context.Background(), append([]string{"flowmem"}, args...), std), errb.String()
			}
			if code, errs := run("init", "--enable"); code != 0 {
				t.Fatal(errs)
			}
			written := 0
			for i, c := range part {
				lesson := "Lesson " + strings.Repeat("x", (start+i)%7) + " about the deploy script quoting "
				adds := [][]string{
					{"--type", "pitfall", lesson + c.Text, "--fix", "load it from the environment"},
					{"--type", "pitfall", lesson + "the fix field", "--fix", c.Text},
					{"--type", "convention", lesson + "the context field", "--context", c.Text},
					{"--type", "decision", lesson + "the task field", "--task", c.Text},
					{"--type", "pitfall", lesson + "the category field", "--category", c.Secret},
				}
				if redact.String(c.Secret) != c.Secret {
					adds = append(adds, []string{"--type", "decision", lesson + "the task field alone", "--task", c.Secret})
				}
				for _, args := range adds {
					code, errs := run(append([]string{"memory", "add"}, args...)...)
					if code == 0 {
						written++
					} else if code != exitUsage {
						t.Fatalf("memory add %q: exit %d: %s", args, code, errs)
					}
					if strings.Contains(errs, c.Secret) {
						t.Errorf("%s: stderr repeats the secret: %s", c.Kind, errs)
					}
				}
			}
			if written < 3*len(part) {
				t.Fatalf("only %d adds succeeded; the test proves nothing", written)
			}
			secrettest.Absent(t, filepath.Join(dir, ".flow"), corpus)
		})
	}
}
