package input

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// lower sets *v to small for the test.
func lower[T any](t *testing.T, v *T, small T) {
	old := *v
	*v = small
	t.Cleanup(func() { *v = old })
}

func TestXMLGuard(t *testing.T) {
	lower(t, &maxXMLRun, 100)
	lower(t, &maxXMLDepth, 8)
	lower(t, &maxXMLElement, 1000)
	lower(t, &maxSheetOutside, 2000)
	lower(t, &maxSharedStrings, 20)
	row := func(r int) string {
		return fmt.Sprintf(`<row r="%d"><c r="A%d" t="inlineStr"><is><t>José Peña &amp; Co</t></is></c><c r="B%d" s="1"/></row>`, r, r, r)
	}
	rows := ""
	for r := 1; r <= 50; r++ {
		rows += row(r)
	}
	head := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<worksheet xmlns="x"><!-- a comment > with brackets < -->`
	tests := []struct {
		name string
		xml  string
		want error
	}{
		{"sheet", head + `<sheetViews><sheetView/></sheetViews><sheetData>` + rows + `</sheetData><mergeCells count="1"><mergeCell ref="A1:A3"/></mergeCells></worksheet>`, nil},
		{"prefixed sheetData", `<x:worksheet><x:sheetData>` + rows + `</x:sheetData></x:worksheet>`, nil},
		{"long text", head + `<sheetData><row><c><is><t>` + strings.Repeat("a", 101) + `</t></is></c></row></sheetData></worksheet>`, errXMLRun},
		{"long white space", head + `<sheetData>` + strings.Repeat(" ", 101) + `</sheetData></worksheet>`, errXMLRun},
		{"long tag", head + `<sheetData><row r="1" x="` + strings.Repeat("1", 101) + `"/></sheetData></worksheet>`, errXMLRun},
		{"deep", head + `<sheetData><row><c><is>` + strings.Repeat("<r>", 5) + `</is></c></row></sheetData></worksheet>`, errXMLDepth},
		{"empty elements do not nest", head + `<sheetData><row><c><is>` + strings.Repeat("<r/>", 50) + `</is></c></row></sheetData></worksheet>`, nil},
		{"big row", head + `<sheetData><row>` + strings.Repeat(`<c r="A1"><v>1</v></c>`, 50) + `</row></sheetData></worksheet>`, errXMLElement},
		{"much besides the rows", head + `<sheetData>` + rows + `</sheetData><mergeCells>` + strings.Repeat(`<mergeCell ref="A1:A3"/>`, 100) + `</mergeCells></worksheet>`, errXMLOutside},
		{"empty sheetData, much after", head + `<sheetData/><mergeCells>` + strings.Repeat(`<mergeCell ref="A1:A3"/>`, 100) + `</mergeCells></worksheet>`, errXMLOutside},
		{"much besides: not a sheet", `<other><sheetData>` + rows + `</sheetData><mergeCells>` + strings.Repeat(`<mergeCell ref="A1:A3"/>`, 100) + `</mergeCells></other>`, nil},
		{"many children: not shared strings", `<sstx>` + strings.Repeat(`<si><t>x</t></si>`, 50) + `</sstx>`, nil},
		{"shared strings", `<sst>` + strings.Repeat(`<si><t>x</t></si>`, 20) + `</sst>`, nil},
		{"too many shared strings", `<sst>` + strings.Repeat(`<si><t>x</t></si><si><r><t>y</t></r></si>`, 10) + `<si/></sst>`, errXMLChildren},
	}
	for _, tt := range tests {
		for _, piece := range []int{1, 2, 7, len(tt.xml)} {
			g := &xmlGuard{part: "p.xml"}
			var err error
			for i := 0; i < len(tt.xml) && err == nil; i += piece {
				_, err = g.Write([]byte(tt.xml[i:min(len(tt.xml), i+piece)]))
			}
			if err != tt.want {
				t.Errorf("%s, written %d bytes at a time: %v, want %v", tt.name, piece, err, tt.want)
			}
			if tt.want == nil && g.depth != 0 {
				t.Errorf("%s, written %d bytes at a time: depth %d at the end", tt.name, piece, g.depth)
			}
		}
	}
}

// writeZip writes a workbook's parts as they are given: the test controls
// every byte (excelize would refuse to write most of these).
func writeZip(t *testing.T, name string, parts map[string]string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	names := slices.Sorted(maps.Keys(parts))
	for _, n := range names {
		body := parts[n]
		w, err := z.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// workbookParts is a minimal workbook of one sheet holding sheetXML, with
// shared strings when sst is not "".
func workbookParts(sheetXML, sst string) map[string]string {
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":     `<?xml version="1.0" encoding="UTF-8"?><workbook ` + ns + ` xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Owners" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8"?><worksheet ` + ns + `>` + sheetXML + `</worksheet>`,
	}
	if sst != "" {
		parts["xl/sharedStrings.xml"] = `<?xml version="1.0" encoding="UTF-8"?><sst ` + ns + `>` + sst + `</sst>`
	}
	return parts
}

func inlineRow(r int, values ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<row r="%d">`, r)
	for i, v := range values {
		fmt.Fprintf(&b, `<c r="%c%d" t="inlineStr"><is><t>%s</t></is></c>`, 'A'+i, r, v)
	}
	b.WriteString(`</row>`)
	return b.String()
}

