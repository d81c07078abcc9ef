package testlists

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes body to a file called name in a folder of its own that
// the test removes when it ends, and returns the file's path; the test stops
// where it cannot.
func WriteFile[B string | []byte](t testing.TB, name string, body B) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// ReadCSV reads the whole CSV file at path, rows of any length; the test
// stops where it cannot.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
