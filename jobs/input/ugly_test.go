package input

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll opens content as a file and returns the headers, the rows and
// the line of each row.
func readAll(t *testing.T, name, content string, opts Options) (*Reader, [][]string, []int) {
	t.Helper()
	r, err := Open(writeFile(t, name, []byte(content)), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	var rows [][]string
	var lines []int
	for {
		row, err := r.Next()
		if err == io.EOF {
			return r, rows, lines
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, slices.Clone(row))
		lines = append(lines, r.Line())
	}
}

// textReader reads text whole, or one byte a read when oneByte (every
// boundary the scanner keeps state across then falls between two reads).
func textReader(text string, oneByte bool) io.Reader {
	r := io.Reader(strings.NewReader(text))
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	return r
}

// scanAll reads every record of s: each as its fields joined with "|",
// and the line it began on.
func scanAll(t *testing.T, s *scanner) (records []string, lines []int) {
	t.Helper()
	for {
		f, err := s.next()
		if err == io.EOF {
			return records, lines
		}
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, string(bytes.Join(f, []byte("|"))))
		lines = append(lines, s.recLine)
	}
}

func findWarning(ws []Warning, substr string) *Warning {
	for i := range ws {
		if strings.Contains(ws[i].Message, substr) {
			return &ws[i]
		}
	}
	return nil
}

