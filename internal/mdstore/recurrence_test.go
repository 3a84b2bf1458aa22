package mdstore

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecurrenceCorpus holds Record's repeat test to the labelled lesson
// pairs of testdata/capture/recurrence: with every group's lesson (A) in
// memory, a near miss (N: another lesson sharing words, files or names)
// must never be taken for a repeat, since a false merge hides a lesson.
// How many paraphrases (S) fold is logged, not held: the hook folds exact
// and lightly reworded repeats only, and curation joins the rest.
func TestRecurrenceCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "capture", "recurrence", "*.txt"))
	if len(files) == 0 {
		t.Skip("no recurrence corpus")
	}
	type lesson struct{ issue, fix string }
	type group struct {
		a          lesson
		same, near []lesson
	}
	var groups []group
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, "== ") {
				groups = append(groups, group{})
				continue
			}
			if len(groups) == 0 || len(line) < 3 || line[1] != ':' || !strings.Contains(line, " | ") {
				continue
			}
			body := strings.TrimSpace(line[2:])
			cut := strings.LastIndex(body, " | ")
			l := lesson{body[:cut], body[cut+3:]}
			g := &groups[len(groups)-1]
			switch line[0] {
			case 'A':
				g.a = l
			case 'S':
				g.same = append(g.same, l)
			case 'N':
				g.near = append(g.near, l)
			}
		}
		fh.Close()
	}
	s := Open(t.TempDir())
	ctx := context.Background()
	day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	var memory []Entry
	isA := map[string]bool{}
	for _, g := range groups {
		if g.a.issue != "" {
			memory = append(memory, Entry{Issue: g.a.issue, Fix: g.a.fix})
			isA[OneLine(g.a.issue)] = true
		}
	}
	if _, err := s.Record(ctx, Pitfall, memory, day); err != nil {
		t.Fatal(err)
	}
	folded, paraphrases, near, falseMerges := 0, 0, 0, 0
	for _, g := range groups {
		for _, l := range g.near {
			near++
			out, err := s.Record(ctx, Pitfall, []Entry{{Issue: l.issue, Fix: l.fix}}, day)
			if err != nil {
				t.Fatal(err)
			}
			// The same near miss written for two groups is a repeat of
			// itself; only a fold into a lesson it differs from counts.
			if !out[0].New && isA[out[0].Entry.Issue] {
				falseMerges++
				t.Errorf("near miss taken for a repeat of %q: %q", out[0].Entry.Issue, l.issue)
			}
		}
		for _, l := range g.same {
			paraphrases++
			out, err := s.Record(ctx, Pitfall, []Entry{{Issue: l.issue, Fix: l.fix}}, day)
			if err != nil {
				t.Fatal(err)
			}
			if !out[0].New {
				folded++
			}
		}
	}
	t.Logf("%d groups: %d of %d near misses taken for repeats; %d of %d paraphrases folded", len(groups), falseMerges, near, folded, paraphrases)
	if near < 400 {
		t.Errorf("only %d near misses read", near)
	}
}
