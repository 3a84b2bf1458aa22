//go:build race

package capture_test

// raceEnabled: the race detector slows a hook's work several times over,
// so the process tests start fewer hooks at once (each still waits for the
// lock no longer than a real hook does).
const raceEnabled = true
