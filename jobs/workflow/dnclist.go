package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// A file of numbers for the company's do-not-call list. Every column is
// read over the whole file (never a sample) and counted: its values, the
// valid phone numbers among them, the others. A column is phone-looking
// when it holds at least one valid number and either its header names a
// phone or at least half its values are numbers; the import reads every
// phone-looking column, or the columns the person picks, and reports every
// number added, already on the list, repeated in the file or not valid
// (with its line and column), and every column it did not read, with why.
// Nothing is left off without a word. Each number keeps where it came
// from: "file NAME, line N, column C".

// ListColumn is one column of a file of numbers, counted over every row.
type ListColumn struct {
	Name string `json:"name"`
	// Sheet names the column's sheet in a workbook read on several sheets.
	Sheet   string `json:"sheet,omitempty"`
	Values  int    `json:"values"`  // values that are not blank
	Numbers int    `json:"numbers"` // valid phone numbers among them (a number met twice counts twice)
	Invalid int    `json:"invalid"` // values that are not a valid number
	// Phone: the column is phone-looking, read unless the person picks
	// other columns. Why says why a column is not.
	Phone bool   `json:"phone"`
	Why   string `json:"why,omitempty"`
	// damaged counts the values not valid that are numbers all the same,
	// their digits lost or cut ("5.12555E+09", "512-555-010").
	damaged int
}

// Label names a column for a person: its header, after its sheet's name
// in a workbook read on several sheets ("2025 opt-outs › Phone").
func (c ListColumn) Label() string {
	if c.Sheet == "" {
		return c.Name
	}
	return c.Sheet + sheetMark + c.Name
}

// sheetMark joins a sheet's name to a column's in a label.
const sheetMark = " › "

// ListFile is what a file holds for the list: its data rows and columns.
type ListFile struct {
	Path    string       `json:"path"`
	Rows    int          `json:"rows"`
	Columns []ListColumn `json:"columns"`
	// Sheets are the sheets read of a workbook holding rows on several.
	Sheets []string `json:"sheets,omitempty"`
	// OptOuts says what the file looks like where it reads as an export
	// of opt-outs (an SMS tool's replies, a dialer's dispositions, a
	// CRM's DNC marks): its rows are not all opt-outs, and the opt-outs
	// import reads only those that are (optout.Kind).
	OptOuts string `json:"opt_outs,omitempty"`
}

// ListProgress is how far reading a file for the list, or adding its
// numbers, is: Step "reading" counts rows, "adding" numbers.
type ListProgress struct {
	Step        string
	Done, Total int64
}

// ListImport asks for a file's numbers on the company's list.
type ListImport struct {
	Path string
	// Columns are the columns to read, by header; none reads every
	// phone-looking column.
	Columns []string
	Reason  string
}

