package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/testlists"
)

const uglyList = "Harris County export\n\n" +
	"Owner 1 First Name;Owner 1 Last Name;Mail Zip;Phone 1\n" +
	"Jos\xe9;Pe\xf1a;2134;2.01555E+09\n" +
	";OAK HOLDINGS LLC;02134;\n" +
	"JOSE;PENA;2134;2.01555E+09\n"

func TestInspectText(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", uglyList)
	out := runOK(t, "inspect", p, "--sample", "2")
	wantLines(t, "output", out,
		"owners.csv (",
		"CSV, Windows-1252, fields separated by semicolons",
		"line 3, 4 columns",
		"Rows            3",
		"Company rows    1 (33.3%), judged by \"Owner 1 First Name\" + \"Owner 1 Last Name\"",
		"Duplicate rows  1 (33.3%)",
		"Short zips      2",
		"Excel numbers   2",
		"converted to plain CSV first",
		"Mail Zip  0",
		"Phone 1  1  (33.3%)",
		"José                Peña",
		"line 4: column \"Mail Zip\": 2 zips have 4 digits",
	)
}

func TestInspectJSON(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", uglyList)
	out := runOK(t, "--json", "inspect", p)
	var got struct {
		Rows       int        `json:"rows"`
		EntityRows int        `json:"entity_rows"`
		Delimiter  string     `json:"delimiter"`
		HeaderLine int        `json:"header_line"`
		Headers    []string   `json:"headers"`
		Sample     [][]string `json:"sample"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Rows != 3 || got.EntityRows != 1 || got.Delimiter != ";" || got.HeaderLine != 3 || len(got.Headers) != 4 || len(got.Sample) != 3 {
		t.Errorf("%+v", got)
	}
	// --json after the file works too, and --header-line is obeyed.
	code, out, _ := runCLI(t, "inspect", p, "--json", "--header-line", "1")
	if code != 0 || !strings.Contains(out, `"header_line": 1`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestInspectBadFiles(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect", testlists.WriteFile(t, "empty.csv", "")}, exitFailure, "skipdesk-cli inspect: empty.csv: the file is empty"},
		{[]string{"inspect", testlists.WriteFile(t, "h.csv", "a,b\n")}, exitFailure, "h.csv line 1: no data rows"},
		{[]string{"inspect", testlists.WriteFile(t, "bin.csv", strings.Repeat("\x00\x01\x02\x03", 64))}, exitFailure, "bin.csv: this is not a text file"},
		{[]string{"inspect", "/nonexistent/x.csv"}, exitFailure, "x.csv: no such file"},
		{[]string{"inspect"}, exitUsage, "inspect takes one FILE"},
		{[]string{"inspect", "a.csv", "b.csv"}, exitUsage, "inspect takes one FILE"},
		{[]string{"inspect", "a.csv", "--header-line", "x"}, exitUsage, "invalid value"},
		{[]string{"inspect", testlists.WriteFile(t, "s.csv", "a\n1\n"), "--sheet", "X"}, 0, ""},
	}
	for _, tt := range tests {
		code, _, errs := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}
