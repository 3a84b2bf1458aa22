package capture

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flowmem/flowmem/internal/mdstore"
)

// TestKindsExamples holds the catalog to its own examples: every "ex"
// line is of its kind, no "no" line is.
//
// FLOWMEM_KINDS_FILE=go.txt checks that file alone, parsed from disk, for
// whoever is writing it while others write theirs.
func TestKindsExamples(t *testing.T) {
	var c *kindCatalog
	if f := os.Getenv("FLOWMEM_KINDS_FILE"); f != "" {
		var err error
		if c, err = parseOneKindFile(f); err != nil {
			t.Fatal(err)
		}
	} else {
		var err error
		if c, err = parseKinds(kindFiles); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.kinds) == 0 {
		t.Fatal("the catalog is empty")
	}
	for i, k := range c.kinds {
		if k.about == "" || len(k.ex) == 0 {
			t.Errorf("%s: kind %s needs an about line and at least one ex line", k.file, k.name)
		}
		for _, ex := range k.ex {
			if !hasKind(c.kindsOf(ex), int32(i)) {
				t.Errorf("%s: kind %s does not recognise its example %q", k.file, k.name, ex)
			}
		}
		for _, no := range k.no {
			if hasKind(c.kindsOf(no), int32(i)) {
				t.Errorf("%s: kind %s recognises its counter-example %q", k.file, k.name, no)
			}
		}
	}
}

func parseOneKindFile(f string) (*kindCatalog, error) {
	data, err := os.ReadFile("kinds/" + f)
	if err != nil {
		return nil, err
	}
	return parseKinds(fstest.MapFS{"kinds/" + f: {Data: data}})
}

func hasKind(ks []int32, k int32) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// TestKindsTry prints the kinds of the text in FLOWMEM_KINDS_TRY (lines),
// for whoever writes the catalog.
func TestKindsTry(t *testing.T) {
	try := os.Getenv("FLOWMEM_KINDS_TRY")
	if try == "" {
		t.Skip("set FLOWMEM_KINDS_TRY to a text, a line per lesson")
	}
	c := kinds()
	for _, line := range strings.Split(try, "\n") {
		var names []string
		for _, k := range c.kindsOf(line) {
			names = append(names, c.kinds[k].name)
		}
		t.Logf("%q → %v (stems %v)", line, names, kindStems(line, false))
	}
}

func TestParseKindsErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"dup", "== a\nabout: x\nall: bb\n== a\nall: cc\n", "already defined"},
		{"nogroup", "== a\nabout: x\n", "no \"all\" group"},
		{"key", "== a\nwhat: x\n", "unknown key"},
		{"outside", "all: x\n", "inside a kind"},
		{"stop", "== a\nall: the\n", "only stop words"},
		{"star", "== a\nall: ser* data\n", "only its last word"},
	} {
		_, err := parseKinds(fstest.MapFS{"kinds/x.txt": {Data: []byte(tc.text)}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestKindsMatching(t *testing.T) {
	c, err := parseKinds(fstest.MapFS{"kinds/x.txt": {Data: []byte(`
== wrap
about: wrap with %w
all: %w, wrapping verb
all: errors.is, unwrap*
== body
about: close the body
all: resp.Body, response body
all: close*
none: status code
`)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want []int32
	}{
		{"Wrap with %w so errors.Is works", []int32{0}},
		{"the wrapping verb keeps it unwrappable", []int32{0}},
		{"The response bodies are never closed", []int32{1}},
		{"resp.Body is not closed and the status code is unchecked", nil},
		{"close the response", nil},
	} {
		got := c.kindsOf(tc.text)
		if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
			t.Errorf("kindsOf(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// withKinds runs the test with catalog text in place of the embedded one.
func withKinds(t *testing.T, text string) {
	t.Helper()
	c, err := parseKinds(fstest.MapFS{"kinds/x.txt": {Data: []byte(text)}})
	if err != nil {
		t.Fatal(err)
	}
	c.buildMasks()
	old := kinds
	kinds = func() *kindCatalog { return c }
	t.Cleanup(func() { kinds = old })
}

// TestMatcherKinds: a rewording of the same kind folds although it shares
// too few words for the prefilter; a near miss of a sibling kind that
// shares the opening words stays apart; without the catalog the rewording
// is missed, as before kinds.
func TestMatcherKinds(t *testing.T) {
	memory := []mdstore.Entry{
		entry("Goroutines launched inside the for loop capture the loop variable item, so they all see the last element", "Pass item to the closure as an argument before launching"),
		entry("The HTTP response body is never closed, leaking connections", "Defer resp.Body.Close() after the error check"),
	}
	// The rewording and the sibling share about as many words with the
	// first entry (word scores 0.29 and 0.29): only the kinds tell them
	// apart.
	reworded := entry("The goroutines started in the for loop all read the loop variable job, so every worker handles the final job", "Copy job into a local before launching")
	sibling := entry("Goroutines launched inside the for loop are never waited on, so results are lost", "Track them with a sync.WaitGroup and Wait before returning")
	const catalog = `
== loopvar
about: a goroutine in a loop captures the loop variable
all: goroutine, closure
all: loop variable, range variable
none: waitgroup
ex: goroutines capture the loop variable
== unwaited
about: goroutines never waited on
all: goroutine
all: waitgroup, errgroup, waited
ex: goroutines never waited on with a WaitGroup
`
	withKinds(t, "== none\nabout: x\nall: zzzz\n")
	var plain Matcher
	if got := plain.Match(memory, &reworded); got != -1 {
		t.Fatalf("without kinds the rewording folds into %d; the test needs one the words miss", got)
	}
	if got := plain.Match(memory, &sibling); got != -1 {
		t.Fatalf("without kinds the sibling folds into %d", got)
	}

	withKinds(t, catalog)
	// The mechanism, at a bonus the rewording needs (the constants are
	// tuned on the labelled sets, TestQualityFolding).
	ob := kindBonus
	kindBonus = 0.35
	t.Cleanup(func() { kindBonus = ob })
	var m Matcher
	if got := m.Match(memory, &reworded); got != 0 {
		t.Errorf("a rewording of the same kind: Match = %d, want 0", got)
	}
	if got := m.Match(memory, &sibling); got != -1 {
		t.Errorf("a near miss of another kind: Match = %d, want -1", got)
	}
	archived := slices.Clone(memory)
	archived[0].Status = mdstore.Archived
	var a Matcher
	if got := a.Match(archived, &reworded); got != -1 {
		t.Errorf("an archived entry of the kind: Match = %d, want -1", got)
	}
}

// FuzzKinds: any review text — invalid UTF-8, identifiers, literals cut
// in half — gets its kinds without a panic, sorted, once each, the same
// every time.
func FuzzKinds(f *testing.F) {
	c := kinds()
	for _, k := range c.kinds {
		for _, ex := range k.ex {
			f.Add(ex)
		}
	}
	f.Add("resp.Body.Close() %w := \xff\xfe ser* x")
	f.Fuzz(func(t *testing.T, text string) {
		got := c.kindsOf(text)
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Fatalf("kinds %v: not sorted and distinct", got)
			}
		}
		if again := c.kindsOf(text); !slices.Equal(got, again) {
			t.Fatalf("kinds %v, then %v", got, again)
		}
	})
}