// TestHostileWorkbooks: workbooks built to exhaust memory or time (a few
// kilobytes here, with the limits lowered; gigabytes unpacked at the real
// limits) are refused before excelize decodes them, with an error naming
// the file and saying why; a sheet with more merged ranges than are kept is
// read, with a warning. Nothing panics.
func TestHostileWorkbooks(t *testing.T) {
	lower(t, &maxXMLRun, 4<<10)
	lower(t, &maxXMLElement, 64<<10)
	lower(t, &maxSheetOutside, 64<<10)
	lower(t, &maxSharedStrings, 100)
	lower(t, &maxMerges, 3)
	header := inlineRow(1, "First Name", "Last Name")
	data := `<sheetData>` + header + inlineRow(2, "John", "Smith") + inlineRow(3, "Jane", "Doe") + `</sheetData>`
	tests := []struct {
		name  string
		parts map[string]string
		err   string // the error, or "" for none
		warn  string
	}{
		{"plain", workbookParts(data, ""), "", ""},
		{"one huge cell", workbookParts(`<sheetData>`+header+inlineRow(2, strings.Repeat("A", 5<<10), "x")+`</sheetData>`, ""),
			"owners.xlsx: the workbook is damaged or was not written by a spreadsheet program: its part xl/worksheets/sheet1.xml holds more than 4 KB of text in one piece", ""},
		{"a run of spaces", workbookParts(`<sheetData>`+header+strings.Repeat(" ", 5<<10)+`</sheetData>`, ""),
			"holds more than 4 KB of text in one piece", ""},
		{"nested a million deep", workbookParts(`<sheetData>`+header+`<row r="2"><c r="A2" t="inlineStr"><is>`+strings.Repeat("<r>", 1000)+`</is></c></row></sheetData>`, ""),
			"its part xl/worksheets/sheet1.xml holds elements nested more than 64 deep", ""},
		{"huge row", workbookParts(`<sheetData>`+header+`<row r="2">`+strings.Repeat(`<c r="A2"><v>1</v></c>`, 4000)+`</row></sheetData>`, ""),
			"holds a row (or other element) of more than 64 KB", ""},
		{"much after the rows", workbookParts(data+`<hyperlinks>`+strings.Repeat(`<hyperlink ref="A2" display="x"/>`, 3000)+`</hyperlinks>`, ""),
			"its part xl/worksheets/sheet1.xml holds more than 64 KB besides its rows", ""},
		{"too many shared strings", workbookParts(`<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row></sheetData>`, strings.Repeat(`<si><t>x</t></si>`, 101)),
			"owners.xlsx: the workbook holds more than 100 distinct texts", ""},
		{"nested styles", func() map[string]string {
			p := workbookParts(data, "")
			p["xl/styles.xml"] = `<styleSheet>` + strings.Repeat("<a>", 1000)
			return p
		}(), "its part xl/styles.xml holds elements nested more than 64 deep", ""},
		{"a part under any name", func() map[string]string {
			p := workbookParts(data, "")
			p["xl/other/Data9.BIN"] = "\xef\xbb\xbf\n <worksheet><sheetData>" + strings.Repeat("<row>", 1000)
			p["xl/media/image1.png"] = "\x89PNG" + strings.Repeat("<a", 1000) // not XML: not looked into
			return p
		}(), "its part xl/other/Data9.BIN holds elements nested more than 64 deep", ""},
		{"many merged ranges", workbookParts(data+`<mergeCells>`+strings.Repeat(`<mergeCell ref="A2:A3"/>`, 5)+`</mergeCells>`, ""),
			"", "the sheet has 2 more merged ranges than the 3 looked at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeZip(t, "owners.xlsx", tt.parts)
			ins, err := Inspect(context.Background(), path, Options{})
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if ins.Rows != 2 || ins.Headers[0] != "First Name" {
					t.Errorf("rows %d headers %q", ins.Rows, ins.Headers)
				}
				if tt.warn != "" && findWarning(ins.Warnings, tt.warn) == nil {
					t.Errorf("warnings %v, want %q", ins.Warnings, tt.warn)
				}
				return
			}
			var fe *FileError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want a FileError saying %q", err, tt.err)
			}
		})
	}
}