func TestReadUglyFiles(t *testing.T) {
	tests := []struct {
		name    string
		content string
		opts    Options
		headers []string
		rows    [][]string
		lines   []int
		warn    string // a warning containing this
		warnAt  int    // on this line
	}{
		{
			name:    "plain",
			content: "First,Last\nJohn,Smith\n",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"John", "Smith"}},
			lines:   []int{2},
		},
		{
			name:    "no final line end",
			content: "First,Last\nJohn,Smith",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"John", "Smith"}},
		},
		{
			name:    "embedded newlines LF",
			content: "Name,Note\n\"Smith\nJohn\",1\n\"a,b\",\"say \"\"hi\"\"\"\nlast,2\n",
			headers: []string{"Name", "Note"},
			rows:    [][]string{{"Smith\nJohn", "1"}, {"a,b", `say "hi"`}, {"last", "2"}},
			lines:   []int{2, 4, 5},
			warn:    "line breaks", warnAt: 2,
		},
		{
			name:    "embedded newlines CRLF",
			content: "Name,Note\r\n\"Smith\r\nJohn\",1\r\nlast,2\r\n",
			headers: []string{"Name", "Note"},
			rows:    [][]string{{"Smith\r\nJohn", "1"}, {"last", "2"}},
			lines:   []int{2, 4},
			warn:    "line breaks", warnAt: 2,
		},
		{
			name:    "bare CR with embedded newline",
			content: "Name,Note\r\"a\rb\",1\rlast,2\r",
			headers: []string{"Name", "Note"},
			rows:    [][]string{{"a\rb", "1"}, {"last", "2"}},
			lines:   []int{2, 4},
			warn:    "line breaks", warnAt: 2,
		},
		{
			name:    "mixed line ends: bare CRs among LF lines end records",
			content: "First,Last\r\nJohn,Smith\rJane,Doe\nAl,Li\r\n\"a\rb\",c\rlast,one",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"John", "Smith"}, {"Jane", "Doe"}, {"Al", "Li"}, {"a\rb", "c"}, {"last", "one"}},
			lines:   []int{2, 3, 4, 5, 7},
			warn:    "2 lines end with a bare CR while the others end with LF: read as line ends", warnAt: 2,
		},
		{
			name:    "blank lines skipped",
			content: "A,B\n\n1,2\n , \n,\n3,4\n",
			headers: []string{"A", "B"},
			rows:    [][]string{{"1", "2"}, {"3", "4"}},
			lines:   []int{3, 6},
		},
		{
			name:    "no-break spaces, other white space and quoted line breaks are blank",
			content: "A,B\n\u00a0,\u00a0\n\"\n\",\"\r\n\"\n\v,\f\n\u0085,\n1,\u00a0x\n",
			headers: []string{"A", "B"},
			rows:    [][]string{{"1", "\u00a0x"}},
			lines:   []int{8},
			warn:    "line breaks", warnAt: 3,
		},
		{
			name:    "values only beyond the header's columns",
			content: "A,B\n1,2\n,,x\n , ,,\n3,4\n",
			headers: []string{"A", "B"},
			rows:    [][]string{{"1", "2"}, {"3", "4"}},
			lines:   []int{2, 5},
			warn:    "1 row has values only beyond the header's 2 columns: skipped", warnAt: 3,
		},
		{
			name:    "duplicate and blank headers",
			content: "Phone,Phone,,Name,phone,Phone (2)\n1,2,3,4,5,6\n",
			headers: []string{"Phone", "Phone (3)", "Column 3", "Name", "phone (4)", "Phone (2)"},
			rows:    [][]string{{"1", "2", "3", "4", "5", "6"}},
		},
		{
			name:    "title lines above the header",
			content: "Harris County Owner Export\nGenerated 2024-01-01\n\nFirst,Last,Zip\nJohn,Smith,02134\nJane,Doe,77002\n",
			headers: []string{"First", "Last", "Zip"},
			rows:    [][]string{{"John", "Smith", "02134"}, {"Jane", "Doe", "77002"}},
			lines:   []int{5, 6},
			warn:    "above it skipped", warnAt: 4,
		},
		{
			name:    "title line with trailing delimiters",
			content: "Owner list;;\n;;\nFirst;Last;Zip\nJohn;Smith;02134\n",
			headers: []string{"First", "Last", "Zip"},
			rows:    [][]string{{"John", "Smith", "02134"}},
			warn:    "1 line above it skipped", warnAt: 3,
		},
		{
			name:    "header line chosen",
			content: "junk,junk2\nFirst,Last\nJohn,Smith\n",
			opts:    Options{HeaderLine: 2},
			headers: []string{"First", "Last"},
			rows:    [][]string{{"John", "Smith"}},
			warn:    "1 line above it skipped", warnAt: 2,
		},
		{
			name:    "data rows with a trailing delimiter the header lacks",
			content: "Report\nFirst,Last,Zip\nJohn,Smith,02134,\nJane,Doe,77002,\n",
			headers: []string{"First", "Last", "Zip"},
			rows:    [][]string{{"John", "Smith", "02134"}, {"Jane", "Doe", "77002"}},
			warn:    "1 line above it skipped", warnAt: 2,
		},
		{
			name:    "semicolons with commas in values",
			content: "Name;Address;City\nSmith, John;1 Main St, Apt 2;Boston\nDoe, Jane;2 Oak;Salem\n",
			headers: []string{"Name", "Address", "City"},
			rows:    [][]string{{"Smith, John", "1 Main St, Apt 2", "Boston"}, {"Doe, Jane", "2 Oak", "Salem"}},
		},
		{
			name:    "Excel sep= line",
			content: "sep=;\r\nName;Note\r\nSmith, John;a,b\r\n",
			headers: []string{"Name", "Note"},
			rows:    [][]string{{"Smith, John", "a,b"}},
			lines:   []int{3},
			warn:    "1 line above it skipped", warnAt: 2,
		},
		{
			name:    "pipes",
			content: "a|b|c\n1|2|3\n",
			headers: []string{"a", "b", "c"},
			rows:    [][]string{{"1", "2", "3"}},
		},
		{
			name:    "one column phone list",
			content: "Phone\n2125550147\n(212) 555-0148\n",
			headers: []string{"Phone"},
			rows:    [][]string{{"2125550147"}, {"(212) 555-0148"}},
		},
		{
			name:    "ragged rows padded and cut",
			content: "a,b,c\n1,2\n1,2,3,4\n1,2,3,,\n",
			headers: []string{"a", "b", "c"},
			rows:    [][]string{{"1", "2", ""}, {"1", "2", "3"}, {"1", "2", "3"}},
			warn:    "2 rows have a different number of fields", warnAt: 2,
		},
		{
			name:    "stray quote inside a field",
			content: "Name,City\nJohn \"Jack\" Smith,Boston\nJane,Salem\n",
			headers: []string{"Name", "City"},
			rows:    [][]string{{`John "Jack" Smith`, "Boston"}, {"Jane", "Salem"}},
			warn:    "stray quote", warnAt: 2,
		},
		{
			name:    "text after a closing quote",
			content: "Name,City\n\"Smith, John\" Jr,Boston\n",
			headers: []string{"Name", "City"},
			rows:    [][]string{{"Smith, John Jr", "Boston"}},
			warn:    "stray quote", warnAt: 2,
		},
		{
			name:    "quote never closed",
			content: "Name,City\n\"Smith,Boston\nJane,Salem\n",
			headers: []string{"Name", "City"},
			rows:    [][]string{{`"Smith`, "Boston"}, {"Jane", "Salem"}},
			lines:   []int{2, 3},
			warn:    "never closed", warnAt: 2,
		},
		{
			name:    "quote closed only by a later field's opening quote",
			content: "Name,City\n\"Smith,Boston\nJane,\"Salem, MA\"\nBob,Lynn\n",
			headers: []string{"Name", "City"},
			rows:    [][]string{{`"Smith`, "Boston"}, {"Jane", "Salem, MA"}, {"Bob", "Lynn"}},
			lines:   []int{2, 3, 4},
			warn:    "never closed", warnAt: 2,
		},
		{
			name:    "NUL byte in the middle",
			content: "A,B\n1,2\n3,4\x005\n6,7\n",
			headers: []string{"A", "B"},
			rows:    [][]string{{"1", "2"}, {"3", "45"}, {"6", "7"}},
			warn:    "NUL byte", warnAt: 3,
		},
		{
			name:    "windows-1252 accents",
			content: "First,Last\nJos\xe9,Pe\xf1a\nZo\xeb,M\xfcller\n",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"José", "Peña"}, {"Zoë", "Müller"}},
		},
		{
			name:    "UTF-8 list with a Windows-1252 part pasted below",
			content: "First,Last\nJos\xc3\xa9,Pe\xc3\xb1a\nAnn,Lee\nZo\xeb,M\xfcller\n",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"José", "Peña"}, {"Ann", "Lee"}, {"Zoë", "Müller"}},
			warn:    "2 bytes are not valid UTF-8 in a UTF-8 file: read as Windows-1252", warnAt: 4,
		},
		{
			name:    "Windows-1252 list with a UTF-8 part pasted below",
			content: "First,Last\nZo\xeb,M\xfcller\nAnn,Lee\nJos\xc3\xa9,Pe\xc3\xb1a\n",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"Zoë", "Müller"}, {"Ann", "Lee"}, {"José", "Peña"}},
			warn:    "2 characters are UTF-8 in a Windows-1252 file: read as UTF-8", warnAt: 4,
		},
		{
			name:    "BOM",
			content: "\xef\xbb\xbfFirst,Last\nJos\xc3\xa9,Pe\xc3\xb1a\n",
			headers: []string{"First", "Last"},
			rows:    [][]string{{"José", "Peña"}},
		},
		{
			name:    "UTF-16LE without BOM",
			content: "F\x00,\x00L\x00\n\x00a\x00,\x00b\x00\n\x00",
			headers: []string{"F", "L"},
			rows:    [][]string{{"a", "b"}},
		},
		{
			name:    "UTF-16BE without BOM, Chinese names",
			content: utf16BE("名,姓,电话\r\n太郎,山田,2125550147\r\n花子,佐藤,\r\n"),
			headers: []string{"名", "姓", "电话"},
			rows:    [][]string{{"太郎", "山田", "2125550147"}, {"花子", "佐藤", ""}},
		},
		{
			name:    "spaces around values kept, header trimmed",
			content: " First , Last \n John , Smith \n",
			headers: []string{"First", "Last"},
			rows:    [][]string{{" John ", " Smith "}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, rows, lines := readAll(t, "list.csv", tt.content, tt.opts)
			if !slices.Equal(r.Headers(), tt.headers) {
				t.Errorf("headers %q, want %q", r.Headers(), tt.headers)
			}
			if !slices.EqualFunc(rows, tt.rows, slices.Equal) {
				t.Errorf("rows %q, want %q", rows, tt.rows)
			}
			if tt.lines != nil && !slices.Equal(lines, tt.lines) {
				t.Errorf("lines %v, want %v", lines, tt.lines)
			}
			if tt.warn != "" {
				w := findWarning(r.Warnings(), tt.warn)
				if w == nil {
					t.Fatalf("no warning %q in %v", tt.warn, r.Warnings())
				}
				if w.Line != tt.warnAt {
					t.Errorf("warning %q on line %d, want %d", w.Message, w.Line, tt.warnAt)
				}
			} else if ws := r.Warnings(); len(ws) > 0 {
				t.Errorf("unexpected warnings %v", ws)
			}
		})
	}
}

