//go:build unix

package ledger

import (
	"errors"
	"os"
	"syscall"
)

// lockOS takes an exclusive, non-blocking flock on f; taken says another
// process holds it.
func lockOS(f *os.File) (release func(), taken bool, err error) {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil, errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN), err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, false, nil
}
