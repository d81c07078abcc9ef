package layout

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// readFixture reads a CSV of testdata: its header and rows.
func readFixture(t testing.TB, name string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	all, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return all[0], all[1:]
}

// detectFixture reads a fixture, detects its layout and tallies every row.
func detectFixture(t testing.TB, name string, opts Options) (*Layout, [][]string, Summary) {
	t.Helper()
	h, rows := readFixture(t, name)
	l := Detect(h, rows, opts)
	tl := l.NewTally()
	for _, r := range rows {
		tl.Add(r)
	}
	return l, rows, tl.Summary()
}

func errorAs(err error, target any) bool { return errors.As(err, target) }