// TestBadFiles: files that cannot be lists get a FileError naming the file
// (and the line when there is one).
func TestBadFiles(t *testing.T) {
	tests := []struct {
		name    string
		content string
		opts    Options
		want    string
	}{
		{"empty", "", Options{}, "owners.csv: the file is empty"},
		{"header only", "First,Last,Zip\n", Options{}, "owners.csv line 1: no data rows"},
		{"header only after title", "Owner list\n\nFirst,Last,Zip\r\n\r\n", Options{}, "owners.csv line 3: no data rows"},
		{"values only beyond the header", "a,b\n,,x\n,,,y\n", Options{}, "owners.csv line 1: no data rows: 2 rows have values only beyond the header's 2 columns (is the header on another line?)"},
		{"only blank lines", "\n\n , \n", Options{}, "owners.csv: the file has no header and no rows"},
		{"binary", "\x00\x01\x02\x03\x04\x05\x06\x07binary\x00\x00\x00\x10\x11\x12\x13" + strings.Repeat("\x00\x01", 100), Options{}, "owners.csv: this is not a text file"},
		{"pdf", "%PDF-1.7\n...", Options{}, "owners.csv: this is a PDF"},
		{"old xls", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", Options{}, "owners.csv: this is an old Excel .xls"},
		{"png", "\x89PNG\r\n\x1a\n....", Options{}, "owners.csv: this is an image"},
		{"zip that is not a workbook", "PK\x03\x04garbage", Options{}, "owners.csv: cannot read as an Excel .xlsx workbook"},
		{"header line past the end", "a,b\n1,2\n", Options{HeaderLine: 9}, "owners.csv line 9: no such line: the file ends at line 2"},
		{"header line inside a quoted field", "a,b\n\"x\ny\",2\n3,4\n", Options{HeaderLine: 3}, "owners.csv line 3: no record starts on this line"},
		{"header line blank", "\na,b\n1,2\n", Options{HeaderLine: 1}, "owners.csv line 1: the chosen header line is blank"},
		{"line over 1 MB", "a,b\n" + strings.Repeat("x", maxRecord+10) + "\n", Options{}, "owners.csv line 2: a line longer than 1 MB"},
		{"more fields than a spreadsheet has columns", "First,Last\nAnn,Lee\n" + strings.Repeat("x,", MaxFields) + "y\n", Options{},
			"owners.csv line 3: 16,385 fields on one line, more than the 16,384 columns a spreadsheet can hold"},
		{"a header wider than a spreadsheet", strings.Repeat("h,", MaxFields) + "h\n1,2\n", Options{},
			"owners.csv line 1: 16,385 fields on one line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "owners.csv", []byte(tt.content))
			_, err := Inspect(context.Background(), path, tt.opts)
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a *FileError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to start with %q", err, tt.want)
			}
			if fe.Path != path {
				t.Errorf("FileError.Path = %q", fe.Path)
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	_, err := Inspect(context.Background(), "/nonexistent/owners.csv", Options{})
	if err == nil || err.Error() != "owners.csv: no such file" {
		t.Errorf("err = %v", err)
	}
	_, err = Inspect(context.Background(), t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("err = %v", err)
	}
}

func TestFileErrorText(t *testing.T) {
	tests := []struct {
		e    FileError
		want string
	}{
		{FileError{Path: "/x/owners.csv", Line: 12, Msg: "bad"}, "owners.csv line 12: bad"},
		{FileError{Path: "owners.csv", Msg: "bad"}, "owners.csv: bad"},
		{FileError{Path: "o.csv", Line: 3, Column: "Zip", Msg: "bad"}, `o.csv line 3 column "Zip": bad`},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestInspectCounts(t *testing.T) {
	content := "Owner list\n" +
		"Owner 1 First Name,Owner 1 Last Name,Situs Address,Mail Zip,Phone 1,Notes\n" + // line 2
		"John,Smith,1 Main St,2134,2.01555E+09,\n" + // 3
		",OAK HOLDINGS L.L.C.,2 Oak Ave,02134,2125550147,x\n" + // 4: company
		"\n" + // 5: blank
		"JOHN,SMITH.,1  main st,2134,2.01555E+09,\n" + // 6: duplicate of 3
		"Mary,,3 Elm,12345,1.2e10,\n" + // 7: blank last name, sci
		"Jane,Doe Family Trust,4 Pine,0213,,\n" // 8: company, short zip
	ins, err := Inspect(context.Background(), writeFile(t, "owners.csv", []byte(content)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := []int{ins.HeaderLine, ins.Rows, ins.BlankRows, ins.EntityRows, ins.DuplicateRows, ins.ShortZips, ins.SciNumbers}
	if want := []int{2, 5, 1, 2, 1, 3, 3}; !slices.Equal(got, want) {
		t.Errorf("header, rows, blank, entity, dup, short zips, sci = %v, want %v", got, want)
	}
	if want := []int{1, 1, 0, 0, 1, 4}; !slices.Equal(ins.Blanks, want) {
		t.Errorf("blanks %v, want %v", ins.Blanks, want)
	}
	for _, w := range []struct {
		substr string
		line   int
		column string
		count  int
	}{
		{"same values as an earlier row", 6, "", 1},
		{"Excel dropped a leading zero", 3, "Mail Zip", 3},
		{"scientific notation", 3, "Phone 1", 3},
		{"above it skipped", 2, "", 1},
	} {
		got := findWarning(ins.Warnings, w.substr)
		if got == nil {
			t.Errorf("no warning %q in %v", w.substr, ins.Warnings)
			continue
		}
		if got.Line != w.line || got.Column != w.column || got.Count != w.count {
			t.Errorf("warning %+v, want line %d column %q count %d", *got, w.line, w.column, w.count)
		}
	}
	// Explicit key and name columns.
	ins, err = Inspect(context.Background(), writeFile(t, "owners.csv", []byte(content)), Options{
		KeyColumns:  []string{"Owner 1 Last Name"},
		NameColumns: []string{"Situs Address"},
		SampleRows:  -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if ins.DuplicateRows != 1 || ins.EntityRows != 0 || len(ins.Sample) != 0 {
		t.Errorf("dup %d entity %d sample %d; want 1 0 0", ins.DuplicateRows, ins.EntityRows, len(ins.Sample))
	}
	ins, err = Inspect(context.Background(), writeFile(t, "owners.csv", []byte(content)), Options{
		KeyColumns:  []string{"Mail Zip", "Nope"},
		NameColumns: []string{},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Zips: 2134, 02134, 2134 (dup), 12345, 0213 → 2134 and 02134 differ.
	if ins.DuplicateRows != 1 || ins.EntityRows != 0 || findWarning(ins.Warnings, "not in the file") == nil {
		t.Errorf("dup %d entity %d warnings %v", ins.DuplicateRows, ins.EntityRows, ins.Warnings)
	}
}

func TestTooLarge(t *testing.T) {
	defer func(old int64) { uploadLimit = old }(uploadLimit)
	uploadLimit = 20
	ins, err := Inspect(context.Background(), writeFile(t, "big.csv", []byte("First,Last\nJohn,Smith\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !ins.TooLarge || findWarning(ins.Warnings, "upload limit is 50 MB") == nil {
		t.Errorf("TooLarge %v warnings %v", ins.TooLarge, ins.Warnings)
	}
	uploadLimit = 1000
	ins, _ = Inspect(context.Background(), writeFile(t, "big.csv", []byte("First,Last\nJohn,Smith\n")), Options{})
	if ins.TooLarge {
		t.Error("a small file is TooLarge")
	}
}

// Duplicate detection remembers a bounded number of rows: past it, rows
// are still read and counted, not compared.
func TestDuplicateCountBounded(t *testing.T) {
	defer func(old int) { maxKeyedRows = old }(maxKeyedRows)
	maxKeyedRows = 4
	ins, err := Inspect(context.Background(), writeFile(t, "o.csv", []byte("Name,Zip\n"+strings.Repeat("Oak LLC,02134\n", 10))), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ins.Rows != 10 || ins.EntityRows != 10 || ins.DuplicateRows != 3 {
		t.Errorf("rows %d entity %d duplicates %d; want 10 10 3", ins.Rows, ins.EntityRows, ins.DuplicateRows)
	}
	if w := findWarning(ins.Warnings, "counted among the first 4 rows only"); w == nil || w.Line != 6 {
		t.Errorf("warnings %v", ins.Warnings)
	}
}

func TestInspectCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Inspect(ctx, writeFile(t, "o.csv", []byte("a\n1\n")), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestShortZipForms(t *testing.T) {
	for v, want := range map[string]bool{"2134": true, "2134-5678": true, "02134": false, "02134-5678": false,
		"213": false, "21a4": false, "2134-567": false, "2134 5678": false} {
		if isShortZip([]byte(v)) != want {
			t.Errorf("isShortZip(%q) = %v", v, !want)
		}
	}
}

func TestBOMFileWithInvalidBytes(t *testing.T) {
	r, rows, _ := readAll(t, "bom.csv", "\xef\xbb\xbfName\nPe\xf1a\n", Options{})
	if r.Encoding() != EncUTF8BOM || rows[0][0] != "Peña" {
		t.Errorf("encoding %s rows %q", r.Encoding(), rows)
	}
	if w := findWarning(r.Warnings(), "not valid UTF-8"); w == nil || w.Count != 1 {
		t.Errorf("warnings %v", r.Warnings())
	}
}

func TestConversionReasons(t *testing.T) {
	tests := []struct {
		content string
		want    []string
	}{
		{"a,b\n1,2\n", nil},
		{"a,b\r\n\"x\r\ny\",2\r\n", nil},
		{"\xef\xbb\xbfa,b\n1,2\n", []string{"the text is UTF-8 BOM, not plain UTF-8"}},
		{"a;b\n1;2\n", []string{"fields are separated by semicolons, not commas"}},
		{"title\na,b\n1,2\n", []string{"the header is on line 2, not line 1"}},
		{"a,a\n1,2\n", []string{"header names are blank or repeated"}},
		{"a,b\n1,2,3\n", []string{"rows with more or fewer fields than the header"}},
		{"a,b\n1\"x,2\n", []string{"stray quotes or NUL bytes"}},
		{"a,b\r1,2\r", []string{"lines end with a bare CR"}},
		{"a,b\n1,2\r3,4\n", []string{"lines end with a mix of CR and LF"}},
		{"a,b\n1,caf\xe9\n", []string{"the text is Windows-1252, not plain UTF-8"}},
		{"a,b\ncaf\xc3\xa9,caf\xe9\n", []string{"some bytes are not valid UTF-8"}},
	}
	for _, tt := range tests {
		ins, err := Inspect(context.Background(), writeFile(t, "c.csv", []byte(tt.content)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ins.ConversionReasons, tt.want) || ins.NeedsConversion != (tt.want != nil) {
			t.Errorf("%q: reasons %q (needs %v), want %q", tt.content, ins.ConversionReasons, ins.NeedsConversion, tt.want)
		}
	}
}

func TestNoKeyNoNameColumns(t *testing.T) {
	p := writeFile(t, "o.csv", []byte("Phone\n1\n1\n1\n"))
	ins, err := Inspect(context.Background(), p, Options{KeyColumns: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if ins.DuplicateRows != 0 || ins.EntityRows != 0 || len(ins.NameColumns) != 0 || ins.Rows != 3 {
		t.Errorf("dups %d entity %d names %q rows %d", ins.DuplicateRows, ins.EntityRows, ins.NameColumns, ins.Rows)
	}
	ins, err = Inspect(context.Background(), p, Options{})
	if err != nil || ins.DuplicateRows != 2 {
		t.Errorf("all columns: dups %d, %v", ins.DuplicateRows, err)
	}
}

func TestHeaderLineFarDown(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		b.WriteString("junk line " + strings.Repeat("x", i%7) + "\n")
	}
	b.WriteString("First,Last\nJohn,Smith\n")
	r, rows, lines := readAll(t, "far.csv", b.String(), Options{HeaderLine: 201})
	if !slices.Equal(r.Headers(), []string{"First", "Last"}) || len(rows) != 1 || lines[0] != 202 {
		t.Errorf("headers %q rows %q lines %v", r.Headers(), rows, lines)
	}
	if w := findWarning(r.Warnings(), "200 lines above it skipped"); w == nil {
		t.Errorf("warnings %v", r.Warnings())
	}
}

// A plain line keyed whole and the same row keyed field by field (quoted,
// padded, or with a key of every column named explicitly) are the same key.
func TestDuplicateKeyWholeLineEqualsFields(t *testing.T) {
	tests := []struct {
		content string
		opts    Options
		dups    int
	}{
		{"a,b\nSmith,John\n\"Smith\",John\n", Options{}, 1},
		{"a,b,c\nx,y,\nx,y\n", Options{}, 1},
		{"a;b;c\nx;y;z\n\"x\";\"y\";\"z\"\nX.; Y ;z!\n", Options{}, 2},
		{"a,b\n1,2\n1,2\n", Options{KeyColumns: []string{"a", "b"}}, 1},
		{"a,b\n1,2\n\"1,2\",\n", Options{}, 0},
		{"a|b\nPe\xc3\xb1a|x\nPENA|X\n", Options{}, 1},
		// Keys longer than the key buffer are hashed in pieces.
		{"a,b\n" + strings.Repeat("x", 40000) + ",y\n\"" + strings.Repeat("X", 40000) + "\",Y\n", Options{}, 1},
		{"a,b\n" + strings.Repeat("x", 40000) + ",y\n" + strings.Repeat("x", 39999) + ",y\n", Options{}, 0},
		// Uppercasing makes "ɐ" (2 bytes) "Ɐ" (3 bytes): the key outgrows
		// the field. Pieces cut on character boundaries, whatever the
		// offset of the field in its line.
		{"a,b\n" + strings.Repeat("ɐ", 20000) + ",y\n\"" + strings.Repeat("Ɐ", 20000) + "\",Y\n", Options{}, 1},
		{"a,b\nx" + strings.Repeat("é", 20000) + ",y\n\"x" + strings.Repeat("E", 20000) + "\",y\n", Options{}, 1},
		// A row of as many empty fields as a list may have (MaxFields),
		// more than the key buffer has bytes.
		{"a" + strings.Repeat(",", MaxFields-1) + "z\nx" + strings.Repeat(",", MaxFields-1) + "y\n\"x\"" + strings.Repeat(",", MaxFields-1) + "y\n", Options{}, 1},
		{"a,b\ny,x" + strings.Repeat("ɐé", 9000) + "\n\"y\",\"x" + strings.Repeat("ⱯE", 9000) + "\"\n", Options{KeyColumns: []string{"b", "a"}}, 1},
	}
	for _, tt := range tests {
		ins, err := Inspect(context.Background(), writeFile(t, "d.csv", []byte(tt.content)), tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if ins.DuplicateRows != tt.dups {
			t.Errorf("%q: %d duplicates, want %d", tt.content, ins.DuplicateRows, tt.dups)
		}
	}
}

// An opening quote never closed, followed by a long run of short lines:
// the quoted attempt gives up at the record limit and the lines are read
// one by one (the scan stays linear in the length of the run).
func TestUnclosedQuoteBeforeManyLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("Name,Note\nJohn,\"")
	for b.Len() < 3*maxRecord {
		b.WriteString("abc def\n")
	}
	ins, err := Inspect(context.Background(), writeFile(t, "open.csv", []byte(b.String())), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := (b.Len() - len("Name,Note\nJohn,\"")) / len("abc def\n")
	if ins.Rows != want {
		t.Errorf("rows %d, want %d", ins.Rows, want)
	}
	if w := findWarning(ins.Warnings, "never closed"); w == nil || w.Line != 2 || w.Count != 1 {
		t.Errorf("warnings %v", ins.Warnings)
	}
	if ins.Sample[0][1] != `"abc def` || ins.Sample[1][0] != "abc def" {
		t.Errorf("first row %q", ins.Sample[0])
	}
}

// Blank lines above the header do not count among the records read to
// find it (a sheet exported with its first rows empty).
func TestManyBlankLinesAboveHeader(t *testing.T) {
	r, rows, lines := readAll(t, "blank.csv", strings.Repeat(",,,\n", 80)+"Owner list\n\nFirst,Last,Zip\nJohn,Smith,02134\n", Options{})
	if r.HeaderLine() != 83 || len(rows) != 1 || lines[0] != 84 {
		t.Errorf("header on line %d, rows %q on lines %v", r.HeaderLine(), rows, lines)
	}
}

func TestHeaderTrailingBlankCells(t *testing.T) {
	r, rows, _ := readAll(t, "t.csv", "First,Last,,\nJohn,Smith\nJane,Doe,,\n", Options{})
	if !slices.Equal(r.Headers(), []string{"First", "Last"}) || len(rows) != 2 || findWarning(r.Warnings(), "different number") != nil {
		t.Errorf("headers %q rows %q warnings %v", r.Headers(), rows, r.Warnings())
	}
	// A blank header cell over data keeps its column.
	r, _, _ = readAll(t, "t.csv", "First,Last,\nJohn,Smith,x\n", Options{})
	if !slices.Equal(r.Headers(), []string{"First", "Last", "Column 3"}) {
		t.Errorf("headers %q", r.Headers())
	}
}

// A file of bare-CR lines (as far as the first read shows) with LF line
// ends further down: every kind ends a record and CR LF counts once, also
// when the CR is the last byte of a read (one byte a read here).
func TestBareLFsInCRFile(t *testing.T) {
	const text = "First,Last\rJohn,Smith\nJane,Doe\r\nAl,Li\r\r\n\"x\r\ny\",z\rlast,\"q\"\n"
	for _, oneByte := range []bool{false, true} {
		s := newScanner(textReader(text, oneByte))
		s.crOnly = true
		got, lines := scanAll(t, s)
		want := []string{"First|Last", "John|Smith", "Jane|Doe", "Al|Li", "", "x\r\ny|z", "last|q"}
		if !slices.Equal(got, want) || !slices.Equal(lines, []int{1, 2, 3, 4, 5, 6, 8}) {
			t.Errorf("one byte a read %v: records %q on lines %v, want %q", oneByte, got, lines, want)
		}
		if s.otherEnds != 2 || s.otherEndsLine != 2 {
			t.Errorf("one byte a read %v: %d other line ends, first on line %d; want 2 from line 2", oneByte, s.otherEnds, s.otherEndsLine)
		}
	}
}
