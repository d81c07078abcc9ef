//go:build !harness

package ui

// harness hooks the end-to-end scripts in: only a build for tests has them
// (e2e_run.go, built with -tags harness).
func (a *App) harness(*int) {}
