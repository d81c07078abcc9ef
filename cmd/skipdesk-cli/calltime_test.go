package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// A trace of owners across states, every phone clean, scrubbed yesterday.
const timeTrace = "First Name,Last Name,Property Address,Property City,Property State,Property Zip,Phone 1,Phone 1 Type,Phone 2,Phone 2 Type\r\n" +
	"Ann,Able,1 Elm St,Dallas,TX,75201,2145550101,mobile,5045550102,landline\r\n" +
	"Bo,Bell,2 Oak St,Miami,FL,33101,3055550103,mobile,,\r\n" +
	"Cy,Cole,3 Ash St,Mobile,AL,36602,2055550104,landline,,\r\n"

const timeDNC = "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"2145550101,2145550101,false,false,mobile,ok\r\n" +
	"5045550102,5045550102,false,false,landline,ok\r\n" +
	"3055550103,3055550103,false,false,mobile,ok\r\n" +
	"2055550104,2055550104,false,false,landline,ok\r\n"

func writeTimeTrace(t *testing.T) (trace, dnc string) {
	t.Helper()
	dir := t.TempDir()
	trace, dnc = filepath.Join(dir, "owners.csv"), filepath.Join(dir, "owners phones.csv")
	os.WriteFile(trace, []byte(timeTrace), 0o644)
	os.WriteFile(dnc, []byte(timeDNC), 0o644)
	b, _ := json.Marshal(library.Meta{JobID: "dnc_t", Kind: jobs.KindDNC, CompletedAt: time.Now().Add(-24 * time.Hour)})
	if err := os.WriteFile(library.RecordPath(dnc), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return trace, dnc
}

// column is a column's values under its header.
func column(rows [][]string, header string) []string {
	i := slices.Index(rows[0], header)
	var out []string
	for _, r := range rows[1:] {
		if i >= 0 && i < len(r) {
			out = append(out, r[i])
		} else {
			out = append(out, "")
		}
	}
	return out
}

// TestCLICallableAt: `export --only-callable --callable-at` leaves out the
// phones that may not be called at the instant and says why per reason; in
// CSV and XLSX each phone carries its time zone and window (the called
// person's local HH:MM); without the instant no phone is left out for it.
func TestCLICallableAt(t *testing.T) {
	trace, dnc := writeTimeTrace(t)
	for _, ext := range []string{".csv", ".xlsx"} {
		dst := filepath.Join(t.TempDir(), "callable"+ext)
		// Sunday 2026-06-14, 1 p.m. CDT: Texas is open from noon, Louisiana
		// and Alabama are closed on Sundays.
		code, out, errOut := runCLI(t, "export", trace, "--dnc", dnc, "--only-callable", "--callable-at", "2026-06-14T13:00:00-05:00", "--out", dst)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", ext, code, errOut)
		}
		wantLines(t, ext+": output", out, "phones kept: 2; left out: ", "no calls on Sunday in LA", "no calls on Sunday in AL", "proof of scrub: ")
		rows := readRows(t, dst)
		got := strings.Join(slices.Concat(column(rows, "Phone 1"), column(rows, "Phone 1 time zone"), column(rows, "Phone 1 call from"),
			column(rows, "Phone 1 call until"), column(rows, "Phone 2")), "|")
		if want := "2145550101|3055550103|CT|ET|12:00|08:00|21:00|20:00||"; got != want {
			t.Errorf("%s: %s, want %s", ext, got, want)
		}
	}
	dst := filepath.Join(t.TempDir(), "all.csv")
	code, out, errOut := runCLI(t, "export", trace, "--dnc", dnc, "--only-callable", "--out", dst)
	if code != 0 || strings.Contains(out, "left out") || len(readRows(t, dst)) != 4 {
		t.Fatalf("without --callable-at: exit %d %q %q", code, out, errOut)
	}
}

