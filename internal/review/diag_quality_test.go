//go:build quality

package review

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestQualityCauses prints, for the splits named in FLOWMEM_QUALITY_CAUSES
// (folder names, comma-separated; default the five sets first seen in
// rounds 6 to 8), how many misses and false keeps fall in each cause class, and
// the classes of the misses of reviews that yield nothing. Rules are
// chosen from the classes, not from single cases.
func TestQualityCauses(t *testing.T) {
	dirs := os.Getenv("FLOWMEM_QUALITY_CAUSES")
	if dirs == "" {
		dirs = "blind6,blind7,blind8,blind9,blind10"
	}
	all := map[string]int{}
	zero := map[string]int{}
	for _, d := range strings.Split(dirs, ",") {
		if d == "blind11" {
			t.Fatal("blind11 is scored once by the coordinator, never explained")
		}
		s := scoreSplit(t, filepath.Join("..", "..", "testdata", "review", "real", d), false)
		for _, c := range s.causes {
			k := c.class
			if c.reason != "" {
				k += " — " + c.reason
			}
			all[k]++
			if c.zeroYield {
				zero[k]++
			}
			if os.Getenv("FLOWMEM_QUALITY_CAUSES_LIST") == "1" {
				t.Logf("%s %s: %s %s", d, c.review, k, c.detail)
			}
		}
	}
	show := func(title string, m map[string]int) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "\n  %4d  %s", m[k], k)
		}
		t.Logf("%s (%s):%s", title, dirs, b.String())
	}
	show("misses and false keeps by cause", all)
	show("misses of zero-yield reviews by cause", zero)
}

// TestQualitySummary prints one line per development split and the
// pooled figures of the old development splits and of blind6..10 (the
// five sets first seen in rounds 6 to 8, the generalization check).
// FLOWMEM_QUALITY_DUMP=file writes every extracted finding of a
// change-requesting review with its label status, for feature
// distributions.
func TestQualitySummary(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "review", "real")
	old := []string{"dev", "blind", "blind2", "blind3", "blind4", "blind5"}
	fresh := []string{"blind6", "blind7", "blind8", "blind9", "blind10"}
	line := func(name string, ss ...*score) {
		var p score
		zero := 0
		for _, s := range ss {
			p.tp += s.tp
			p.fp += s.fp
			p.learnable += s.learnable
			p.catOK += s.catOK
			p.verdictOK += s.verdictOK
			p.reviews += s.reviews
			zero += len(s.zeroYield)
		}
		pr, rc := p.precision(), p.recall()
		t.Logf("%-10s P %.3f (%3d/%3d) R %.3f (%3d/%3d) F1 %.3f cat %.3f (%3d) verdict %.3f zero %d",
			name, pr, p.tp, p.tp+p.fp, rc, p.tp, p.learnable, 2*pr*rc/(pr+rc), p.catAcc(), p.catOK, p.verdictAcc(), zero)
	}
	var olds, freshs, olds2, freshs2 []*score
	for _, d := range append(append([]string{}, old...), fresh...) {
		s := scoreSplit(t, filepath.Join(root, d), false)
		s2 := scoreLabels(t, filepath.Join(root, d), "*.labels2.json", false)
		line(d, s)
		if slices.Contains(fresh, d) {
			freshs, freshs2 = append(freshs, s), append(freshs2, s2)
		} else {
			olds, olds2 = append(olds, s), append(olds2, s2)
		}
	}
	if out := os.Getenv("FLOWMEM_QUALITY_DUMP"); out != "" {
		// Every extracted finding of a change-requesting review with its
		// label status, one JSON line each, for feature distributions.
		var b strings.Builder
		for _, s := range append(append([]*score{}, olds...), freshs...) {
			for _, r := range s.records {
				j, _ := json.Marshal(r)
				b.Write(j)
				b.WriteByte('\n')
			}
		}
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line("OLD-DEV", olds...)
	line("BLIND6-10", freshs...)
	// The same reviews against the second annotator's labels.
	line("OLD-DEV a2", olds2...)
	line("BLIND6-10 a2", freshs2...)
}
