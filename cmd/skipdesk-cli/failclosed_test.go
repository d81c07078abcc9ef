package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// A vendor's scrub with a restriction in a status column, a scope column, a
// scrub date column and litigators marked X: `results layout` names every
// column that bears on callability, the list it answers for, the phones it
// answers for, how each value reads and the open question; `export` refuses
// the callable list with exit 2 naming the file, the column and the
// question, and --leave-out-unsure leaves those phones out.
func TestCLIFailClosedLayoutAndQuestions(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	dir := t.TempDir()
	day := time.Now().AddDate(0, 0, -2).Format("01/02/2006")
	src := filepath.Join(dir, "vendor scrub.csv")
	os.WriteFile(src, []byte("Phone,Scrubbed,Date Scrubbed,National DNC,Known Litigator,Phone Status\r\n"+
		"2125550101,Y,"+day+",N,,Active\r\n"+
		"2125550102,Y,"+day+",N,X,Active\r\n"+
		"2125550103,N,"+day+",N,,Active\r\n"+
		"2125550104,Y,"+day+",N,,Wrong Number\r\n"), 0o644)
	b, _ := json.Marshal(library.Meta{JobID: library.ImportPrefix + "vendor", Kind: jobs.KindDNC})
	os.WriteFile(library.RecordPath(src), b, 0o644)

	code, out, errOut := runCLI(t, "results", "layout", src)
	if code != 0 {
		t.Fatalf("results layout: %d %q", code, errOut)
	}
	wantLines(t, "results layout", out,
		"Scrubbed (whether the row was scrubbed, for Phone): Y -> scrubbed 3, N -> not scrubbed 1",
		"Date Scrubbed (scrub date, for every phone of the row)",
		"National DNC (federal DNC, for Phone): N -> clean 4",
		"Known Litigator (litigator, for Phone): X -> flagged 1, (blank) -> unknown 3",
		"Phone Status (the file's notes or status, for Phone): Wrong Number -> flagged 1",
		`Open question (no callable list until it is answered): "Known Litigator" marks numbers`,
	)
	dst := filepath.Join(t.TempDir(), "callable.csv")
	code, out, errOut = runCLI(t, "export", src, "--only-callable", "--out", dst)
	if code != exitUsage || !strings.Contains(errOut, src+" [Known Litigator]: ") || !strings.Contains(errOut, "--leave-out-unsure") {
		t.Fatalf("export with an open question: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("written anyway: %v", err)
	}
	// Told a blank is clean: the scrubbed, clean, unrestricted phone alone.
	code, out, errOut = runCLI(t, "export", src, "--only-callable", "--leave-out-unsure", "--out", dst)
	if code != exitFailure || !strings.Contains(errOut, "no phone may be called") {
		t.Fatalf("--leave-out-unsure, every blank unknown: %d %q %q", code, out, errOut)
	}
}

// An import is dated by the person (--scrubbed), never by the file; a date
// in the future is refused.
func TestCLIImportScrubDate(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	src := filepath.Join(t.TempDir(), "scrub.csv")
	os.WriteFile(src, []byte("phone,phone_normalized,dnc,litigator\r\n2125550101,2125550101,false,false\r\n"), 0o644)
	next := time.Now().AddDate(0, 1, 0).Format(time.DateOnly)
	if code, _, errOut := runCLI(t, "results", "import", src, "--scrubbed", next); code != exitUsage || !strings.Contains(errOut, "future") {
		t.Fatalf("a scrub date next month: %d %q", code, errOut)
	}
	code, out, errOut := runCLI(t, "results", "import", src, "--scrubbed", time.Now().AddDate(0, 0, -1).Format(time.DateOnly))
	if code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	path := strings.TrimSpace(out[strings.LastIndex(out, " as ")+4:])
	dst := filepath.Join(t.TempDir(), "c.csv")
	if code, _, errOut := runCLI(t, "export", path, "--only-callable", "--out", dst); code != 0 {
		t.Fatalf("export of the dated import: %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(dst); !strings.Contains(string(b), "2125550101") {
		t.Errorf("callable list %q", b)
	}
}
