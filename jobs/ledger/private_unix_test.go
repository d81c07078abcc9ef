//go:build unix

package ledger

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// Item 9 of the hostile-server issue. The ledger and its folder are private
// (0600 files, 0700 folder) whoever creates them and whatever the umask:
// the database, its -wal and -shm files and the lock, and a folder or
// files an earlier version (or another package) left readable by others.
func TestLedgerFilesArePrivate(t *testing.T) {
	check := func(t *testing.T, dir string) {
		t.Helper()
		l := openAt(t, dir)
		// A write brings the -wal and -shm files into being.
		if _, err := l.Submissions().RecordIntent(context.Background(), &Submission{Kind: jobs.KindTrace, FileName: "a.csv"}); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
			t.Errorf("the data folder is %v, want 0700 (%v)", st.Mode().Perm(), err)
		}
		for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm", lockName} {
			st, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if st.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s is %v: readable by others", name, st.Mode().Perm())
			}
		}
		l.Close()
	}
	t.Run("created under umask 0", func(t *testing.T) {
		old := syscall.Umask(0)
		defer syscall.Umask(old)
		check(t, filepath.Join(t.TempDir(), "home", "SkipDesk"))
	})
	t.Run("created under umask 077", func(t *testing.T) {
		old := syscall.Umask(0o077)
		defer syscall.Umask(old)
		check(t, filepath.Join(t.TempDir(), "SkipDesk"))
	})
	t.Run("a folder and files left open by others", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "SkipDesk")
		old := syscall.Umask(0)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		l := openAt(t, dir)
		l.Submissions().RecordIntent(context.Background(), &Submission{Kind: jobs.KindTrace, FileName: "a.csv"})
		l.Close()
		syscall.Umask(old)
		os.Chmod(dir, 0o755)
		for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm", lockName} {
			os.Chmod(filepath.Join(dir, name), 0o644)
		}
		check(t, dir)
	})
}
