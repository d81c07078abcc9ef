package export

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// writeResult writes a CSV result (CRLF, RFC 4180) and returns its path.
func writeResult(t *testing.T, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "result.csv")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func openXLSX(t *testing.T, path string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("excelize cannot open %s: %v", path, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestXLSXCellTypes(t *testing.T) {
	src := writeResult(t, [][]string{
		{"record_id", "first_name", "phone_1", "property_zip", "note", "amount", "code"},
		{"000123", "JOHN", "2125550147", "02134", "=SUM(A1:A2)", "123.5", "12345678901234567890"},
		{"124", "MARY", "3125550100", "60601", "+1 call", "42", "007"},
		{"125", "  PADDED ", "", "", "-5", "-5", "@home"},
		{"126", "A & B <c>", "", "", "line\r\nbreak", "0.25", "x\x01y"},
	})
	dst := filepath.Join(t.TempDir(), "out.xlsx")
	rep, err := Export(context.Background(), src, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 4 || len(rep.Sheets) != 1 || rep.Sheets[0] != "Results" {
		t.Fatalf("report = %+v", rep)
	}
	if len(rep.Escaped) != 1 || rep.Escaped[0] != (CellRef{Row: 4, Column: "code", Length: 1}) ||
		len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], `row 4, column "code"`) {
		t.Errorf("control character not reported: %+v, %q", rep.Escaped, rep.Warnings)
	}
	f := openXLSX(t, dst)
	if got := f.GetSheetList(); len(got) != 2 || got[0] != "Results" || got[1] != "Summary" {
		t.Fatalf("sheets = %v", got)
	}
	tests := []struct {
		cell, want string
		text       bool
	}{
		{"A2", "000123", true},               // id column: leading zeros kept
		{"A3", "124", true},                  // id column: text even when numeric
		{"C2", "2125550147", true},           // phone
		{"D2", "02134", true},                // zip with its leading zero
		{"E2", "=SUM(A1:A2)", true},          // formula-looking: text, no formula
		{"E3", "+1 call", true},              //
		{"E4", "-5", true},                   // starts with '-': text
		{"F2", "123.5", false},               // a number
		{"F3", "42", false},                  //
		{"F4", "-5", true},                   // a sign makes it text
		{"F5", "0.25", false},                //
		{"G2", "12345678901234567890", true}, // more than 15 digits
		{"G3", "007", true},                  // leading zero
		{"G4", "@home", true},                //
		{"B4", "  PADDED ", true},            // spaces preserved
		{"B5", "A & B <c>", true},            // escaped
		{"E5", "line\r\nbreak", true},        // line break and carriage return kept
		{"G5", "x\x01y", true},               // a control character, written as _x0001_
	}
	for _, tc := range tests {
		got, err := f.GetCellValue("Results", tc.cell)
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v; want %q", tc.cell, got, err, tc.want)
		}
		typ, _ := f.GetCellType("Results", tc.cell)
		if isText := typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString; isText != tc.text {
			t.Errorf("%s type = %v, want text %v", tc.cell, typ, tc.text)
		}
		if formula, _ := f.GetCellFormula("Results", tc.cell); formula != "" {
			t.Errorf("%s has formula %q", tc.cell, formula)
		}
	}
	checkHeaderRow(t, f)
	rows, _ := f.GetRows("Results")
	if len(rows) != 5 {
		t.Errorf("read back %d rows, want 5", len(rows))
	}
	noTempFiles(t, filepath.Dir(dst))

	checkSheetXML(t, dst)
}

// checkHeaderRow: the header is bold, frozen and filtered (over A1:G5), and
// the columns are sized.
func checkHeaderRow(t *testing.T, f *excelize.File) {
	t.Helper()
	style, _ := f.GetCellStyle("Results", "A1")
	st, err := f.GetStyle(style)
	if err != nil || st.Font == nil || !st.Font.Bold {
		t.Errorf("header style = %+v, %v; want bold", st, err)
	}
	panes, err := f.GetPanes("Results")
	if err != nil || !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
		t.Errorf("panes = %+v, %v; want frozen header", panes, err)
	}
	var filter bool
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" && strings.Contains(dn.RefersTo, "$A$1:$G$5") {
			filter = true
		}
	}
	if !filter {
		t.Errorf("no autofilter over A1:G5: %+v", f.GetDefinedName())
	}
	if w, _ := f.GetColWidth("Results", "E"); w < 12 || w > maxWidth {
		t.Errorf("width of E = %v", w)
	}
}

