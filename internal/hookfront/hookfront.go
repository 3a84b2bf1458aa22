// Package hookfront is the flowmem-hook program: the capture hook's front
// end. Claude Code starts the hook after every Bash and Agent call, and for
// a short-lived Go process most of the cost is starting up — loading the
// binary and initialising its packages (the markdown parser alone takes
// longer than deciding that an event is not a review). So the decision is
// made in this small program, which links only the payload decoder and the
// screen (internal/hookevent); the rare event that may hold a review is
// handed, byte for byte, to `flowmem hook` in the full binary, which makes
// the same decision again and records what it finds.
package hookfront

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/flowmem/flowmem"
	"github.com/flowmem/flowmem/internal/hookevent"
)

// Defaults for Options.
const (
	// DefaultRunTimeout bounds the whole run, stdin read and hand-over to
	// flowmem hook included, under the 10 s timeout flowmem install sets, so
	// the front end ends its child itself rather than being killed with it
	// running. flowmem hook's own deadline is shorter, so the child ends
	// first and this one only catches a child that hangs.
	DefaultRunTimeout = 9 * time.Second
)

// Options are the program's inputs. Zero values mean the process's own.
type Options struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Exe is this program's path: reviews go to the flowmem binary beside
	// it, else to flowmem on PATH. "" means os.Executable.
	Exe        string
	RunTimeout time.Duration
}

const usage = `flowmem-hook: flowmem's Claude Code capture hook, in a small binary.

Reads one PostToolUse or PostToolUseFailure event (JSON) from stdin. Events
that cannot be a review (most tool calls) end here at once; the others are
handed unchanged to 'flowmem hook', found beside this program or on PATH,
which records the lessons of a NEEDS_WORK review. It behaves as
'flowmem hook' does: arguments are ignored, FLOWMEM_DISABLE=1 turns it off,
errors are one line on stderr, and the exit code is always 0.

Example (what flowmem install writes into .claude/settings.json; --local
and --user write this program's absolute path instead):
   {"hooks": {"PostToolUse": [{"matcher": "Bash|Agent",
     "hooks": [{"type": "command", "command": "flowmem-hook", "timeout": 10}]}]}}
`

// Main runs the program and returns its exit code, which is always 0: exit
// 2 would make Claude Code show the model an error, and any other code
// an error notice to the user.
func Main(ctx context.Context, args []string, o Options) (code int) {
	o.defaults()
	defer func() {
		// A crash must not become exit 2, which Claude Code shows the
		// model as a hook error.
		if r := recover(); r != nil {
			fmt.Fprintf(o.Stderr, "flowmem-hook: internal error: %s\n", oneLine(fmt.Sprint(r)))
			code = 0
		}
	}()
	if len(args) > 1 {
		switch args[1] {
		case "--version", "-v", "version":
			fmt.Fprintln(o.Stdout, "flowmem-hook version", flowmem.BuildVersion())
			return 0
		case "--help", "-h", "help":
			fmt.Fprint(o.Stdout, usage)
			return 0
		}
	}
	if err := run(ctx, o); err != nil {
		fmt.Fprintf(o.Stderr, "flowmem-hook: %s\n", oneLine(err.Error()))
	}
	return 0
}

func (o *Options) defaults() {
	o.Stdin = cmp.Or(o.Stdin, io.Reader(os.Stdin))
	o.Stdout = cmp.Or(o.Stdout, io.Writer(os.Stdout))
	o.Stderr = cmp.Or(o.Stderr, io.Writer(os.Stderr))
	o.RunTimeout = cmp.Or(max(o.RunTimeout, 0), DefaultRunTimeout)
}

func run(ctx context.Context, o Options) error {
	// The run timeout counts from the start, stdin read included, so the
	// whole hook ends before Claude Code's own timeout does.
	deadline := time.Now().Add(o.RunTimeout)
	// The event is read (one JSON object, not up to an EOF that may never
	// come) even when the hook is off: Claude Code or Codex writing it to a
	// hook that already exited gets EPIPE, which Codex shows as a failed
	// hook on every tool call.
	p, err := hookevent.Decode(hookevent.Until(o.Stdin, deadline))
	if hookevent.Disabled(os.Getenv("FLOWMEM_DISABLE")) {
		return nil
	}
	if err != nil {
		return err
	}
	c, skip := hookevent.Screen(p)
	if skip != "" {
		return nil
	}
	if c.Persisted && !c.Named {
		// A long output of an ordinary command: its verdict, if any, is in
		// the file Claude Code saved it to. Reading it here is cheaper than
		// starting flowmem for every long build log.
		full, err := hookevent.ReadRegular(p.PersistedOutputPath(), hookevent.MaxPersisted)
		if err != nil || !hookevent.VerdictHint(full) {
			return nil
		}
	}
	bin, err := o.flowmem()
	if err != nil {
		return fmt.Errorf("a possible review was not recorded: %w", err)
	}
	// Claude Code stops a hook with SIGTERM (or the user with ^C); the child
	// goes with it.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "hook")
	// flowmem hook gets the event exactly as Claude Code sent it.
	cmd.Stdin = bytes.NewReader(p.Raw())
	cmd.Stdout = o.Stdout
	cmd.Stderr = o.Stderr
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = childAttr()
	// The child is tied to this thread where the OS supports it (see
	// childAttr), so the thread must outlive it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Run()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s hook did not finish within %v; it was stopped", bin, o.RunTimeout)
	case ctx.Err() != nil:
		return fmt.Errorf("stopped while %s hook was running", bin)
	case errors.As(err, new(*exec.ExitError)):
		// flowmem hook always exits 0; anything else was reported on stderr
		// by it, or is a crash that is.
		return nil
	case err != nil:
		return fmt.Errorf("run %s hook: %w", bin, err)
	}
	return nil
}

// flowmem finds the full binary: the one installed beside this program
// first, so a hook keeps running the flowmem it was installed with, then
// the one on PATH.
func (o Options) flowmem() (string, error) {
	exe := o.Exe
	if exe == "" {
		exe, _ = os.Executable()
	}
	if exe != "" {
		// LookPath of a path checks that it is an executable file (on
		// Windows, with the usual extensions).
		if p, err := exec.LookPath(filepath.Join(filepath.Dir(exe), "flowmem")); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("flowmem"); err == nil {
		return p, nil
	}
	return "", errors.New("flowmem not found beside flowmem-hook or on PATH; install both (make install)")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
