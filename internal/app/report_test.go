package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportWritesOnlyItsOwnFile: memory report --html replaces a page it
// wrote before, never another file (a slip of the path, --html README.md,
// replaced it with HTML) or a folder.
func TestReportWritesOnlyItsOwnFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, stderr := runWithPath(t, dir, "", "init", "--enable"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("# my project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "memory.html")
	for range 2 { // the second run replaces the first one's page
		if code, _, stderr := runWithPath(t, dir, "", "memory", "report", "--html", page); code != 0 {
			t.Fatalf("report: exit %d\n%s", code, stderr)
		}
	}
	for _, tt := range []struct{ file, want string }{
		{readme, "is not a page flowmem wrote"},
		{dir, "is a folder"},
	} {
		code, _, stderr := runWithPath(t, dir, "", "memory", "report", "--html", tt.file)
		if code != exitError || !strings.Contains(stderr, tt.want) {
			t.Errorf("report --html %s: exit %d, stderr %q; want exit 1 and %q", tt.file, code, stderr, tt.want)
		}
	}
	if b, _ := os.ReadFile(readme); string(b) != "# my project\n" {
		t.Errorf("README.md became:\n%.200s", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".*.tmp-*")); len(m) > 0 {
		t.Errorf("temp files left: %v", m)
	}
}
