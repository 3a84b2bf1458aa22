package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntriesWhole: doctor fails an entry that a merge interleaved with
// another (the old format's shared heading line taken as common context:
// one heading, two lessons' lines) and warns about an append cut off before
// its newline, saying what to do for each.
func TestEntriesWhole(t *testing.T) {
	opt, proj := setup(t)
	path := filepath.Join(proj, ".flow", "memory", "pitfalls.md")
	header, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), opt)
	if c := find(t, rep, "entries whole"); c.Status != OK {
		t.Fatalf("fresh store: %+v", c)
	}
	interleaved := string(header) + `
## 2026-01-10 manual [pitfall]
<!-- flowmem: id=p-aaaaaaaaaaaa seen=1 last=2026-01-10 status=active -->
**Issue**: the first lesson
<!-- flowmem: id=p-bbbbbbbbbbbb seen=1 last=2026-01-10 status=active -->
**Issue**: the second lesson
`
	write(t, path, interleaved)
	rep = Run(context.Background(), opt)
	if c := find(t, rep, "entries whole"); c.Status != Fail || !strings.Contains(c.Detail, "pitfalls.md:") || !strings.Contains(c.Detail, "p-bbbbbbbbbbbb") || c.Fix == "" {
		t.Errorf("interleaved entry: %+v", c)
	}
	// One clone reworded a lesson by hand while another archived it: the
	// union keeps both sides of the two neighbouring lines, one lesson in
	// two wordings, and the fix is to keep one, not to split it in two.
	reworded := string(header) + `
## 2026-01-10 fn-1.1 manual [pitfall] <!-- p-7fb13bc27201 -->
<!-- flowmem: id=p-7fb13bc27201 fp=ce87d3f26e8a seen=1 last=2026-01-10 tasks=fn-1.1 status=archived n=089b8ed2 -->
**Issue**: The cache key ignores the tenant id
<!-- flowmem: id=p-7fb13bc27201 fp=ce87d3f26e8a seen=1 last=2026-01-10 tasks=fn-1.1 status=active n=089b8ed2 -->
**Issue**: The cache key ignores the tenant id and the region
`
	write(t, path, reworded)
	rep = Run(context.Background(), opt)
	if c := find(t, rep, "entries whole"); c.Status != Fail || !strings.Contains(c.Detail, "two wordings") || !strings.Contains(c.Fix, "delete the **Issue** line you do not want") || strings.Contains(c.Fix, "heading of their own") {
		t.Errorf("one lesson in two wordings: %+v", c)
	}
	write(t, path, string(header)+entry("a whole lesson", "")+"\n## 2026-01-11 manual [pitfall] <!-- p-1 -->\n**Issue**: stream with io.Limi")
	rep = Run(context.Background(), opt)
	if c := find(t, rep, "entries whole"); c.Status != Warn || !strings.Contains(c.Detail, "pitfalls.md:") {
		t.Errorf("cut-off append: %+v", c)
	}
}
