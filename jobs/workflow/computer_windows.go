//go:build windows

package workflow

import (
	"fmt"
	"os"
	"syscall"
)

// folderIdentity is the data folder's identity on disk (when it was
// created): a copy of the folder is created anew.
func folderIdentity(dir string) string {
	st, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	if sys, ok := st.Sys().(*syscall.Win32FileAttributeData); ok {
		return fmt.Sprintf("%d", sys.CreationTime.Nanoseconds())
	}
	return ""
}
