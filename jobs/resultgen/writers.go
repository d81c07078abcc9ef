package resultgen

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// Writing files in their formats: CSV with commas or semicolons, TSV, in
// UTF-8 (with or without a byte order mark) or Windows-1252, CRLF or LF
// line ends; XLSX with text, numbers for phones, Excel dates.

// Write puts the case's files in dir, each with the job record of ours it
// has beside it, and returns their paths, in the order of Files.
func (c *Case) Write(dir string) ([]string, error) {
	lib, err := library.Open(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for i, f := range c.Files {
		p := filepath.Join(dir, f.Name)
		b, err := f.Bytes(c.Now)
		if err == nil {
			err = os.WriteFile(p, b, 0o600)
		}
		if err == nil && f.Record != nil {
			err = lib.Record(f.meta(c, i), p)
		}
		if err != nil {
			return nil, fmt.Errorf("resultgen: writing %s: %w", f.Name, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// meta is the job record of ours of the case's i-th file.
func (f *File) meta(c *Case, i int) library.Meta {
	kind := jobs.KindTrace
	if f.Kind == DNCResult {
		kind = jobs.KindDNC
	}
	done := f.RecordTime(c.Now)
	return library.Meta{JobID: fmt.Sprintf("gen_%d_%d", c.Seed, i), Kind: kind, Name: f.Name, Status: jobs.StatusCompleted,
		TotalRows: len(f.Rows), CreatedAt: done.Add(-10 * time.Minute), CompletedAt: done}
}

// RecordTime is when the job of a file's record completed.
func (f *File) RecordTime(now time.Time) time.Time {
	if f.Record == nil {
		return time.Time{}
	}
	return completedAt(now, *f.Record, 3)
}

// StatedTime is the scrub date the person gives when importing the file
// (zero: none): a day, as a person types it.
func (f *File) StatedTime(now time.Time) time.Time {
	if f.Stated == nil {
		return time.Time{}
	}
	d := now.AddDate(0, 0, -*f.Stated)
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.Local)
}

// Table is the file's header and rows as text.
func (f *File) Table() [][]string {
	out := make([][]string, 0, len(f.Rows)+1)
	h := make([]string, len(f.Cols))
	for i, c := range f.Cols {
		h[i] = c.Header
	}
	out = append(out, h)
	for _, row := range f.Rows {
		r := make([]string, len(row))
		for i, c := range row {
			r[i] = c.Text
		}
		out = append(out, r)
	}
	return out
}

// CSV is the file as CSV text with commas, whatever its format: what a
// failure prints.
func (f *File) CSV() string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(f.lines())
	return b.String()
}

// lines is the file as written: its title lines, its header (in two rows
// when grouped), its rows.
func (f *File) lines() [][]string {
	t := f.Table()
	var out [][]string
	for _, l := range f.Title {
		out = append(out, []string{l})
	}
	if f.Group == "" {
		return append(out, t...)
	}
	return append(append(out, f.groupedHeader()...), t[1:]...)
}

// head is how many lines of lines() come before the first row.
func (f *File) head() int {
	n := len(f.Title) + 1
	if f.Group != "" {
		n++
	}
	return n
}

// groupedHeader is the header in two rows: over each phone's columns its
// name, below the columns' own names (its header less the phone's name;
// the phone's own column f.Group); a column of no phone keeps its name,
// with nothing over it.
func (f *File) groupedHeader() [][]string {
	over, names := make([]string, len(f.Cols)), make([]string, len(f.Cols))
	label := map[string]string{} // a slot → its phone's header
	for _, c := range f.Cols {
		if c.Role == RolePhone && c.Slot != "" && label[c.Slot] == "" {
			label[c.Slot] = c.Header
		}
	}
	for i, c := range f.Cols {
		names[i] = c.Header
		l := label[c.Slot]
		if c.Slot == "" || l == "" {
			continue
		}
		if i == 0 || f.Fill || f.Cols[i-1].Slot != c.Slot {
			over[i] = l
		}
		switch rest := strings.Trim(strings.TrimPrefix(c.Header, l), " _-:."); {
		case c.Header == l:
			names[i] = f.Group
		case rest != "" && strings.HasPrefix(c.Header, l):
			names[i] = rest
		}
	}
	return [][]string{over, names}
}

// Bytes is the file in its format.
func (f *File) Bytes(now time.Time) ([]byte, error) {
	if f.Format == XLSX {
		return f.xlsx(now)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Comma = map[Format]rune{CSVComma: ',', CSVSemicolon: ';', TSV: '\t'}[f.Format]
	w.UseCRLF = f.CRLF
	if err := w.WriteAll(f.lines()); err != nil {
		return nil, err
	}
	switch f.Encoding {
	case "bom":
		return append([]byte("\ufeff"), b.Bytes()...), nil
	case "cp1252":
		return charmap.Windows1252.NewEncoder().Bytes(b.Bytes())
	}
	return b.Bytes(), nil
}

// xlsx writes the file as a workbook: one sheet, or its rows split over
// Sheets sheets, each with the lines above its rows (title, header).
func (f *File) xlsx(now time.Time) ([]byte, error) {
	x := excelize.NewFile()
	defer x.Close()
	dateStyle, err := x.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		return nil, err
	}
	phoneStyle, err := x.NewStyle(&excelize.Style{NumFmt: f.PhoneNumFmt})
	if err != nil {
		return nil, err
	}
	lines, head := f.lines(), f.head()
	sheets := max(f.Sheets, 1)
	per := (len(lines) - head + sheets - 1) / sheets
	for n := range sheets {
		name := "Sheet1"
		if n > 0 {
			name = fmt.Sprintf("Part %d", n+1)
			if _, err := x.NewSheet(name); err != nil {
				return nil, err
			}
		}
		sw, err := x.NewStreamWriter(name)
		if err != nil {
			return nil, err
		}
		from, to := min(len(lines), head+n*per), min(len(lines), head+(n+1)*per)
		out := append(slices.Clone(lines[:head]), lines[from:to]...)
		for i, row := range out {
			vals := make([]any, len(row))
			for j, s := range row {
				vals[j] = s
				if i < head {
					continue
				}
				v := f.xlsxValue(now, f.Rows[from+i-2*head][j], s)
				switch v.(type) {
				case time.Time:
					v = excelize.Cell{StyleID: dateStyle, Value: v}
				case int64:
					v = excelize.Cell{StyleID: phoneStyle, Value: v}
				}
				vals[j] = v
			}
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := sw.SetRow(cell, vals); err != nil {
				return nil, err
			}
		}
		if err := sw.Flush(); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	if err := x.Write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// xlsxValue is a cell's value in a workbook: an Excel date for a known
// scrub date when the file keeps dates so, a number for a phone written
// as bare digits when it keeps phones so, else the text.
func (f *File) xlsxValue(now time.Time, c Cell, s string) any {
	switch {
	case c.M == nil:
	case f.NativeDates && c.M.Date != nil && c.M.Date.Known:
		d := now.AddDate(0, 0, -c.M.Date.Age)
		return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	case f.NumericPhones && c.M.Phone != "" && (len(s) == 10 || len(s) == 11):
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	}
	return s
}
