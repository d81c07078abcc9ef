package main

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

const cliDNC = "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"2125550147,2125550147,false,false,mobile,ok\r\n" +
	"3125550100,3125550100,false,false,landline,ok\r\n"

// writeScrubbedTrace writes cliTrace and a DNC result of its phones whose
// job completed at done.
func writeScrubbedTrace(t *testing.T, done time.Time) (trace, dnc string) {
	t.Helper()
	dir := t.TempDir()
	trace = filepath.Join(dir, "owners.csv")
	dnc = filepath.Join(dir, "owners phones.csv")
	os.WriteFile(trace, []byte(cliTrace), 0o644)
	os.WriteFile(dnc, []byte(cliDNC), 0o644)
	b, _ := json.Marshal(library.Meta{JobID: "dnc_77", Kind: jobs.KindDNC, Name: "owners phones.csv", CompletedAt: done})
	if err := os.WriteFile(library.RecordPath(dnc), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return trace, dnc
}

// The internal list from the command line: added, listed, removed with a
// reason, its history kept; a number on it is in no callable export.
func TestCLIInternalList(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	code, out, errOut := runCLI(t, "dnc-list", "add", "(212) 555-0147", "555-01", "--reason", "asked on a call")
	if code != 0 || !strings.Contains(out, "added 1") || !strings.Contains(out, "not a valid number, left out: 555-01") {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "dnc-list")
	if code != 0 || !strings.Contains(out, "(212) 555-0147") || !strings.Contains(out, "asked on a call") || !strings.Contains(out, "by hand") {
		t.Fatalf("list: %d %q", code, out)
	}
	// An argument of several numbers is read as a paste is.
	code, out, errOut = runCLI(t, "dnc-list", "add", "212-555-0148; 212-555-0149", "--reason", "asked")
	if code != 0 || !strings.Contains(out, "added 2") {
		t.Fatalf("add two in one argument: %d %q %q", code, out, errOut)
	}

	trace, dnc := writeScrubbedTrace(t, time.Now().Add(-48*time.Hour))
	for _, ext := range []string{".csv", ".xlsx"} {
		dst := filepath.Join(t.TempDir(), "callable"+ext)
		code, out, errOut = runCLI(t, "export", trace, "--dnc", dnc, "--only-callable", "--out", dst)
		if code != 0 || !strings.Contains(out, "proof of scrub: ") {
			t.Fatalf("export: %d %q %q", code, out, errOut)
		}
		got := numbersInFile(t, dst)
		if got["2125550147"] || !got["3125550100"] {
			t.Errorf("%s: numbers written %v: the internal list's number is in it", ext, got)
		}
		if _, err := os.Stat(strings.TrimSuffix(dst, ext) + " proof.pdf"); err != nil {
			t.Errorf("no proof beside the export: %v", err)
		}
	}

	// Files in, files out.
	in := filepath.Join(t.TempDir(), "complaints.csv")
	os.WriteFile(in, []byte("Name,Phone\r\nAnn,312-555-0100\r\nBob,n/a\r\n"), 0o644)
	if code, out, errOut := runCLI(t, "dnc-list", "import", in, "--reason", "complaints"); code != 0 || !strings.Contains(out, "added 1") {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	csvOut := filepath.Join(t.TempDir(), "list.csv")
	if code, out, _ := runCLI(t, "dnc-list", "export", csvOut); code != 0 || !strings.Contains(out, "4 numbers") {
		t.Fatalf("export the list: %d %q", code, out)
	}
	b, _ := os.ReadFile(csvOut)
	if !strings.Contains(string(b), "3125550100") || !strings.Contains(string(b), "file complaints.csv") {
		t.Errorf("the list's file: %s", b)
	}

	// A removal needs a reason; the history keeps both.
	if code, _, errOut := runCLI(t, "dnc-list", "remove", "2125550147"); code != exitUsage || !strings.Contains(errOut, "--reason") {
		t.Errorf("remove without a reason: %d %q", code, errOut)
	}
	if code, out, _ := runCLI(t, "dnc-list", "remove", "2125550147", "--reason", "wrong number"); code != 0 || !strings.Contains(out, "off the internal") {
		t.Fatalf("remove: %d %q", code, out)
	}
	if code, _, _ := runCLI(t, "dnc-list", "remove", "2125550147", "--reason", "again"); code != exitUsage {
		t.Errorf("removing a number not on the list: %d", code)
	}
	code, out, _ = runCLI(t, "dnc-list", "history", "212 555 0147")
	if code != 0 || !strings.Contains(out, "added") || !strings.Contains(out, "removed") || !strings.Contains(out, "wrong number") {
		t.Errorf("history: %d %q", code, out)
	}
}

// A DNC result whose job completed more than 31 days ago: the callable
// export fails, naming that date, and writes nothing.
func TestCLIExportRefusesAStaleScrub(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	done := time.Now().AddDate(0, 0, -45)
	trace, dnc := writeScrubbedTrace(t, done)
	dir := t.TempDir()
	dst := filepath.Join(dir, "callable.xlsx")
	code, out, errOut := runCLI(t, "export", trace, "--dnc", dnc, "--only-callable", "--out", dst)
	if code != exitFailure || !strings.Contains(errOut, done.Local().Format("Jan 2, 2006")) || !strings.Contains(errOut, "more than 31 days old") ||
		!strings.Contains(errOut, "--leave-out-stale") {
		t.Fatalf("a 45-day-old scrub: %d %q %q", code, out, errOut)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("written anyway: %v", ents)
	}
	// The numbers to scrub again are listed for a DNC job of just those.
	i := strings.Index(errOut, "listed in ")
	if i < 0 {
		t.Fatalf("no list of the stale numbers: %q", errOut)
	}
	list := errOut[i+len("listed in "):]
	list = list[:strings.Index(list, ".csv")+4]
	b, err := os.ReadFile(list)
	if err != nil || !strings.Contains(string(b), "2125550147") || !strings.Contains(string(b), "3125550100") {
		t.Errorf("the stale numbers' list %s: %q %v", list, b, err)
	}
	// Every phone rests on that scrub: left out, none is left, and an
	// empty list is refused (exit 1), never written as if it were one.
	code, _, errOut = runCLI(t, "export", trace, "--dnc", dnc, "--only-callable", "--leave-out-stale", "--out", dst)
	if code != exitFailure || !strings.Contains(errOut, "no phone may be called (2 scrub over 31 days old)") {
		t.Errorf("--leave-out-stale: %d %q", code, errOut)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("an empty callable list was written: %v", err)
	}
}

// The export never replaces a file, nor a callable list's proof beside it,
// without --force, and says so; with --force it does.
func TestCLIExportAsksBeforeReplacing(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	trace, dnc := writeScrubbedTrace(t, time.Now().Add(-48*time.Hour))
	dir := t.TempDir()
	dst := filepath.Join(dir, "callable.csv")
	proof := filepath.Join(dir, "callable proof.pdf")
	args := []string{"export", trace, "--dnc", dnc, "--only-callable", "--out", dst}
	for _, there := range []string{dst, proof} {
		os.WriteFile(there, []byte("the person's own file"), 0o644)
		code, _, errOut := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(errOut, there+" already exists") || !strings.Contains(errOut, "--force") {
			t.Fatalf("with %s there: %d %q", filepath.Base(there), code, errOut)
		}
		for _, p := range []string{dst, proof} {
			if b, err := os.ReadFile(p); err == nil && string(b) != "the person's own file" {
				t.Fatalf("%s was replaced", p)
			}
		}
		os.Remove(there)
	}
	os.WriteFile(dst, []byte("the person's own file"), 0o644)
	os.WriteFile(proof, []byte("the person's own file"), 0o644)
	if code, _, errOut := runCLI(t, append(args, "--force")...); code != 0 {
		t.Fatalf("--force: %d %q", code, errOut)
	}
	if got := numbersInFile(t, dst); !got["3125550100"] {
		t.Errorf("--force did not write the list: %v", got)
	}
	if b, _ := os.ReadFile(proof); !strings.HasPrefix(string(b), "%PDF") {
		t.Error("--force did not write the proof")
	}
}

// numbersInFile are the valid numbers written anywhere in a .csv or .xlsx.
func numbersInFile(t *testing.T, path string) map[string]bool {
	t.Helper()
	text := ""
	if strings.HasSuffix(path, ".xlsx") {
		// Every part of the workbook: its sheets, shared strings, all.
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			text += string(b)
		}
	} else {
		b, _ := os.ReadFile(path)
		text = string(b)
	}
	got := map[string]bool{}
	for _, n := range []string{"2125550147", "3125550100"} {
		if strings.Contains(text, n) {
			got[n] = true
		}
	}
	return got
}

// fourPhoneColumns is a CRM export with four phone columns (one whose
// header does not say so), a notes column with one number among words,
// and a name column.
const fourPhoneColumns = "Name,Phone,Cell,Wireless 2,Contact,Notes\r\n" +
	"Ann Lee,(512) 555-0101,512-555-0102,,2145550103,called twice\r\n" +
	"Bob Ray,5125550104,,512.555.0105,+1 214 555 0106,512-555-0199\r\n" +
	"Cy Dunn,,555-01,5125550107,2145550108,wrong number\r\n" +
	"Di Fox,5125550109,,,5125550101,left a message\r\n"

// dnc-list import reads all four phone columns of the file, prints its
// progress, every number not valid with its line and column, and every
// column it did not read with why; --column reads the columns named.
func TestCLIInternalImportFourPhoneColumns(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	in := filepath.Join(t.TempDir(), "crm.csv")
	os.WriteFile(in, []byte(fourPhoneColumns), 0o644)
	code, out, errOut := runCLI(t, "dnc-list", "import", in, "--reason", "CRM export")
	if code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	wantLines(t, "the report", out, "added 9 to the internal do-not-call list; 0 already on it; 1 repeated in the file; 1 not valid",
		`read column "Phone"`, `read column "Cell"`, `read column "Wireless 2"`, `read column "Contact": 4 numbers, 0 not valid`,
		`not read: column "Name" holds no phone number`, `not read: column "Notes" holds phone numbers in 1 of 4 values`,
		`not a valid number, left out: line 4, column "Cell": "555-01" (too short)`)
	if !strings.Contains(errOut, "adding: 9 of 9 numbers (100%)") || !strings.Contains(errOut, "reading: 4 of 4 rows (100%)") {
		t.Errorf("progress: %q", errOut)
	}
	code, out, _ = runCLI(t, "--json", "dnc-list")
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 9 {
		t.Fatalf("the list after the import: %d %s", code, out)
	}

	code, out, errOut = runCLI(t, "dnc-list", "import", in, "--column", "Notes", "--json")
	var rep struct {
		Added   int `json:"added"`
		Invalid []struct {
			Line   int    `json:"line"`
			Column string `json:"column"`
		} `json:"invalid"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Added != 1 || len(rep.Invalid) != 3 || rep.Invalid[0].Column != "Notes" {
		t.Fatalf("import --column Notes: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "dnc-list", "import", in, "--column", "Fax"); code == 0 || !strings.Contains(errOut, `"Wireless 2"`) {
		t.Fatalf("a column not in the file: %d %q", code, errOut)
	}
	none := filepath.Join(t.TempDir(), "names.csv")
	os.WriteFile(none, []byte("Name,Notes\r\nAnn,called\r\n"), 0o644)
	if code, _, errOut := runCLI(t, "dnc-list", "import", none); code != exitUsage || !strings.Contains(errOut, `"Name" holds no phone number`) {
		t.Fatalf("a file without numbers: %d %q", code, errOut)
	}
}

// --json after the command, as each command's usage writes it, works on
// every command that lists something, as it does before the command.
func TestCLIJSONAfterTheCommand(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	if code, _, errOut := runCLI(t, "dnc-list", "add", "(212) 555-0147", "--reason", "asked on a call"); code != 0 {
		t.Fatalf("add: %s", errOut)
	}
	for _, args := range [][]string{{"dnc-list", "--json"}, {"dnc-list", "history", "--json"}, {"team", "--json"}} {
		code, out, errOut := runCLI(t, args...)
		if code != 0 || !json.Valid([]byte(out)) {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
}

// A command that has subcommands refuses one it does not have, naming
// those it has.
func TestGroupCommandsRefuseAnUnknownSubcommand(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dnc-list", "purge"}, `dnc-list: unknown subcommand "purge" (add, import, export, remove, history)`},
		{[]string{"team", "leave"}, `team: unknown subcommand "leave" (share, stop)`},
	} {
		if code, _, errOut := runCLI(t, c.args...); code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d with %q", c.args, code, errOut, exitUsage, c.want)
		}
	}
}

// dnc-list import of a dialer's dispositions export says what the file
// is: every number went on, and dnc-list opt-outs reads only the rows
// that are opt-outs.
func TestCLIListImportOfAnExportOfOptOuts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.csv")
	if err := os.WriteFile(path, []byte("Phone,Disposition\n5125550101,DNC\n5125550102,No Answer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runOK(t, "dnc-list", "import", path)
	if !strings.Contains(out, `note: the file looks like an export of dialer dispositions (column "Disposition")`) ||
		!strings.Contains(out, "dnc-list opt-outs FILE") {
		t.Errorf("output:\n%s", out)
	}
}
