package flowmem

import (
	"os"
	"os/exec"
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
