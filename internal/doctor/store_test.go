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
	write(t, path, string(header)+entry("a whole lesson", "")+"\n## 2026-01-11 manual [pitfall] <!-- p-1 -->\n**Issue**: stream with io.Limi")
	rep = Run(context.Background(), opt)
	if c := find(t, rep, "entries whole"); c.Status != Warn || !strings.Contains(c.Detail, "pitfalls.md:") {
		t.Errorf("cut-off append: %+v", c)
	}
}