// checkSheetXML: Excel wants <cols> in ascending order; no cell may hold a
// formula.
func checkSheetXML(t *testing.T, dst string) {
	t.Helper()
	sheet := zipEntry(t, dst, "xl/worksheets/sheet1.xml")
	prev := 0
	for _, m := range regexp.MustCompile(`<col min="(\d+)"`).FindAllStringSubmatch(sheet, -1) {
		n, _ := strconv.Atoi(m[1])
		if n <= prev {
			t.Errorf("<cols> out of order: %d after %d", n, prev)
		}
		prev = n
	}
	if prev != 7 {
		t.Errorf("widths set for %d columns, want 7", prev)
	}
	if strings.Contains(sheet, "<f>") || strings.Contains(sheet, "<f ") {
		t.Error("the sheet holds a formula")
	}
}

func zipEntry(t *testing.T, path, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			data, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
	}
	t.Fatalf("%s has no %s", path, name)
	return ""
}

func TestSummaryEqualsMeta(t *testing.T) {
	src := writeResult(t, [][]string{{"first_name", "match_status"}, {"A", "matched"}, {"B", "no_match"}})
	meta := &library.Meta{JobID: "trc_8f3a2b", Kind: jobs.KindTrace, Name: "owners.csv", Mode: "enhanced",
		Status: "completed", IncludeLLCs: true, TotalRows: 2, EntityRows: 1, MatchCount: 1, NoMatchCount: 1,
		ErrorCount: 0, Rate: 25, CreditsCharged: 50, CreditsRefunded: 25,
		CreatedAt: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), CompletedAt: time.Date(2026, 3, 4, 5, 9, 0, 0, time.UTC),
		Breakdown: &client.Breakdown{Individuals: client.Tier{Rate: 25, Rows: 1, Match: 1, CreditsCharged: 25},
			LLCs: client.Tier{Rate: 25, Rows: 1, NoMatch: 1, CreditsCharged: 25, CreditsRefunded: 25}}}
	dst := filepath.Join(t.TempDir(), "out.xlsx")
	if _, err := Export(context.Background(), src, dst, Options{Meta: meta}); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, dst)
	rows, err := f.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		if len(r) == 2 {
			got[r[0]] = r[1]
		}
	}
	want := map[string]string{
		"Job": "owners.csv", "Job ID": "trc_8f3a2b", "Mode": "enhanced", "Include LLCs": "yes",
		"Total rows": "2", "Company rows": "1", "Matches": "1", "No matches": "1", "Errors": "0",
		"Credits charged": "50", "Credits refunded": "25", "Net credits": strconv.FormatInt(meta.Net(), 10),
		"Created": "2026-03-04 05:06:07 UTC", "Completed": "2026-03-04 05:09:00 UTC", "Rows exported": "2",
		"Individuals: rows": "1", "Companies: rate": "25", "Individuals: matches": "1", "Companies: no matches": "1",
		"Individuals: credits charged": "25", "Companies: credits refunded": "25", "Rate": "25",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("summary %q = %q, want %q", k, got[k], v)
		}
	}
	if typ, _ := f.GetCellType("Summary", "B14"); typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString {
		t.Errorf("credits charged stored as text (%v), want a number", typ)
	}

	// A trace without a breakdown reports no rate: none is shown.
	plain := *meta
	plain.Rate, plain.Breakdown = 0, nil
	if _, err := Export(context.Background(), src, dst, Options{Meta: &plain}); err != nil {
		t.Fatal(err)
	}
	rows, _ = openXLSX(t, dst).GetRows("Summary")
	for _, r := range rows {
		if r[0] == "Rate" || strings.HasPrefix(r[0], "Individuals") {
			t.Errorf("summary row %q for a trace without rate or breakdown", r)
		}
	}
}

