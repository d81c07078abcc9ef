package resultgen

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"
)

// ListCase is a file of numbers for a company's own do-not-call list as
// CRMs, dialers, SMS tools and spreadsheets kept by hand export one, with
// its truth: every number written in a phone column, and every phone cell
// whose digits cannot be read. The promise it tests: an import puts every
// number of the file's phone columns on the list, or names the cell (its
// line and column) it could not read; it never drops one without a word and
// never adds a number the file does not hold.
type ListCase struct {
	Seed   int64
	Sheets []ListSheet // one for a CSV
	// CSV: its delimiter, a byte-order mark, UTF-16 (Excel's "Unicode
	// text"), lines of a title above the header.
	XLSX    bool
	Delim   byte
	BOM     bool
	UTF16   bool
	Title   []string
	Written []uint64 // every number the file holds anywhere (phones and notes)
}

// ListSheet is a sheet of the file (the whole of a CSV).
type ListSheet struct {
	Name   string
	Header []string // nil: the file has no header, its first line is numbers
	Phone  []bool   // the column is a phone column (what a person reads as one)
	Rows   [][]ListCell
}

// ListCell is a value written and what it holds.
type ListCell struct {
	Text    string
	Numbers []uint64 // the numbers it holds, as a careful reader reads them
	Bad     bool     // it holds a number whose digits cannot be read
	Number  bool     // an .xlsx stores it as a number, not text
	// NumFmt is the number format an .xlsx shows a Number with: General
	// (0), or one that hides its digits: "0.00" (2), "#,##0.00" (4),
	// scientific (11), as a column given a number format shows phones.
	NumFmt int
}

// listPhoneHeaders are the headers under which exports put a number to
// leave alone: CRMs (Phone, Mobile, Home, Work), dialers (Number, Phone 1,
// DNC Number), SMS tools (Contact Phone, Cell), hand-kept sheets.
var listPhoneHeaders = []string{"Phone", "Phone Number", "Mobile", "Mobile Phone", "Cell", "Cell Phone", "Wireless",
	"Landline", "Tel", "Telephone", "DNC Number", "Do Not Call", "Phone 1", "Phone 2", "Phone 3", "Home Phone",
	"Work Phone", "Contact Phone", "Primary Phone", "Alt Phone", "Number", "Phone #", "Cell #", "Mobile Number"}

// listPlaceholders are what exports write where a number is missing.
var listPlaceholders = []string{"N/A", "n/a", "NA", "-", "--", "none", "None", "NULL", "null", "unknown", "no phone", "0"}

// listOtherColumns are the columns besides the phones, each with a maker
// of its values.
var listOtherColumns = []struct {
	header string
	value  func(r rng, row int) string
}{
	{"Name", func(r rng, row int) string {
		return pick(r, []string{"Ann Lee", "Bob Ray", "Cy Dunn", "Di Fox", "José Peña"})
	}},
	{"First Name", func(r rng, row int) string { return pick(r, []string{"Ann", "Bob", "Cy", "Di"}) }},
	{"Email", func(r rng, row int) string { return fmt.Sprintf("owner%d@example.com", row) }},
	{"Address", func(r rng, row int) string { return fmt.Sprintf("%d Main St", r.between(1, 9999)) }},
	{"Zip", func(r rng, row int) string {
		if r.chance(0.3) {
			return fmt.Sprintf("%05d-%04d", r.between(10000, 99999), r.between(0, 9999))
		}
		return fmt.Sprintf("%05d", r.between(10000, 99999))
	}},
	{"Date Added", func(r rng, row int) string { return fmt.Sprintf("2025-%02d-%02d", r.between(1, 12), r.between(1, 28)) }},
	{"Lead ID", func(r rng, row int) string { return fmt.Sprintf("L-%06d", r.between(1, 999999)) }},
	{"Status", func(r rng, row int) string { return pick(r, []string{"DNC", "Do Not Call", "Opted out", "STOP", ""}) }},
}

// List generates the case of seed.
func List(seed int64) *ListCase {
	r := newRNG(seed)
	nums := &numbers{r: r, used: map[string]bool{}}
	c := &ListCase{Seed: seed, XLSX: r.chance(0.35), Delim: pick(r, []byte{',', ',', ',', ';', '\t'})}
	if !c.XLSX {
		c.BOM = r.chance(0.2)
		if r.chance(0.08) {
			c.UTF16, c.BOM, c.Delim = true, true, '\t'
		}
	}
	sheets := 1
	if c.XLSX && r.chance(0.4) {
		sheets = r.between(2, 3)
	}
	for i := range sheets {
		name := pick(r, []string{"Sheet", "DNC", "Opt-outs ", "List "}) + strconv.Itoa(i+1)
		c.Sheets = append(c.Sheets, c.sheet(r, nums, name, i == 0))
	}
	if !c.XLSX && c.Sheets[0].Header != nil && r.chance(0.15) {
		c.Title = []string{"Do Not Call List", "Exported " + fmt.Sprintf("2025-%02d-%02d", r.between(1, 12), r.between(1, 28))}
	}
	return c
}

