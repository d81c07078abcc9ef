package export

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNormalizePhone(t *testing.T) {
	for in, want := range map[string]string{
		"2125550147": "2125550147", "(212) 555-0147": "2125550147", "1-212-555-0147": "2125550147",
		"+1 212.555.0147": "2125550147", "212-555-0147 ext. 12": "2125550147", "212 555 0147 x9": "2125550147",
		"2125550147#3": "2125550147", "1.23E+10": "", "112-555-0147": "", "212-155-0147": "", "555-0147": "",
		"": "", "22125550147": "", "abc": "",
	} {
		got, ok := NormalizePhone(in)
		if got != want || ok != (want != "") {
			t.Errorf("NormalizePhone(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const callableTrace = "first_name,phone_1,phone_1_type,phone_2,phone_2_type,match_status\r\n" +
	"A,2125550101,mobile,2125550102,landline,matched\r\n" + // 0101 clean, 0102 on DNC
	"B,2125550103,voip,,,matched\r\n" + // 0103 litigator only
	"C,(212) 555-0104,mobile,2125550199,mobile,matched\r\n" + // 0104 clean (formatted), 0199 not scrubbed
	"D,,,,,no_match\r\n"

const callableDNC = "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"2125550101,2125550101,false,false,mobile,ok\r\n" +
	"2125550102,2125550102,true,false,landline,ok\r\n" +
	"2125550103,2125550103,false,true,voip,ok\r\n" +
	"1 212 555 0104,2125550104,false,false,mobile,ok\r\n" +
	"junk,,false,false,unknown,invalid\r\n"

func TestExportCallableMerge(t *testing.T) {
	trace := writeFile(t, "trace.csv", callableTrace)
	dnc := writeFile(t, "dnc.csv", callableDNC)
	dst := filepath.Join(t.TempDir(), "callable.csv")
	rep, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := readCSV(t, dst)
	want := [][]string{
		{"first_name", "phone_1", "phone_1_type", "phone_1_dnc", "phone_1_litigator", "phone_2", "phone_2_type", "phone_2_dnc", "phone_2_litigator", "match_status"},
		{"A", "2125550101", "mobile", "false", "false", "2125550102", "landline", "true", "false", "matched"},
		{"B", "2125550103", "voip", "false", "true", "", "", "", "", "matched"},
		{"C", "(212) 555-0104", "mobile", "false", "false", "2125550199", "mobile", "unknown", "unknown", "matched"},
		{"D", "", "", "", "", "", "", "", "", "no_match"},
	}
	if rep.Rows != 4 || len(got) != len(want) {
		t.Fatalf("rows %d: %q", rep.Rows, got)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q\nwant %q", i, got[i], want[i])
		}
	}
}

func TestExportCallableOnly(t *testing.T) {
	trace := writeFile(t, "trace.csv", callableTrace)
	dnc := writeFile(t, "dnc.csv", callableDNC)
	dst := filepath.Join(t.TempDir(), "callable.xlsx")
	rep, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 2 {
		t.Errorf("rows = %d, want 2 (B has no callable phone, D none at all)", rep.Rows)
	}
	rows, err := openXLSX(t, dst).GetRows("Results")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"first_name|phone_1|phone_1_type|phone_1_dnc|phone_1_litigator|phone_2|phone_2_type|phone_2_dnc|phone_2_litigator|match_status",
		"A|2125550101|mobile|false|false|||||matched",
		"C|(212) 555-0104|mobile|false|false|||||matched",
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %q", rows)
	}
	for i := range want {
		// GetRows pads blank cells inside a row with "".
		r := append([]string(nil), rows[i]...)
		for len(r) < 10 {
			r = append(r, "")
		}
		if strings.Join(r, "|") != want[i] {
			t.Errorf("row %d = %q, want %q", i, strings.Join(r, "|"), want[i])
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(dst))
	if len(ents) != 1 {
		t.Errorf("files left beside the export: %v", ents)
	}
}

func TestExportCallableBadInput(t *testing.T) {
	trace := writeFile(t, "trace.csv", callableTrace)
	dnc := writeFile(t, "dnc.csv", callableDNC)
	out := filepath.Join(t.TempDir(), "o.csv")
	if _, err := ExportCallable(context.Background(), trace, trace, out, CallableOptions{}); err == nil || !strings.Contains(err.Error(), "not a DNC result") {
		t.Errorf("trace as DNC: %v", err)
	}
	if _, err := ExportCallable(context.Background(), dnc, dnc, out, CallableOptions{}); err == nil || !strings.Contains(err.Error(), "not a trace result") {
		t.Errorf("DNC as trace: %v", err)
	}
}
