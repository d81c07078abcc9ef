package library

import (
	"io"
	"slices"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// A result's header is found as the import finds it (input.PickHeader):
// title lines above it are passed over, and a header of two rows (a row of
// group labels over the columns' names) is read as one, so that a file
// read in place (the viewer, an export, a search) has the columns its
// imported copy has.

// headRecord is a record read before the header is known.
type headRecord struct {
	start int64 // where it starts in the file
	line  int   // its first line
	rec   []byte
}

// findHeader reads the first records of sc (up to input.HeaderScan
// non-blank ones) and returns the header's names and the non-blank
// records after the header read meanwhile, in order: they are the first
// rows. errNoHeader when every record is blank.
func findHeader(sc *scanner) ([]string, []headRecord, error) {
	var recs []headRecord
	var fields [][]string
	held := 0
	for len(recs) < input.HeaderScan && held < 1<<20 {
		line := sc.line + 1
		start, b, err := sc.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if blankRecord(b) {
			continue
		}
		recs = append(recs, headRecord{start: start, line: line, rec: slices.Clone(b)})
		f := slices.Clone(parseRecord(b, nil))
		if len(fields) == 0 && len(f) > 0 {
			f[0] = strings.TrimPrefix(f[0], "\ufeff")
		}
		fixText(f)
		fields = append(fields, f)
		held += len(b)
	}
	at, names := input.PickHeader(fields)
	if at < 0 {
		return nil, nil, errNoHeader
	}
	if names == nil {
		names = fields[at]
	}
	if err := wide(names, recs[at].line); err != nil {
		return nil, nil, err
	}
	return names, recs[at+1:], nil
}
