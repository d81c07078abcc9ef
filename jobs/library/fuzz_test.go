package library

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// FuzzOpenResult: any bytes open without a panic; every indexed row reads
// back; and where encoding/csv accepts the input (without carriage returns,
// which it rewrites), the reader's rows equal its records minus blank ones.
func FuzzOpenResult(f *testing.F) {
	for _, s := range []string{
		"a,b\r\n1,2\r\n",
		"a,b\n\"x\ny\",\"q\"\"q\"\n,,\n\n3,4",
		"h\n\"unterminated\n",
		"\"\",\"\"\na,\"b,c\"\n",
		"x\n\"a\"b,c\n",
		"name,phone\nJOHN \"JACK\" SMITH,2125550101\nA\"nn,2125550102\n",
		"h\n\"a\"\"\n,b\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.csv")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := OpenResult(p)
		if err != nil {
			return
		}
		defer r.Close()
		rows, err := r.page(0, r.Len())
		if err != nil || len(rows) != r.Len() {
			t.Fatalf("Rows: %d of %d, %v", len(rows), r.Len(), err)
		}
		for i := 0; i < r.Len(); i++ {
			if !slices.Equal(r.Row(i), rows[i]) {
				t.Fatalf("Row(%d) differs from Rows", i)
			}
		}
		checkStreamingReaders(t, data, r, rows)
		checkLineBreaksHeld(t, data)
		if bytes.ContainsRune(data, '\r') || bytes.HasPrefix(data, []byte("\ufeff")) {
			return
		}
		checkLikeEncodingCSV(t, data, r, rows)
	})
}

// checkStreamingReaders: the streaming reader (exports, row counts) reads
// the same rows as the indexed Result.
func checkStreamingReaders(t *testing.T, data []byte, r *Result, rows [][]string) {
	t.Helper()
	rr, err := NewRowReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("NewRowReader: %v", err)
	}
	if !slices.Equal(rr.Headers(), r.Headers()) {
		t.Fatalf("RowReader headers %q, Result %q", rr.Headers(), r.Headers())
	}
	for i := 0; ; i++ {
		rec, err := rr.Next()
		if err != nil {
			if i != r.Len() {
				t.Fatalf("RowReader: %d rows, Result %d (%v)", i, r.Len(), err)
			}
			break
		}
		if i >= len(rows) || !slices.Equal(rec, rows[i]) {
			t.Fatalf("RowReader row %d = %q, Result %q", i, rec, rows[min(i, len(rows)-1)])
		}
	}
	if n, err := CountRows(bytes.NewReader(data)); err != nil || n != r.Len() {
		t.Fatalf("CountRows = %d, %v; Len %d", n, err, r.Len())
	}
}

// checkLineBreaksHeld: a record runs over several lines only because a
// quoted value holds the line breaks: every line break inside a record is
// in one of its fields, so no row's text is swallowed by the row before it.
func checkLineBreaksHeld(t *testing.T, data []byte) {
	t.Helper()
	sc := newScanner(bytes.NewReader(data), 0)
	for {
		_, b, err := sc.next()
		if err != nil {
			break
		}
		// The record's own final line break aside (which an unclosed
		// quoted value at the end holds too).
		inner := bytes.Count(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
		held := 0
		for _, f := range parseRecord(b, nil) {
			held += strings.Count(f, "\n")
		}
		if held < inner {
			t.Fatalf("record %q spans %d line breaks, its fields hold %d", b, inner, held)
		}
	}
}

// checkLikeEncodingCSV: where encoding/csv accepts the input, the Result's
// header and rows are its records minus blank ones.
func checkLikeEncodingCSV(t *testing.T, data []byte, r *Result, rows [][]string) {
	t.Helper()
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	all, err := cr.ReadAll()
	if err != nil {
		return
	}
	var want [][]string
	for _, rec := range all {
		// Text that is not UTF-8 is read as Windows-1252, as the library
		// reads it (input.FixText).
		for i, v := range rec {
			rec[i] = input.FixText(v)
		}
		blank := true
		for _, v := range rec {
			if strings.TrimSpace(v) != "" {
				blank = false
			}
		}
		if !blank {
			want = append(want, rec)
		}
	}
	if len(want) == 0 {
		return
	}
	// The header is where the import finds it (input.PickHeader), among
	// the first records; the rows are the records after it.
	at, names := input.PickHeader(want[:min(len(want), input.HeaderScan)])
	if names == nil {
		names = want[at]
	}
	if !slices.Equal(r.Headers(), names) {
		t.Fatalf("headers %q, encoding/csv %q (record %d)", r.Headers(), names, at)
	}
	want = want[at+1:]
	if len(rows) != len(want) {
		t.Fatalf("%d rows, encoding/csv %d", len(rows), len(want))
	}
	for i := range rows {
		if !slices.Equal(rows[i], want[i]) {
			t.Fatalf("row %d = %q, encoding/csv %q", i, rows[i], want[i])
		}
	}
}
