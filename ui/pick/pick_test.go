package pick

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "Owners.CSV")
	os.WriteFile(list, []byte("a\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "notes.pdf"), []byte("a"), 0o600)
	exts := []string{".csv", ".xlsx"}
	for _, c := range []struct{ typed, want, why string }{
		{list, list, ""},
		{`  "` + list + `"  `, list, ""}, // pasted with quotes
		{"", "", "type the file's path"},
		{dir, "", "is a folder"},
		{filepath.Join(dir, "gone.csv"), "", "there is no file"},
		{filepath.Join(dir, "notes.pdf"), "", "not one of the files SkipDesk opens (.csv, .xlsx)"},
	} {
		got, err := Check(c.typed, exts)
		if c.why == "" && (err != nil || got != c.want) {
			t.Errorf("Check(%q) = %q, %v; want %q", c.typed, got, err, c.want)
		}
		if c.why != "" && (err == nil || !strings.Contains(err.Error(), c.why)) {
			t.Errorf("Check(%q) = %q, %v; want an error saying %q", c.typed, got, err, c.why)
		}
	}
}
