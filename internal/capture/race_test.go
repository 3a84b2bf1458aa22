//go:build race

package capture

// The race detector slows a hook's work several times over: 32 process
// tests' hooks sharing two cores would each wait for the memory lock for
// longer than any real hook holds it (TestMain in process_test.go runs
// them). Their wait scales with the slowdown.
func init() { defaultLockTimeout *= 4 }
