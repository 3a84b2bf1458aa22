//go:build !race

package capture_test

const raceEnabled = false
