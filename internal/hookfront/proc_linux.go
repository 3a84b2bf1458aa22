package hookfront

import "syscall"

// childAttr makes the kernel kill flowmem hook if this process dies first —
// Claude Code kills a hook that overruns its timeout with SIGKILL, which
// leaves no chance to stop the child by hand, and a hook must never leave
// processes behind.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
