package capture

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem/internal/mdstore"
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

func (l lesson) entry() mdstore.Entry {
	e := mdstore.Entry{Kind: mdstore.Pitfall, Issue: l.issue, Fix: l.fix, Task: "fn-1.1", Date: "2026-01-10"}
	e.Normalize()
	return e
}

type foldingResult struct {
	paraphrases, folded, wrongEntry int
	nearMisses, falseMerges         int
	hard, hardFolded, hardWrong     int
	// How often the kinds catalog (kinds.go) puts a paraphrase, or a near
	// miss, in a kind of its lesson's.
	kindSame, kindNear int
	misses             []string
}

func (r foldingResult) foldRate() float64 {
	return float64(r.folded) / float64(max(r.paraphrases, 1))
}

func (r foldingResult) falseMergeRate() float64 {
	return float64(r.falseMerges+r.wrongEntry) / float64(max(r.nearMisses+r.paraphrases, 1))
}

func kindsOfEntry(e mdstore.Entry) []int32 { return lessonKinds(&e) }

// evalFolding puts every group's A into one memory, then matches each
// paraphrase (must find its own A) and each near miss (must find nothing).
// A paraphrase folded into another group's entry counts as a false merge.
func evalFolding(groups []recurrenceGroup) foldingResult {
	existing := make([]mdstore.Entry, len(groups))
	for i, g := range groups {
		existing[i] = g.a.entry()
	}
	var m Matcher
	var r foldingResult
	for i, g := range groups {
		ak := kindsOfEntry(existing[i])
		for _, s := range g.same {
			r.paraphrases++
			e := s.entry()
			if sameKinds(ak, kindsOfEntry(e)) {
				r.kindSame++
			}
			switch got := m.Match(existing, &e); {
			case got == i:
				r.folded++
			case got < 0:
				r.misses = append(r.misses, fmt.Sprintf("NOT FOLDED %s: %s", g.name, s.issue))
			default:
				r.wrongEntry++
				r.misses = append(r.misses, fmt.Sprintf("WRONG ENTRY %s -> %s: %s", g.name, groups[got].name, s.issue))
			}
		}
		for _, h := range g.hard {
			r.hard++
			e := h.entry()
			switch got := m.Match(existing, &e); {
			case got == i:
				r.hardFolded++
			case got >= 0:
				r.hardWrong++
				r.misses = append(r.misses, fmt.Sprintf("WRONG ENTRY (hard) %s -> %s: %s", g.name, groups[got].name, h.issue))
			}
		}
		for _, nm := range g.near {
			r.nearMisses++
			e := nm.entry()
			if sameKinds(ak, kindsOfEntry(e)) {
				r.kindNear++
				r.misses = append(r.misses, fmt.Sprintf("SAME KINDS %s: %s", g.name, nm.issue))
			}
			if got := m.Match(existing, &e); got >= 0 {
				r.falseMerges++
				r.misses = append(r.misses, fmt.Sprintf("FALSE MERGE %s -> %s: %s", g.name, groups[got].name, nm.issue))
			}
		}
	}
	return r
}
