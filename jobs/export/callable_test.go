package export

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/testlists"
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

// testNow is when the tests' exports are made; testScrub is when their DNC
// results and the results' own answers were scrubbed, the day before.
var (
	testNow   = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	testScrub = testNow.AddDate(0, 0, -1)
)

// dated writes a job record beside a DNC result saying it completed at
// testScrub, and returns its path: a scrub of no known date makes no phone
// callable.
func dated(t *testing.T, dnc string) string { return datedAt(t, dnc, testScrub) }

// datedAt writes a job record beside a DNC result saying it completed at
// day, and returns its path.
func datedAt(t *testing.T, dnc string, day time.Time) string {
	t.Helper()
	b, _ := json.Marshal(library.Meta{JobID: "dnc_t", Kind: jobs.KindDNC, CompletedAt: day})
	if err := os.WriteFile(library.RecordPath(dnc), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return dnc
}

// exportScrubbed writes a trace result and a DNC result dated testScrub,
// exports the callable list to a file called name with at(o), and returns
// the report and the list's path; the test stops where the export fails.
func exportScrubbed(t *testing.T, trace, dnc, name string, o CallableOptions) (*Report, string) {
	t.Helper()
	src := testlists.WriteFile(t, "trace.csv", trace)
	scrub := dated(t, testlists.WriteFile(t, "dnc.csv", dnc))
	dst := filepath.Join(t.TempDir(), name)
	rep, err := ExportCallable(context.Background(), src, scrub, dst, at(o))
	if err != nil {
		t.Fatal(err)
	}
	return rep, dst
}

// at judges an export at testNow, the result's own answers dated testScrub.
func at(o CallableOptions) CallableOptions {
	if o.Now.IsZero() {
		o.Now = testNow
	}
	if o.OwnDate.IsZero() {
		o.OwnDate = testScrub
	}
	return o
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

const (
	cleanWords = "DNC clean, litigator clean, state DNC not checked, scrubbed 2026-06-09"
	notChecked = ", state DNC not checked, scrubbed 2026-06-09"
)

func TestExportCallableMerge(t *testing.T) {
	rep, dst := exportScrubbed(t, callableTrace, callableDNC, "callable.csv", CallableOptions{})
	got := readCSV(t, dst)
	ny := []string{"ET", "08:00", "21:00"} // New York: the federal window, on the day of the export
	none := []string{"", "", ""}
	row := func(parts ...any) []string {
		var out []string
		for _, p := range parts {
			switch v := p.(type) {
			case string:
				out = append(out, v)
			case []string:
				out = append(out, v...)
			}
		}
		return out
	}
	want := [][]string{
		row("first_name", "phone_1", "phone_1_type", "Phone 1 flags", "Phone 1 callable", "Phone 1 time zone", "Phone 1 call from", "Phone 1 call until",
			"phone_2", "phone_2_type", "Phone 2 flags", "Phone 2 callable", "Phone 2 time zone", "Phone 2 call from", "Phone 2 call until", "match_status"),
		row("A", "2125550101", "mobile", cleanWords, "yes", ny, "2125550102", "landline", "DNC flagged, litigator clean"+notChecked, "no: DNC", ny, "matched"),
		row("B", "2125550103", "voip", "DNC clean, litigator flagged"+notChecked, "no: litigator", ny, "", "", "", "", none, "matched"),
		row("C", "(212) 555-0104", "mobile", cleanWords, "yes", ny, "2125550199", "mobile", "federal DNC unknown, litigator unknown, state DNC not checked", "no: DNC unknown, litigator unknown", ny, "matched"),
		row("D", "", "", "", "", none, "", "", "", "", none, "no_match"),
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
	rep, dst := exportScrubbed(t, callableTrace, callableDNC, "callable.xlsx", CallableOptions{OnlyCallable: true})
	if rep.Rows != 2 {
		t.Errorf("rows = %d, want 2 (B has no callable phone, D none at all)", rep.Rows)
	}
	rows, err := openXLSX(t, dst).GetRows("Results")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"first_name|phone_1|phone_1_type|Phone 1 flags|Phone 1 callable|Phone 1 time zone|Phone 1 call from|Phone 1 call until|" +
			"phone_2|phone_2_type|Phone 2 flags|Phone 2 callable|Phone 2 time zone|Phone 2 call from|Phone 2 call until|match_status",
		"A|2125550101|mobile|" + cleanWords + "|yes|ET|08:00|21:00||||||||matched",
		"C|(212) 555-0104|mobile|" + cleanWords + "|yes|ET|08:00|21:00||||||||matched",
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %q", rows)
	}
	for i := range want {
		// GetRows pads blank cells inside a row with "".
		r := append([]string(nil), rows[i]...)
		for len(r) < 16 {
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

// A callable list's .xlsx (written in one reading, spool.go) reports the
// cells it wrote as escapes as the plain export does.
func TestExportCallableReportsDamagedCells(t *testing.T) {
	trace := strings.Replace(callableTrace, "A,2125550101", "A\x01B,2125550101", 1)
	rep, _ := exportScrubbed(t, trace, callableDNC, "callable.xlsx", CallableOptions{})
	if len(rep.Escaped) != 1 || rep.Escaped[0].Row != 1 || rep.Escaped[0].Column != "first_name" {
		t.Fatalf("escaped cells: %+v", rep.Escaped)
	}
	var found bool
	for _, w := range rep.Warnings {
		found = found || strings.Contains(w, `1 cells hold control characters`) && strings.Contains(w, `row 1, column "first_name"`)
	}
	if !found {
		t.Errorf("no warning of the escaped cell: %q", rep.Warnings)
	}
}

func TestExportCallableBadInput(t *testing.T) {
	trace := testlists.WriteFile(t, "trace.csv", callableTrace)
	out := filepath.Join(t.TempDir(), "o.csv")
	ctx := context.Background()
	if _, err := ExportCallable(ctx, trace, trace, out, CallableOptions{}); err == nil || !strings.Contains(err.Error(), "not a DNC result") {
		t.Errorf("trace as DNC: %v", err)
	}
	if _, err := ExportCallable(ctx, trace, "", out, CallableOptions{OnlyCallable: true}); err == nil ||
		!strings.Contains(err.Error(), "scrub its phones first") {
		t.Errorf("a trace without flags, no DNC result: %v", err)
	}
	names := testlists.WriteFile(t, "names.csv", "first,last\r\nA,B\r\n")
	if _, err := ExportCallable(ctx, names, "", out, CallableOptions{OnlyCallable: true}); err == nil ||
		!strings.Contains(err.Error(), "no phone column") {
		t.Errorf("a file without phones: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused export wrote a file")
	}
}

// truth is what a DNC result says of number n of the spelling tests.
type truth struct {
	fed, state, lit, unknown, invalid bool
}

func truthOf(n int) truth {
	return truth{fed: n%5 == 0, state: n%7 == 0, lit: n%11 == 0, unknown: n%13 == 3, invalid: n%17 == 4}
}

func (t truth) callable() bool { return !t.fed && !t.state && !t.lit && !t.unknown && !t.invalid }

func number(n int) string { return fmt.Sprintf("%d55501%02d", 212+n/100, n%100) }

// spellings of flag values in DNC results of other services.
var spellings = []struct {
	name                        string
	header                      []string
	yes, no, unknown, lineClean string
}{
	{"Y/N", []string{"PHONE", "LINE_TYPE", "DNC_FEDERAL", "DNC_STATE", "LITIGATOR"}, "Y", "N", "?", "Wireless"},
	{"1/0", []string{"Phone Number", "Carrier Type", "National DNC", "State DNC", "TCPA Litigator"}, "1", "0", "?", "Landline"},
	{"Yes/No", []string{"Telephone", "Line Type", "Federal DNC", "State DNC List", "Known Litigator"}, "Yes", "No", "", "VoIP"},
	{"true/false", []string{"phone", "line_type", "dnc", "state_dnc", "litigator"}, "true", "false", "unknown", "mobile"},
}

// writeSpelledDNC writes a DNC result of numbers 0..n-1 with the spelling's
// values: a "?" (or blank) in one flag of the unknown numbers, a too-short
// number for the invalid ones.
func writeSpelledDNC(t *testing.T, sp int, n int) string {
	s := spellings[sp]
	var b strings.Builder
	b.WriteString(strings.Join(s.header, ",") + "\r\n")
	yn := func(v bool) string {
		if v {
			return s.yes
		}
		return s.no
	}
	for i := range n {
		tr := truthOf(i)
		num := number(i)
		if tr.invalid {
			num = num[3:] // 555-01XX: seven digits
		}
		state := yn(tr.state)
		if tr.unknown {
			state = s.unknown
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\r\n", num, s.lineClean, yn(tr.fed), state, yn(tr.lit))
	}
	return dated(t, testlists.WriteFile(t, "dnc-"+strings.ReplaceAll(s.name, "/", "")+".csv", b.String()))
}

// writeSpelledTrace writes a trace result in a layout of its own: three
// phones a row from numbers 0..n+9 (the last ten in no DNC result), the
// person's own phone column echoed, and notes that mention the first phone.
func writeSpelledTrace(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("Input Data: Name,Input Data: Phone,Owner Name,Mobile 1,Mobile 2,Landline 1,Notes,Email 1\r\n")
	for r := 0; r*3 < n+10; r++ {
		a, c, d := r*3, r*3+1, r*3+2
		f := func(i int) string {
			if i >= n+10 {
				return ""
			}
			return phone.Format(number(i))
		}
		fmt.Fprintf(&b, "Owner %d,%s,Owner %d,%s,%s,%s,\"call %s or %s after 5\",o%d@example.com\r\n",
			r, number(a), r, f(a), f(c), f(d), f(a), number(d), r)
	}
	return testlists.WriteFile(t, "trace.csv", b.String())
}

// numbersIn lists every valid number written in some cell: in each run of
// digits and phone punctuation, every 10-digit window.
func numbersIn(rows [][]string) map[string]bool {
	out := map[string]bool{}
	for _, r := range rows {
		for _, v := range r {
			for _, run := range strings.FieldsFunc(v, func(c rune) bool { return !strings.ContainsRune("0123456789 ()-.+/", c) }) {
				var d []byte
				for i := 0; i < len(run); i++ {
					if run[i] >= '0' && run[i] <= '9' {
						d = append(d, run[i])
					}
				}
				for i := 0; i+10 <= len(d); i++ {
					if k := phone.Key(string(d[i : i+10])); k != 0 {
						out[phone.KeyDigits(k)] = true
					}
				}
			}
		}
	}
	return out
}

func readOut(t *testing.T, path string) [][]string {
	t.Helper()
	if strings.HasSuffix(path, ".xlsx") {
		rows, err := openXLSX(t, path).GetRows("Results")
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	return readCSV(t, path)
}

// A DNC result whose flags are Y/N, 1/0, Yes/No or true/false, with "?"
// and blanks, never lets a flagged, unknown or invalid number into a
// callable export, alone or joined to a trace: in .csv and .xlsx, the
// number appears nowhere in the file, not even in the person's own columns
// or in notes.
func TestCallableExportNeverLeaks(t *testing.T) {
	const n = 120
	ctx := context.Background()
	callable := map[string]bool{}
	leftOut := map[string]bool{}
	for i := range n + 10 {
		if i < n && truthOf(i).callable() {
			callable[number(i)] = true
		} else {
			leftOut[number(i)] = true
		}
	}
	trace := writeSpelledTrace(t, n)
	for sp := range spellings {
		dnc := writeSpelledDNC(t, sp, n)
		for _, ext := range []string{"csv", "xlsx"} {
			for _, withTrace := range []bool{false, true} {
				name := fmt.Sprintf("%s %s trace=%v", spellings[sp].name, ext, withTrace)
				dst := filepath.Join(t.TempDir(), "callable."+ext)
				var err error
				if withTrace {
					_, err = ExportCallable(ctx, trace, dnc, dst, at(CallableOptions{OnlyCallable: true}))
				} else {
					_, err = ExportCallable(ctx, dnc, "", dst, at(CallableOptions{OnlyCallable: true}))
				}
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				rows := readOut(t, dst)
				found := numbersIn(rows)
				for num := range found {
					if !callable[num] {
						t.Errorf("%s: %s is in the file (truth %+v)", name, num, truthOf(indexOf(num)))
					}
				}
				// Every callable number is there: the test would pass on an
				// empty file otherwise.
				for num := range callable {
					if !found[num] {
						t.Errorf("%s: callable %s is missing", name, num)
					}
				}
				if withTrace {
					for _, r := range rows[1:] {
						if len(r) > 6 && r[6] != "" && strings.Contains(r[6], "call") {
							// Notes naming a left-out number are blanked, others kept.
							for num := range numbersIn([][]string{{r[6]}}) {
								if leftOut[num] {
									t.Errorf("%s: notes %q kept", name, r[6])
								}
							}
						}
					}
				}
			}
		}
	}
}

func indexOf(num string) int {
	var a, b int
	fmt.Sscanf(num[:3], "%d", &a)
	fmt.Sscanf(num[8:], "%d", &b)
	return (a-212)*100 + b
}

// PropStream's own flags (per-phone DNC, row-level Litigator) decide
// without a DNC result; a phone left out is blanked with its type and DNC
// columns.
func TestExportCallableOwnFlags(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "layout", "testdata", "propstream.csv"))
	if err != nil {
		t.Fatal(err)
	}
	p := testlists.WriteFile(t, "propstream.csv", string(src))
	dst := filepath.Join(t.TempDir(), "out.csv")
	rep, err := ExportCallable(context.Background(), p, "", dst, at(CallableOptions{OnlyCallable: true}))
	if err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, dst)
	h := rows[0]
	col := func(name string) int { return slices.Index(h, name) }
	if rep.Rows != 2 || len(rows) != 3 {
		t.Fatalf("%d rows: %q", rep.Rows, rows)
	}
	// Row 1 (John): phone 2 is on the DNC list: its number, type and DNC
	// columns are blank.
	john := rows[1]
	if john[col("Phone 1")] != "(512) 555-0101" || john[col("Phone 2")] != "" || john[col("Phone 2 Type")] != "" ||
		john[col("Phone 2 DNC")] != "" || john[col("Phone 2 callable")] != "" || john[col("Phone 1 callable")] != "yes" {
		t.Errorf("John's row: %q", john)
	}
	linda := rows[2]
	for _, c := range []string{"Phone 4", "Phone 4 Type", "Phone 4 DNC", "Phone 5", "Phone 5 Type"} {
		if linda[col(c)] != "" {
			t.Errorf("Linda's %s = %q, want blank", c, linda[col(c)])
		}
	}
	if linda[col("Phone 3")] != "(512) 555-0106" || linda[col("Litigator")] != "No" {
		t.Errorf("Linda's row: %q", linda)
	}
}

func TestExportWithFilters(t *testing.T) {
	src, _ := os.ReadFile(filepath.Join("..", "layout", "testdata", "propstream.csv"))
	p := testlists.WriteFile(t, "propstream.csv", string(src))
	dst := filepath.Join(t.TempDir(), "out.csv")
	fs, _ := jobs.ParseQuickFilters("mobile,not-litigator")
	if _, err := ExportCallable(context.Background(), p, "", dst, at(CallableOptions{Filters: fs})); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range readCSV(t, dst)[1:] {
		nums := numbersIn([][]string{r})
		var ks []string
		for k := range nums {
			ks = append(ks, k[6:])
		}
		slices.Sort(ks)
		got = append(got, strings.Join(ks, ","))
	}
	// Mary's row has a litigator: dropped. Robert's litigator flag is
	// blank: unknown, dropped.
	want := []string{"0101", "0104,0105,0109"}
	if !slices.Equal(got, want) {
		t.Errorf("phones kept %q, want %q", got, want)
	}
	tr := testlists.WriteFile(t, "trace.csv", callableTrace)
	fs, _ = jobs.ParseQuickFilters("matched,mobile")
	dst2 := filepath.Join(t.TempDir(), "m.csv")
	if _, err := ExportCallable(context.Background(), tr, "", dst2, CallableOptions{Filters: fs}); err != nil {
		t.Fatalf("filters without flags: %v", err)
	}
	if rows := readCSV(t, dst2); len(rows) != 3 || len(rows[0]) != 6 {
		t.Errorf("matched,mobile without flags: %q", rows)
	}
}

// A cell of several numbers is written in a callable list with its kept
// numbers alone, never blanked whole for one left out nor kept with one
// that may not be called.
func TestExportCallableSeveralNumbersACell(t *testing.T) {
	trace := "first_name,phone_1,phone_1_type,other_phones,match_status\r\n" +
		"A,2125550101,mobile,\"2125550104, 2125550102; (212) 555-0103\",matched\r\n" + // 0104 clean, 0102 DNC, 0103 litigator
		"B,2125550104,mobile,2125550199 | 2125550101,matched\r\n" + // 0199 not scrubbed
		"C,,,555-0110 / 2125550104,matched\r\n" // not a number, then 0104
	_, dst := exportScrubbed(t, trace, callableDNC, "callable.csv", CallableOptions{OnlyCallable: true})
	got := readCSV(t, dst)
	col := slices.Index(got[0], "other_phones")
	if col < 0 {
		t.Fatalf("no other_phones column: %q", got[0])
	}
	var cells []string
	for _, r := range got[1:] {
		cells = append(cells, r[col])
	}
	want := []string{"2125550104", "2125550101", "2125550104"}
	if !slices.Equal(cells, want) {
		t.Errorf("other_phones written %q, want %q", cells, want)
	}
	for _, r := range got[1:] {
		for _, c := range r {
			for _, n := range []string{"2125550102", "555-0103", "2125550199", "555-0110"} {
				if strings.Contains(c, n) {
					t.Errorf("%s written in %q", n, r)
				}
			}
		}
	}
}
