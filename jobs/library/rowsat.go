package library

import (
	"bufio"
	"io"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Offset is where the row Next returned last starts in the file (in bytes
// from the start of the reader's input).
func (rr *RowReader) Offset() int64 { return rr.off }

// NewRowReaderAt reads the rows of a result from the start of a row whose
// place an earlier reading noted (RowReader.Offset, Row and Line): r reads
// the file from that offset, row is the number of data rows before it and
// line the 1-based line it starts on. Rows are split and numbered exactly
// as a RowReader from the start of the file numbers them; Headers is nil.
func NewRowReaderAt(r io.Reader, offset int64, row, line int) *RowReader {
	// A small buffer: such readers read a few rows here and there.
	rr := &RowReader{sc: &scanner{br: bufio.NewReaderSize(r, 16<<10), off: offset}, row: row}
	rr.sc.line = line - 1
	return rr
}

// KeyColumns are the columns shown with a search hit, through the result's
// layout: names, the property address, phones, match status and flags.
func KeyColumns(l *layout.Layout) []int { return keyColumns(l) }
