//go:build unix

package workflow

import (
	"fmt"
	"os"
	"syscall"
)

// statIdentity is a folder's identity on disk (device and inode): a copy
// of the folder has another.
func statIdentity(st os.FileInfo) string {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", sys.Dev, sys.Ino)
	}
	return ""
}
