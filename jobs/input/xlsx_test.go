package input

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// makeWorkbook writes a workbook like a county export saved from Excel: a
// title row, a blank row, the header, zips and phones stored as numbers.
func makeWorkbook(t *testing.T) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Owners"); err != nil {
		t.Fatal(err)
	}
	sci, err := f.NewStyle(&excelize.Style{NumFmt: 11}) // 0.00E+00
	if err != nil {
		t.Fatal(err)
	}
	set := func(sheet, cell string, v any) {
		if err := f.SetCellValue(sheet, cell, v); err != nil {
			t.Fatal(err)
		}
	}
	set("Owners", "A1", "Harris County owner export")
	for i, h := range []string{"Owner 1 First Name", "Owner 1 Last Name", "Site Zip", "Phone 1"} {
		set("Owners", string(rune('A'+i))+"3", h)
	}
	rows := [][]any{
		{"José", "Peña", 2134, 2125550147},
		{"", "Oak Holdings LLC", "02134", 2015550000},
		{"Mary", "", 77002, "(212) 555-0148"},
		{"Ann", "Lee"}, // a row ending early: not ragged in a sheet
	}
	for r, row := range rows {
		for c, v := range row {
			set("Owners", string(rune('A'+c))+string(rune('4'+r)), v)
		}
	}
	if err := f.SetCellStyle("Owners", "D5", "D5", sci); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("Other"); err != nil {
		t.Fatal(err)
	}
	set("Other", "A1", "Phone")
	set("Other", "A2", "2125550149")
	p := filepath.Join(t.TempDir(), "owners.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestXLSX(t *testing.T) {
	path := makeWorkbook(t)
	sheets, err := Sheets(path)
	if err != nil || !slices.Equal(sheets, []string{"Owners", "Other"}) {
		t.Fatalf("Sheets = %q, %v", sheets, err)
	}
	ins, err := Inspect(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ins.Format != "xlsx" || ins.Sheet != "Owners" || ins.HeaderLine != 3 || ins.Delimiter != ',' {
		t.Errorf("format %s sheet %s header line %d delimiter %q", ins.Format, ins.Sheet, ins.HeaderLine, ins.Delimiter)
	}
	wantRows := [][]string{
		{"José", "Peña", "2134", "2125550147"},
		{"", "Oak Holdings LLC", "02134", "2015550000"}, // shown as 2.02E+09: read as stored
		{"Mary", "", "77002", "(212) 555-0148"},
		{"Ann", "Lee", "", ""},
	}
	if !slices.EqualFunc(ins.Sample, wantRows, slices.Equal) {
		t.Errorf("sample %q, want %q", ins.Sample, wantRows)
	}
	got := []int{ins.Rows, ins.EntityRows, ins.ShortZips, ins.SciNumbers, ins.RaggedRows}
	if want := []int{4, 1, 1, 0, 0}; !slices.Equal(got, want) {
		t.Errorf("rows, entity, short zips, sci, ragged = %v, want %v", got, want)
	}
	if !ins.NeedsConversion {
		t.Error("an xlsx file does not report that it needs conversion")
	}
	if w := findWarning(ins.Warnings, "leading zero"); w == nil || w.Line != 4 {
		t.Errorf("short zip warning %v", w)
	}
	// The rows of the other sheet are not read without a word.
	if findWarning(ins.Warnings, `sheet "Other" holds rows too, not read: only sheet "Owners" is`) == nil ||
		!slices.Equal(ins.OtherSheets, []string{"Other"}) {
		t.Errorf("other sheets %q, warnings %v", ins.OtherSheets, ins.Warnings)
	}
	// A sheet asked for by name is read alone, as asked.
	picked, err := Inspect(context.Background(), path, Options{Sheet: "Owners"})
	if err != nil || picked.OtherSheets != nil || findWarning(picked.Warnings, "not read") != nil {
		t.Errorf("sheet asked for: other sheets %q, warnings %v, %v", picked.OtherSheets, picked.Warnings, err)
	}

	// A chosen sheet.
	ins, err = Inspect(context.Background(), path, Options{Sheet: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	if ins.Sheet != "Other" || !slices.Equal(ins.Headers, []string{"Phone"}) || ins.Rows != 1 {
		t.Errorf("sheet %s headers %q rows %d", ins.Sheet, ins.Headers, ins.Rows)
	}
	_, err = Inspect(context.Background(), path, Options{Sheet: "Nope"})
	if err == nil || !strings.Contains(err.Error(), `owners.xlsx: no sheet named "Nope" (sheets: Owners, Other)`) {
		t.Errorf("err = %v", err)
	}

	// Conversion to the upload CSV.
	dst := filepath.Join(t.TempDir(), "owners.csv")
	if err := ConvertToCSV(context.Background(), path, Options{}, dst); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := append([][]string{{"Owner 1 First Name", "Owner 1 Last Name", "Site Zip", "Phone 1"}}, wantRows...)
	if !slices.EqualFunc(recs, want, slices.Equal) {
		t.Errorf("converted %q, want %q", recs, want)
	}
}

func TestXLSXRenamedCSV(t *testing.T) {
	src := makeWorkbook(t)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// A workbook saved with a .csv name is still read as a workbook.
	ins, err := Inspect(context.Background(), writeFile(t, "owners.csv", b), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ins.Format != "xlsx" || ins.Rows != 4 {
		t.Errorf("format %s rows %d", ins.Format, ins.Rows)
	}
	// A damaged workbook is an error naming the file.
	_, err = Inspect(context.Background(), writeFile(t, "owners.xlsx", b[:len(b)/2]), Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "owners.xlsx: ") {
		t.Errorf("err = %v", err)
	}
	ins, err = Inspect(context.Background(), writeFile(t, "x.xlsx", []byte("First,Last\nJohn,Smith\n")), Options{})
	if err != nil || ins.Format != "csv" || ins.Rows != 1 {
		t.Errorf("CSV named .xlsx: %v %+v", err, ins)
	}
	_, err = Sheets(writeFile(t, "x.xlsx", []byte("First,Last\n")))
	if err == nil || !strings.HasPrefix(err.Error(), "x.xlsx: cannot read as an Excel .xlsx workbook") {
		t.Errorf("err = %v", err)
	}
}

// TestXLSXMergedCells: a range merged over several rows shows its value on
// each of them in Excel, and is read so; a range merged within one row (a
// title, a header cell) is read as stored. Dates and formulas come as the
// text Excel shows (a formula saved without a value is blank).
func TestXLSXMergedCells(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	set := func(cell string, v any) {
		if err := f.SetCellValue("Sheet1", cell, v); err != nil {
			t.Fatal(err)
		}
	}
	merge := func(a, b string) {
		if err := f.MergeCell("Sheet1", a, b); err != nil {
			t.Fatal(err)
		}
	}
	set("A1", "County owner export")
	merge("A1", "D1")
	for i, h := range []string{"Owner", "City", "Sale Date", "Twice"} {
		set(string(rune('A'+i))+"2", h)
	}
	for r := 3; r <= 7; r++ {
		set(fmt.Sprintf("A%d", r), fmt.Sprintf("Owner %d", r))
		set(fmt.Sprintf("C%d", r), time.Date(2024, 1, r, 0, 0, 0, 0, time.UTC))
		if err := f.SetCellFormula("Sheet1", fmt.Sprintf("D%d", r), fmt.Sprintf("LEN(A%d)", r)); err != nil {
			t.Fatal(err)
		}
	}
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		t.Fatal(err)
	}
	f.SetCellStyle("Sheet1", "C3", "C7", date)
	set("B3", "Austin")
	merge("B3", "B5") // one city for three owners
	set("B6", "Waco")
	merge("B6", "C6") // within one row: not filled (merging cleared C6)
	set("B9", "Dallas")
	set("A10", "Owner 10")
	merge("B9", "B10")
	ins := inspectWorkbook(t, f, "merged.xlsx")
	want := [][]string{
		{"Owner 3", "Austin", "01-03-24", ""},
		{"Owner 4", "Austin", "01-04-24", ""},
		{"Owner 5", "Austin", "01-05-24", ""},
		{"Owner 6", "Waco", "", ""},
		{"Owner 7", "", "01-07-24", ""},
		{"", "Dallas", "", ""},
		{"Owner 10", "Dallas", "", ""},
	}
	if ins.HeaderLine != 2 || !slices.EqualFunc(ins.Sample, want, slices.Equal) {
		t.Errorf("header line %d, rows %q, want %q", ins.HeaderLine, ins.Sample, want)
	}
	if w := findWarning(ins.Warnings, "3 cells of ranges merged over several rows filled"); w == nil || w.Line != 4 || w.Count != 3 {
		t.Errorf("warnings %v", ins.Warnings)
	}
}

// TestXLSXEmptySheets: with no sheet asked for, empty sheets before the
// first one holding cells are passed over, and said so; an empty chosen
// sheet, or a workbook of empty sheets, is an error naming them.
func TestXLSXEmptySheets(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	for _, s := range []string{"Notes", "Owners"} {
		if _, err := f.NewSheet(s); err != nil {
			t.Fatal(err)
		}
	}
	f.SetCellValue("Owners", "A1", "Phone")
	f.SetCellValue("Owners", "A2", "2125550147")
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	ins, err := Inspect(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ins.Sheet != "Owners" || ins.Rows != 1 || findWarning(ins.Warnings, `sheets "Sheet1", "Notes" are empty: read sheet "Owners"`) == nil {
		t.Errorf("sheet %q rows %d warnings %v", ins.Sheet, ins.Rows, ins.Warnings)
	}
	if _, err := Inspect(context.Background(), path, Options{Sheet: "Notes"}); err == nil || err.Error() != `book.xlsx: sheet "Notes" is empty` {
		t.Errorf("chosen empty sheet: %v", err)
	}
	g := excelize.NewFile()
	defer g.Close()
	g.NewSheet("Other")
	empty := filepath.Join(t.TempDir(), "empty.xlsx")
	if err := g.SaveAs(empty); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(context.Background(), empty, Options{}); err == nil || err.Error() != "empty.xlsx: every sheet of the workbook is empty (Sheet1, Other)" {
		t.Errorf("empty workbook: %v", err)
	}
}

// Phone numbers stored as numbers and shown in scientific notation or
// with decimals are read as stored, whole; a text that looks so keeps its
// digits lost. (Before, "5.13E+09" was read, and the number with it.)
func TestXLSXNumbersShownHidingTheirDigits(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	f.SetCellValue("Sheet1", "A1", "Phone")
	f.SetCellValue("Sheet1", "B1", "Price")
	for i, style := range []int{11, 2, 4} {
		cell := fmt.Sprintf("A%d", i+2)
		f.SetCellValue("Sheet1", cell, 5125550101+i)
		f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i+2), 1250.5)
		st, err := f.NewStyle(&excelize.Style{NumFmt: style})
		if err != nil {
			t.Fatal(err)
		}
		f.SetCellStyle("Sheet1", cell, cell, st)
		f.SetCellStyle("Sheet1", fmt.Sprintf("B%d", i+2), fmt.Sprintf("B%d", i+2), st)
	}
	f.SetCellValue("Sheet1", "A5", "5.12555E+09") // text: its digits are lost
	ins := inspectWorkbook(t, f, "sci.xlsx")
	want := [][]string{{"5125550101", "1.25E+03"}, {"5125550102", "1250.50"}, {"5125550103", "1,250.50"}, {"5.12555E+09", ""}}
	if !slices.EqualFunc(ins.Sample, want, slices.Equal) {
		t.Errorf("sample %q, want %q", ins.Sample, want)
	}
	if w := findWarning(ins.Warnings, "read as stored, whole"); w == nil || w.Count != 3 {
		t.Errorf("warnings %v", ins.Warnings)
	}
}

// inspectWorkbook saves f as name and inspects it.
func inspectWorkbook(t *testing.T, f *excelize.File, name string) *Inspection {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	ins, err := Inspect(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ins
}
