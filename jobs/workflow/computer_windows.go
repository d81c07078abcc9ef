//go:build windows

package workflow

import (
	"fmt"
	"os"
	"syscall"
)

// statIdentity is a folder's identity on disk (when it was created): a
// copy of the folder is created anew.
func statIdentity(st os.FileInfo) string {
	if sys, ok := st.Sys().(*syscall.Win32FileAttributeData); ok {
		return fmt.Sprintf("%d", sys.CreationTime.Nanoseconds())
	}
	return ""
}
