package library

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		rows, err := r.Rows(0, r.Len())
		if err != nil || len(rows) != r.Len() {
			t.Fatalf("Rows: %d of %d, %v", len(rows), r.Len(), err)
		}
		for i := 0; i < r.Len(); i++ {
			if !slices.Equal(r.Row(i), rows[i]) {
				t.Fatalf("Row(%d) differs from Rows", i)
			}
		}
		if bytes.ContainsRune(data, '\r') || bytes.HasPrefix(data, []byte("\ufeff")) {
			return
		}
		cr := csv.NewReader(bytes.NewReader(data))
		cr.FieldsPerRecord = -1
		all, err := cr.ReadAll()
		if err != nil {
			return
		}
		var want [][]string
		for _, rec := range all {
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
		if !slices.Equal(r.Headers(), want[0]) {
			t.Fatalf("headers %q, encoding/csv %q", r.Headers(), want[0])
		}
		if len(rows) != len(want)-1 {
			t.Fatalf("%d rows, encoding/csv %d", len(rows), len(want)-1)
		}
		for i := range rows {
			if !slices.Equal(rows[i], want[i+1]) {
				t.Fatalf("row %d = %q, encoding/csv %q", i, rows[i], want[i+1])
			}
		}
	})
}
