package export

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// Text that looks like OOXML's _xHHHH_ escape is written so that readers do
// not decode it: "_x0041_" reads back as "_x0041_", not "A"; in headers too.
func TestXLSXEscapesLookalikes(t *testing.T) {
	values := []string{"_x0041_", "a_x00e9_b", "_X0041_", "__x0041__", "_x004_", "_xZZZZ_", "snake_case_x", "_x0041"}
	src := writeResult(t, [][]string{
		{"_x0042_", "b", "c", "d", "e", "f", "g", "h"},
		values,
	})
	dst := filepath.Join(t.TempDir(), "out.xlsx")
	if _, err := Export(context.Background(), src, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	rows, err := openXLSX(t, dst).GetRows("Results")
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0] != "_x0042_" {
		t.Errorf("header read back as %q", rows[0][0])
	}
	if !slices.Equal(rows[1], values) {
		t.Errorf("values read back as %q, want %q", rows[1], values)
	}
	sheet := zipEntry(t, dst, "xl/worksheets/sheet1.xml")
	if !strings.Contains(sheet, "<t>_x005F_x0041_</t>") || !strings.Contains(sheet, "<t>_x005F_x0042_</t>") {
		t.Errorf("no escaped underscore in the sheet XML")
	}
}

// The CSV export keeps line breaks inside values as they are: LF, CR LF and
// a bare CR (encoding/csv's writer would turn LF into CR LF and drop the
// bare CR).
func TestCSVKeepsLineBreaks(t *testing.T) {
	values := []string{"x\ny", "p\r\nq", "a\rb", `say "hi"`, " lead", "plain"}
	src := writeResult(t, [][]string{{"a", "b", "c", "d", "e", "f"}, values})
	// writeResult's encoding/csv turned the values' line breaks into CR LF:
	// write the source by hand.
	body := "a,b,c,d,e,f\r\n\"x\ny\",\"p\r\nq\",\"a\rb\",\"say \"\"hi\"\"\",\" lead\",plain\r\n"
	os.WriteFile(src, []byte(body), 0o600)
	dst := filepath.Join(t.TempDir(), "out.csv")
	if _, err := Export(context.Background(), src, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(dst)
	if got := strings.TrimPrefix(string(raw), bom); got != body {
		t.Errorf("written %q\nwant    %q", got, body)
	}
	f, _ := os.Open(dst)
	defer f.Close()
	rr, err := library.NewRowReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := rr.Next()
	if err != nil || !slices.Equal(rec, values) {
		t.Errorf("read back %q, %v; want %q", rec, err, values)
	}
}

// Exports get the permissions of any new file (0666 less the umask), as a
// spreadsheet saving one would, not a private 0600.
func TestExportFileMode(t *testing.T) {
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	pf, err := os.Create(probe)
	if err != nil {
		t.Fatal(err)
	}
	pf.Close()
	info, _ := os.Stat(probe)
	usual := info.Mode().Perm()
	if usual == 0o600 {
		t.Skip("the umask makes every new file 0600")
	}
	src := testlists.WriteFile(t, "trace.csv", callableTrace)
	dnc := dated(t, testlists.WriteFile(t, "dnc.csv", callableDNC))
	ctx := context.Background()
	for _, name := range []string{"out.csv", "out.xlsx", "callable.csv", "callable.xlsx"} {
		dst := filepath.Join(dir, name)
		if strings.HasPrefix(name, "callable") {
			_, err = ExportCallable(ctx, src, dnc, dst, at(CallableOptions{OnlyCallable: true}))
		} else {
			_, err = Export(ctx, src, dst, Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(dst)
		if err != nil || info.Mode().Perm() != usual {
			t.Errorf("%s: mode %v, want %v", name, info.Mode().Perm(), fs.FileMode(usual))
		}
	}
}
