//go:build unix

package input

import "syscall"

// openNoWait makes opening a named pipe return at once instead of waiting
// for a writer.
const openNoWait = syscall.O_NONBLOCK
