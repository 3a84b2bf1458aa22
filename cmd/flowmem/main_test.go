package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/flowmem/flowmem/internal/app"
	"github.com/flowmem/flowmem/internal/hookfront"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	// Tests that need real, separate flowmem processes re-run this binary
	// with FLOWMEM_TEST_AS_CLI=1.
	if os.Getenv("FLOWMEM_TEST_AS_CLI") == "1" {
		os.Exit(app.Main(context.Background(), append([]string{"flowmem"}, os.Args[1:]...), app.SystemIO()))
	}
	testscript.Main(m, map[string]func(){
		"flowmem": func() {
			os.Exit(app.Main(context.Background(), os.Args, app.SystemIO()))
		},
		// The front end hands reviews to the flowmem above, found on PATH.
		"flowmem-hook": func() {
			os.Exit(hookfront.Main(context.Background(), os.Args, hookfront.Options{}))
		},
	})
}

// TestScripts runs every testdata/script/*.txtar against the real binary
// entry point. Run with -update to rewrite the expected output in place.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		UpdateScripts:       os.Getenv("FLOWMEM_UPDATE_SCRIPTS") == "1",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			env.Setenv("HOME", filepath.Join(work, ".home"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, ".home", ".config"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(work, ".home", ".cache"))
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			env.Setenv("FLOW_TASK_ID", "")
			env.Setenv("FLOWMEM_DISABLE", "")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
