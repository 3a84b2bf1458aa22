package app

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/redact"
)

// TestMemoryAddNeverWritesSecrets passes every secret of the corpus through
// every field of memory add, then greps every file under .flow for it:
// TEXT, --fix and --context are redacted; a --task or --category that is
// not a task id or category is refused (it used to be written as given).
// A bare secret as --task is refused when redaction knows its shape; one
// it does not (a hand-made password) is indistinguishable from a task id,
// and is left out of the check.
func TestMemoryAddNeverWritesSecrets(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "capture", "secrets", "corpus.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type secret struct{ kind, secret, text string }
	var corpus []secret
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 || strings.HasPrefix(parts[0], "#") {
			continue
		}
		corpus = append(corpus, secret{parts[0], parts[1], strings.Replace(parts[2], "{}", parts[1], 1)})
	}
	if len(corpus) < 60 {
		t.Fatalf("corpus has %d secrets, want at least 60", len(corpus))
	}
	dir := t.TempDir()
	run := func(args ...string) (int, string) {
		std, _, errb := testIO(dir)
		return Main(context.Background(), append([]string{"flowmem"}, args...), std), errb.String()
	}
	if code, errs := run("init", "--enable"); code != 0 {
		t.Fatal(errs)
	}
	written := 0
	for i, c := range corpus {
		lesson := "Lesson " + strings.Repeat("x", i%7) + " about the deploy script quoting "
		adds := [][]string{
			{"--type", "pitfall", lesson + c.text, "--fix", "load it from the environment"},
			{"--type", "pitfall", lesson + "the fix field", "--fix", c.text},
			{"--type", "convention", lesson + "the context field", "--context", c.text},
			{"--type", "decision", lesson + "the task field", "--task", c.text},
			{"--type", "pitfall", lesson + "the category field", "--category", c.secret},
		}
		if redact.String(c.secret) != c.secret {
			adds = append(adds, []string{"--type", "decision", lesson + "the task field alone", "--task", c.secret})
		}
		for _, args := range adds {
			code, errs := run(append([]string{"memory", "add"}, args...)...)
			if code == 0 {
				written++
			} else if code != exitUsage {
				t.Fatalf("memory add %q: exit %d: %s", args, code, errs)
			}
			if strings.Contains(errs, c.secret) {
				t.Errorf("%s: stderr repeats the secret: %s", c.kind, errs)
			}
		}
	}
	if written < 3*len(corpus) {
		t.Fatalf("only %d adds succeeded; the test proves nothing", written)
	}
	err = filepath.WalkDir(filepath.Join(dir, ".flow"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, c := range corpus {
			if bytes.Contains(b, []byte(c.secret)) {
				t.Errorf("%s secret %q reached %s", c.kind, c.secret, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
