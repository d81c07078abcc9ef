// Package input reads the owner and phone lists users bring: CSV in any of the
// encodings, delimiters and line ends list vendors and Excel produce, and
// .xlsx workbooks. Open streams UTF-8 rows; Inspect makes one streaming pass
// and reports what the rest of the app needs before a submission (headers, a
// sample, row counts, blanks, company rows, duplicates, Excel damage);
// ConvertToCSV writes the plain UTF-8 comma CSV the API accepts.
//
// Memory does not grow with the file: rows are scanned in a reused buffer
// and never held as strings. The one exception is duplicate detection,
// which keeps one 64-bit hash per distinct row in open-addressing sets at
// most half full: 16 to 32 bytes per distinct row (8 MB for the 485,000
// rows of a 50 MB list), for the first 4,194,304 rows at most (128 MB).
// Two rows whose keys differ but hash alike (odds about n²/2⁶⁵) would
// count as duplicates. A workbook is checked before excelize decodes it
// (xlsxguard.go): one that unpacks to more than 1 GB, or holds XML built
// to exhaust memory, is refused with a message saying why.
package input

import (
	"fmt"
	"path/filepath"
)

// MaxUploadBytes is the API's upload limit (spec: "at most 50 MB").
const MaxUploadBytes = 50 << 20

// DefaultSampleRows is the number of rows Inspect keeps when
// Options.SampleRows is 0.
const DefaultSampleRows = 20

// Options tune reading. The zero value detects everything.
type Options struct {
	// HeaderLine is the 1-based physical line (the row number in a sheet)
	// holding the header; 0 detects it (blank and title lines above the
	// header are skipped).
	HeaderLine int
	// Sheet names the .xlsx sheet to read; "" reads the first sheet.
	Sheet string
	// NameColumns are the headers whose values, joined with a space, decide
	// whether a row is a company row; nil guesses them from the headers
	// (first/last/owner/full name). An empty non-nil slice means none.
	NameColumns []string
	// KeyColumns are the headers forming the duplicate key; nil means all
	// columns. An empty non-nil slice means none: no row is keyed and
	// DuplicateRows stays 0, for a reader that counts the rows repeated by
	// a key of its own (the upload's count).
	KeyColumns []string
	// SampleRows is the number of first data rows kept in
	// Inspection.Sample; 0 means DefaultSampleRows, a negative value none.
	// Rows of thousands of columns are kept fewer (at least one), so that
	// the sample holds at most maxSampleCells cells.
	SampleRows int
	// Hash: Inspect also computes the file's SHA-256 (Inspection.SHA256)
	// as it reads it, for the duplicate guard and the upload's record.
	Hash bool
	// Wide: a row keeps its values beyond the header's columns (Next
	// returns it wider than the header), and a record holding values only
	// there is a row, for a reader that must lose no value (the numbers
	// of a company's do-not-call list). Uploads cut rows to the header.
	Wide bool
}

// Inspection is what one pass over a file found.
type Inspection struct {
	Path      string `json:"path"`
	Size      int64  `json:"size"`
	Format    string `json:"format"`   // "csv" or "xlsx"
	Encoding  string `json:"encoding"` // "UTF-8", "UTF-8 BOM", "UTF-16LE", "UTF-16BE", "Windows-1252"; "" for xlsx
	Delimiter rune   `json:"delimiter"`
	Sheet     string `json:"sheet,omitempty"` // xlsx: the sheet read
	// OtherSheets are the workbook's other sheets holding cells, not read
	// (only looked for when no sheet was asked for).
	OtherSheets []string `json:"other_sheets,omitempty"`
	// HeaderLine is the 1-based physical line (sheet row) of the header.
	HeaderLine int `json:"header_line"`
	// Headers are the header names, made distinct ("Phone", "Phone (2)";
	// a blank header becomes "Column N").
	Headers []string `json:"headers"`
	// RawHeaders are the header cells as found in the file (trimmed).
	RawHeaders []string `json:"raw_headers"`
	// Sample holds the first data rows, each as wide as Headers.
	Sample [][]string `json:"sample"`
	// Rows counts data rows: records after the header whose fields are not
	// all blank. BlankRows counts the fully blank records skipped.
	Rows      int `json:"rows"`
	BlankRows int `json:"blank_rows"`
	// Blanks counts, per column, the data rows where that column is blank.
	Blanks []int `json:"blanks"`
	// NameColumns are the headers used to decide company rows (guessed when
	// Options.NameColumns is nil); EntityRows counts company rows.
	NameColumns []string `json:"name_columns"`
	EntityRows  int      `json:"entity_rows"`
	// KeyColumns are the headers forming the duplicate key (all when
	// Options.KeyColumns is nil); DuplicateRows counts data rows whose
	// normalised key was already seen earlier in the file.
	KeyColumns    []string `json:"key_columns"`
	DuplicateRows int      `json:"duplicate_rows"`
	// ShortZips counts 4-digit values (or 4+4 ZIP+4) in zip-like columns (Excel dropped
	// the leading zero); SciNumbers counts values like 1.23E+10 (a phone
	// Excel turned into a number).
	ShortZips int `json:"short_zips"`
	// ShortZipsIn counts them per column (aligned with Headers; nil when
	// there are none), so that a repair can name the columns it fixes.
	ShortZipsIn []int `json:"short_zips_in,omitempty"`
	SciNumbers  int   `json:"sci_numbers"`
	// RaggedRows counts data rows with more or fewer fields than the
	// header; they are padded with blanks or truncated.
	RaggedRows int `json:"ragged_rows"`
	// TooLarge is set when the file is over the upload limit.
	TooLarge bool `json:"too_large"`
	// SHA256 is the hex SHA-256 of the file's bytes as Inspect read them
	// (Options.Hash; a CSV's only: "" otherwise), what HashFile gives.
	SHA256 string `json:"sha256,omitempty"`
	// NeedsConversion is set when the file cannot be uploaded as it is
	// (xlsx, not UTF-8, not comma-separated, header not on line 1, NUL
	// bytes…): upload the output of ConvertToCSV instead. ConversionReasons
	// says why, in words.
	NeedsConversion   bool      `json:"needs_conversion"`
	ConversionReasons []string  `json:"conversion_reasons,omitempty"`
	Warnings          []Warning `json:"warnings"`
}

// Warning is a problem that does not stop reading. Line is the first
// physical line (sheet row) concerned, Count the number of rows (or values)
// affected.
type Warning struct {
	Line    int    `json:"line,omitempty"`
	Column  string `json:"column,omitempty"`
	Count   int    `json:"count,omitempty"`
	Message string `json:"message"`
}

func (w Warning) String() string {
	s := w.Message
	if w.Column != "" {
		s = fmt.Sprintf("column %q: %s", w.Column, s)
	}
	if w.Line > 0 {
		s = fmt.Sprintf("line %d: %s", w.Line, s)
	}
	return s
}

// FileError is an error about a file, naming the line (and column) when
// known: "owners.csv line 12: ...".
type FileError struct {
	Path   string
	Line   int
	Column string
	Msg    string
	Err    error // the underlying error, if any
}

func (e *FileError) Error() string {
	s := filepath.Base(e.Path)
	if e.Line > 0 {
		s += fmt.Sprintf(" line %d", e.Line)
	}
	if e.Column != "" {
		s += fmt.Sprintf(" column %q", e.Column)
	}
	return s + ": " + e.Msg
}

func (e *FileError) Unwrap() error { return e.Err }