// TestCLICallLog: `export --only-callable --call-log` leaves out a Florida
// number called three times in the 24 hours before the instant (its
// state's cap) and says why; a Texas number called as often is kept (no
// cap there); the option needs a callable list.
func TestCLICallLog(t *testing.T) {
	trace, dnc := writeTimeTrace(t)
	calls := filepath.Join(t.TempDir(), "calls.csv")
	log := "Phone,Date,Time\r\n(305) 555-0103,2026-06-15,08:00\r\n(305) 555-0103,2026-06-15,09:00\r\n305-555-0103,2026-06-15,10:00\r\n" +
		"2145550101,2026-06-15,08:00\r\n2145550101,2026-06-15,09:00\r\n2145550101,2026-06-15,10:00\r\n3055550103,2026-06-13,10:00\r\n"
	if err := os.WriteFile(calls, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "callable.csv")
	out := runOK(t, "export", trace, "--dnc", dnc, "--only-callable", "--callable-at", "2026-06-15T12:00:00-05:00",
		"--call-log", calls, "--out", dst)
	if !strings.Contains(out, "reached the cap of 3 calls in 24 hours in FL") {
		t.Errorf("output does not say why the Florida number is left out:\n%s", out)
	}
	phones := column(readRows(t, dst), "Phone 1")
	if slices.Contains(phones, "3055550103") || !slices.Contains(phones, "2145550101") {
		t.Errorf("phones %q: want the Florida number left out and the Texas one kept", phones)
	}
	code, _, errOut := runCLI(t, "export", trace, "--dnc", dnc, "--call-log", calls, "--out", filepath.Join(t.TempDir(), "plain.csv"))
	if code == 0 || !strings.Contains(errOut, "--call-log caps the calls of a callable list") {
		t.Errorf("--call-log without a callable list: exit %d, %q", code, errOut)
	}
}

// TestCLIFilterCallableNow: `--filter callable-now` is a callable list
// judged at an instant (the export's, or --callable-at): the same phones
// as --only-callable at that instant, with its proof.
func TestCLIFilterCallableNow(t *testing.T) {
	trace, dnc := writeTimeTrace(t)
	dst := filepath.Join(t.TempDir(), "now.csv")
	out := runOK(t, "export", trace, "--dnc", dnc, "--filter", "callable-now", "--callable-at", "2026-06-14T13:00:00-05:00", "--out", dst)
	wantLines(t, "output", out, "phones kept: 2; left out: ", "no calls on Sunday in LA", "proof of scrub: ")
	if got := strings.Join(column(readRows(t, dst), "Phone 1"), "|"); got != "2145550101|3055550103" {
		t.Errorf("phones %s, want those --only-callable keeps at that instant", got)
	}
}

// TestCLIPreset: `--preset` writes the callable list in a dialer's
// layout; `export --list-presets` names them.
func TestCLIPreset(t *testing.T) {
	trace, dnc := writeTimeTrace(t)
	dst := filepath.Join(t.TempDir(), "calltools.csv")
	runOK(t, "export", trace, "--dnc", dnc, "--only-callable", "--preset", "calltools", "--out", dst)
	rows := readRows(t, dst)
	if want := "first name|last name|address|city|state|zip|phone|time zone|call from|call until|notes"; strings.Join(rows[0], "|") != want {
		t.Errorf("header %q", rows[0])
	}
	if got := strings.Join(column(rows, "phone"), " "); got != "2145550101 5045550102 3055550103 2055550104" {
		t.Errorf("phones %s", got)
	}
	dst = filepath.Join(t.TempDir(), "ghl.xlsx")
	runOK(t, "export", trace, "--dnc", dnc, "--only-callable", "--preset", "GoHighLevel", "--out", dst)
	rows = readRows(t, dst)
	if got := strings.Join(column(rows, "Phone"), " ") + " / " + strings.Join(column(rows, "Additional Phone"), " "); got != "+12145550101 +13055550103 +12055550104 / +15045550102  " {
		t.Errorf("GoHighLevel phones %q", got)
	}
	code, out, _ := runCLI(t, "export", "--list-presets")
	for _, id := range []string{"gohighlevel", "mojo", "calltools", "readymode", "podio", "smarter-contact", "reisift", "generic-wide", "generic-long"} {
		if code != 0 || !strings.Contains(out, id) {
			t.Errorf("--list-presets lacks %s: %q", id, out)
		}
	}
}

