package ui

import (
	"os"
)

// dropEmpty removes the empty file the save dialog left at path when the
// export to it failed: no empty spreadsheet stays behind with the name the
// person chose.
func dropEmpty(path string) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		os.Remove(path)
	}
}
