package input

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/input/internal/corpus"
)

// writeFile writes content into a temporary file named name.
func writeFile(t testing.TB, name string, content []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// generated writes a corpus list in format f and returns its path, the
// rows written and the generator's counts.
func generated(t testing.TB, rows int, f corpus.Format) (string, [][]string, corpus.Expect) {
	t.Helper()
	var buf bytes.Buffer
	g := corpus.New(7)
	if _, err := corpus.Write(&buf, g, rows, f); err != nil {
		t.Fatal(err)
	}
	// The same seed gives the same rows.
	g2 := corpus.New(7)
	want := make([][]string, rows)
	for i := range want {
		want[i] = g2.Row()
	}
	return writeFile(t, "owners.csv", buf.Bytes()), want, g.Expect
}

// TestCorpusFormats reads the same generated owner list written in every
// encoding, delimiter and line-end style, and checks that every count and
// every value comes out the same.
func TestCorpusFormats(t *testing.T) {
	const rows = 3000
	tests := []struct {
		name       string
		f          corpus.Format
		enc        string
		delim      rune
		headerLine int
	}{
		{"utf8", corpus.Format{}, EncUTF8, ',', 1},
		{"utf8 bom crlf", corpus.Format{Encoding: "UTF-8 BOM", LineEnd: "\r\n"}, EncUTF8BOM, ',', 1},
		{"utf16le", corpus.Format{Encoding: "UTF-16LE", LineEnd: "\r\n"}, EncUTF16LE, ',', 1},
		{"utf16be tabs", corpus.Format{Encoding: "UTF-16BE", Delim: '\t'}, EncUTF16BE, '\t', 1},
		{"windows-1252", corpus.Format{Encoding: "Windows-1252", LineEnd: "\r\n"}, EncCP1252, ',', 1},
		{"semicolons", corpus.Format{Delim: ';'}, EncUTF8, ';', 1},
		{"tabs", corpus.Format{Delim: '\t'}, EncUTF8, '\t', 1},
		{"pipes", corpus.Format{Delim: '|'}, EncUTF8, '|', 1},
		{"bare CR", corpus.Format{LineEnd: "\r"}, EncUTF8, ',', 1},
		{"1252 semicolons CR", corpus.Format{Encoding: "Windows-1252", Delim: ';', LineEnd: "\r"}, EncCP1252, ';', 1},
		{"title lines", corpus.Format{Title: []string{"Harris County owner export", "Generated 2024-03-01, 3000 records", ""}}, EncUTF8, ',', 4},
		{"every field quoted", corpus.Format{QuoteAll: true, LineEnd: "\r\n"}, EncUTF8, ',', 1},
		{"every field quoted, semicolons, CR", corpus.Format{QuoteAll: true, Delim: ';', LineEnd: "\r"}, EncUTF8, ';', 1},
		{"title with commas", corpus.Format{Title: []string{"Owner list,,,,,,,,,,,", ",,,,,,,,,,,"}, Delim: ','}, EncUTF8, ',', 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, want, exp := generated(t, rows, tt.f)
			ins, err := Inspect(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ins.Encoding != tt.enc || ins.Delimiter != tt.delim || ins.HeaderLine != tt.headerLine || ins.Format != "csv" {
				t.Errorf("encoding %q delimiter %q header line %d format %s; want %q %q %d csv",
					ins.Encoding, ins.Delimiter, ins.HeaderLine, ins.Format, tt.enc, tt.delim, tt.headerLine)
			}
			if !slices.Equal(ins.Headers, corpus.Header) {
				t.Errorf("headers %q", ins.Headers)
			}
			checkCounts(t, ins, exp)
			if len(ins.Sample) != DefaultSampleRows || !slices.Equal(ins.Sample[0], want[0]) || !slices.Equal(ins.Sample[19], want[19]) {
				t.Errorf("sample rows differ from the generated rows: %q", ins.Sample[:2])
			}
			if !slices.Equal(ins.NameColumns, []string{"Owner 1 First Name", "Owner 1 Last Name"}) {
				t.Errorf("name columns %q", ins.NameColumns)
			}
			if len(ins.Warnings) == 0 {
				t.Errorf("no warnings; want duplicates, short zips and scientific numbers reported")
			}
			// Every row streams back as generated.
			r, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for i := 0; ; i++ {
				row, err := r.Next()
				if err == io.EOF {
					if i != rows {
						t.Errorf("read %d rows, want %d", i, rows)
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(row, want[i]) {
					t.Fatalf("row %d (line %d) = %q, want %q", i+1, r.Line(), row, want[i])
				}
				if wantLine := tt.headerLine + 1 + i; r.Line() != wantLine {
					t.Fatalf("row %d: Line() = %d, want %d", i+1, r.Line(), wantLine)
				}
			}
		})
	}
}

func checkCounts(t *testing.T, ins *Inspection, exp corpus.Expect) {
	t.Helper()
	got := []int{ins.Rows, ins.EntityRows, ins.DuplicateRows, ins.ShortZips, ins.SciNumbers, ins.RaggedRows, ins.BlankRows}
	want := []int{exp.Rows, exp.EntityRows, exp.DuplicateRows, exp.ShortZips, exp.SciNumbers, 0, 0}
	if !slices.Equal(got, want) {
		t.Errorf("rows, entity, duplicates, short zips, sci, ragged, blank = %v, want %v", got, want)
	}
	if !slices.Equal(ins.Blanks, exp.Blanks) {
		t.Errorf("blanks per column %v, want %v", ins.Blanks, exp.Blanks)
	}
}

// TestCorpusConvertRoundTrip converts awkward variants to the upload CSV and
// checks the result is the plain form of the same rows.
func TestCorpusConvertRoundTrip(t *testing.T) {
	var plain bytes.Buffer
	if _, err := corpus.Write(&plain, corpus.New(7), 500, corpus.Format{LineEnd: "\r\n"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []corpus.Format{
		{Encoding: "Windows-1252", Delim: ';', LineEnd: "\r"},
		{Encoding: "UTF-16LE", Delim: '\t', Title: []string{"Owners", ""}},
		{Encoding: "UTF-8 BOM", Delim: '|'},
	} {
		path, _, _ := generated(t, 500, f)
		dst := filepath.Join(t.TempDir(), "upload.csv")
		if err := ConvertToCSV(context.Background(), path, Options{}, dst); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(dst)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, plain.Bytes()) {
			t.Errorf("%+v: converted file differs from the plain list (%d vs %d bytes)", f, len(got), plain.Len())
		}
		ins, err := Inspect(context.Background(), dst, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ins.NeedsConversion {
			t.Errorf("%+v: converted file still needs conversion: %q", f, ins.ConversionReasons)
		}
		ins2, _ := Inspect(context.Background(), path, Options{})
		if !ins2.NeedsConversion {
			t.Errorf("%+v: original does not report that it needs conversion", f)
		}
	}
}

func TestConvertToCSVFailureKeepsDestination(t *testing.T) {
	dst := writeFile(t, "upload.csv", []byte("precious"))
	bad := writeFile(t, "bad.csv", nil)
	err := ConvertToCSV(context.Background(), bad, Options{}, dst)
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a FileError", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "precious" {
		t.Errorf("destination changed to %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(dst))
	for _, e := range entries {
		if e.Name() != "upload.csv" && e.Name() != "bad.csv" {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

func TestCorpusHasEverything(t *testing.T) {
	_, _, exp := generated(t, 3000, corpus.Format{})
	if exp.EntityRows == 0 || exp.DuplicateRows == 0 || exp.ShortZips == 0 || exp.SciNumbers == 0 || exp.Blanks[corpus.Last] == 0 {
		t.Errorf("the corpus lacks a kind of damage: %+v", exp)
	}
	t.Logf("%+v", exp)
}

func TestConvertToCSVCancelled(t *testing.T) {
	path, _, _ := generated(t, 5000, corpus.Format{Delim: ';'})
	dst := writeFile(t, "upload.csv", []byte("precious"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ConvertToCSV(ctx, path, Options{}, dst); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "precious" {
		t.Errorf("destination changed to %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(dst))
	if len(entries) != 1 {
		t.Errorf("temporary file left behind: %d entries", len(entries))
	}
}