func TestCLICallingTimeUsage(t *testing.T) {
	trace, dnc := writeTimeTrace(t)
	dst := filepath.Join(t.TempDir(), "x.csv")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"export", trace, "--dnc", dnc, "--only-callable", "--callable-at", "tomorrow", "--out", dst}, exitUsage, "RFC 3339"},
		{[]string{"export", trace, "--dnc", dnc, "--preset", "mojo", "--out", dst}, exitUsage, "--only-callable"},
		{[]string{"export", trace, "--dnc", dnc, "--only-callable", "--preset", "dialomatic", "--out", dst}, exitFailure, "there are: calltools"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d mentioning %q", tc.args[5:], code, errOut, tc.code, tc.msg)
		}
	}
}

// TestCLIOptOuts: an SMS tool's replies export goes on the internal list
// with each opt-out's deadline; `rules` prints the table.
func TestCLIOptOuts(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	out := runOK(t, "dnc-list", "opt-outs", filepath.Join("..", "..", "jobs", "optout", "testdata", "sms-replies.csv"), "--zone", "America/New_York")
	wantLines(t, "output", out, "read as SMS replies", "(305) 555-0100  STOP", "2026-12-07  2031-11-20", "2036-11-21", "added 7", "1 messages sent (not replies) passed over", "not imported: line 9")
	code, out, _ := runCLI(t, "dnc-list")
	if code != 0 || !strings.Contains(out, "honour by 2026-12-07; kept under") || !strings.Contains(out, "2031-11-20") {
		t.Errorf("the list: %q", out)
	}
	// The keep-until date is the list's data: a removal before it is refused.
	code, _, errOut := runCLI(t, "dnc-list", "remove", "305-555-0100", "--reason", "the owner asked")
	if code == 0 || !strings.Contains(errOut, "may not come off the internal do-not-call list before 2031-11-20") {
		t.Errorf("removing a kept opt-out: exit %d, %q", code, errOut)
	}
	code, out, _ = runCLI(t, "rules")
	if code != 0 || !strings.Contains(out, "Calling rules, version") || !strings.Contains(out, "Fla. Stat. § 501.616(6)(a)") {
		t.Errorf("rules: %d %q", code, out[:min(len(out), 200)])
	}
}

// --call-log-zone names the zone of a call log's times; a zone that is
// not one, or the option without a log, is refused.
func TestCLICallLogZone(t *testing.T) {
	trace, dnc := writeTimeTrace(t)
	calls := filepath.Join(t.TempDir(), "calls.csv")
	log := "Phone,Call Time\r\n3055550103,2026-06-15 15:00\r\n3055550103,2026-06-15 16:00\r\n3055550103,2026-06-15 16:30\r\n"
	if err := os.WriteFile(calls, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "callable.csv")
	// Written in UTC: 10:00 to 11:30 in Chicago, before the instant.
	out := runOK(t, "export", trace, "--dnc", dnc, "--only-callable", "--callable-at", "2026-06-15T12:00:00-05:00",
		"--call-log", calls, "--call-log-zone", "UTC", "--out", dst)
	if !strings.Contains(out, "reached the cap of 3 calls in 24 hours in FL") {
		t.Errorf("output does not say why the Florida number is left out:\n%s", out)
	}
	for _, args := range [][]string{{"--call-log", calls, "--call-log-zone", "Mars/Olympus"}, {"--call-log-zone", "UTC"}} {
		code, _, errOut := runCLI(t, append([]string{"export", trace, "--dnc", dnc, "--only-callable", "--out", filepath.Join(t.TempDir(), "x.csv")}, args...)...)
		if code == 0 || !strings.Contains(errOut, "--call-log-zone") {
			t.Errorf("%q: exit %d, %q", args, code, errOut)
		}
	}
}
