//go:build unix

package hookevent

import (
	"errors"
	"math"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// waitReadable waits until f has data (or end of file) or the deadline
// passes. A file that cannot be polled is read as it is.
func waitReadable(f *os.File, deadline time.Time) error {
	fd := int32(f.Fd())
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return ErrDeadline
		}
		ms := int(min(left.Milliseconds()+1, math.MaxInt32))
		fds := []unix.PollFd{{Fd: fd, Events: unix.POLLIN}}
		n, err := unix.Poll(fds, ms)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return nil
		case n > 0:
			return nil
		}
	}
}
