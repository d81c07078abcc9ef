package resultgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Case is one generated situation: the result files, the state around them
// and the truth of every number in them.
type Case struct {
	Seed int64
	// Now is the moment of the export the case is judged at: the files'
	// dates are written relative to it.
	Now time.Time
	// Files are the result files. Files[0] is the result exported; the
	// others are DNC results of its phones, given with it.
	Files []*File
	// Company are the numbers on the company's own do-not-call list.
	Company []string
	// Dims names the dimensions the case was built with, for a reader of a
	// failure.
	Dims []string
}

// Kind says what a file is.
type Kind int

// Kinds of result file.
const (
	TraceResult Kind = iota // people and their phones (a trace, a CRM or a dialer export)
	DNCResult               // phones and their list answers
)

func (k Kind) String() string {
	if k == DNCResult {
		return "DNC result"
	}
	return "trace result"
}

// Format is how a file is written.
type Format int

// Formats of result file.
const (
	CSVComma Format = iota
	CSVSemicolon
	TSV
	XLSX
)

// Ext is the file name extension of a format.
func (f Format) Ext() string {
	switch f {
	case TSV:
		return ".tsv"
	case XLSX:
		return ".xlsx"
	}
	return ".csv"
}

func (f Format) String() string {
	return [...]string{"CSV (commas)", "CSV (semicolons)", "TSV", "XLSX"}[f]
}

// File is one result file: its columns, each with what it means, and its
// rows of cells.
type File struct {
	Name   string // file name with its extension
	Kind   Kind
	Format Format
	// Family names the kind of vendor whose files it imitates; Headers the
	// naming convention its headers are rewritten in.
	Family, Headers string
	Cols            []Column
	Rows            [][]Cell
	// Record, when set, is a job record of ours beside the file: the job
	// completed Record days before Now (a CSV with commas only).
	Record *int
	// Import: the file reaches SkipDesk through the library's import (the
	// window and the CLI's "results import"), as every file not a CSV
	// does; else it is opened where it is.
	Import bool
	// Stated, for an imported file, is the scrub date the person gives
	// when importing it, Stated days before Now (nil: none given). It
	// dates the rows without a date of their own.
	Stated *int
	// Encoding of a text format: "" UTF-8, "bom" UTF-8 with a byte order
	// mark, "cp1252" Windows-1252.
	Encoding string
	CRLF     bool
	// NativeDates: an .xlsx holds its scrub dates as Excel dates.
	NativeDates bool
	// NumericPhones: an .xlsx holds phones written as bare digits as
	// numbers.
	NumericPhones bool
	// PhoneNumFmt is the number format an .xlsx shows its numeric phones
	// with: General (0), or one that hides their digits, "0.00" (2),
	// "#,##0.00" (4) or scientific (11), as a column given a number
	// format shows them (the stored value is exact).
	PhoneNumFmt int
	// Sheets is how many sheets an .xlsx's rows are split over, each with
	// the header (0 or 1: one), as services split a result by status or
	// by Excel's size.
	Sheets int
	// Title are lines written above the header ("" a blank line), as
	// reports exported from a portal start.
	Title []string
	// Group, when set, writes the header in two rows: each phone's name
	// over its columns (in the first of them, or in each when Fill), the
	// columns' own names below ("Number", "Type", "DNC"), the phone's
	// own column named Group.
	Group string
	Fill  bool
}

// Column is a column of a file: its header and what its cells say.
type Column struct {
	Header string
	Role   Role
	// Slot is the phone the column belongs to in a layout with several
	// phones a row ("o2p1": owner 2's phone 1); "" a column of the row.
	Slot string
	// Reports are the lists the column reports: a case that has the
	// column requires a clean answer on each ("federal", "state:TX",
	// "state:*", "litigator", "dma", "internal:<file>").
	Reports []string
	// Conv names the value convention of a list column.
	Conv string
}

// Role is what a column holds.
type Role int

// Roles of columns.
const (
	RoleOther    Role = iota // names, addresses, ids: nothing about calling
	RolePhone                // a phone number
	RoleList                 // an answer on one list
	RoleVerdict              // a combined verdict (DNC status, OK to call)
	RoleCode                 // a result code
	RoleStates               // the state lists a phone is on, as codes
	RoleType                 // line type, a wireless flag, a carrier
	RoleStatus               // a status, tag, disposition or CRM flag
	RoleNotes                // free text
	RoleScope                // whether the row was checked
	RoleDate                 // when the row was scrubbed
	RoleValidity             // whether the number works
)

