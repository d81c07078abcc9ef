package export

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// A trace of owners across states, each phone clean, for the time rule.
const timeTrace = "First Name,Last Name,Property Address,Property City,Property State,Property Zip,Mailing State,Mailing Zip,Phone 1,Phone 1 Type,Phone 2,Phone 2 Type\r\n" +
	"Ann,Able,1 Elm St,Dallas,TX,75201,TX,75201,2145550101,mobile,5045550102,landline\r\n" +
	"Bo,Bell,2 Oak St,Miami,FL,33101,FL,33101,3055550103,mobile,,\r\n" +
	"Cy,Cole,3 Ash St,Mobile,AL,36602,GA,30301,2055550104,landline,,\r\n" +
	"Di,Dunn,4 Bay St,New Orleans,LA,70112,NY,10001,2125550105,landline,,\r\n"

const timeDNC = "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"2145550101,2145550101,false,false,mobile,ok\r\n" +
	"5045550102,5045550102,false,false,landline,ok\r\n" +
	"3055550103,3055550103,false,false,mobile,ok\r\n" +
	"2055550104,2055550104,false,false,landline,ok\r\n" +
	"2125550105,2125550105,false,false,landline,ok\r\n"

// windowsOf reads each kept phone's number and its three time columns.
func windowsOf(t *testing.T, rows [][]string) []string {
	t.Helper()
	h := rows[0]
	var out []string
	for _, r := range rows[1:] {
		for _, slot := range []string{"Phone 1", "Phone 2"} {
			i := slices.Index(h, slot)
			if i < 0 || r[i] == "" {
				continue
			}
			z, f, u := slices.Index(h, slot+" time zone"), slices.Index(h, slot+" call from"), slices.Index(h, slot+" call until")
			out = append(out, r[i]+" "+r[f]+"–"+r[u]+" "+r[z])
		}
	}
	return out
}