// TestWorkbookUnpackLimits: the declared sizes of the parts are checked
// before anything is unpacked.
func TestWorkbookUnpackLimits(t *testing.T) {
	data := `<sheetData>` + inlineRow(1, "Phone") + inlineRow(2, "2125550147") + `</sheetData>`
	parts := workbookParts(data, "")
	parts["xl/media/image1.png"] = strings.Repeat("\x89PNG", 20<<10)
	path := writeZip(t, "owners.xlsx", parts)
	if _, err := Inspect(context.Background(), path, Options{}); err != nil {
		t.Fatal(err)
	}
	lower(t, &maxWorkbookInMemory, 64<<10)
	if _, err := Inspect(context.Background(), path, Options{}); err == nil || !strings.Contains(err.Error(), "owners.xlsx: the workbook's parts other than its sheets unpack to more than 64 KB") {
		t.Errorf("pictures over the limit: %v", err)
	}
	lower(t, &maxWorkbookFile, 1<<10)
	if _, err := Inspect(context.Background(), path, Options{}); err == nil || !strings.Contains(err.Error(), "KB, more than the 1 KB read, far more than a list") {
		t.Errorf("workbook file over the limit: %v", err)
	}
	lower(t, &maxWorkbookFile, 1<<30)
	lower(t, &maxWorkbookUnzip, 64<<10)
	for _, f := range []func(string) error{
		func(p string) error { _, err := Inspect(context.Background(), p, Options{}); return err },
		func(p string) error { _, err := Sheets(p); return err },
	} {
		if err := f(path); err == nil || !strings.Contains(err.Error(), "owners.xlsx: the workbook unpacks to more than 64 KB, far more than a list the provider accepts") {
			t.Errorf("workbook over the limit: %v", err)
		}
	}
}

// TestXLSXSixteenThousandColumns: the widest sheet Excel makes (XFD, 16,384
// columns) is read, all columns of it.
func TestXLSXSixteenThousandColumns(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 3; r++ {
		row := make([]any, 16384)
		for c := range row {
			row[c] = fmt.Sprintf("v%d-%d", r, c)
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wide.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	ins, err := Inspect(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ins.Headers) != 16384 || ins.Rows != 2 || ins.Headers[16383] != "v1-16383" || ins.Sample[1][16383] != "v3-16383" {
		t.Errorf("%d headers, %d rows", len(ins.Headers), ins.Rows)
	}
}
