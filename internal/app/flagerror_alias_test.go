package app

import (
	"errors"
	"testing"

	"github.com/urfave/cli/v2"
)

// flagError's suggestion looks at the help flag too, without writing it
// into spare room of the command's own flag slice, which the command
// (and any slice sharing its array) still holds.
func TestFlagErrorLeavesFlagsAlone(t *testing.T) {
	flags := make([]cli.Flag, 1, 2)
	flags[0] = &cli.BoolFlag{Name: "all"}
	msg := flagError(errors.New("flag provided but not defined: -hepl"), flags)
	if got := flags[:2][1]; got != nil {
		t.Errorf("flagError wrote %v into the flags' spare capacity (message %q)", got, msg)
	}
}
