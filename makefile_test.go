package flowmem

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeSetupNeedsProject: `make setup` without PROJECT= stops with a
// clear error before installing anything (it used to set flowmem up in
// its own checkout); with it, it plans the install and the init there.
func TestMakeSetupNeedsProject(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "PROJECT" && !strings.HasPrefix(k, "MAKE") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(mk, "-n", "setup") // -n: print the recipe, run nothing
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "make setup PROJECT=") || strings.Contains(string(out), "go install") {
		t.Errorf("make -n setup without PROJECT: %v\n%s\nwant an error naming PROJECT= before any go install", err, out)
	}
	// make -C path/to/flowmem setup PROJECT=. reads "." in the checkout.
	for _, self := range []string{".", "./"} {
		cmd = exec.Command(mk, "-n", "setup", "PROJECT="+self)
		cmd.Env = env
		out, err = cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "flowmem's own checkout") || strings.Contains(string(out), "go install") {
			t.Errorf("make -n setup PROJECT=%s: %v\n%s\nwant an error: that is flowmem's own checkout", self, err, out)
		}
	}
	dir := t.TempDir()
	cmd = exec.Command(mk, "-n", "setup", "PROJECT="+dir)
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `cd "`+dir+`"`) || !strings.Contains(string(out), "init --enable --install") {
		t.Errorf("make -n setup PROJECT=%s: %v\n%s", dir, err, out)
	}
}

// TestMakeBuildsWithoutDocs: make build and make install (and so make
// setup) build with urfave/cli's urfave_cli_no_docs tag, which spares every
// flowmem process the start-up of a man-page generator it never uses.
func TestMakeBuildsWithoutDocs(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	for _, target := range []string{"build", "install"} {
		out, err := exec.Command(mk, "-n", target).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "-tags 'urfave_cli_no_docs'") {
			t.Errorf("make -n %s: %v\n%s\nwant -tags 'urfave_cli_no_docs'", target, err, out)
		}
	}
}

// TestMakeSetupWarnsOnce: make setup on a machine whose PATH lacks the
// folder go install writes to says so once, with the fix; it said it
// twice (flowmem install's warning, then the Makefile's own note).
func TestMakeSetupWarnsOnce(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	root := t.TempDir()
	bin, project := filepath.Join(root, "bin"), filepath.Join(root, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "HOME=" + filepath.Join(root, "home"), "GOBIN=" + bin, "GOFLAGS=" + os.Getenv("GOFLAGS")}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command(goBin, "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+strings.TrimSpace(string(out)))
	}
	cmd := exec.Command(mk, "--no-print-directory", "setup", "PROJECT="+project)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make setup: %v\n%s", err, out)
	}
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "PATH") && strings.Contains(l, bin) {
			n++
		}
	}
	if n != 1 || !strings.Contains(string(out), `export PATH="`+bin+`:$PATH"`) {
		t.Errorf("make setup with %s off PATH says how to put it on PATH %d times, want once:\n%s", bin, n, out)
	}
}
