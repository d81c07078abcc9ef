package ledger

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// lockFile takes an exclusive, non-blocking lock on path (lockOS: the
// system's own, which goes away with the process, so a crash never leaves a
// stale lock behind) and writes this process's pid into it, for the
// message of the process that finds it taken.
func lockFile(path string) (unlock func() error, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ledger: lock file: %w", err)
	}
	release, taken, err := lockOS(f)
	if err != nil {
		f.Close()
		if taken {
			return nil, &LockedError{Path: path, PID: readPID(path)}
		}
		return nil, fmt.Errorf("ledger: lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		// Not synced: the pid is read back from the page cache by a process
		// finding the lock taken, and a crash takes the lock with it. A sync
		// here waited behind every other file's unwritten data (seconds
		// on a busy disk) at each start.
	}
	return func() error {
		// Leave the pid out of a lock nobody holds any more.
		f.Truncate(0)
		release()
		return f.Close()
	}, nil
}

func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
