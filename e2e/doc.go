// Package e2e holds the end-to-end tests: they drive the real Claude Code
// client (the pinned npm release) against the scripted stand-in Messages
// API in e2e/standin, with flowmem installed in a temporary project the way
// a user installs it. The tests fail when the client is missing, unless
// FLOWMEM_E2E=skip says on purpose that they should not run.
package e2e
