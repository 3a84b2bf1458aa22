package capture

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recurrenceGroup is one lesson in memory (A), its paraphrases (S) and near
// misses (N), from testdata/capture/recurrence.
type recurrenceGroup struct {
	name       string
	a          lesson
	same, near []lesson
	hard       []lesson // heavy rewrites: reported, not held to the target
}

type lesson struct{ issue, fix string }

func loadRecurrenceCorpus(t testing.TB, name string) []recurrenceGroup {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "capture", "recurrence", name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var groups []recurrenceGroup
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, ok := strings.CutPrefix(line, "== "); ok {
			groups = append(groups, recurrenceGroup{name: name})
			continue
		}
		if len(groups) == 0 || len(line) < 3 || line[1] != ':' {
			t.Fatalf("%s:%d: expected '== name' or 'A:|S:|H:|N: issue | fix'", name, n)
		}
		// The last " | " separates issue from fix: an issue may quote a
		// shell pipeline.
		body := strings.TrimSpace(line[2:])
		cut := strings.LastIndex(body, " | ")
		if cut < 0 {
			t.Fatalf("%s:%d: lesson needs 'issue | fix'", name, n)
		}
		l := lesson{strings.TrimSpace(body[:cut]), strings.TrimSpace(body[cut+3:])}
		g := &groups[len(groups)-1]
		switch line[0] {
		case 'A':
			g.a = l
		case 'S':
			g.same = append(g.same, l)
		case 'N':
			g.near = append(g.near, l)
		case 'H':
			g.hard = append(g.hard, l)
		default:
			t.Fatalf("%s:%d: unknown label %q", name, n, line[:1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return groups
}
