package testlists

import (
	"encoding/csv"
	"os"
	"testing"
)

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
