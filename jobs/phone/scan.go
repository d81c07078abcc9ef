package phone

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	Reason     string `json:"reason,omitempty"`     // why invalid; a number abroad: its country
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
	// Abroad counts the valid rows whose number is outside the US (Abroad:
	// Canada, the Caribbean), AbroadRepeats those of them repeating an
	// earlier row's number (counted in Duplicates too), AbroadExamples
	// the first few, with their country as Reason.
	Abroad         int       `json:"abroad,omitempty"`
	AbroadRepeats  int       `json:"abroad_repeats,omitempty"`
	AbroadExamples []Example `json:"abroad_examples,omitempty"`
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
	sc := NewScanner(path, header, opts)
	err = r.Each(ctx, func(row []string) error {
		sc.Add(row[col], r.Line())
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sc.Scan(r.HeaderLine())
}

// Scanner makes a Scan of a column from its values, handed one by one in
// file order (ScanColumn, or a reading that does more at the same time).
type Scanner struct {
	s       *Scan
	keep    int // examples kept of each kind
	listInv int
	seen    numberSet
}

// NewScanner starts the scan of the column header of the file at path.
func NewScanner(path, header string, opts ScanOptions) *Scanner {
	keep := opts.Examples
	if keep <= 0 {
		keep = 5
	}
	return &Scanner{s: &Scan{Path: path, Column: header, Reasons: map[string]int{}}, keep: keep, listInv: opts.ListInvalid}
}

// Add counts the column's value raw of the data row found at line.
func (sc *Scanner) Add(raw string, line int) {
	s := sc.s
	s.Rows++
	num := Normalize(raw)
	if !num.Valid {
		s.Invalid++
		if num.Reason == ReasonBlank {
			s.Blank++
		}
		s.Reasons[num.Reason]++
		if len(s.InvalidExamples) < sc.keep {
			s.InvalidExamples = append(s.InvalidExamples, Example{Line: line, Raw: strings.Clone(raw), Reason: num.Reason})
		}
		if len(s.InvalidRows) < sc.listInv {
			s.InvalidRows = append(s.InvalidRows, Example{Line: line, Raw: strings.Clone(raw), Reason: num.Reason})
		}
		return
	}
	s.Valid++
	if num.Ext != "" {
		s.Extensions++
	}
	if raw != num.Digits {
		s.Reformatted++
		if len(s.Examples) < sc.keep {
			s.Examples = append(s.Examples, Example{Line: line, Raw: strings.Clone(raw), Normalized: num.Digits})
		}
	}
	var k uint64
	for i := 0; i < 10; i++ {
		k = k*10 + uint64(num.Digits[i]-'0')
	}
	country := Abroad(k)
	if country != "" {
		s.Abroad++
		if len(s.AbroadExamples) < sc.keep {
			s.AbroadExamples = append(s.AbroadExamples, Example{Line: line, Raw: strings.Clone(raw), Normalized: num.Digits, Reason: CountryName(country)})
		}
	}
	if !sc.seen.add(k) {
		s.Duplicates++
		if country != "" {
			s.AbroadRepeats++
		}
	}
}

// Scan is the scan of every value added; a file with no data rows (its
// header at headerLine) is an error.
func (sc *Scanner) Scan(headerLine int) (*Scan, error) {
	s := sc.s
	s.Unique = sc.seen.len()
	if s.Rows == 0 {
		return nil, &input.FileError{Path: s.Path, Line: headerLine, Msg: "no data rows: the file has a header and nothing else"}
	}
	return s, nil
}
