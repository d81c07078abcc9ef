package workflow

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExportName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, what, ext, want string }{
		{"owners [sd-1a2b3].csv", "", ".xlsx", "owners [sd-1a2b3].xlsx"},
		{"/lib/owners.csv.xlsx", "callable", ".xlsx", "owners callable.xlsx"},
		{"list.v2.CSV", "filtered", ".csv", "list.v2 filtered.csv"},
		{".csv", "", ".xlsx", "export.xlsx"},
	} {
		if got := ExportName(c.name, c.what, c.ext); got != c.want {
			t.Errorf("ExportName(%q, %q, %q) = %q, want %q", c.name, c.what, c.ext, got, c.want)
		}
	}
}

func TestFreePathNeverReplacesAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "owners.xlsx")
	if got := FreePath(p); got != p {
		t.Fatalf("free: %q", got)
	}
	os.WriteFile(p, nil, 0o600)
	os.WriteFile(filepath.Join(dir, "owners (2).xlsx"), nil, 0o600)
	if got := FreePath(p); got != filepath.Join(dir, "owners (3).xlsx") {
		t.Fatalf("taken: %q", got)
	}
}
