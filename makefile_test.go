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
	t.Parallel()
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
	// A mistyped folder stops it before go install too.
	cmd = exec.Command(mk, "-n", "setup", "PROJECT="+filepath.Join(dir, "missing"))
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no folder "+filepath.Join(dir, "missing")) || strings.Contains(string(out), "go install") {
		t.Errorf("make -n setup PROJECT=<missing>: %v\n%s\nwant an error naming the folder before any go install", err, out)
	}
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
	t.Parallel()
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

// TestMakeBuildIgnoresEnvBindir: a BINDIR in the user's environment does
// not move make build's output; BINDIR= on make's command line does.
func TestMakeBuildIgnoresEnvBindir(t *testing.T) {
	t.Parallel()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	cmd := exec.Command(mk, "-n", "build")
	cmd.Env = append(os.Environ(), "BINDIR=/elsewhere/")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "-o bin/ ") {
		t.Errorf("make -n build with BINDIR in the environment: %v\n%s\nwant -o bin/", err, out)
	}
	if out, err := exec.Command(mk, "-n", "build", "BINDIR=/chosen/").CombinedOutput(); err != nil || !strings.Contains(string(out), "-o /chosen/ ") {
		t.Errorf("make -n build BINDIR=/chosen/: %v\n%s\nwant -o /chosen/", err, out)
	}
}

// TestMakeSetupWarnsOnce: make setup on a machine whose PATH lacks the
// folder go install writes to says so once, with the fix; it said it
// twice (flowmem install's warning, then the Makefile's own note).
func TestMakeSetupWarnsOnce(t *testing.T) {
	t.Parallel()
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

// TestMakeStampsRevision: make build (and install, which make setup runs)
// stamps the checkout's git revision, so flowmem --version, flowmem-hook
// --version and doctor tell two builds of one release apart even where
// GOFLAGS=-buildvcs=false turns the toolchain's own stamp off; outside a
// git checkout it builds without one.
func TestMakeStampsRevision(t *testing.T) {
	t.Parallel()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make on PATH")
	}
	head, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout (or no git): %v", err)
	}
	rev := strings.TrimSpace(string(head))
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GOFLAGS" && k != "BINDIR" && !strings.HasPrefix(k, "MAKE") {
			env = append(env, kv)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command(mk, "--no-print-directory", "build", "BINDIR="+dir+string(filepath.Separator))
	cmd.Env = append(env, "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	want := Version + " (rev " + rev
	for _, prog := range []string{"flowmem", "flowmem-hook"} {
		out, err := exec.Command(filepath.Join(dir, prog), "--version").Output()
		if got := strings.TrimSpace(string(out)); err != nil || !strings.HasPrefix(got, prog+" version "+want) {
			t.Errorf("%s --version = %q (%v), want it to start with %q", prog, got, err, prog+" version "+want)
		}
	}
	doctor := exec.Command(filepath.Join(dir, "flowmem"), "doctor")
	doctor.Dir, doctor.Env = t.TempDir(), env
	out, _ := doctor.Output() // no project there: doctor fails, and still names the build
	if !strings.Contains(string(out), "flowmem "+want) {
		t.Errorf("doctor does not name the revision %s:\n%s", rev, out)
	}

	// A source archive: git finds no repository, nothing is stamped.
	cmd = exec.Command(mk, "-n", "build")
	cmd.Env = append(env, "GIT_DIR="+filepath.Join(dir, "none"))
	out, err = cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "-X") || !strings.Contains(string(out), "go build") {
		t.Errorf("make -n build outside git: %v\n%s\nwant a plain go build", err, out)
	}
}