func TestSheetSplit(t *testing.T) {
	old := maxSheetRows
	maxSheetRows = 4 // header + 3 rows per sheet
	defer func() { maxSheetRows = old }()
	rows := [][]string{{"n", "phone"}}
	for i := 1; i <= 7; i++ {
		rows = append(rows, []string{strconv.Itoa(i), "212555010" + strconv.Itoa(i)})
	}
	src := writeResult(t, rows)
	dst := filepath.Join(t.TempDir(), "out.xlsx")
	rep, err := Export(context.Background(), src, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Results", "Results 2", "Results 3"}
	if strings.Join(rep.Sheets, ",") != strings.Join(want, ",") || rep.Rows != 7 {
		t.Fatalf("report = %+v", rep)
	}
	f := openXLSX(t, dst)
	next := 1
	for _, sh := range want {
		got, err := f.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[0][0] != "n" {
			t.Fatalf("%s: no header: %v", sh, got)
		}
		if len(got) > maxSheetRows {
			t.Errorf("%s holds %d rows, more than the limit %d", sh, len(got), maxSheetRows)
		}
		for _, r := range got[1:] {
			if r[0] != strconv.Itoa(next) {
				t.Errorf("%s: row %v, want n=%d", sh, r, next)
			}
			next++
		}
	}
	if next != 8 {
		t.Errorf("read back %d rows, want 7", next-1)
	}
}

func TestLongCell(t *testing.T) {
	long := strings.Repeat("é", ExcelMaxCellChars+5)
	src := writeResult(t, [][]string{{"id", "notes"}, {"1", "short"}, {"2", long}})
	dir := t.TempDir()
	dst := filepath.Join(dir, "out.xlsx")
	_, err := Export(context.Background(), src, dst, Options{})
	var tl *CellTooLongError
	if !errors.As(err, &tl) || tl.Row != 2 || tl.Column != "notes" || tl.Length != ExcelMaxCellChars+5 {
		t.Fatalf("err = %v, want a CellTooLongError at row 2, column notes", err)
	}
	if !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), `"notes"`) {
		t.Errorf("message does not name the cell: %v", err)
	}
	if _, serr := os.Stat(dst); !os.IsNotExist(serr) {
		t.Errorf("a failed export left %s", dst)
	}
	noTempFiles(t, dir)

	rep, err := Export(context.Background(), src, dst, Options{TruncateLongCells: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Truncated) != 1 || rep.Truncated[0] != (CellRef{Row: 2, Column: "notes", Length: ExcelMaxCellChars + 5}) {
		t.Fatalf("truncated = %+v", rep.Truncated)
	}
	f := openXLSX(t, dst)
	v, _ := f.GetCellValue("Results", "B3")
	if utf16Len(v) != ExcelMaxCellChars {
		t.Errorf("truncated cell has %d units, want %d", utf16Len(v), ExcelMaxCellChars)
	}
}

// A header longer than a cell of Excel holds (a file whose first line is
// not a header) is cut to the limit with a warning naming its column: Excel
// refuses a workbook holding such a cell. The rows are written whole.
func TestLongHeaderIsCapped(t *testing.T) {
	long := strings.Repeat("ж", ExcelMaxCellChars+100)
	src := writeResult(t, [][]string{{"id", long}, {"1", "short"}})
	dst := filepath.Join(t.TempDir(), "out.xlsx")
	rep, err := Export(context.Background(), src, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "column B") || !strings.Contains(rep.Warnings[0], "cut to 32,767") {
		t.Fatalf("warnings = %q", rep.Warnings)
	}
	f := openXLSX(t, dst)
	if v, _ := f.GetCellValue("Results", "B1"); utf16Len(v) != ExcelMaxCellChars {
		t.Errorf("the header holds %d units, want %d", utf16Len(v), ExcelMaxCellChars)
	}
	if v, _ := f.GetCellValue("Results", "B2"); v != "short" {
		t.Errorf("B2 = %q", v)
	}
}

