package input

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readRows(t *testing.T, path string) ([][]string, []Warning) {
	t.Helper()
	r, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows [][]string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, slices.Clone(rec))
	}
	return rows, r.Warnings()
}

// A line break inside a quoted value is part of the value: kept as the file
// wrote it (CR LF, LF or a bare CR), by the reader and through the
// conversion to plain CSV, as the result reader keeps it.
func TestQuotedLineBreaksKept(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		want          [][]string
	}{
		{"CRLF file", "Name,Note\r\n\"Smith\r\nJohn\",\"a\nb\"\r\n\"c\rd\",x\r\n", [][]string{{"Smith\r\nJohn", "a\nb"}, {"c\rd", "x"}}},
		{"LF file", "Name,Note\n\"Smith\r\nJohn\",\"a\nb\"\nlast,2\n", [][]string{{"Smith\r\nJohn", "a\nb"}, {"last", "2"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := writeFile(t, "in.csv", []byte(tt.content))
			rows, _ := readRows(t, src)
			if !slices.EqualFunc(rows, tt.want, slices.Equal) {
				t.Errorf("read %q, want %q", rows, tt.want)
			}
			dst := filepath.Join(t.TempDir(), "out.csv")
			if err := ConvertToCSV(context.Background(), src, Options{}, dst); err != nil {
				t.Fatal(err)
			}
			back, _ := readRows(t, dst)
			if !slices.EqualFunc(back, tt.want, slices.Equal) {
				t.Errorf("converted and read back %q, want %q", back, tt.want)
			}
			raw, _ := os.ReadFile(dst)
			if !strings.Contains(string(raw), "\"Smith\r\nJohn\",\"a\nb\"") {
				t.Errorf("converted file %q", raw)
			}
		})
	}
}

// Spaces (or a tab) after a closing quote are text before the delimiter or
// the line end: no spurious row, no "never closed" or stray-quote warning,
// also when the quoted value spans lines and when the bytes arrive one at
// a time.
func TestSpaceAfterClosingQuote(t *testing.T) {
	tests := []struct {
		content string
		want    []string
	}{
		{"h1,h2,h3\na,b,\"c\" \nd,e,f\n", []string{"h1|h2|h3", "a|b|c ", "d|e|f"}},
		{"h1,h2,h3\r\na,b,\"c\" \r\nd,e,f\r\n", []string{"h1|h2|h3", "a|b|c ", "d|e|f"}},
		{"h1,h2,h3\na,b,\"c\nx\" \nd,e,f\n", []string{"h1|h2|h3", "a|b|c\nx ", "d|e|f"}},
		{"h1,h2,h3\na,\"b\r\ny\"\t,c\nd,e,f\n", []string{"h1|h2|h3", "a|b\r\ny\t|c", "d|e|f"}},
		{"h1,h2,h3\na,b,\"c\nx\"   ", []string{"h1|h2|h3", "a|b|c\nx   "}},
	}
	for _, tt := range tests {
		for _, oneByte := range []bool{false, true} {
			s := newScanner(textReader(tt.content, oneByte))
			got, _ := scanAll(t, s)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q (one byte a read %v): %q, want %q", tt.content, oneByte, got, tt.want)
			}
			if s.unclosed != 0 || s.strayQuotes != 0 {
				t.Errorf("%q: %d unclosed, %d stray quote warnings", tt.content, s.unclosed, s.strayQuotes)
			}
		}
	}
	// Between tab-separated fields the tab after a closing quote is the
	// delimiter (Excel's "Text (Tab delimited)" quotes a cell of several
	// lines): the quoted field spanning lines is one field, read whole.
	for _, tt := range []struct {
		content string
		want    []string
	}{
		{"h1\th2\th3\na\t\"+12124136423\n+13123402704\"\tD\nd\te\tf\n", []string{"h1|h2|h3", "a|+12124136423\n+13123402704|D", "d|e|f"}},
		{"h1\th2\th3\na\t\"b\"\tc\n", []string{"h1|h2|h3", "a|b|c"}},
		{"h1\th2\na\t\"b\r\nc\" \td\r\n", []string{"h1|h2", "a|b\r\nc |d"}},
	} {
		for _, oneByte := range []bool{false, true} {
			s := newScanner(textReader(tt.content, oneByte))
			s.delim = '\t'
			got, _ := scanAll(t, s)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q (one byte a read %v): %q, want %q", tt.content, oneByte, got, tt.want)
			}
			if s.unclosed != 0 || s.strayQuotes != 0 {
				t.Errorf("%q: %d unclosed, %d stray quote warnings", tt.content, s.unclosed, s.strayQuotes)
			}
		}
	}
	// Other text after a closing quote is still a stray quote, and a quote
	// spanning lines followed by text is still read as never closed.
	_, warns := readRows(t, writeFile(t, "x.csv", []byte("h1,h2\na,\"b\"x\nc,d\n")))
	if len(warns) != 1 || !strings.Contains(warns[0].String(), "stray quote") {
		t.Errorf("warnings %v", warns)
	}
}
