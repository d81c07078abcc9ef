package input

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"
)

// xlsxSource streams the rows of one sheet with excelize. Cells come as
// the text Excel displays (number formats applied).
type xlsxSource struct {
	path   string
	f      *excelize.File
	rows   *excelize.Rows
	row    int
	fields [][]byte
}

// xlsxOptions bounds what a workbook may unpack to (a zip bomb stops with
// an error instead of filling memory or the disk).
func xlsxOptions() excelize.Options {
	return excelize.Options{UnzipSizeLimit: 4 << 30, UnzipXMLSizeLimit: 16 << 20}
}

func openXLSX(path, sheet string) (_ *xlsxSource, _ string, err error) {
	defer recoverAs(path, 0, &err)
	f, err := excelize.OpenFile(path, xlsxOptions())
	if err != nil {
		return nil, "", &FileError{Path: path, Msg: "cannot read as an Excel .xlsx workbook: " + err.Error(), Err: err}
	}
	list := f.GetSheetList()
	if len(list) == 0 {
		f.Close()
		return nil, "", &FileError{Path: path, Msg: "the workbook has no sheets"}
	}
	if sheet == "" {
		sheet = list[0]
	} else if !slices.Contains(list, sheet) {
		f.Close()
		return nil, "", &FileError{Path: path, Msg: fmt.Sprintf("no sheet named %q (sheets: %s)", sheet, strings.Join(list, ", "))}
	}
	rows, err := f.Rows(sheet)
	if err != nil {
		f.Close()
		return nil, "", &FileError{Path: path, Msg: fmt.Sprintf("cannot read sheet %q: %v", sheet, err), Err: err}
	}
	return &xlsxSource{path: path, f: f, rows: rows}, sheet, nil
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
	x.fields = x.fields[:0]
	for _, c := range cols {
		x.fields = append(x.fields, []byte(c))
	}
	if len(x.fields) == 0 {
		x.fields = append(x.fields, nil)
	}
	return x.fields, x.row, nil
}

func (x *xlsxSource) close() error {
	x.rows.Close()
	return x.f.Close()
}

// Sheets lists the sheet names of an .xlsx workbook, in order.
func Sheets(path string) (_ []string, err error) {
	defer recoverAs(path, 0, &err)
	f, err := excelize.OpenFile(path, xlsxOptions())
	if err != nil {
		return nil, &FileError{Path: path, Msg: "cannot read as an Excel .xlsx workbook: " + err.Error(), Err: err}
	}
	defer f.Close()
	return f.GetSheetList(), nil
}
