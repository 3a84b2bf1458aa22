package hookevent

import (
	"io"
	"os"

	"github.com/flowmem/flowmem/internal/regfile"
)

// MaxPersisted bounds how much of a persisted output the hook reads: the
// findings of a review sit in its first megabytes, and the screen and the
// reader stay linear in what is read.
const MaxPersisted = 8 << 20

// ReadRegular reads at most limit bytes of a file such as the one Claude
// Code saved a long output to (persistedOutputPath). The path comes from
// outside, so it is opened as regfile opens such paths: a FIFO or a
// device there would otherwise hang the hook or feed it without end.
func ReadRegular(name string, limit int64) (string, error) {
	f, err := regfile.Open(name, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	return string(b), err
}