// Cell is a cell's text and what it means.
type Cell struct {
	Text string
	M    *Meaning // nil: it says nothing about calling
}

// Meaning is what a cell says about its phone or its row.
type Meaning struct {
	// Phone is the number a phone cell holds (10 digits); "" when the
	// cell is blank or cannot be read with certainty (Damaged).
	Phone string
	// Phones are the numbers a cell of several holds ("Other Phones":
	// "a, b"), each a phone of the row as Phone is.
	Phones  []string
	Damaged bool
	// Answers are the list answers the cell gives; For, when set, the
	// numbers they are about (a row's "DNC Numbers"), else the phone whose
	// cell or row it is.
	Answers []Answer
	For     []string
	// Restrict is the restriction the cell states ("" none).
	Restrict string
	// Invalid: the cell says the number does not work.
	Invalid bool
	// Type is the line type the cell states.
	Type LineType
	// NotChecked: a scope cell saying the row was not checked.
	NotChecked bool
	// Date is a date cell's date.
	Date *DateFact
	// Mentions are numbers written in free text (not phones of the row).
	Mentions []string
	// How names the mechanism that makes the cell worth generating ("a
	// value outside the column's convention after row 300").
	How string
}

// Answer is a list's answer for a phone.
type Answer struct {
	List  string // "federal", "state:TX", "state:*", "litigator", "dma", "internal:<file>"
	Value Value
}

// Value is a list answer.
type Value int

// Answers a list gives.
const (
	Unknown Value = iota // not checked, or a value that says nothing certain
	Clean
	Flagged
)

func (v Value) String() string { return [...]string{"unknown", "clean", "flagged"}[v] }

// DateFact is a scrub date as the vendor meant it.
type DateFact struct {
	Age int // days before Now; negative: in the future
	// Known: the cell holds a date (else it is blank or unreadable).
	Known bool
}

// LineType is a phone's line type as the files state it.
type LineType int

// Line types.
const (
	TypeUnknown LineType = iota
	TypeMobile
	TypeLandline
	TypeVoIP
)

func (t LineType) String() string { return [...]string{"unknown", "mobile", "landline", "voip"}[t] }

// rng is the case's source of randomness with the helpers the generator
// uses everywhere.
type rng struct{ *rand.Rand }

func newRNG(seed int64) rng {
	return rng{rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

// chance is true with probability p.
func (r rng) chance(p float64) bool { return r.Float64() < p }

// between is a number in [lo, hi].
func (r rng) between(lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// pick is one element of list.
func pick[T any](r rng, list []T) T { return list[r.IntN(len(list))] }

// describe adds a dimension to the case's description.
func (c *Case) describe(format string, args ...any) {
	c.Dims = append(c.Dims, fmt.Sprintf(format, args...))
}

// Describe is the case in a few lines: its seed, dimensions and files.
func (c *Case) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, now %s\n", c.Seed, c.Now.Format(time.RFC3339))
	fmt.Fprintf(&b, "dimensions: %s\n", strings.Join(c.Dims, "; "))
	for i, f := range c.Files {
		role := "exported"
		if i > 0 {
			role = "given as DNC result (--dnc)"
		}
		rec := "no job record of ours"
		if f.Record != nil {
			rec = fmt.Sprintf("job record: completed %d days before now", *f.Record)
		}
		how := "opened where it is"
		if f.Import {
			how = "imported into the library, no scrub date given"
		}
		if f.Stated != nil {
			how = fmt.Sprintf("imported into the library, scrubbed %d days before now by the person's word", *f.Stated)
		}
		fmt.Fprintf(&b, "file %s (%s, %s, headers %s, %s): %d rows, %d columns, %s, %s, %s\n", f.Name, f.Kind, f.Family, f.Headers,
			f.Format, len(f.Rows), len(f.Cols), rec, how, role)
	}
	if len(c.Company) > 0 {
		fmt.Fprintf(&b, "company do-not-call list: %s\n", strings.Join(c.Company, ", "))
	}
	return b.String()
}
