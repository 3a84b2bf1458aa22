//go:build quality

package recall

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestPoolsDump writes, one line a request, what the quality report
// counts (hit@5, scout@30 lessons found, nothing for a no-relevant
// request) to the file $POOLS_OUT, so two rankers' answers can be set side
// by side request by request, and recall@5 (an ablation's cost on the blind pool).
func TestPoolsDump(t *testing.T) {
	out := os.Getenv("POOLS_OUT")
	if out == "" {
		t.Skip("POOLS_OUT not set")
	}
	files := FilesOf(t, loadCorpus(t))
	opt := Options{Limit: 10, Now: corpusNow, Floor: StrictFloor}
	scoutOpt := Options{Limit: 30, Now: corpusNow}
	var b strings.Builder
	for _, set := range labelledSets {
		queries := readJSONL[labelledQuery](t, set.labels)
		searches := readJSONL[scoutSearch](t, set.searches)
		for i, q := range queries {
			h, r := share(must(Search(files, []string{q.Query}, opt)), q.Relevant, 5)
			_, s := share(must(Search(files, searches[i].Searches, scoutOpt)), q.Relevant, 30)
			fmt.Fprintf(&b, "%s\t%d\t%.0f\t%.0f\t%.4f\n", set.labels, i, h, s*float64(min(len(q.Relevant), 30)), r)
		}
	}
	for _, name := range []string{"norelevant_dev.jsonl", "norelevant_blind.jsonl", "norelevant_blind2.jsonl", "norelevant_blind3.jsonl", "norelevant_blind4.jsonl", "norelevant_blind5.jsonl", "norelevant_blind6.jsonl", "norelevant_blind7.jsonl", "norelevant_blind8.jsonl", "norelevant_blind9.jsonl"} {
		for i, q := range readJSONL[labelledQuery](t, name) {
			empty := 0
			if must(Prime(files, q.Query, opt)) == "" {
				empty = 1
			}
			fmt.Fprintf(&b, "%s\t%d\t%d\t0\t0\n", name, i, empty)
		}
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
