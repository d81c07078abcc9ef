package library

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// RowReader reads a result's rows in file order, split and parsed exactly as
// the Result reader and the search read them (blank records skipped, a
// stray quote inside an unquoted field kept as a character), so that an
// export, a row count and the viewer always agree on what the rows are.
type RowReader struct {
	sc      *scanner
	headers []string
	ahead   []headRecord // rows read while the header was looked for
	rec     []string
	row     int
	line    int
	off     int64 // where the row Next returned last starts in the file
}

// NewRowReader reads the header row of r; it fails when r holds no header.
func NewRowReader(r io.Reader) (*RowReader, error) {
	rr := &RowReader{sc: newScanner(r, 0)}
	var err error
	if rr.headers, rr.ahead, err = findHeader(rr.sc); err != nil {
		return nil, err
	}
	return rr, nil
}

// wide refuses a record with more fields than input.MaxFields, as the
// import does.
func wide(rec []string, line int) error {
	if len(rec) > input.MaxFields {
		return &TooLongError{Line: line, Fields: len(rec)}
	}
	return nil
}

// fixText reads the bytes of fields that are not UTF-8 as Windows-1252 (a
// file saved by Excel on Windows, opened where it is): "verificación" is
// read as written, never as a broken word.
func fixText(rec []string) {
	for i, v := range rec {
		rec[i] = input.FixText(v)
	}
}

// fixRecord is fixText for the fields parsed from the record b: a record
// that is UTF-8 as a whole has fields that are (they are cut at ASCII
// quotes and delimiters), so most records are looked at once, not field by
// field.
func fixRecord(b []byte, rec []string) {
	if !utf8.Valid(b) {
		fixText(rec)
	}
}

// Headers are the column names.
func (rr *RowReader) Headers() []string { return rr.headers }

// Next returns the next data row, valid until the next call; io.EOF after
// the last.
func (rr *RowReader) Next() ([]string, error) {
	for {
		line := rr.sc.line + 1
		var off int64
		var b []byte
		var err error
		if len(rr.ahead) > 0 {
			h := rr.ahead[0]
			rr.ahead = rr.ahead[1:]
			off, b, line = h.start, h.rec, h.line
		} else if off, b, err = rr.sc.next(); err != nil {
			return nil, err
		}
		if blankRecord(b) {
			continue
		}
		rr.rec = parseRecord(b, rr.rec)
		fixRecord(b, rr.rec)
		if err := wide(rr.rec, line); err != nil {
			return nil, err
		}
		rr.row++
		rr.line, rr.off = line, off
		return rr.rec, nil
	}
}

// Row is the 1-based data row Next returned last.
func (rr *RowReader) Row() int { return rr.row }

// Line is the 1-based line of the file where that row starts.
func (rr *RowReader) Line() int { return rr.line }

// Warnings are the problems of the file met so far that reading got around
// (see Result.Warnings).
func (rr *RowReader) Warnings() []string { return warnings(rr.sc.unclosed) }

// CountRows counts the data rows of a result (the header and blank records
// are not rows), reading r to its end.
func CountRows(r io.Reader) (int, error) {
	rr, err := NewRowReader(r)
	if err == errNoHeader {
		_, err = io.Copy(io.Discard, r)
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	for {
		if _, err := rr.Next(); err == io.EOF {
			return rr.row, nil
		} else if err != nil {
			return rr.row, err
		}
	}
}

// warnings turns what the scanner met into messages for the user.
func warnings(unclosed int) []string {
	if unclosed == 0 {
		return nil
	}
	return []string{fmt.Sprintf("line %d: a quoted value that starts on this line is never closed, "+
		"so the file's last row holds everything from there to the end of the file (the file is damaged)", unclosed)}
}
