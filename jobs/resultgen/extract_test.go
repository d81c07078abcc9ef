package resultgen

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
)

func TestNumbersInText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"(512) 555-0101", []string{n1}},
		{"+15125550101", []string{n1}},
		{"+1 (512) 555-0101", []string{n1}},
		{"1-512-555-0101 x12", []string{n1}},
		{"512.555.0101", []string{n1}},
		{"512 555 0101", []string{n1}},
		{"5125550101 3125550100", []string{n1, n2}},
		{"5125550101;3125550100", []string{n1, n2}},
		{"alt # 512-555-0101, ask for Ann", []string{n1}},
		{"5125550101x12", []string{n1}},
		// Not numbers: digits inside a hash or an id, dates and times,
		// zip codes, a number Excel damaged, an invalid area code.
		{"sha256 ab5125550101cd", nil},
		{"2025-01-05 10:30:00", nil},
		{"2026-05-01 14:03", nil},
		{"78701-1234", nil},
		{"5.12555E+09", nil},
		{"(112) 555-0101", nil},
		{"512555010", nil},
	} {
		var got []string
		NumbersInText(tc.text, func(n string) {
			if !slices.Contains(got, n) {
				got = append(got, n)
			}
		})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}

// A case's files are written in their formats and read back as the cells
// they hold; the numbers read back from them are the phones written.
func TestWriteAndReadBack(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 10, 15, 4, 5, 0, time.UTC)
	seen := map[Format]bool{}
	for seed := int64(1); len(seen) < 4 || seed < 40; seed++ {
		c := GenerateAt(seed, now)
		dir := t.TempDir()
		paths, err := c.Write(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range c.Files {
			seen[f.Format] = true
			got := readBack(t, paths[i], f)
			want := f.lines()
			if f.Format != XLSX {
				// A blank title line is no record to a CSV reader.
				want = slices.DeleteFunc(want, func(r []string) bool { return len(r) == 1 && r[0] == "" })
			}
			if len(got) != len(want) {
				t.Fatalf("seed %d %s: %d rows read back, want %d", seed, f.Name, len(got), len(want))
			}
			for r := range want {
				if f.Format != XLSX && !slices.Equal(got[r], want[r]) {
					t.Fatalf("seed %d %s row %d: %q, want %q", seed, f.Name, r, got[r], want[r])
				}
			}
			nums, err := NumbersIn(asCSV(t, dir, got))
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range f.Rows {
				for _, cell := range row {
					if cell.M != nil && cell.M.Phone != "" && !slices.Contains(nums, cell.M.Phone) {
						t.Fatalf("seed %d %s: %s written as %q is not read back", seed, f.Name, cell.M.Phone, cell.Text)
					}
				}
			}
		}
	}
}

// readBack parses a written file in its format.
func readBack(t *testing.T, path string, f *File) [][]string {
	t.Helper()
	if f.Format == XLSX {
		x, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		// Every sheet, the lines above the rows once (each sheet repeats
		// them).
		var all [][]string
		for i, sheet := range x.GetSheetList() {
			rows, err := x.GetRows(sheet, excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				rows = rows[min(f.head(), len(rows)):]
			}
			all = append(all, rows...)
		}
		return all
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch f.Encoding {
	case "bom":
		if !bytes.HasPrefix(b, []byte("\ufeff")) {
			t.Fatalf("%s: no byte order mark", f.Name)
		}
		b = b[3:]
	case "cp1252":
		if b, err = charmap.Windows1252.NewDecoder().Bytes(b); err != nil {
			t.Fatal(err)
		}
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma = map[Format]rune{CSVComma: ',', CSVSemicolon: ';', TSV: '\t'}[f.Format]
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return rows
}

func asCSV(t *testing.T, dir string, rows [][]string) string {
	t.Helper()
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	p := filepath.Join(dir, "readback.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
