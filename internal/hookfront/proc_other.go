//go:build !linux

package hookfront

import "syscall"

// childAttr: elsewhere the run timeout is the only bound on the child.
func childAttr() *syscall.SysProcAttr { return nil }
