// Command flowmem gives coding agents a project memory that learns from code
// review. All behaviour lives in internal/app; main only wires the process.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/flowmem/flowmem/internal/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := app.Main(ctx, os.Args, app.SystemIO())
	stop()
	os.Exit(code)
}
