package layout

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// readFixture reads a CSV of testdata: its header and rows.
func readFixture(t testing.TB, name string) ([]string, [][]string) {
	t.Helper()
	all := testlists.ReadCSV(t, filepath.Join("testdata", name))
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

// testDay is when the fixtures' own answers were scrubbed (invented_scrub.csv
// says so in its Date Scrubbed column); fresh judges calls the day after.
var testDay = time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)

// fresh is an index with no DNC result that dates the file's own answers
// testDay and judges calls the day after.
func fresh() *FlagIndex {
	x := NewFlagIndex()
	x.SetDates(testDay, testDay.AddDate(0, 0, 1))
	return x
}

func errorAs(err error, target any) bool { return errors.As(err, target) }