// TestExportWindows: without an instant no phone is left out for the time
// rule, and every kept phone carries its window on the export's day (a
// Wednesday in June), each location's rules at its own time (worked by
// hand from data/rules.csv of package calltime).
func TestExportWindows(t *testing.T) {
	rep, dst := exportScrubbed(t, timeTrace, timeDNC, "callable.csv", CallableOptions{OnlyCallable: true})
	want := []string{
		"2145550101 09:00–21:00 CT", // Texas, Monday to Saturday
		"5045550102 09:00–20:00 CT", // Louisiana's 8–8 and the Texas owner's 9–9
		"3055550103 08:00–20:00 ET", // Florida
		"2055550104 08:00–20:00 CT", // Alabama 8–8 CT; the Georgia mailing address 8–9 ET
		"2125550105 09:00–21:00 ET", // New York 8–9 ET; the Louisiana property 8–8 CT
	}
	if got := windowsOf(t, readCSV(t, dst)); !slices.Equal(got, want) {
		t.Errorf("windows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Phones.Kept != 5 || rep.Phones.LeftOut() != 0 {
		t.Errorf("kept %d, left out %v", rep.Phones.Kept, rep.Phones.Left)
	}
}

// TestExportCallableAt: at 1 p.m. CDT on a Sunday, Louisiana's and
// Alabama's phones (by area code or by the owner's address) are left out
// and counted per reason; Texas's Sunday window (noon) and Florida's are
// open. The proof names the rules version, the instant and the reasons.
func TestExportCallableAt(t *testing.T) {
	sunday := time.Date(2026, 6, 14, 18, 0, 0, 0, time.UTC)
	proof := &Proof{}
	rep, dst := exportScrubbed(t, timeTrace, timeDNC, "callable.csv", CallableOptions{OnlyCallable: true, CallableAt: sunday, Proof: proof})
	want := []string{"2145550101 12:00–21:00 CT", "3055550103 08:00–20:00 ET"}
	if got := windowsOf(t, readCSV(t, dst)); !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	prefix := "not callable at 2026-06-14T18:00:00Z: "
	wantLeft := map[string]int{prefix + "no calls on Sunday in LA": 2, prefix + "no calls on Sunday in AL": 1}
	if !maps.Equal(rep.Phones.Left, wantLeft) || rep.Phones.Kept != 2 {
		t.Errorf("left out %v, kept %d", rep.Phones.Left, rep.Phones.Kept)
	}
	if proof.RulesVersion == "" || !proof.CallableAt.Equal(sunday) || proof.TimeLeft["no calls on Sunday in LA"] != 2 ||
		proof.DialingMode != "manual" || !strings.Contains(proof.Keep, "5 years") {
		t.Errorf("proof: version %q at %v left %v mode %q keep %q", proof.RulesVersion, proof.CallableAt, proof.TimeLeft, proof.DialingMode, proof.Keep)
	}
	var lines []string
	for _, l := range proof.lines(true) {
		lines = append(lines, l.label+" "+l.value)
	}
	text := strings.Join(lines, "\n")
	for _, w := range []string{"Rules table version " + proof.RulesVersion, "Callable at 2026-06-14T18:00:00Z",
		"left out: no calls on Sunday in AL 1", "Dialing mode manual", "never deletes proofs"} {
		if !strings.Contains(text, w) {
			t.Errorf("the proof lacks %q:\n%s", w, text)
		}
	}
}

// TestExportPreset: a callable list shaped by a preset, split by its
// rows-per-file limit into whole files each with the header, every part
// named in the proof.
func TestExportPreset(t *testing.T) {
	trace := testlists.WriteFile(t, "trace.csv", timeTrace)
	dnc := dated(t, testlists.WriteFile(t, "dnc.csv", timeDNC))
	p, err := dialer.Parse([]byte(`name = "Small"
format = 1
phone_format = "e164"
rows = "per-phone"
max_rows = 2
notes = "call {call_from}–{call_until} {time_zone}; valid until {valid_until}"
[[columns]]
header = "Name"
value = "full_name"
[[columns]]
header = "Phone"
value = "phone"
[[columns]]
header = "Notes"
value = "notes"
`), "small.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".csv", ".xlsx"} {
		dst := filepath.Join(t.TempDir(), "dialer"+ext)
		proof := &Proof{}
		rep, err := ExportCallable(context.Background(), trace, dnc, dst, at(CallableOptions{OnlyCallable: true, Preset: p, Proof: proof}))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Rows != 5 || len(rep.Parts) != 3 || len(proof.Parts) != 3 || proof.Preset != "Small" {
			t.Fatalf("%s: rows %d parts %v proof parts %v", ext, rep.Rows, rep.Parts, proof.Parts)
		}
		var all [][]string
		for i, part := range rep.Parts {
			rows := readAny(t, part)
			if !slices.Equal(rows[0], []string{"Name", "Phone", "Notes"}) {
				t.Errorf("%s part %d header %q", ext, i+1, rows[0])
			}
			all = append(all, rows[1:]...)
		}
		want := [][]string{
			{"Ann Able", "+12145550101", "call 09:00–21:00 CT; valid until 2026-07-10"},
			{"Ann Able", "+15045550102", "call 09:00–20:00 CT; valid until 2026-07-10"},
			{"Bo Bell", "+13055550103", "call 08:00–20:00 ET; valid until 2026-07-10"},
			{"Cy Cole", "+12055550104", "call 08:00–20:00 CT; valid until 2026-07-10"},
			{"Di Dunn", "+12125550105", "call 09:00–21:00 ET; valid until 2026-07-10"},
		}
		if !slices.EqualFunc(all, want, slices.Equal) {
			t.Errorf("%s rows\n%q\nwant\n%q", ext, all, want)
		}
		if _, err := os.Stat(dst); err == nil || rep.Path != rep.Parts[0] || rep.Parts[0] != strings.TrimSuffix(dst, ext)+" (part 1 of 3)"+ext {
			t.Errorf("%s: path %s, first part %s; %s exists: %v", ext, rep.Path, rep.Parts[0], dst, err == nil)
		}
		if _, err := os.Stat(ProofName(dst)); err != nil || proof.Output.Name != filepath.Base(rep.Parts[0]) {
			t.Errorf("%s: proof %s (%v) names %s", ext, ProofName(dst), err, proof.Output.Name)
		}
	}
}

// readAny reads a CSV or the first sheet of an .xlsx.
func readAny(t *testing.T, path string) [][]string {
	t.Helper()
	if strings.HasSuffix(path, ".csv") {
		return readCSV(t, path)
	}
	f := openXLSX(t, path)
	rows, err := f.GetRows(f.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A trace of landlines in the states where any autodialed call needs
// written consent (FL by area code, OK by area code and address, MD by the
// owner's mailing address) and one in Texas, which has no such row.
const consentTrace = "First Name,Last Name,Property State,Property Zip,Mailing State,Mailing Zip,Phone 1,Phone 1 Type\r\n" +
	"Ann,Able,TX,75201,TX,75201,2145550101,landline\r\n" +
	"Bo,Bell,FL,33101,FL,33101,3055550103,landline\r\n" +
	"Cy,Cole,OK,73102,OK,73102,4055550106,landline\r\n" +
	"Di,Dunn,NY,10001,MD,21201,2125550105,landline\r\n"

const consentDNC = "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"2145550101,2145550101,false,false,landline,ok\r\n" +
	"3055550103,3055550103,false,false,landline,ok\r\n" +
	"4055550106,4055550106,false,false,landline,ok\r\n" +
	"2125550105,2125550105,false,false,landline,ok\r\n"

// TestExportAutodialedConsent: when the dialing mode autodials, a phone
// any of whose states requires written consent for every autodialed call
// is left out, counted per state's row and named in the proof; dialed by
// hand, every one is kept.
func TestExportAutodialedConsent(t *testing.T) {
	trace := testlists.WriteFile(t, "trace.csv", consentTrace)
	dnc := dated(t, testlists.WriteFile(t, "dnc.csv", consentDNC))
	dst := filepath.Join(t.TempDir(), "callable.csv")
	proof := &Proof{}
	rep, err := ExportCallable(context.Background(), trace, dnc, dst, at(CallableOptions{OnlyCallable: true, LeaveOutMobiles: true, Proof: proof}))
	if err != nil {
		t.Fatal(err)
	}
	if got := windowsOf(t, readCSV(t, dst)); len(got) != 1 || !strings.HasPrefix(got[0], "2145550101 ") {
		t.Errorf("kept %q, want the Texas landline alone", got)
	}
	wantLeft := map[string]int{
		"autodialed: written consent needed in FL (Fla. Stat. § 501.059(8)(a))":    1,
		"autodialed: written consent needed in OK (Okla. Stat. tit. 15, § 775C.4)": 1,
		"autodialed: written consent needed in MD (Md. Code, Com. Law § 14-4503)":  1,
	}
	if !maps.Equal(rep.Phones.Left, wantLeft) || !maps.Equal(proof.TimeLeft, wantLeft) {
		t.Errorf("left out %v (proof %v), want %v", rep.Phones.Left, proof.TimeLeft, wantLeft)
	}
	if !strings.HasPrefix(proof.DialingMode, "autodialed") {
		t.Errorf("dialing mode %q", proof.DialingMode)
	}
	rep, err = ExportCallable(context.Background(), trace, dnc, filepath.Join(t.TempDir(), "manual.csv"), at(CallableOptions{OnlyCallable: true}))
	if err != nil || rep.Phones.Kept != 4 || rep.Phones.LeftOut() != 0 {
		t.Fatalf("dialed by hand: kept %d, left %v, %v", rep.Phones.Kept, rep.Phones.Left, err)
	}
}

// TestExportCallLogCap: a number called as many times as its state's cap
// in the 24 hours before (FL: 3) is left out; a Texas number called more
// (no cap) and an Oklahoma number called fewer times are kept.
func TestExportCallLogCap(t *testing.T) {
	proof := &Proof{}
	calls := map[string]int{"3055550103": 3, "2145550101": 5, "4055550106": 2}
	rep, _ := exportScrubbed(t, consentTrace, consentDNC, "callable.csv", CallableOptions{OnlyCallable: true, Calls: calls, CallLog: "calls.csv", Proof: proof})
	want := map[string]int{"reached the cap of 3 calls in 24 hours in FL (Fla. Stat. § 501.616(6)(b))": 1}
	if !maps.Equal(rep.Phones.Left, want) || rep.Phones.Kept != 3 {
		t.Errorf("left out %v, kept %d; want %v and 3", rep.Phones.Left, rep.Phones.Kept, want)
	}
	var text []string
	for _, l := range proof.lines(true) {
		text = append(text, l.label+" "+l.value)
	}
	if !strings.Contains(strings.Join(text, "\n"), "Call log calls.csv") {
		t.Errorf("the proof does not name the call log:\n%s", strings.Join(text, "\n"))
	}
}

// A DNC result whose vendor sends each number's calling time: a window, a
// UTC offset, "do not call today", a window it wrote so that it cannot be
// read.
const vendorDNC = "phone,phone_normalized,dnc,litigator,line_type,status,Calling Window,UTC Offset,Do Not Call Today\r\n" +
	"2145550101,2145550101,false,false,mobile,ok,10:00 AM - 6:00 PM,,\r\n" +
	"5045550102,5045550102,false,false,landline,ok,,,Y\r\n" +
	"3055550103,3055550103,false,false,mobile,ok,,-8,\r\n" +
	"2055550104,2055550104,false,false,landline,ok,soon,,\r\n" +
	"2125550105,2125550105,false,false,landline,ok,,,N\r\n"

// TestExportVendorTime: what a DNC vendor says of a phone's calling time
// narrows its window, never widens it; at 3 p.m. CDT on the day of the
// scrub (Tuesday 2026-06-09), "do not call today" and a value that cannot
// be read leave their phones out. Worked by hand: Texas 9–21 CT and the
// vendor's 10–18 give 10–18 CT; Florida 8–20 ET and Florida's rows at the
// vendor's UTC−8 (8–20 there: 12:00–24:00 EDT) give 12–20 ET; New York's
// phone with its Louisiana property, 9–21 ET as without a vendor.
func TestExportVendorTime(t *testing.T) {
	instant := time.Date(2026, 6, 9, 15, 0, 0, 0, time.FixedZone("CDT", -5*3600))
	rep, dst := exportScrubbed(t, timeTrace, vendorDNC, "callable.csv", CallableOptions{OnlyCallable: true, CallableAt: instant})
	want := []string{"2145550101 10:00–18:00 CT", "3055550103 12:00–20:00 ET", "2125550105 09:00–21:00 ET"}
	if got := windowsOf(t, readCSV(t, dst)); !slices.Equal(got, want) {
		t.Errorf("kept\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Phones.Kept != 3 || rep.Phones.LeftOut() != 2 {
		t.Fatalf("kept %d, left out %v", rep.Phones.Kept, rep.Phones.Left)
	}
	var noCall, unread bool
	for r := range rep.Phones.Left {
		noCall = noCall || strings.Contains(r, "the DNC vendor said not to call that day")
		unread = unread || strings.Contains(r, "the DNC vendor's value could not be read")
	}
	if !noCall || !unread {
		t.Errorf("reasons %v: want the vendor's day and its unread value named", rep.Phones.Left)
	}
}
