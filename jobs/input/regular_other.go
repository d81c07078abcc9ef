//go:build !unix

package input

// openNoWait: opening a file never waits here.
const openNoWait = 0
