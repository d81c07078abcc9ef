package input

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// xlsxSource streams the rows of one sheet with excelize. Cells come as
// the text Excel displays (number formats applied); ranges merged over
// several rows are filled down (see xlsxmerge.go).
type xlsxSource struct {
	path   string
	f      *excelize.File
	sheets []string // every sheet of the workbook, in order
	sheet  string   // the sheet read
	rows   *excelize.Rows
	row    int
	fields [][]byte

	merges    []mergeRange // of the sheet, by top row
	nextMerge int          // first merge not yet reached
	active    []activeMerge

	filled, filledLine int // cells filled from a merged range
	mergesBeyond       int // merged ranges beyond maxMerges, not looked at

	// raw reads the sheet a second time, for the stored values of the
	// numbers whose display hides their digits (exact); opened at the
	// first, it is at row rawRow.
	raw     *excelize.Rows
	rawRow  int
	exactly int // numbers read as stored, not as displayed
}

// activeMerge is a merged range being filled: its value, down to bottom.
type activeMerge struct {
	col, bottom int
	value       []byte
}

// xlsxOptions bounds what a workbook may unpack to (a zip bomb stops with
// an error instead of filling memory or the disk; checkWorkbook has
// already refused it with a better message).
func xlsxOptions() excelize.Options {
	return excelize.Options{UnzipSizeLimit: maxWorkbookUnzip, UnzipXMLSizeLimit: xlsxInMemoryPart}
}

// openWorkbook opens the .xlsx at path once the streaming guard has
// passed it (checkWorkbook), within what xlsxOptions lets it unpack to.
// The caller recovers a panic of excelize's (recoverAs).
func openWorkbook(path string) (*excelize.File, error) {
	if err := checkWorkbook(path); err != nil {
		return nil, err
	}
	f, err := excelize.OpenFile(path, xlsxOptions())
	if err != nil {
		return nil, &FileError{Path: path, Msg: "cannot read as an Excel .xlsx workbook: " + err.Error(), Err: err}
	}
	return f, nil
}

func openXLSX(path, sheet string) (_ *xlsxSource, err error) {
	defer recoverAs(path, 0, &err)
	f, err := openWorkbook(path)
	if err != nil {
		return nil, err
	}
	list := f.GetSheetList()
	if len(list) == 0 {
		f.Close()
		return nil, &FileError{Path: path, Msg: "the workbook has no sheets"}
	}
	if sheet == "" {
		sheet = list[0]
	} else if !slices.Contains(list, sheet) {
		f.Close()
		return nil, &FileError{Path: path, Msg: fmt.Sprintf("no sheet named %q (sheets: %s)", sheet, strings.Join(list, ", "))}
	}
	x := &xlsxSource{path: path, f: f, sheets: list}
	if err := x.open(sheet); err != nil {
		f.Close()
		return nil, err
	}
	return x, nil
}

// open starts reading sheet from its first row.
func (x *xlsxSource) open(sheet string) (err error) {
	defer recoverAs(x.path, 0, &err)
	if x.rows != nil {
		x.rows.Close()
		x.rows = nil
	}
	merges, beyond := sheetMerges(x.path, sheet)
	rows, err := x.f.Rows(sheet)
	if err != nil {
		return &FileError{Path: x.path, Msg: fmt.Sprintf("cannot read sheet %q: %v", sheet, err), Err: err}
	}
	if x.raw != nil {
		x.raw.Close()
		x.raw = nil
	}
	x.sheet, x.rows, x.row = sheet, rows, 0
	x.merges, x.nextMerge, x.active, x.mergesBeyond = merges, 0, nil, beyond
	x.filled, x.filledLine = 0, 0
	return nil
}

// recoverAs turns a panic in a library reading a damaged file into a
// FileError.
func recoverAs(path string, line int, err *error) {
	if p := recover(); p != nil {
		*err = &FileError{Path: path, Line: line, Msg: fmt.Sprintf("cannot read this workbook (damaged?): %v", p)}
	}
}

func (x *xlsxSource) next() (fields [][]byte, line int, err error) {
	defer recoverAs(x.path, x.row+1, &err)
	if !x.rows.Next() {
		if err := x.rows.Error(); err != nil {
			return nil, x.row + 1, &FileError{Path: x.path, Line: x.row + 1, Msg: "cannot read: " + err.Error(), Err: err}
		}
		return nil, x.row, io.EOF
	}
	x.row++
	cols, err := x.rows.Columns()
	if err != nil {
		return nil, x.row, &FileError{Path: x.path, Line: x.row, Msg: "cannot read: " + err.Error(), Err: err}
	}
	if err := x.exact(cols); err != nil {
		return nil, x.row, err
	}
	x.fields = x.fields[:0]
	for _, c := range cols {
		x.fields = append(x.fields, []byte(c))
	}
	if len(x.merges) > 0 {
		x.fillMerges()
	}
	if len(x.fields) == 0 {
		x.fields = append(x.fields, nil)
	}
	return x.fields, x.row, nil
}

