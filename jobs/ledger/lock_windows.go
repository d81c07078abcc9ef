//go:build windows

package ledger

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOS takes an exclusive, non-blocking lock on the first byte past the
// pid (so that the pid stays readable); taken says another process holds it.
func lockOS(f *os.File) (release func(), taken bool, err error) {
	ol := new(windows.Overlapped)
	ol.Offset = 1 << 20
	h := windows.Handle(f.Fd())
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol); err != nil {
		return nil, errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING), err
	}
	return func() { windows.UnlockFileEx(h, 0, 1, 0, ol) }, false, nil
}
