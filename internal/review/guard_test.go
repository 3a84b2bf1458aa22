package review

import (
	"strings"
	"testing"
)

// TestUnlinkLeavesReviewsAlone: a review with a few links per paragraph is
// read as it is.
func TestUnlinkLeavesReviewsAlone(t *testing.T) {
	text := "## Findings\n\n1. [`cache.go:40`](src/cache.go#L40) drops the error; see [the docs](https://example.com/x).\n"
	if got := unlink(text); got != text {
		t.Errorf("unlink changed a plain review:\n%s", got)
	}
}

// TestUnlinkEscapesBracketDumps: a block of thousands of unclosed links is
// read as text — the brackets stay in the finding — and the blocks around it
// keep their links.
func TestUnlinkEscapesBracketDumps(t *testing.T) {
	dump := strings.Repeat("[x](y", 3*maxBrackets)
	text := "## Findings\n\n- `parse.go` loops on [bad input](docs/input.md). Return an error.\n\n" + dump + "\n"
	got := unlink(text)
	if !strings.Contains(got, "[bad input](docs/input.md)") {
		t.Errorf("the link of a normal block was escaped:\n%.200s", got)
	}
	if strings.Count(got, `\[x`) != 3*maxBrackets {
		t.Errorf("the dump's brackets were not all escaped")
	}
	fs := Extract(text)
	if len(fs) == 0 || !strings.Contains(fs[0].Problem, "loops on bad input") {
		t.Fatalf("findings %+v", fs)
	}
}
