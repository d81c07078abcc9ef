package workflow

import (
	"fmt"
	"io"
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

// MoveExport puts the export at src where the person chose to save it
// (w, from a save dialog) and removes src: the export then exists once,
// where it was saved. src stays when anything fails.
func MoveExport(src string, w io.WriteCloser) error {
	in, err := os.Open(src)
	if err != nil {
		w.Close()
		return err
	}
	defer in.Close()
	if _, err := io.Copy(w, in); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	in.Close()
	return os.Remove(src)
}
