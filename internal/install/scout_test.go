package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowmem/flowmem"
)

// earlierScoutFiles are copies of memory-scout.md that earlier flowmem
// versions installed, kept in testdata/ as memory-scout.<commit>.md.
func earlierScoutFiles(t *testing.T) [][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "memory-scout.*.md"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no earlier scouts in testdata/ (%v)", err)
	}
	var out [][]byte
	for _, n := range names {
		out = append(out, read(t, n))
	}
	return out
}

// TestScoutHistory keeps earlierScouts in step with the scout: the copy
// this flowmem embeds is not listed as an earlier one, and every earlier
// copy kept in testdata/ is.
func TestScoutHistory(t *testing.T) {
	sum := sha256.Sum256(flowmem.ScoutAgent)
	if earlierScouts[hex.EncodeToString(sum[:])] {
		t.Error("the embedded scout is listed in earlierScouts")
	}
	for _, b := range earlierScoutFiles(t) {
		if got := Scout.version(b); got != "outdated" {
			t.Errorf("an earlier scout is %q, want outdated: add its sum to earlierScouts", got)
		}
	}
	if len(earlierScouts) != len(earlierScoutFiles(t)) {
		t.Errorf("%d sums in earlierScouts, %d copies in testdata/: keep one copy per sum", len(earlierScouts), len(earlierScoutFiles(t)))
	}
}

// An unedited scout from an earlier flowmem is flowmem's own file: install
// brings it up to date and uninstall removes it, both without --force.
func TestOutdatedScoutIsUpdated(t *testing.T) {
	for _, old := range earlierScoutFiles(t) {
		dir := t.TempDir()
		scout := filepath.Join(dir, ".claude", "agents", "memory-scout.md")
		if err := os.MkdirAll(filepath.Dir(scout), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(scout, old, 0o644); err != nil {
			t.Fatal(err)
		}
		if st, err := Scout.State(scout); err != nil || st != "outdated" {
			t.Fatalf("ScoutState = %q, %v; want outdated", st, err)
		}
		res, err := Run(opts(dir))
		if err != nil {
			t.Fatal(err)
		}
		if res.Scout.Action != "updated" || !bytes.Equal(read(t, scout), flowmem.ScoutAgent) {
			t.Errorf("install over an earlier scout: %+v", *res.Scout)
		}

		if err := os.WriteFile(scout, old, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err = Uninstall(opts(dir))
		if err != nil {
			t.Fatal(err)
		}
		if res.Scout.Action != "removed" || exists(scout) {
			t.Errorf("uninstall of an earlier scout: %+v", *res.Scout)
		}

		// One changed byte makes it the user's file again.
		edited := append(bytes.Clone(old), '\n')
		if err := os.MkdirAll(filepath.Dir(scout), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(scout, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		if res, err = Run(opts(dir)); err != nil || res.Scout.Action != "kept" {
			t.Errorf("install over an edited earlier scout: %+v %v", res.Scout, err)
		}
	}
}

// TestScoutHistoryFromGit reads every committed version of
// agents/memory-scout.md from the repository's history: each one that is
// not the embedded copy must have its copy in testdata/ (and so its sum in
// earlierScouts), or users who installed it would be told their unedited
// file is theirs. TestScoutHistory alone cannot see a version nobody kept.
func TestScoutHistoryFromGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	root := filepath.Join("..", "..")
	out, err := exec.Command(git, "-C", root, "log", "--format=%H", "--", "agents/memory-scout.md").Output()
	if err != nil {
		t.Skipf("no git history here: %v", err)
	}
	if shallow, _ := exec.Command(git, "-C", root, "rev-parse", "--is-shallow-repository").Output(); strings.TrimSpace(string(shallow)) == "true" {
		t.Skip("shallow clone: earlier versions are not all here")
	}
	commits := strings.Fields(string(out))
	if len(commits) == 0 {
		t.Skip("agents/memory-scout.md has no history here (not a git checkout?)")
	}
	for _, c := range commits {
		b, err := exec.Command(git, "-C", root, "show", c+":agents/memory-scout.md").Output()
		if err != nil {
			t.Fatalf("git show %s: %v", c[:7], err)
		}
		if bytes.Equal(b, flowmem.ScoutAgent) {
			continue
		}
		if got := Scout.version(b); got != "outdated" {
			t.Errorf("the scout of %s is %q to install, want outdated: save it as testdata/memory-scout.%s.md and add its sum to earlierScouts", c[:7], got, c[:7])
		}
	}
}

// TestCuratorHistory: the embedded curator is not an earlier copy, and
// every earlier copy kept in testdata/ reads as outdated, not as a
// person's edit.
func TestCuratorHistory(t *testing.T) {
	sum := sha256.Sum256(flowmem.CuratorAgent)
	if earlierCurators[hex.EncodeToString(sum[:])] {
		t.Error("the embedded curator is listed in earlierCurators")
	}
	names, err := filepath.Glob(filepath.Join("testdata", "memory-curator.*.md"))
	if err != nil || len(names) != len(earlierCurators) {
		t.Fatalf("%d earlier curators in testdata/, %d sums in earlierCurators (%v): keep one copy per sum", len(names), len(earlierCurators), err)
	}
	for _, n := range names {
		if got := Curator.version(read(t, n)); got != "outdated" {
			t.Errorf("%s is %q, want outdated: add its sum to earlierCurators", n, got)
		}
	}
}
