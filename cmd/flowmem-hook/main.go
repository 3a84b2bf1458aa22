// Command flowmem-hook is flowmem's capture hook in a small binary that
// starts fast; see internal/hookfront. main only wires the process.
package main

import (
	"context"
	"os"

	"github.com/flowmem/flowmem/internal/hookfront"
)

// Signals are handled inside hookfront, and only while it runs flowmem hook:
// setting up signal delivery at start would cost every tool call.
func main() {
	os.Exit(hookfront.Main(context.Background(), os.Args, hookfront.Options{}))
}
