package input

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

// FuzzInspect feeds random bytes as a file: reading never panics, and every
// error is a FileError.
func FuzzInspect(f *testing.F) {
	for _, s := range []string{
		"First,Last\nJohn,Smith\n",
		"a;b\r1;\"2\r\n3\";4\r",
		"\xef\xbb\xbfa,b\n\"x\"y,z\n",
		"\xff\xfea\x00,\x00b\x00\n\x001\x00,\x002\x00",
		"title\n\na\tb\n1\t2\x00\n",
		"a|b\n\"unclosed|x\n",
		"a,b\r\n1,2\r3,\"4\r5\"\n6,7\r",
		"Jos\xe9,Pe\xf1a\n1,2\n",
		"PK\x03\x04",
		"",
		"\n\n",
	} {
		f.Add([]byte(s), 0)
	}
	// A small workbook with a merged range: mutations of it exercise the
	// zip, sheet and merged-range readers.
	wb := excelize.NewFile()
	for cell, v := range map[string]string{"A1": "Owner", "B1": "City", "A2": "Ann", "B2": "Austin", "A3": "Bo"} {
		wb.SetCellValue("Sheet1", cell, v)
	}
	wb.MergeCell("Sheet1", "B2", "B3")
	if buf, err := wb.WriteToBuffer(); err == nil {
		f.Add(buf.Bytes(), 0)
	}
	wb.Close()
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, headerLine int) {
		path := filepath.Join(dir, "fuzz.csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := Options{HeaderLine: headerLine % 8}
		ins, err := Inspect(context.Background(), path, opts)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a FileError", err, err)
			}
			return
		}
		if ins.Rows <= 0 || len(ins.Blanks) != len(ins.Headers) {
			t.Fatalf("inconsistent inspection: rows %d, %d blanks for %d headers", ins.Rows, len(ins.Blanks), len(ins.Headers))
		}
		// The reader agrees with Inspect on the row count, and every row is
		// as wide as the header.
		r, err := Open(path, opts)
		if err != nil {
			t.Fatalf("Inspect succeeded but Open failed: %v", err)
		}
		defer r.Close()
		n := 0
		for {
			row, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if len(row) != len(ins.Headers) {
				t.Fatalf("row width %d, header width %d", len(row), len(ins.Headers))
			}
			n++
		}
		if n != ins.Rows {
			t.Fatalf("Next read %d rows, Inspect counted %d", n, ins.Rows)
		}
	})
}
