package input

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden.json files of testdata/ugly")

// summary is what the golden files hold for each shipped ugly file.
type summary struct {
	Encoding          string     `json:"encoding"`
	Delimiter         string     `json:"delimiter"`
	HeaderLine        int        `json:"header_line"`
	Headers           []string   `json:"headers"`
	FirstRows         [][]string `json:"first_rows"`
	Rows              int        `json:"rows"`
	BlankRows         int        `json:"blank_rows"`
	Blanks            []int      `json:"blanks"`
	NameColumns       []string   `json:"name_columns"`
	EntityRows        int        `json:"entity_rows"`
	DuplicateRows     int        `json:"duplicate_rows"`
	ShortZips         int        `json:"short_zips"`
	SciNumbers        int        `json:"sci_numbers"`
	RaggedRows        int        `json:"ragged_rows"`
	ConversionReasons []string   `json:"conversion_reasons"`
	Warnings          []string   `json:"warnings"`
}

// TestShippedUglyFiles inspects every file of testdata/ugly and compares
// the result with its .golden.json (go test -run ShippedUgly -update
// rewrites them; review the diff).
func TestShippedUglyFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/ugly/*.csv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in testdata/ugly: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			ins, err := Inspect(context.Background(), f, Options{SampleRows: 3})
			if err != nil {
				t.Fatal(err)
			}
			s := summary{
				Encoding: ins.Encoding, Delimiter: string(ins.Delimiter), HeaderLine: ins.HeaderLine,
				Headers: ins.Headers, FirstRows: ins.Sample, Rows: ins.Rows, BlankRows: ins.BlankRows,
				Blanks: ins.Blanks, NameColumns: ins.NameColumns, EntityRows: ins.EntityRows,
				DuplicateRows: ins.DuplicateRows, ShortZips: ins.ShortZips, SciNumbers: ins.SciNumbers,
				RaggedRows: ins.RaggedRows, ConversionReasons: ins.ConversionReasons,
			}
			for _, w := range ins.Warnings {
				s.Warnings = append(s.Warnings, w.String())
			}
			got, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(f, ".csv") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("inspection of %s changed:\n%s\nwant:\n%s", f, got, want)
			}
		})
	}
}
