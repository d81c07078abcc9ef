package input

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
		{"", "Oak Holdings LLC", "02134", "2.02E+09"},
		{"Mary", "", "77002", "(212) 555-0148"},
		{"Ann", "Lee", "", ""},
	}
	if !slices.EqualFunc(ins.Sample, wantRows, slices.Equal) {
		t.Errorf("sample %q, want %q", ins.Sample, wantRows)
	}
	got := []int{ins.Rows, ins.EntityRows, ins.ShortZips, ins.SciNumbers, ins.RaggedRows}
	if want := []int{4, 1, 1, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("rows, entity, short zips, sci, ragged = %v, want %v", got, want)
	}
	if !ins.NeedsConversion {
		t.Error("an xlsx file does not report that it needs conversion")
	}
	if w := findWarning(ins.Warnings, "leading zero"); w == nil || w.Line != 4 {
		t.Errorf("short zip warning %v", w)
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
