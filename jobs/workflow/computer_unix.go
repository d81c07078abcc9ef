//go:build unix

package workflow

import (
	"fmt"
	"os"
	"syscall"
)

// folderIdentity is the data folder's identity on disk (device and inode):
// a copy of the folder has another.
func folderIdentity(dir string) string {
	st, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", sys.Dev, sys.Ino)
	}
	return ""
}