// ListInvalid is a value of a column read that is not a valid number.
type ListInvalid struct {
	Line   int    `json:"line"`
	Column string `json:"column"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// ListImported says what an import did.
type ListImported struct {
	File     string `json:"file"`
	Rows     int    `json:"rows"`
	Added    int    `json:"added"`    // numbers put on the list
	Already  int    `json:"already"`  // numbers that were on it
	Repeated int    `json:"repeated"` // values of a number met earlier in the file
	// Invalid are every value of the columns read that is not a valid
	// number, in file order.
	Invalid []ListInvalid `json:"invalid"`
	// Read are the columns read; NotRead every other, with why.
	Read    []ListColumn `json:"read"`
	NotRead []ListColumn `json:"not_read"`
	// OptOuts is the file's ListFile.OptOuts.
	OptOuts string `json:"opt_outs,omitempty"`
}

// ErrNoListColumn: the file has no column to read numbers from (none is
// phone-looking and none was picked). Its text names the columns.
var ErrNoListColumn = errors.New("no column of phone numbers")

// maxInvalidValue is how much of a value that is not a number is kept.
const maxInvalidValue = 100

// ScanListFile counts every column of the file at path (CSV in any
// encoding, or XLSX) over all its rows, and says which are phone-looking.
func (s *ComplianceService) ScanListFile(ctx context.Context, path string, progress func(ListProgress)) (ListFile, error) {
	r, err := readListFile(ctx, path, nil, 0, progress)
	if err != nil {
		return ListFile{}, err
	}
	return ListFile{Path: path, Rows: r.rows, Columns: r.cols, Sheets: r.sheets, OptOuts: looksLikeOptOuts(r.cols)}, nil
}

// looksLikeOptOuts says what a file of these columns looks like where it
// reads as an export of opt-outs ("a dialer's dispositions export (column
// \"Status\")"); "" otherwise.
func looksLikeOptOuts(cols []ListColumn) string {
	var headers []string
	for _, c := range cols {
		if c.Sheet == "" || c.Sheet == cols[0].Sheet {
			headers = append(headers, c.Name)
		}
	}
	layout, decide := optout.Kind(headers)
	if layout == "" {
		return ""
	}
	word := "column"
	if len(decide) > 1 {
		word = "columns"
	}
	return fmt.Sprintf("an export of %s (%s %s)", layout, word, quoteAll(decide))
}

// quoteAll quotes each of words, joined by commas.
func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// ImportInternal puts the numbers of a file on the company's list: the
// columns asked for, or every phone-looking column. The file is read
// twice (counted, then its numbers taken), never held whole; the numbers
// are written ten thousand a transaction with progress.
func (s *ComplianceService) ImportInternal(ctx context.Context, req ListImport, progress func(ListProgress)) (ListImported, error) {
	f, err := s.compliance().ScanListFile(ctx, req.Path, nil)
	if err != nil {
		return ListImported{}, err
	}
	want, err := pickListColumns(f, req.Columns)
	if err != nil {
		return ListImported{}, err
	}
	r, err := readListFile(ctx, req.Path, want, f.Rows, progress)
	if err != nil {
		return ListImported{}, err
	}
	rep := ListImported{File: filepath.Base(req.Path), Rows: r.rows, Invalid: r.invalid, OptOuts: f.OptOuts}
	for i, c := range r.cols {
		if want[i] {
			rep.Read = append(rep.Read, c)
			continue
		}
		if c.Phone {
			c.Why = "not picked"
		}
		rep.NotRead = append(rep.NotRead, c)
	}
	found := distinctNumbers(r.found)
	rep.Repeated = len(r.found) - len(found)
	added, err := s.addFound(ctx, found, r, rep.File, req.Reason, progress)
	rep.Added, rep.Already = added, len(found)-added
	if err != nil && added > 0 {
		err = fmt.Errorf("%w (%s of %s had been added; importing the file again adds the rest)", err,
			jobs.Thousands(int64(added)), jobs.Thousands(int64(len(found))))
	}
	return rep, err
}

// pickListColumns says which columns to read: those named (by label, or
// by header in every sheet holding it; "SHEET!HEADER" names one sheet's),
// or the phone-looking ones.
func pickListColumns(f ListFile, names []string) ([]bool, error) {
	want := make([]bool, len(f.Columns))
	var labels []string
	for _, c := range f.Columns {
		labels = append(labels, c.Label())
	}
	for _, n := range names {
		met := false
		for i, c := range f.Columns {
			if namesColumn(n, c) {
				want[i], met = true, true
			}
		}
		if !met {
			return nil, &input.FileError{Path: f.Path, Column: n, Msg: fmt.Sprintf("no such column; its columns are %q", labels)}
		}
	}
	if len(names) == 0 {
		for i, c := range f.Columns {
			want[i] = c.Phone
		}
	}
	if !slices.Contains(want, true) {
		return nil, fmt.Errorf("%s: %w: %s", filepath.Base(f.Path), ErrNoListColumn, describeColumns(f.Columns))
	}
	return want, nil
}

// namesColumn reports whether name, as a person gives it, names column c:
// its label, its header, or "SHEET!HEADER".
func namesColumn(name string, c ListColumn) bool {
	same := func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }
	if same(name, c.Label()) || same(name, c.Name) {
		return true
	}
	sheet, header, ok := strings.Cut(name, "!")
	return ok && c.Sheet != "" && same(sheet, c.Sheet) && same(header, c.Name)
}

// describeColumns says, column by column, why none was read.
func describeColumns(cols []ListColumn) string {
	var parts []string
	for _, c := range cols {
		parts = append(parts, fmt.Sprintf("%q %s", c.Label(), c.Why))
	}
	return strings.Join(parts, "; ") + ". Pick a column to read it all the same"
}

// listRead is one pass over a file of numbers.
type listRead struct {
	rows     int // the rows read, once read; before, the total the progress counts to
	read     int // the rows read so far
	progress func(ListProgress)
	sheet    string   // the sheet being read, in a workbook read on several
	sheets   []string // the sheets read, in a workbook read on several
	keys     []uint64 // the numbers of the cell being read
	cols     []ListColumn
	found    []listNumber  // the valid numbers of the columns wanted, in file order
	invalid  []ListInvalid // their values that are not numbers
}

// listNumber is a valid number found, and where.
type listNumber struct {
	key  uint64
	line int32
	col  int32
}

// readListFile reads every row of the file at path, counting every
// column; the numbers of the columns in want (nil: none) are kept. rows,
// when known, is the total the progress counts to. A workbook is read on
// every sheet holding cells, its columns named with their sheet's.
func readListFile(ctx context.Context, path string, want []bool, rows int, progress func(ListProgress)) (*listRead, error) {
	r, err := input.Open(path, input.Options{SampleRows: -1, Wide: true})
	if err != nil {
		return nil, err
	}
	lr := &listRead{rows: rows, progress: progress}
	sheets := r.OtherSheets()
	err = lr.readSheet(ctx, r, len(sheets) > 0, want)
	r.Close()
	for _, sheet := range sheets {
		if err != nil {
			break
		}
		if r, err = input.Open(path, input.Options{SampleRows: -1, Sheet: sheet, Wide: true}); err == nil {
			err = lr.readSheet(ctx, r, true, want)
			r.Close()
		}
	}
	if err != nil {
		return nil, err
	}
	if progress != nil {
		progress(ListProgress{Step: "reading", Done: int64(lr.read), Total: int64(max(rows, lr.read))})
	}
	for i := range lr.cols {
		lr.cols[i].Phone, lr.cols[i].Why = phoneLooking(lr.cols[i])
	}
	lr.rows = lr.read
	return lr, nil
}

// readSheet reads the rows of r (a file, or one sheet of a workbook; named
// says its columns are named with the sheet's name) into lr.
func (lr *listRead) readSheet(ctx context.Context, r *input.Reader, named bool, want []bool) error {
	base := len(lr.cols)
	lr.sheet = ""
	if named {
		lr.sheet = r.Sheet()
		lr.sheets = append(lr.sheets, lr.sheet)
	}
	for _, h := range r.Headers() {
		lr.cols = append(lr.cols, ListColumn{Name: h, Sheet: lr.sheet})
	}
	// A file without a header: its first lines are numbers too, the line
	// taken for a header and those above it (read when a later line looked
	// more like a header than the first).
	recs, lines := r.Above()
	for i, rec := range recs {
		lr.count(rec, lines[i], base, want, true)
	}
	lr.count(r.RawHeaders(), r.HeaderLine(), base, want, true)
	for {
		if lr.read%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if lr.progress != nil {
				lr.progress(ListProgress{Step: "reading", Done: int64(lr.read), Total: int64(lr.rows)})
			}
		}
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		lr.read++
		lr.count(rec, r.Line(), base, want, false)
	}
}

// count adds a record's values to the columns' counts (the record's first
// being column base) and keeps the numbers of the columns wanted. header:
// the record is the header line or above it, counted only for the cells
// that are numbers, readable or not (a title's or a header's words are
// not values).
func (lr *listRead) count(rec []string, line, base int, want []bool, header bool) {
	for j, v := range rec {
		if noNumber(v) {
			continue
		}
		i := lr.column(base, j)
		lr.keys = phone.AppendListKeys(lr.keys[:0], v)
		keys := lr.keys
		damaged := keys[0] == 0 && numberLike(v)
		if header && keys[0] == 0 && !damaged {
			continue
		}
		c := &lr.cols[i]
		c.Values++
		if damaged {
			c.damaged++
		}
		wanted := i < len(want) && want[i]
		if keys[0] != 0 {
			c.Numbers += len(keys)
			if wanted {
				for _, k := range keys {
					lr.found = append(lr.found, listNumber{key: k, line: int32(line), col: int32(i)})
				}
			}
			continue
		}
		c.Invalid++
		if wanted {
			lr.invalid = append(lr.invalid, ListInvalid{Line: line, Column: c.Label(), Value: clip(strings.TrimSpace(v), maxInvalidValue),
				Reason: phone.Normalize(v).Reason})
		}
	}
}

// column is the column of a record's value j, the record's first being
// column base: beyond the header's columns, a column of its own (a row
// wider than its header loses no value).
func (lr *listRead) column(base, j int) int {
	for base+j >= len(lr.cols) {
		lr.cols = append(lr.cols, ListColumn{Name: fmt.Sprintf("column %d (no header)", len(lr.cols)-base+1), Sheet: lr.sheet})
	}
	return base + j
}

// numberLike reports whether a value that is not a valid number is one all
// the same, its digits lost or cut: Excel's scientific form, or seven
// digits or more among nothing but a phone's punctuation and an extension.
func numberLike(v string) bool {
	if phone.Normalize(v).Reason == phone.ReasonSci {
		return true
	}
	if dateRE.MatchString(strings.TrimSpace(v)) {
		return false // "2026-11-01", "11/01/2026": a date column is not one of lost digits
	}
	digits := 0
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(phone.Punct+"xX#:", r):
		default:
			return false
		}
	}
	return digits >= 7
}

// dateRE matches a date as exports write one (year first or last, with
// or without a time), never a phone's 3-3-4 groups.
var dateRE = regexp.MustCompile(`^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](\d{4}|\d{2}))([ T]\d{1,2}:\d{2}(:\d{2})?( ?[AaPp][Mm])?Z?)?$`)

// noNumber reports whether a value says there is no number: blank, or what
// exports write in its place ("N/A", "-", "none", "0"). It is neither a
// value of its column nor one not valid.
func noNumber(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "n/a", "na", "none", "null", "nil", "nan", "-", "--", "unknown", "no phone", "no number", "0", "#n/a":
		return true
	}
	return false
}

// clip cuts s to at most n bytes, on a character's boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// phoneLooking says whether a column is read by default, and why not: a
// column holding numbers (readable, or their digits lost) whose header
// names a phone, or half of whose values are numbers.
func phoneLooking(c ListColumn) (bool, string) {
	numbers := c.Numbers + c.damaged
	switch {
	case numbers == 0 && c.Values == 0:
		return false, "is empty"
	case numbers == 0:
		return false, fmt.Sprintf("holds no phone number (%s)", jobs.Plural(int64(c.Values), "value", "values"))
	case namesPhone(c.Name) || numbers*2 >= c.Values:
		return true, ""
	}
	return false, fmt.Sprintf("holds phone numbers in %s of %s, fewer than half, and its header does not name a phone",
		jobs.Thousands(int64(numbers)), jobs.Plural(int64(c.Values), "value", "values"))
}

// namesPhone reports whether a header names a phone.
func namesPhone(h string) bool {
	h = strings.ToLower(h)
	for _, w := range []string{"phone", "mobile", "cell", "tel", "landline", "wireless", "dnc", "do not call"} {
		if strings.Contains(h, w) {
			return true
		}
	}
	return false
}

// listSource says where a number of a file came from: "file F, line N,
// column C", with the sheet before the line in a workbook read on several.
func listSource(file string, c ListColumn, line int32) string {
	if c.Sheet != "" {
		return fmt.Sprintf("file %s, sheet %s, line %d, column %s", file, c.Sheet, line, c.Name)
	}
	return fmt.Sprintf("file %s, line %d, column %s", file, line, c.Name)
}

// distinctNumbers are the numbers found, each once (where it was first
// met), in ascending order.
func distinctNumbers(found []listNumber) []listNumber {
	slices.SortStableFunc(found, func(a, b listNumber) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	return slices.CompactFunc(found, func(a, b listNumber) bool { return a.key == b.key })
}

// listBatch is how many numbers of a file go on the list in one
// transaction.
const listBatch = 10_000

// addFound puts the numbers found on the list, listBatch a transaction;
// it returns how many were new.
func (s *core) addFound(ctx context.Context, found []listNumber, r *listRead, file, reason string, progress func(ListProgress)) (int, error) {
	report := func(done int) {
		if progress != nil {
			progress(ListProgress{Step: "adding", Done: int64(done), Total: int64(len(found))})
		}
	}
	report(0)
	if len(found) == 0 {
		return 0, nil
	}
	led, done, err := s.internalLedger(true)
	if err != nil {
		return 0, err
	}
	defer done()
	by := s.team().Computer()
	added := 0
	batch := make([]ledger.InternalEntry, 0, listBatch)
	for start := 0; start < len(found); start += listBatch {
		batch = batch[:0]
		for _, n := range found[start:min(len(found), start+listBatch)] {
			batch = append(batch, ledger.InternalEntry{Number: phone.KeyDigits(n.key), Reason: reason, By: by,
				Source: listSource(file, r.cols[n.col], n.line)})
		}
		n, err := led.CompanyList().AddInternal(ctx, batch)
		if err != nil {
			return added, err
		}
		added += n
		report(start + len(batch))
	}
	return added, nil
}
