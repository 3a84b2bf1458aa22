//go:build !unix

package hookevent

import (
	"os"
	"time"
)

// waitReadable cannot wait with a deadline here; the read blocks as it
// would without one.
func waitReadable(*os.File, time.Time) error { return nil }
