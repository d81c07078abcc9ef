package testlists

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Sheet is a sheet of a workbook a test writes: its name and its rows.
type Sheet struct {
	Name string
	Rows [][]any
}

// WriteWorkbook writes an .xlsx workbook called name, of the sheets in
// order, in a folder of its own that the test removes when it ends, and
// returns its path; the test stops where it cannot.
func WriteWorkbook(t testing.TB, name string, sheets ...Sheet) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		var err error
		if i == 0 {
			err = f.SetSheetName("Sheet1", s.Name)
		} else {
			_, err = f.NewSheet(s.Name)
		}
		for r, row := range s.Rows {
			if err == nil {
				err = f.SetSheetRow(s.Name, fmt.Sprintf("A%d", r+1), &row)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), name)
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}
