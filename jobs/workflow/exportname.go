package workflow

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExportName is the name an export of the result or list called name is
// saved under: name without the extension it had (never "x.csv.xlsx"),
// then what the export holds when it is not the whole result ("callable",
// "filtered"), then ext (".xlsx", ".csv").
func ExportName(name, what, ext string) string {
	base := filepath.Base(name)
	for {
		e := strings.ToLower(filepath.Ext(base))
		if e != ".csv" && e != ".xlsx" && e != ".txt" && e != ".tsv" {
			break
		}
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	base = strings.TrimSpace(base)
	if base == "" || base == "." {
		base = "export"
	}
	if what != "" {
		base += " " + what
	}
	return base + ext
}

// FreePath is path when no file is there, else the first of "name (2).ext",
// "name (3).ext"… that is free: an export never replaces a file the person
// has without asking.
func FreePath(path string) string {
	if _, err := os.Lstat(path); os.IsNotExist(err) {
		return path
	}
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for i := 2; ; i++ {
		p := fmt.Sprintf("%s (%d)%s", stem, i, ext)
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			return p
		}
	}
}
