package capture

import (
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
		{"near miss", "The container is started as root and files created by the setup step are owned by root, so `docker exec --user agent` cannot write them", "chown the fixtures to agent in the setup step", -1},
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

// TestPrefilterKeepsMatches: the signature prefilter must never drop a
// paraphrase (S or H line) that the full score would fold into its lesson,
// on any corpus. (Dropping a near miss is fine.) The memory behind the
// prefilter's word weights is the corpus's lessons among 2,000 generated
// entries, as in a project with a large memory.
func TestPrefilterKeepsMatches(t *testing.T) {
	checked := 0
	for _, name := range []string{"corpus.txt", "reviews.txt", "holdout.txt"} {
		groups := loadRecurrenceCorpus(t, name)
		memory := generatedEntries(2000)
		first := len(memory)
		for _, g := range groups {
			memory = append(memory, g.a.entry())
		}
		var m Matcher
		m.signatures(memory)
		for gi, g := range groups {
			fa := featuresOf(g.a.issue, g.a.fix)
			for _, l := range append(append([]lesson{g.a}, g.same...), g.hard...) {
				fl := featuresOf(l.issue, l.fix)
				if score(&fl, &fa) < foldThreshold {
					continue
				}
				checked++
				pf := m.prefilter(keySignature(l.issue, l.fix))
				if !pf.candidate(&m.cache[first+gi].sig) {
					t.Errorf("%s: prefilter drops a pair scoring %.2f:\n  %s\n  %s", name, score(&fl, &fa), l.issue, g.a.issue)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d folding pairs checked", checked)
	}
}

// TestBitCounter: the bit-sliced counts equal one increment per set bit.
func TestBitCounter(t *testing.T) {
	var want, got [512]int32
	var a bitCounter
	for i, e := range generatedEntries(3000) {
		sig := signatureOf(e.Text(), e.Fix)
		if i%7 == 0 {
			sig = signature{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
		sig.forEach(func(bit int) { want[bit]++ })
		a.add(&sig)
	}
	a.flushInto(&got)
	if got != want {
		t.Errorf("bit counts differ:\n got %v\nwant %v", got[:16], want[:16])
	}
}