// listFileCol is a column of a generated list: a phone, notes, or one of
// listOtherColumns.
type listFileCol struct {
	phone, notes bool
	other        int
}

// sheet makes one sheet: its columns, then its rows.
func (c *ListCase) sheet(r rng, nums *numbers, name string, first bool) ListSheet {
	s := ListSheet{Name: name}
	headerless := first && !c.XLSX && r.chance(0.1)
	cols := listColumns(r, headerless)
	used := map[string]bool{}
	for _, cl := range cols {
		h := ""
		switch {
		case cl.phone:
			for h == "" || used[h] {
				h = pick(r, listPhoneHeaders)
			}
		case cl.notes:
			h = pick(r, []string{"Notes", "Comments", "Memo"})
		default:
			h = listOtherColumns[cl.other].header
		}
		used[h] = true
		s.Header = append(s.Header, h)
		s.Phone = append(s.Phone, cl.phone)
	}
	if headerless {
		s.Header = nil
	}
	blank := r.Float64() * 0.4
	for row := range r.between(1, 40) {
		var cells []ListCell
		for _, cl := range cols {
			switch {
			case cl.phone:
				cells = append(cells, c.phoneCell(r, nums, blank, headerless))
			case cl.notes:
				cells = append(cells, c.noteCell(r, nums))
			default:
				cells = append(cells, ListCell{Text: listOtherColumns[cl.other].value(r, row)})
			}
		}
		s.Rows = append(s.Rows, cells)
	}
	return s
}

// listColumns are a sheet's columns, in their order: one to three phones
// (one in a file without a header), up to three others, notes now and then.
func listColumns(r rng, headerless bool) []listFileCol {
	phones := r.between(1, 3)
	if headerless {
		phones = 1
	}
	var cols []listFileCol
	for range phones {
		cols = append(cols, listFileCol{phone: true})
	}
	for _, o := range r.Perm(len(listOtherColumns))[:r.between(0, 3)] {
		cols = append(cols, listFileCol{other: o})
	}
	if r.chance(0.3) {
		cols = append(cols, listFileCol{notes: true})
	}
	r.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
	return cols
}

// phoneCell is a phone column's value: blank, a placeholder, one number
// or several in any format, or a number whose digits are lost.
func (c *ListCase) phoneCell(r rng, nums *numbers, blank float64, headerless bool) ListCell {
	switch x := r.Float64(); {
	case x < blank && !headerless:
		return ListCell{}
	case x < blank+0.08 && !headerless:
		return ListCell{Text: pick(r, listPlaceholders)}
	case x < blank+0.12:
		d := nums.next(pick(r, plainStates))
		return ListCell{Text: damaged(r, d), Bad: true}
	case x < blank+0.22:
		return c.severalNumbers(r, nums)
	}
	d := nums.next(pick(r, plainStates))
	k, _ := strconv.ParseUint(d, 10, 64)
	c.Written = append(c.Written, k)
	if c.XLSX && r.chance(0.3) {
		return ListCell{Text: d, Numbers: []uint64{k}, Number: true, NumFmt: pick(r, []int{0, 0, 2, 4, 11})}
	}
	return ListCell{Text: c.format(r, d), Numbers: []uint64{k}}
}

// format writes d as exports do, with what a list kept by hand adds: a
// label before it, a float's ".0" (a column with blanks saved by pandas).
func (c *ListCase) format(r rng, d string) string {
	switch x := r.Float64(); {
	case x < 0.05:
		return d + ".0"
	case x < 0.1:
		return pick(r, []string{"Cell: ", "Home: ", "tel:", "M: "}) + phoneFormats[r.IntN(len(phoneFormats))](r, d)
	case x < 0.13 && !c.XLSX:
		return `="` + d + `"` // a CSV written to keep Excel off the digits
	}
	return phoneFormats[r.IntN(len(phoneFormats))](r, d)
}

