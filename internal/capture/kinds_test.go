package capture

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestKindsExamples holds the catalog to its own examples: every "ex"
// line is of its kind, no "no" line is.
//
// FLOWMEM_KINDS_FILE=go.txt checks that file alone, parsed from disk, for
// whoever is writing it while others write theirs.
func TestKindsExamples(t *testing.T) {
	c := kinds()
	if f := os.Getenv("FLOWMEM_KINDS_FILE"); f != "" {
		var err error
		if c, err = parseOneKindFile(f); err != nil {
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
