// Command flowmem-hook is flowmem's capture hook in a small binary that
// starts fast; see internal/hookfront. main only wires the process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/flowmem/flowmem/internal/hookfront"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := hookfront.Main(ctx, os.Args, hookfront.Options{})
	stop()
	os.Exit(code)
}
