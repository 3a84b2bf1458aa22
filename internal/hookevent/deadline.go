package hookevent

import (
	"errors"
	"io"
	"os"
	"time"
)

// ErrDeadline means stdin gave no complete event before the hook's
// deadline: some clients open the pipe and never finish writing.
var ErrDeadline = errors.New("no complete JSON object on stdin before the hook's deadline")

// Until bounds reads from in by deadline when in is a file that can block
// (a pipe or terminal: Claude Code's stdin), so a client that never
// completes the event cannot hang the hook. The wait is done in the read
// itself (poll on Unix), with no goroutine left behind. Other readers are
// returned as they are.
func Until(in io.Reader, deadline time.Time) io.Reader {
	if f, ok := in.(*os.File); ok && !deadline.IsZero() {
		return &deadlineReader{f: f, deadline: deadline}
	}
	return in
}

type deadlineReader struct {
	f        *os.File
	deadline time.Time
}

func (r *deadlineReader) Read(p []byte) (int, error) {
	if err := waitReadable(r.f, r.deadline); err != nil {
		return 0, err
	}
	return r.f.Read(p)
}
