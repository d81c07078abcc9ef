package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

const cliTrace = "first_name,last_name,property_zip,phone_1,phone_1_type,match_status\r\n" +
	"JOHN,SMITH,02134,2125550147,mobile,matched\r\n" +
	"MARY,=cmd|' /C calc'!A0,07030,3125550100,landline,matched\r\n"

// writeTraceResult writes cliTrace into a library at dir with its job
// record and returns its path.
func writeTraceResult(t *testing.T, dir string) string {
	t.Helper()
	lib, _ := library.Open(dir)
	meta := library.Meta{JobID: "trc_abc123", Kind: jobs.KindTrace, Name: "owners.csv", Mode: "normal",
		TotalRows: 2, MatchCount: 2, CreditsCharged: 50, CreatedAt: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)}
	src := lib.PathFor(meta)
	os.WriteFile(src, []byte(cliTrace), 0o644)
	if err := lib.Record(meta, src); err != nil {
		t.Fatal(err)
	}
	return src
}

func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	src := writeTraceResult(t, dir)

	out := filepath.Join(dir, "owners.xlsx")
	code, stdout, stderr := runCLI(t, "export", src, "--out", out)
	if code != 0 || !strings.Contains(stdout, "2 rows") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.GetCellValue("Results", "C2"); v != "02134" {
		t.Errorf("zip = %q", v)
	}
	if v, _ := f.GetCellValue("Summary", "B2"); v != "trc_abc123" {
		t.Errorf("summary job id = %q (record beside the result not used)", v)
	}

	csvOut := filepath.Join(dir, "owners-excel.csv")
	if code, _, stderr := runCLI(t, "export", "--out", csvOut, src, "--job-record", library.RecordPath(src)); code != 0 {
		t.Fatalf("csv export: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(csvOut)
	if !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) || !bytes.Contains(data, []byte("'=cmd")) {
		t.Errorf("csv export lacks BOM or guard: %q", data)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"export", src}, exitUsage, "--out"},
		{[]string{"export", "--out", filepath.Join(dir, "x.pdf"), src}, exitUsage, ".xlsx or .csv"},
		{[]string{"export", "--out", out}, exitUsage, "RESULT.csv"},
		{[]string{"export", "--out", out, filepath.Join(dir, "missing.csv")}, exitFailure, "missing.csv"},
		{[]string{"export", "--out", out, "--force", "--only-callable", src}, exitUsage, "--dnc"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d mentioning %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
}

func TestExportCommandLongCell(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "r.csv")
	os.WriteFile(src, []byte("id,notes\r\n1,"+strings.Repeat("x", 40000)+"\r\n"), 0o644)
	code, _, stderr := runCLI(t, "export", src, "--out", filepath.Join(dir, "r.xlsx"))
	if code != exitUsage || !strings.Contains(stderr, "row 1") || !strings.Contains(stderr, "--truncate-long-cells") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "export", src, "--out", filepath.Join(dir, "r.xlsx"), "--truncate-long-cells")
	if code != 0 || !strings.Contains(stderr, `row 1, column "notes"`) {
		t.Errorf("truncating: exit %d, stderr %q", code, stderr)
	}
}

func TestResultsSearchCommand(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SKIPDESK_HOME", home)
	dir := filepath.Join(home, "results")
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	meta := library.Meta{JobID: "trc_abc123", Kind: jobs.KindTrace, Name: "owners.csv"}
	p := lib.PathFor(meta)
	os.WriteFile(p, []byte(cliTrace), 0o644)

	code, stdout, stderr := runCLI(t, "results", "search", "(212) 555-0147")
	if code != 0 || !strings.Contains(stdout, "row 1") || !strings.Contains(stdout, "last_name=SMITH") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "--json", "results", "search", "mary", "--dir", dir, "--limit", "5")
	var hits []library.Hit
	if code != 0 || json.Unmarshal([]byte(stdout), &hits) != nil || len(hits) != 1 || hits[0].Row != 2 {
		t.Errorf("json search: exit %d, %q", code, stdout)
	}
	code, stdout, _ = runCLI(t, "results", "search", "nobody here")
	if code != 0 || !strings.Contains(stdout, "no result holds") {
		t.Errorf("no hits: exit %d, %q", code, stdout)
	}
	if code, _, _ := runCLI(t, "results", "search"); code != exitUsage {
		t.Errorf("no text: exit %d", code)
	}
	if code, _, _ := runCLI(t, "results", "search", "x", "--dir", filepath.Join(home, "nope")); code != exitFailure {
		t.Errorf("missing folder: exit %d", code)
	}
	t.Setenv("SKIPDESK_HOME", filepath.Join(home, "fresh"))
	if code, stdout, _ := runCLI(t, "results", "search", "x"); code != 0 || !strings.Contains(stdout, "no results downloaded yet") {
		t.Errorf("no library yet: exit %d, %q", code, stdout)
	}
}

// A search text over 1,000 characters (one word pasted again and again) is
// refused at once with its length, never echoed back whole; one just under
// the limit is searched (each word once), and echoed back cut.
func TestResultsSearchLongQuery(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SKIPDESK_HOME", home)
	lib, err := library.Open(filepath.Join(home, "results"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(lib.PathFor(library.Meta{JobID: "trc_abc123", Kind: jobs.KindTrace, Name: "owners.csv"}), []byte(cliTrace), 0o644)

	long := strings.Repeat("smithy ", 100_000/7)
	code, stdout, stderr := runCLI(t, "results", "search", long)
	if code == 0 || !strings.Contains(stderr, "at most 1,000 are searched") || len(stdout)+len(stderr) > 2000 {
		t.Fatalf("a 100 KB search: exit %d, %d bytes out, %d bytes err: %.300s", code, len(stdout), len(stderr), stderr)
	}
	under := strings.TrimSpace(strings.Repeat("nobody ", 142))
	code, stdout, _ = runCLI(t, "results", "search", under)
	if code != 0 || !strings.Contains(stdout, "no result holds") || len(stdout) > 200 || !strings.Contains(stdout, "…") {
		t.Fatalf("a 993-character search: exit %d, %q", code, stdout)
	}
	if code, stdout, _ = runCLI(t, "results", "search", strings.TrimSpace(strings.Repeat("smith ", 160))); code != 0 || !strings.Contains(stdout, "row 1") {
		t.Fatalf("a word repeated: exit %d, %q", code, stdout)
	}
}

// A damaged result (a quoted value never closed) exports with a warning
// naming the line, not in silence.
func TestExportCommandWarnsOfDamage(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "r.csv")
	os.WriteFile(src, []byte("first_name,phone_1\r\nANN,2125550101\r\n\"BOB,2125550102\r\nCAL,2125550103\r\n"), 0o644)
	for _, out := range []string{"r.xlsx", "r.csv"} {
		code, stdout, stderr := runCLI(t, "export", src, "--out", filepath.Join(dir, "out-"+out))
		if code != 0 || !strings.Contains(stdout, "2 rows") || !strings.Contains(stderr, "warning: "+src+": line 3") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", out, code, stdout, stderr)
		}
	}
}
