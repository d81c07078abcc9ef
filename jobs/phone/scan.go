package phone

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// ScanOptions tune ScanColumn.
type ScanOptions struct {
	Input    input.Options // how to read the file (header line, sheet)
	Examples int           // examples kept of each kind; 0 means 5
	// ListInvalid is how many invalid rows Scan.InvalidRows lists, in file
	// order, so that they can be fixed; 0 lists none (the examples and the
	// counts by reason remain).
	ListInvalid int
}

// Example is one value of the column and what it became.
type Example struct {
	Line       int    `json:"line"`
	Raw        string `json:"raw"`
	Normalized string `json:"normalized,omitempty"` // 10 digits; blank when invalid
	Reason     string `json:"reason,omitempty"`     // why invalid
}

func (e Example) String() string {
	if e.Normalized != "" {
		return fmt.Sprintf("%q -> %s", e.Raw, e.Normalized)
	}
	return fmt.Sprintf("line %d: %q: %s", e.Line, e.Raw, e.Reason)
}

// Scan is what a phone column holds, as the provider will see it.
type Scan struct {
	Path   string `json:"path"`
	Column string `json:"column"`
	// Rows counts data rows (CONTRACT §1): each is billed at the dnc rate.
	Rows int `json:"rows"`
	// Valid counts rows whose phone normalises to a 10-digit NANP number;
	// Invalid the others (Blank of them are blank). Invalid rows are billed
	// and refunded when the job completes.
	Valid   int `json:"valid"`
	Invalid int `json:"invalid"`
	Blank   int `json:"blank"`
	// Unique counts distinct valid numbers; Duplicates the valid rows whose
	// number appeared on an earlier row.
	Unique     int `json:"unique"`
	Duplicates int `json:"duplicates"`
	// Reformatted counts valid values not already written as 10 bare
	// digits (punctuation, a leading 1 or an extension removed).
	Reformatted int `json:"reformatted"`
	Extensions  int `json:"extensions"`
	// Reasons counts invalid rows by reason.
	Reasons map[string]int `json:"reasons,omitempty"`
	// Examples show reformatted values ("(212) 555-0147 x12" → 2125550147);
	// InvalidExamples show rejected ones with the reason.
	Examples        []Example `json:"examples,omitempty"`
	InvalidExamples []Example `json:"invalid_examples,omitempty"`
	// InvalidRows lists the invalid rows, up to ScanOptions.ListInvalid.
	InvalidRows []Example `json:"invalid_rows,omitempty"`
}

// ScanColumn reads the column header of the file at path and normalises
// every value. Memory grows with the number of distinct valid numbers only
// (5 to 11 bytes each: 50 MB at most for a 50 MB list of bare numbers).
func ScanColumn(ctx context.Context, path, header string, opts ScanOptions) (*Scan, error) {
	r, err := input.Open(path, opts.Input)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	col := slices.Index(r.Headers(), header)
	if col < 0 {
		return nil, &input.FileError{Path: path, Line: r.HeaderLine(), Column: header,
			Msg: fmt.Sprintf("no such column; the headers are %q", r.Headers())}
	}
	keep := opts.Examples
	if keep <= 0 {
		keep = 5
	}
	s := &Scan{Path: path, Column: header, Reasons: map[string]int{}}
	var seen numberSet
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		s.Rows++
		raw := row[col]
		num := Normalize(raw)
		if !num.Valid {
			s.Invalid++
			if num.Reason == ReasonBlank {
				s.Blank++
			}
			s.Reasons[num.Reason]++
			if len(s.InvalidExamples) < keep {
				s.InvalidExamples = append(s.InvalidExamples, Example{Line: r.Line(), Raw: raw, Reason: num.Reason})
			}
			if len(s.InvalidRows) < opts.ListInvalid {
				s.InvalidRows = append(s.InvalidRows, Example{Line: r.Line(), Raw: raw, Reason: num.Reason})
			}
			continue
		}
		s.Valid++
		if num.Ext != "" {
			s.Extensions++
		}
		if raw != num.Digits {
			s.Reformatted++
			if len(s.Examples) < keep {
				s.Examples = append(s.Examples, Example{Line: r.Line(), Raw: raw, Normalized: num.Digits})
			}
		}
		var k uint64
		for i := 0; i < 10; i++ {
			k = k*10 + uint64(num.Digits[i]-'0')
		}
		if !seen.add(k) {
			s.Duplicates++
		}
	}
	s.Unique = seen.len()
	if s.Rows == 0 {
		return nil, &input.FileError{Path: path, Line: r.HeaderLine(), Msg: "no data rows: the file has a header and nothing else"}
	}
	return s, nil
}