func TestRowsPermutation(t *testing.T) {
	src := writeResult(t, [][]string{{"n"}, {"a"}, {"b"}, {"c"}, {"d"}})
	for _, format := range []string{"xlsx", "csv"} {
		dst := filepath.Join(t.TempDir(), "out."+format)
		rep, err := Export(context.Background(), src, dst, Options{Rows: []int{3, 0, 2}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if format == "xlsx" {
			rows, _ := openXLSX(t, dst).GetRows("Results")
			for _, r := range rows[1:] {
				got = append(got, r[0])
			}
		} else {
			for _, r := range readCSV(t, dst)[1:] {
				got = append(got, r[0])
			}
		}
		if strings.Join(got, "") != "dac" || rep.Rows != 3 {
			t.Errorf("%s: rows = %v (report %d), want d a c", format, got, rep.Rows)
		}
	}
	if _, err := Export(context.Background(), src, filepath.Join(t.TempDir(), "x.xlsx"), Options{Rows: []int{9}}); err == nil {
		t.Error("a row out of range was accepted")
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		t.Errorf("%s has no UTF-8 BOM", path)
	}
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestCSVExport(t *testing.T) {
	src := writeResult(t, [][]string{
		{"name", "note", "phone_1"},
		{"JOHN", "=HYPERLINK(\"x\")", "2125550147"},
		{"", "", ""}, // blank record: not a row
		{"MARY", "+1", "-2"},
		{"@ME", "\tTAB", "ok, \"quoted\""},
	})
	dst := filepath.Join(t.TempDir(), "out.csv")
	rep, err := Export(context.Background(), src, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 3 {
		t.Errorf("rows = %d, want 3", rep.Rows)
	}
	got := readCSV(t, dst)
	want := [][]string{
		{"name", "note", "phone_1"},
		{"JOHN", "'=HYPERLINK(\"x\")", "2125550147"},
		{"MARY", "'+1", "'-2"},
		{"'@ME", "'\tTAB", "ok, \"quoted\""},
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, got[i], want[i])
		}
	}
	data, _ := os.ReadFile(dst)
	if !bytes.Contains(data, []byte("\r\n")) {
		t.Error("CSV lines do not end in CRLF")
	}
}

func TestCancel(t *testing.T) {
	rows := [][]string{{"n", "v"}}
	for i := 0; i < 5000; i++ {
		rows = append(rows, []string{strconv.Itoa(i), "x"})
	}
	src := writeResult(t, rows)
	for _, format := range []string{"xlsx", "csv"} {
		dir := t.TempDir()
		dst := filepath.Join(dir, "out."+format)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Export(ctx, src, dst, Options{}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", format, err)
		}
		if _, err := os.Stat(dst); !os.IsNotExist(err) {
			t.Errorf("%s: cancelled export left a file", format)
		}
		noTempFiles(t, dir)
	}
}

func TestProgressAndBadInput(t *testing.T) {
	rows := [][]string{{"n"}}
	for i := 0; i < 40000; i++ {
		rows = append(rows, []string{strconv.Itoa(i)})
	}
	src := writeResult(t, rows)
	var last, calls int
	_, err := Export(context.Background(), src, filepath.Join(t.TempDir(), "o.xlsx"), Options{Progress: func(done, total int) {
		calls++
		if done < last || done > total {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
	}})
	if err != nil || calls < 2 || last != 40000 {
		t.Errorf("progress: %d calls, last %d, err %v", calls, last, err)
	}
	if _, err := Export(context.Background(), src, "out.pdf", Options{}); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := Export(context.Background(), filepath.Join(t.TempDir(), "missing.csv"), filepath.Join(t.TempDir(), "o.xlsx"), Options{}); err == nil {
		t.Error("a missing source was accepted")
	}
}

func TestTextColumnAndNumeric(t *testing.T) {
	for h, want := range map[string]bool{"phone_1": true, "Property Zip": true, "postal_code": true, "record_id": true,
		"ID": true, "Account Number": true, "first_name": false, "is_entity": false, "assessed_value": false, "valid": false} {
		if textColumn(h) != want {
			t.Errorf("textColumn(%q) = %v", h, !want)
		}
	}
	for v, want := range map[string]bool{"0": true, "12": true, "1.5": true, "0.5": true, "007": false, "1e5": false,
		"1.": false, ".5": false, "-1": false, "1,000": false, "1234567890123456": false, "123456789012345": true, "": false} {
		if numeric(v) != want {
			t.Errorf("numeric(%q) = %v", v, !want)
		}
	}
}

func TestHeaderOnlyAndRaggedRows(t *testing.T) {
	src := testlists.WriteFile(t, "r.csv", "a,b\r\n")
	dst := filepath.Join(t.TempDir(), "o.xlsx")
	rep, err := Export(context.Background(), src, dst, Options{})
	if err != nil || rep.Rows != 0 {
		t.Fatalf("header only: %+v, %v", rep, err)
	}
	if rows, _ := openXLSX(t, dst).GetRows("Results"); len(rows) != 1 || rows[0][1] != "b" {
		t.Errorf("header only read back %q", rows)
	}
	src = testlists.WriteFile(t, "r2.csv", "a,b\r\n1\r\n2,3,extra\r\n")
	if _, err := Export(context.Background(), src, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	rows, _ := openXLSX(t, dst).GetRows("Results")
	if len(rows) != 3 || strings.Join(rows[1], "|") != "1" || strings.Join(rows[2], "|") != "2|3|extra" {
		t.Errorf("ragged rows read back %q", rows)
	}
}

func TestSummaryOfDNCJob(t *testing.T) {
	src := writeResult(t, [][]string{{"phone", "phone_normalized", "dnc", "litigator", "line_type", "status"},
		{"2125550101", "2125550101", "true", "false", "mobile", "ok"}, {"x", "", "false", "false", "unknown", "invalid"}})
	meta := &library.Meta{JobID: "dnc_42", Kind: jobs.KindDNC, Name: "phones.csv", Status: "completed",
		TotalRows: 2, MatchCount: 1, ErrorCount: 1, Rate: 1, CreditsCharged: 2, CreditsRefunded: 1, ParentTraceID: "trc_9"}
	dst := filepath.Join(t.TempDir(), "out.xlsx")
	if _, err := Export(context.Background(), src, dst, Options{Meta: meta}); err != nil {
		t.Fatal(err)
	}
	rows, _ := openXLSX(t, dst).GetRows("Summary")
	got := map[string]string{}
	for _, r := range rows {
		if len(r) == 2 {
			got[r[0]] = r[1]
		}
	}
	for k, v := range map[string]string{"Kind": "DNC scrub", "Total rows": "2", "On DNC or litigator list": "1",
		"Invalid numbers": "1", "Credits charged": "2", "Credits refunded": "1", "Net credits": "1", "Phones of trace": "trc_9"} {
		if got[k] != v {
			t.Errorf("summary %q = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["No matches"]; ok {
		t.Error("a DNC summary shows trace figures")
	}
}

// failAfter accepts n bytes, then fails every write as a full disk does.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, &os.PathError{Op: "write", Path: "/full/.out.tmp", Err: syscall.ENOSPC}
	}
	w.n -= len(p)
	return len(p), nil
}

// A disk that fills up in the middle of an export stops it with the
// system's reason, in .xlsx (where a second goroutine does the writing)
// as in CSV.
func TestDiskFullMidExport(t *testing.T) {
	rows := [][]string{{"n", "phone_1", "note"}}
	for i := range 60000 {
		rows = append(rows, []string{strconv.Itoa(i), "2125550147", strings.Repeat("x", 40)})
	}
	src := writeResult(t, rows)
	r, err := library.OpenResult(src)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, limit := range []int{0, 10_000, 400_000} {
		err := writeXLSX(context.Background(), r, nil, &failAfter{n: limit}, r.Len(), Options{}, &Report{})
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("xlsx, disk full after %d bytes: %v", limit, err)
		}
		s, err := openCSVSource(src)
		if err != nil {
			t.Fatal(err)
		}
		err = writeCSV(context.Background(), s, &failAfter{n: limit}, -1, Options{}, &Report{})
		s.Close()
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("csv, disk full after %d bytes: %v", limit, err)
		}
	}
	// Through Export, the message names the file asked for, not the
	// temporary one, and says nothing was written.
	err = writeError("/full/out.xlsx", fmt.Errorf("export: %w", &os.PathError{Op: "write", Path: "/full/.out.xlsx.1.tmp", Err: syscall.ENOSPC}))
	var we *WriteError
	if !errors.As(err, &we) || err.Error() != "export: cannot write /full/out.xlsx: no space left on device (nothing was written)" {
		t.Errorf("message %q", err)
	}
}

// A failed export leaves an earlier file of the same name as it was; a
// folder that does not exist is named in the message; a temporary file
// left by an export that was killed goes with the next export there.
func TestFailedExportKeepsEarlierFile(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "out.xlsx")
	if err := os.WriteFile(dst, []byte("yesterday's export"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := writeResult(t, [][]string{{"id", "notes"}, {"1", strings.Repeat("x", ExcelMaxCellChars+1)}})
	if _, err := Export(context.Background(), src, dst, Options{}); err == nil {
		t.Fatal("a cell too long was exported")
	}
	if b, _ := os.ReadFile(dst); string(b) != "yesterday's export" {
		t.Fatalf("the earlier file became %q", b)
	}
	noTempFiles(t, dir)

	missing := filepath.Join(dir, "no such folder", "out.csv")
	_, err := Export(context.Background(), src, missing, Options{})
	var we *WriteError
	if !errors.As(err, &we) || we.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("export into a missing folder: %v", err)
	}

	stale := filepath.Join(dir, ".out.csv.123456.tmp")
	fresh := filepath.Join(dir, ".out.csv.777777.tmp") // an export running now
	os.WriteFile(stale, []byte("half"), 0o644)
	os.WriteFile(fresh, []byte("half"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	ok := writeResult(t, [][]string{{"id"}, {"1"}})
	if _, err := Export(context.Background(), ok, filepath.Join(dir, "out.csv"), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("the temporary file of a killed export is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("the temporary file of a running export was removed")
	}
}

// A result with quotes inside unquoted values exports every row, the same
// rows the viewer shows, in both formats; a quoted value never closed is
// reported, not exported in silence as one last row holding the rest of
// the file. An empty file names itself.
func TestDamagedSource(t *testing.T) {
	stray := testlists.WriteFile(t, "stray.csv", "first_name,last_name,phone_1\r\n"+
		"JOHN \"JACK\",SMITH,2125550101\r\nANN,O\"BRIEN,2125550102\r\nBOB,RAY,2125550103\r\n")
	want := [][]string{{"first_name", "last_name", "phone_1"}, {"JOHN \"JACK\"", "SMITH", "2125550101"},
		{"ANN", "O\"BRIEN", "2125550102"}, {"BOB", "RAY", "2125550103"}}
	unclosed := testlists.WriteFile(t, "unclosed.csv", "first_name,phone_1\r\nANN,2125550101\r\n\"BOB,2125550102\r\nCAL,2125550103\r\n")
	empty := testlists.WriteFile(t, "empty.csv", "")
	for _, format := range []string{"xlsx", "csv"} {
		dir := t.TempDir()
		dst := filepath.Join(dir, "out."+format)
		rep, err := Export(context.Background(), stray, dst, Options{})
		if err != nil || rep.Rows != 3 || len(rep.Warnings) != 0 {
			t.Fatalf("%s: stray quotes: %+v, %v", format, rep, err)
		}
		var got [][]string
		if format == "xlsx" {
			got, _ = openXLSX(t, dst).GetRows("Results")
		} else {
			got = readCSV(t, dst)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: read back %q", format, got)
		}
		for i := range want {
			if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
				t.Errorf("%s: row %d = %q, want %q", format, i, got[i], want[i])
			}
		}

		rep, err = Export(context.Background(), unclosed, dst, Options{})
		if err != nil || rep.Rows != 2 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "line 3") {
			t.Errorf("%s: unclosed quote: %+v, %v", format, rep, err)
		}

		_, err = Export(context.Background(), empty, filepath.Join(dir, "empty."+format), Options{})
		if err == nil || !strings.Contains(err.Error(), "empty.csv") || !strings.Contains(err.Error(), "no header") {
			t.Errorf("%s: empty source: %v", format, err)
		}
		noTempFiles(t, dir)
	}
}
