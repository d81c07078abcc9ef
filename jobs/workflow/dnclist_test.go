package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// fourPhones is a CRM export with four phone columns (one whose header
// does not say so), a notes column with one number among words, and a
// name column. Line 4 has a number too short; line 5 repeats a number of
// line 2 in another column.
const fourPhones = "Name,Phone,Cell,Wireless 2,Contact,Notes\r\n" +
	"Ann Lee,(512) 555-0101,512-555-0102,,2145550103,called twice\r\n" +
	"Bob Ray,5125550104,,512.555.0105,+1 214 555 0106,512-555-0199\r\n" +
	"Cy Dunn,,555-01,5125550107,2145550108,wrong number\r\n" +
	"Di Fox,5125550109,,,5125550101,left a message\r\n"

// writeNumbers writes a list of numbers to a file of its own and returns
// its path.
var writeNumbers = testlists.WriteFile[string]

// An import reads every phone-looking column over the whole file — four
// here — and reports every number added, already there, repeated or not
// valid (with its line and column), and every column it did not read with
// why. (Before, one phone column was read and the others' numbers were
// silently left off the list.)
func TestImportInternalFourPhoneColumns(t *testing.T) {
	t.Parallel()
	d := offline(t)
	ctx := context.Background()
	if _, err := d.Compliance().AddInternal(ctx, []string{"214-555-0103"}, "asked", "by hand"); err != nil {
		t.Fatal(err)
	}
	path := writeNumbers(t, "crm.csv", fourPhones)
	f, err := d.Compliance().ScanListFile(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if phoneCols := phoneLookingColumns(f); f.Rows != 4 || !slices.Equal(phoneCols, []string{"Phone", "Cell", "Wireless 2", "Contact"}) {
		t.Fatalf("the file's columns: %d rows, phone-looking %v (%+v)", f.Rows, phoneCols, f.Columns)
	}

	var steps []string
	rep, err := d.Compliance().ImportInternal(ctx, ListImport{Path: path, Reason: "CRM export"}, func(p ListProgress) {
		if p.Done == p.Total && p.Total > 0 {
			steps = append(steps, p.Step)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 8 || rep.Already != 1 || rep.Repeated != 1 || !slices.Equal(steps, []string{"reading", "adding"}) {
		t.Fatalf("added %d, already %d, repeated %d, steps %v", rep.Added, rep.Already, rep.Repeated, steps)
	}
	if len(rep.Invalid) != 1 || rep.Invalid[0] != (ListInvalid{Line: 4, Column: "Cell", Value: "555-01", Reason: phone.ReasonTooShort}) {
		t.Fatalf("invalid: %+v", rep.Invalid)
	}
	checkColumnsReported(t, rep)
	checkOnList(t, d, "5125550101", "5125550102", "2145550103", "5125550104", "5125550105", "2145550106", "5125550107",
		"2145550108", "5125550109")
	if found, _ := d.Compliance().FindInternal(ctx, "5125550199", 1); found.Matching != 0 {
		t.Error("the notes' number was read without being asked for")
	}
	checkListSource(t, d, "5125550105", "file crm.csv, line 3, column Wireless 2", "CRM export")
	checkListSource(t, d, "5125550101", "file crm.csv, line 2, column Phone", "CRM export")
}

// A cell of several numbers ("5125550101 / 5125550102", a CRM's "Phones"
// joined with commas) puts each of them on the list; before, the cell was
// reported as one number too long and its numbers stayed callable.
func TestImportInternalSeveralNumbersInACell(t *testing.T) {
	t.Parallel()
	d := offline(t)
	ctx := context.Background()
	path := writeNumbers(t, "phones.csv", "Name,Phones\nAnn,5125550101 / 5125550102\nBob,\"(512) 555-0103, (512) 555-0104\"\nCy,5125550105 / call after 5\n")
	rep, err := d.Compliance().ImportInternal(ctx, ListImport{Path: path, Reason: "CRM export"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 4 || len(rep.Invalid) != 1 || rep.Invalid[0].Line != 4 {
		t.Fatalf("added %d, invalid %+v: want the four numbers of two cells, the third cell reported", rep.Added, rep.Invalid)
	}
	checkOnList(t, d, "5125550101", "5125550102", "5125550103", "5125550104")
	checkListSource(t, d, "5125550102", "file phones.csv, line 2, column Phones", "CRM export")
}

// checkColumnsReported: the four phone columns were read, the name and
// notes columns not, each with why.
func checkColumnsReported(t *testing.T, rep ListImported) {
	t.Helper()
	var notRead []string
	for _, c := range rep.NotRead {
		notRead = append(notRead, c.Name+": "+c.Why)
	}
	if len(rep.Read) != 4 || len(notRead) != 2 || !strings.Contains(notRead[0], "Name: holds no phone number") ||
		!strings.Contains(notRead[1], "Notes: holds phone numbers in 1 of 4 values, fewer than half") {
		t.Fatalf("read %+v, not read %q", rep.Read, notRead)
	}
}

// checkOnList: every number is in the set a callable export checks.
func checkOnList(t *testing.T, d *Service, numbers ...string) {
	t.Helper()
	keys, err := d.internalKeys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range numbers {
		if !keys.Has(phone.Key(n)) {
			t.Errorf("%s is not on the list", n)
		}
	}
}

func phoneLookingColumns(f ListFile) []string {
	var out []string
	for _, c := range f.Columns {
		if c.Phone {
			out = append(out, c.Name)
		}
	}
	return out
}

// checkListSource: number is on d's list with the source and reason.
func checkListSource(t *testing.T, d *Service, number, source, reason string) {
	t.Helper()
	found, err := d.Compliance().FindInternal(context.Background(), number, 1)
	if err != nil || len(found.Entries) != 1 || found.Entries[0].Source != source || found.Entries[0].Reason != reason {
		t.Errorf("%s: %+v, %v; want the source %q and the reason %q", number, found.Entries, err, source, reason)
	}
}

// The person picks the columns: only those are read, the others are
// reported as not picked; a column that is not in the file is named with
// the file's columns; a file with nothing phone-looking says why, column
// by column.
func TestImportInternalPickedColumns(t *testing.T) {
	t.Parallel()
	d := offline(t)
	ctx := context.Background()
	path := writeNumbers(t, "crm.csv", fourPhones)
	rep, err := d.Compliance().ImportInternal(ctx, ListImport{Path: path, Columns: []string{"notes", "Wireless 2"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 3 || len(rep.Read) != 2 || len(rep.Invalid) != 3 || rep.Invalid[0].Column != "Notes" || rep.Invalid[0].Line != 2 {
		t.Fatalf("picked: %+v", rep)
	}
	for _, c := range rep.NotRead {
		if c.Phone && c.Why != "not picked" {
			t.Errorf("%s: %q", c.Name, c.Why)
		}
	}

	_, err = d.Compliance().ImportInternal(ctx, ListImport{Path: path, Columns: []string{"Fax"}}, nil)
	var fe *input.FileError
	if !errors.As(err, &fe) || fe.Column != "Fax" || !strings.Contains(err.Error(), `"Wireless 2"`) {
		t.Fatalf("a column not in the file: %v", err)
	}

	none := writeNumbers(t, "names.csv", "Name,Notes\r\nAnn,called\r\nBob,\r\n")
	_, err = d.Compliance().ImportInternal(ctx, ListImport{Path: none}, nil)
	if !errors.Is(err, ErrNoListColumn) || !strings.Contains(err.Error(), `"Name" holds no phone number`) ||
		!strings.Contains(err.Error(), "names.csv") {
		t.Fatalf("a file without numbers: %v", err)
	}
}

// A workbook is read the same way: every phone column of the sheet, over
// every row.
func TestImportInternalWorkbook(t *testing.T) {
	t.Parallel()
	d := offline(t)
	f := excelize.NewFile()
	for i, row := range [][]any{{"Owner", "Phone 1", "Phone 2"}, {"Ann", "(512) 555-0101", 5125550102}, {"Bob", "", "214-555-0103"}} {
		if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &row); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "owners.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	rep, err := d.Compliance().ImportInternal(context.Background(), ListImport{Path: path}, nil)
	if err != nil || rep.Added != 3 || len(rep.Read) != 2 || len(rep.NotRead) != 1 {
		t.Fatalf("a workbook: %+v, %v", rep, err)
	}
	checkListSource(t, d, "2145550103", "file owners.xlsx, line 3, column Phone 2", "")
}

// A workbook holding numbers on several sheets ("2024", "2025 opt-outs")
// is read on every one of them, its columns named with their sheet's; a
// name picks a header in every sheet holding it, "SHEET!HEADER" one
// sheet's. (Before, the first sheet alone was read and the others' numbers
// were left off the list without a word.)
func TestImportInternalEverySheet(t *testing.T) {
	t.Parallel()
	d := offline(t)
	path := testlists.WriteWorkbook(t, "optouts.xlsx",
		testlists.Sheet{Name: "Sheet1", Rows: [][]any{{"Name", "Phone"}, {"Ann", "(512) 555-0101"}}},
		testlists.Sheet{Name: "2025 opt-outs", Rows: [][]any{{"Name", "Phone", "Cell"}, {"Bob", "512-555-0102", "nope"}, {"Cy", 5125550103, "2145550104"}}},
		testlists.Sheet{Name: "Blank"})
	ctx := context.Background()
	scan, err := d.Compliance().ScanListFile(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, c := range scan.Columns {
		labels = append(labels, c.Label())
	}
	want := []string{"Sheet1 › Name", "Sheet1 › Phone", "2025 opt-outs › Name", "2025 opt-outs › Phone", "2025 opt-outs › Cell"}
	if scan.Rows != 3 || !slices.Equal(labels, want) {
		t.Fatalf("scanned %d rows, columns %q", scan.Rows, labels)
	}
	rep, err := d.Compliance().ImportInternal(ctx, ListImport{Path: path, Columns: []string{"phone"}}, nil)
	if err != nil || rep.Added != 3 || len(rep.Read) != 2 {
		t.Fatalf("by header: %+v, %v", rep, err)
	}
	checkListSource(t, d, "5125550103", "file optouts.xlsx, sheet 2025 opt-outs, line 3, column Phone", "")
	rep, err = d.Compliance().ImportInternal(ctx, ListImport{Path: path, Columns: []string{"2025 OPT-OUTS!cell"}}, nil)
	if err != nil || rep.Added != 1 || len(rep.Read) != 1 || len(rep.Invalid) != 1 ||
		rep.Invalid[0] != (ListInvalid{Line: 2, Column: "2025 opt-outs › Cell", Value: "nope", Reason: rep.Invalid[0].Reason}) {
		t.Fatalf("one sheet's column: %+v, %v", rep, err)
	}
	rep, err = d.Compliance().ImportInternal(ctx, ListImport{Path: path}, nil)
	if err != nil || rep.Added != 0 || rep.Already != 4 || len(rep.Read) != 3 {
		t.Fatalf("every phone column of every sheet: %+v, %v", rep, err)
	}
}

// A number a spreadsheet tool saved as a float ("5125550101.0": a column
// with blanks read as decimals) goes on the list; one in scientific
// notation, its digits lost, is reported with its line. (Before, the
// float was "not valid": 11 digits.)
func TestImportInternalFloatNumbers(t *testing.T) {
	t.Parallel()
	d := offline(t)
	path := writeNumbers(t, "pandas.csv", "Phone\r\n5125550101.0\r\n\r\n2145550102.00\r\n5.12555E+09\r\n")
	rep, err := d.Compliance().ImportInternal(context.Background(), ListImport{Path: path}, nil)
	if err != nil || rep.Added != 2 || len(rep.Invalid) != 1 || rep.Invalid[0].Line != 5 || !strings.Contains(rep.Invalid[0].Reason, "scientific") {
		t.Fatalf("floats: %+v, %v", rep, err)
	}
	checkListSource(t, d, "2145550102", "file pandas.csv, line 4, column Phone", "")
}

// Numbers pasted by hand are read as a file's cells are: two in a piece
// ("512-555-0111 x2 / 512-555-0112"), a float; what is not a number is
// returned, never dropped.
func TestAddInternalReadsEveryNumberOfAPiece(t *testing.T) {
	t.Parallel()
	d := offline(t)
	res, err := d.Compliance().AddInternal(context.Background(),
		SplitNumbers("512-555-0111 x2 / 512-555-0112\n5125550113.0, 555-01"), "asked", "pasted")
	if err != nil || res.Added != 3 || !slices.Equal(res.Invalid, []string{"555-01"}) {
		t.Fatalf("pasted: %+v, %v", res, err)
	}
	checkListSource(t, d, "5125550112", "pasted", "asked")
}

// A change the database kept refusing is worded, never the engine's text.
func TestExplainDatabaseBusy(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("ledger: internal list: %w", &sqldb.BusyError{Desc: `the team database "team" on db.example`,
		Why: "two changes waited on each other", Tries: 6})
	p := Explain(err, "")
	if p.Title != "Database busy" || !strings.HasPrefix(p.What, "The team database") || !strings.Contains(p.What, "tried 6 times") || strings.Contains(p.What, "SQLSTATE") {
		t.Fatalf("%+v", p)
	}
}
