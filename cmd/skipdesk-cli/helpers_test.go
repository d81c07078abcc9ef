package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// runCLI runs the command line in process and returns its exit code,
// standard output and standard error.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// readLedger opens the ledger in home read-only, as a second program
// would; the caller closes it.
func readLedger(t *testing.T, home string) *ledger.Ledger {
	t.Helper()
	led, err := ledger.OpenReadOnly(home)
	if err != nil {
		t.Fatal(err)
	}
	return led
}

// wantLines reports each of wants that got (what is named by what in the
// message) does not hold.
func wantLines(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}

// readRows reads a CSV file (after its byte-order mark) or the first sheet
// of an .xlsx one.
func readRows(t *testing.T, path string) [][]string {
	t.Helper()
	if !strings.HasSuffix(path, ".csv") {
		return sheetRows(t, path, "")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(data), "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// sheetRows reads the rows of one sheet of a workbook ("": the first).
func sheetRows(t *testing.T, path, sheet string) [][]string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if sheet == "" {
		sheet = f.GetSheetName(0)
	}
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// runOK runs the command line in process, failing the test unless it exits
// 0, and returns its standard output.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return out
}