// exact puts back the digits of the whole numbers of ten digits or more
// that the sheet displays in a way that hides them: in scientific
// notation ("5.13E+09") or with decimals ("5125550101.00"), as a column of
// phone numbers stored as numbers and given a number format shows them.
// The stored value is exact: it is read, from a second reading of the
// sheet opened at the first such cell. A text that looks so is left as
// it is (its digits are lost).
func (x *xlsxSource) exact(cols []string) error {
	var raw []string
	for i, c := range cols {
		if !hidesDigits(c) {
			continue
		}
		if raw == nil {
			var err error
			if raw, err = x.rawRowCells(); err != nil {
				return err
			}
		}
		// A text's stored value is its text: only a number's differs.
		if i < len(raw) && raw[i] != c {
			if v, ok := wholeNumber(raw[i]); ok {
				cols[i] = v
				x.exactly++
			}
		}
	}
	return nil
}

// rawRowCells are the stored values of the current row's cells.
func (x *xlsxSource) rawRowCells() ([]string, error) {
	if x.raw == nil {
		rows, err := x.f.Rows(x.sheet)
		if err != nil {
			return nil, &FileError{Path: x.path, Line: x.row, Msg: "cannot read: " + err.Error(), Err: err}
		}
		x.raw, x.rawRow = rows, 0
	}
	for x.rawRow < x.row {
		if !x.raw.Next() {
			return nil, nil
		}
		x.rawRow++
	}
	cells, err := x.raw.Columns(excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, &FileError{Path: x.path, Line: x.row, Msg: "cannot read: " + err.Error(), Err: err}
	}
	return cells, nil
}

// hidesDigits reports whether a cell's display may hide a whole number's
// digits: scientific notation, or ten digits or more followed by a point
// and zeros.
func hidesDigits(s string) bool {
	if isSci([]byte(s)) {
		return true
	}
	dot := strings.IndexByte(s, '.')
	return dot >= 10 && strings.Trim(s[dot+1:], "0") == "" && len(s) > dot+1 &&
		strings.Trim(s[:dot], "0123456789,") == ""
}

// wholeNumber is a stored value that is a whole number of ten to fifteen
// digits, as its digits.
func wholeNumber(v string) (string, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f != math.Trunc(f) || f < 1e9 || f >= 1e15 {
		return "", false
	}
	return strconv.FormatInt(int64(f), 10), true
}

// fillMerges gives the blank cells of the current row that lie in a range
// merged over several rows the value of the range's first cell.
func (x *xlsxSource) fillMerges() {
	// Ranges ending above this row are done.
	x.active = slices.DeleteFunc(x.active, func(a activeMerge) bool { return a.bottom < x.row })
	for _, a := range x.active {
		for len(x.fields) <= a.col {
			x.fields = append(x.fields, nil)
		}
		if len(x.fields[a.col]) == 0 {
			x.fields[a.col] = a.value
			x.filled++
			if x.filledLine == 0 {
				x.filledLine = x.row
			}
		}
	}
	// Ranges starting on this row take their value from it.
	for ; x.nextMerge < len(x.merges) && x.merges[x.nextMerge].top <= x.row; x.nextMerge++ {
		m := x.merges[x.nextMerge]
		if m.top < x.row || m.col >= len(x.fields) || len(x.fields[m.col]) == 0 {
			continue
		}
		x.active = append(x.active, activeMerge{col: m.col, bottom: m.bottom, value: slices.Clone(x.fields[m.col])})
	}
}

func (x *xlsxSource) warnings() []Warning {
	var ws []Warning
	if x.filled > 0 {
		ws = append(ws, Warning{Line: x.filledLine, Count: x.filled,
			Message: fmt.Sprintf("%s of ranges merged over several rows filled with the range's value, as Excel shows it", plural(x.filled, "cell", "cells"))})
	}
	if x.exactly > 0 {
		ws = append(ws, Warning{Count: x.exactly,
			Message: fmt.Sprintf("%s shown in scientific notation or with decimals read as stored, whole (\"5.13E+09\" is 5125550101)", plural(x.exactly, "number", "numbers"))})
	}
	if x.mergesBeyond > 0 {
		ws = append(ws, Warning{Count: x.mergesBeyond,
			Message: fmt.Sprintf("the sheet has %s more merged ranges than the %s looked at: their cells are read as stored (blank but the first)", thousands(x.mergesBeyond), thousands(maxMerges))})
	}
	return ws
}

// holdsCells reports whether sheet has a cell that is not blank; it reads
// the sheet only up to its first such cell.
func (x *xlsxSource) holdsCells(sheet string) (_ bool, err error) {
	defer recoverAs(x.path, 0, &err)
	rows, err := x.f.Rows(sheet)
	if err != nil {
		return false, &FileError{Path: x.path, Msg: fmt.Sprintf("cannot read sheet %q: %v", sheet, err), Err: err}
	}
	defer rows.Close()
	for rows.Next() {
		cols, err := rows.Columns()
		if err != nil {
			return false, &FileError{Path: x.path, Msg: fmt.Sprintf("cannot read sheet %q: %v", sheet, err), Err: err}
		}
		if slices.ContainsFunc(cols, func(c string) bool { return strings.TrimSpace(c) != "" }) {
			return true, nil
		}
	}
	return false, rows.Error()
}

func (x *xlsxSource) close() error {
	if x.rows != nil {
		x.rows.Close()
	}
	if x.raw != nil {
		x.raw.Close()
	}
	return x.f.Close()
}

// Sheets lists the sheet names of an .xlsx workbook, in order.
func Sheets(path string) (_ []string, err error) {
	defer recoverAs(path, 0, &err)
	f, err := openWorkbook(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.GetSheetList(), nil
}