// severalNumbers is a cell of two or three numbers, as CRMs join them.
func (c *ListCase) severalNumbers(r rng, nums *numbers) ListCell {
	seps := []string{"; ", ", ", " / ", " | "}
	if c.XLSX {
		seps = append(seps, "\n") // Alt+Enter in a cell
	}
	sep := pick(r, seps)
	var parts []string
	var keys []uint64
	for range r.between(2, 3) {
		d := nums.next(pick(r, plainStates))
		k, _ := strconv.ParseUint(d, 10, 64)
		keys = append(keys, k)
		parts = append(parts, phoneFormats[r.IntN(len(phoneFormats))](r, d))
	}
	c.Written = append(c.Written, keys...)
	return ListCell{Text: strings.Join(parts, sep), Numbers: keys}
}

// noteCell is an agent's note, now and then with a number in its words.
func (c *ListCase) noteCell(r rng, nums *numbers) ListCell {
	if r.chance(0.4) {
		return ListCell{Text: pick(r, []string{"", "left vm", "asked to be removed", "wrong number", "call back later"})}
	}
	d := nums.next(pick(r, plainStates))
	k, _ := strconv.ParseUint(d, 10, 64)
	c.Written = append(c.Written, k)
	return ListCell{Text: "said to call " + d[:3] + "-" + d[3:6] + "-" + d[6:] + " instead"}
}

// Name is the file's name.
func (c *ListCase) Name() string {
	if c.XLSX {
		return fmt.Sprintf("list-%d.xlsx", c.Seed)
	}
	return fmt.Sprintf("list-%d.csv", c.Seed)
}

// FirstLine is the line (a sheet's row) of the sheet's first data row.
func (c *ListCase) FirstLine(s *ListSheet) int {
	n := len(c.Title) + 1
	if s.Header != nil {
		n++
	}
	return n
}

// Write writes the file into dir and returns its path.
func (c *ListCase) Write(dir string) (string, error) {
	path := filepath.Join(dir, c.Name())
	if c.XLSX {
		return path, c.writeXLSX(path)
	}
	var b strings.Builder
	for _, t := range c.Title {
		b.WriteString(t + "\r\n")
	}
	s := &c.Sheets[0]
	if s.Header != nil {
		c.writeLine(&b, s.Header)
	}
	for _, row := range s.Rows {
		texts := make([]string, len(row))
		for i, cell := range row {
			texts[i] = cell.Text
		}
		c.writeLine(&b, texts)
	}
	body := []byte(b.String())
	switch {
	case c.UTF16:
		units := utf16.Encode([]rune(b.String()))
		body = make([]byte, 2, 2+2*len(units))
		body[0], body[1] = 0xFF, 0xFE
		for _, u := range units {
			body = binary.LittleEndian.AppendUint16(body, u)
		}
	case c.BOM:
		body = append([]byte{0xEF, 0xBB, 0xBF}, body...)
	}
	return path, os.WriteFile(path, body, 0o600)
}

// writeLine writes a CSV record, quoting what needs it.
func (c *ListCase) writeLine(b *strings.Builder, fields []string) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(c.Delim)
		}
		if strings.ContainsAny(f, string(c.Delim)+"\"\r\n") {
			f = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
		}
		b.WriteString(f)
	}
	b.WriteString("\r\n")
}

func (c *ListCase) writeXLSX(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range c.Sheets {
		var err error
		if i == 0 {
			err = f.SetSheetName("Sheet1", s.Name)
		} else {
			_, err = f.NewSheet(s.Name)
		}
		if err == nil && s.Header != nil {
			err = f.SetSheetRow(s.Name, "A1", &s.Header)
		}
		for j, row := range s.Rows {
			values := make([]any, len(row))
			for k, cell := range row {
				values[k] = cell.Text
				if cell.Number {
					values[k], _ = strconv.ParseInt(cell.Text, 10, 64)
				}
			}
			line := c.FirstLine(&c.Sheets[i]) + j
			if err == nil {
				err = f.SetSheetRow(s.Name, fmt.Sprintf("A%d", line), &values)
			}
			for k, cell := range row {
				if err == nil && cell.NumFmt != 0 {
					err = numFmt(f, s.Name, k, line, cell.NumFmt)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return f.SaveAs(path)
}

// numFmt gives the cell of column col (0-based) and row line the number
// format id.
func numFmt(f *excelize.File, sheet string, col, line, id int) error {
	cell, err := excelize.CoordinatesToCellName(col+1, line)
	if err != nil {
		return err
	}
	style, err := f.NewStyle(&excelize.Style{NumFmt: id})
	if err != nil {
		return err
	}
	return f.SetCellStyle(sheet, cell, cell, style)
}

// Readable counts the numbers the file's phone columns hold.
func (c *ListCase) Readable() int {
	n := 0
	for _, s := range c.Sheets {
		for _, row := range s.Rows {
			for i, cell := range row {
				if s.Phone[i] {
					n += len(cell.Numbers)
				}
			}
		}
	}
	return n
}
