package input

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
)

// headerScan is how many non-blank records (and at most how many bytes)
// are read to find the header. A field counts its bytes and the 16 of its
// string, so that blank lines above a header are bounded too.
const (
	headerScan      = 50
	headerScanBytes = 1 << 20
)

// source yields raw records: the CSV scanner or an xlsx sheet.
type source interface {
	// next returns the fields of the next record (valid until the next
	// call) and its physical line, or io.EOF.
	next() (fields [][]byte, line int, err error)
	close() error
}

// Reader streams the data rows of a file as UTF-8, each as wide as the
// header. Fully blank records are skipped: they are not rows, for the
// provider either (not counted, not billed).
type Reader struct {
	path   string
	format string
	size   int64
	sheet  string
	src    source
	csv    *csvSource  // nil for xlsx
	xs     *xlsxSource // nil for csv
	// emptySheets are the sheets passed over, empty, to reach the one read.
	emptySheets []string
	// above are the non-blank records above the header, but a header's
	// first row (looked for only when no header line was asked for).
	above []record
	// otherSheets are the workbook's other sheets holding cells, not read
	// (looked for only when no sheet was asked for).
	otherSheets []string
	headers     []string
	rawHeaders  []string
	headerLine  int
	skipped     int  // non-blank records above the header
	grouped     bool // the header is of two rows (groupHeader)
	groupLine   int  // the line of its first row
	pending     []record
	line        int
	width       int
	row         [][]byte
	strs        []string
	span        []byte // what the fields of the last row point into (nil: unknown)
	plain       bool   // the last row is span split at the delimiter, as wide as the header

	blankRows          int
	ragged, raggedLine int
	beyond, beyondLine int // records with values only beyond the header's columns

	hash *countedHash // Options.Hash: the bytes of a CSV as read; nil otherwise
	wide bool         // Options.Wide
}

// Open opens path (CSV in any supported encoding, or .xlsx) and reads up to
// its header. The caller must Close the reader.
func Open(path string, opts Options) (*Reader, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &FileError{Path: path, Msg: err.Error(), Err: err}
	}
	var from io.Reader = f
	var hash *countedHash
	if opts.Hash {
		hash = &countedHash{h: sha256.New()}
		from = io.TeeReader(f, hash)
	}
	raw := bufio.NewReaderSize(from, sniffSize)
	head, err := raw.Peek(sniffSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		f.Close()
		return nil, &FileError{Path: path, Msg: "cannot read: " + err.Error(), Err: err}
	}
	d, bad := detect(head)
	if bad != "" {
		f.Close()
		var e error
		if len(head) > 0 {
			e = errNotText
		}
		return nil, &FileError{Path: path, Msg: bad, Err: e}
	}
	r := &Reader{path: path, size: st.Size(), wide: opts.Wide}
	// The content decides, not the name: a workbook saved as .csv is read
	// as a workbook, a CSV named .xlsx as text.
	if d.kind == "zip" {
		f.Close()
		xs, err := openXLSX(path, opts.Sheet)
		if err != nil {
			return nil, err
		}
		r.format, r.sheet, r.src, r.xs = "xlsx", xs.sheet, xs, xs
		if err := r.readSheetHeader(opts); err != nil {
			xs.close()
			return nil, err
		}
		return r, nil
	} else {
		r.format, r.hash = "csv", hash
		cs, err := openCSV(f, raw, d, path)
		if err != nil {
			f.Close()
			return nil, err
		}
		r.src, r.csv = cs, cs
	}
	if err := r.readHeader(opts.HeaderLine); err != nil {
		r.src.close()
		return nil, err
	}
	return r, nil
}

// readSheetHeader reads the header of the sheet opened; when no sheet was
// asked for and the first is empty, the first sheet holding cells is read
// instead, and the sheets after it holding cells are listed (OtherSheets).
func (r *Reader) readSheetHeader(opts Options) error {
	err := r.readHeader(opts.HeaderLine)
	if opts.Sheet != "" {
		return err
	}
	if errors.Is(err, errNoRecords) {
		err = r.firstSheetHeader(opts, err)
	}
	if err != nil {
		return err
	}
	return r.findOtherSheets()
}

// firstSheetHeader reads the header of the first sheet after the one
// opened that holds cells; empty is the error the one opened gave.
func (r *Reader) firstSheetHeader(opts Options, empty error) error {
	i := slices.Index(r.xs.sheets, r.xs.sheet)
	for _, sheet := range r.xs.sheets[i+1:] {
		r.emptySheets = append(r.emptySheets, r.xs.sheet)
		if err := r.xs.open(sheet); err != nil {
			return err
		}
		r.sheet = sheet
		if err := r.readHeader(opts.HeaderLine); !errors.Is(err, errNoRecords) {
			return err
		}
	}
	if len(r.xs.sheets) > 1 {
		return &FileError{Path: r.path, Msg: fmt.Sprintf("every sheet of the workbook is empty (%s)", strings.Join(r.xs.sheets, ", ")), Err: errNoRecords}
	}
	return empty
}

// findOtherSheets lists the workbook's sheets after the one read that hold
// cells: a workbook with rows on several sheets is never read as its first
// alone without a word.
func (r *Reader) findOtherSheets() error {
	i := slices.Index(r.xs.sheets, r.sheet)
	for _, sheet := range r.xs.sheets[i+1:] {
		held, err := r.xs.holdsCells(sheet)
		if err != nil {
			return err
		}
		if held {
			r.otherSheets = append(r.otherSheets, sheet)
		}
	}
	return nil
}

// OtherSheets are the workbook's sheets that hold cells besides the one
// read, when no sheet was asked for (nil for a CSV): each is read by
// opening the file again with Options.Sheet.
func (r *Reader) OtherSheets() []string { return r.otherSheets }

// errNoRecords is wrapped in the FileError for files (or sheets) holding
// nothing but blank lines.
var errNoRecords = errors.New("no records")

func describeOpenError(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// readHeader reads records until the header is found and keeps the records
// after it for Next.
func (r *Reader) readHeader(headerLine int) error {
	recs, err := r.readHead(headerLine)
	if err != nil {
		return err
	}
	h, names, err := r.headerAt(recs, headerLine)
	if err != nil {
		return err
	}
	hdr := recs[h]
	if names != nil {
		// A header of two rows: its first row is part of it, not a line
		// skipped above it.
		hdr.fields = names
		r.grouped = true
		r.skipped-- // counted below
		for g := h - 1; g >= 0 && r.groupLine == 0; g-- {
			if !isBlank(recs[g].fields) {
				r.groupLine = recs[g].line
			}
		}
	}
	for _, rec := range recs[:h] {
		if !isBlank(rec.fields) {
			r.skipped++
			if headerLine <= 0 && (!r.grouped || rec.line != r.groupLine) {
				r.above = append(r.above, rec)
			}
		}
	}
	hdr.fields = trimHeader(hdr.fields, recs[h+1:])
	r.rawHeaders = make([]string, len(hdr.fields))
	for i, f := range hdr.fields {
		r.rawHeaders[i] = strings.TrimSpace(f)
	}
	r.headers = distinctHeaders(hdr.fields)
	r.headerLine = hdr.line
	r.width = len(r.headers)
	r.pending = recs[h+1:]
	r.line = hdr.line
	r.row = make([][]byte, r.width)
	r.strs = make([]string, r.width)
	return nil
}

// readHead reads the records the header is looked for in: up to the
// chosen header line, or the first headerScan non-blank records (at most
// headerScanBytes held). Records above a chosen line keep only whether
// they are blank.
func (r *Reader) readHead(headerLine int) ([]record, error) {
	var recs []record
	held, nonBlank := 0, 0
	for {
		if headerLine > 0 && len(recs) > 0 && recs[len(recs)-1].line >= headerLine {
			break
		}
		if headerLine <= 0 && (nonBlank >= headerScan || held > headerScanBytes) {
			break
		}
		fields, line, err := r.srcNext()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, r.wrap(err, line)
		}
		for _, f := range fields {
			held += len(f) + 16
		}
		if !blankBytes(fields) {
			nonBlank++
		}
		rec := record{line: line}
		switch {
		case line == 1 && r.csv != nil && r.csv.sepLine:
			r.skipped++ // Excel's "sep=;": not a title, not a header
		case headerLine <= 0 || line >= headerLine:
			rec.fields = toStrings(fields)
		case !blankBytes(fields):
			rec.fields = []string{"x"} // above the chosen header: only its line matters
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// headerAt is the index of the header record: the one on the chosen line,
// else the one pickHeader finds.
func (r *Reader) headerAt(recs []record, headerLine int) (int, []string, error) {
	if headerLine <= 0 {
		h, names := pickHeader(recs)
		if h >= 0 {
			return h, names, nil
		}
		if r.xs != nil {
			return -1, nil, &FileError{Path: r.path, Msg: fmt.Sprintf("sheet %q is empty", r.sheet), Err: errNoRecords}
		}
		return -1, nil, &FileError{Path: r.path, Msg: "the file has no header and no rows (only blank lines or empty fields)", Err: errNoRecords}
	}
	for i, rec := range recs {
		if rec.line != headerLine {
			continue
		}
		if isBlank(rec.fields) {
			return -1, nil, &FileError{Path: r.path, Line: headerLine, Msg: "the chosen header line is blank"}
		}
		return i, nil, nil
	}
	last := 0
	if len(recs) > 0 {
		last = recs[len(recs)-1].line
	}
	if last < headerLine {
		return -1, nil, &FileError{Path: r.path, Line: headerLine, Msg: fmt.Sprintf("no such line: the file ends at line %d", last)}
	}
	return -1, nil, &FileError{Path: r.path, Line: headerLine, Msg: "no record starts on this line (it is inside a quoted field of the line above)"}
}

// trimHeader drops blank cells at the end of the header that the rows
// after it do not fill either ("First,Last,," over "John,Smith"): they
// would make every row look short. Blank header cells the rows do fill
// stay, and become "Column N".
func trimHeader(header []string, after []record) []string {
	width := 0
	for _, r := range after {
		width = max(width, nonEmptyWidth(r.fields))
	}
	n := len(header)
	for n > max(width, 1) && strings.TrimSpace(header[n-1]) == "" {
		n--
	}
	return header[:n]
}

func toStrings(fields [][]byte) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = string(f)
	}
	return out
}

// MaxFields is the most fields a record may have: Excel's column limit. A
// record with more is not a list (the provider's reader, like the sandbox's,
// refuses it), and counting them bounds what a row costs to hold.
const MaxFields = 16384

// srcNext is the source's next record, refused when it has more than
// MaxFields fields.
func (r *Reader) srcNext() ([][]byte, int, error) {
	fields, line, err := r.src.next()
	if err == nil && len(fields) > MaxFields {
		return nil, line, &FileError{Path: r.path, Line: line,
			Msg: fmt.Sprintf("%s fields on one line, more than the %s columns a spreadsheet can hold: this does not look like a list (is the delimiter right?)",
				thousands(len(fields)), thousands(MaxFields))}
	}
	return fields, line, err
}

// wrap turns a source error into a FileError naming the line.
func (r *Reader) wrap(err error, line int) error {
	var fe *FileError
	if errors.As(err, &fe) {
		return err
	}
	if errors.Is(err, errRecordTooLong) {
		return &FileError{Path: r.path, Line: line, Msg: "a line longer than 1 MB: this does not look like a list", Err: err}
	}
	return &FileError{Path: r.path, Line: line, Msg: "cannot read: " + err.Error(), Err: err}
}

// Headers returns the distinct header names.
func (r *Reader) Headers() []string { return r.headers }

// RawHeaders returns the header cells as found (trimmed).
func (r *Reader) RawHeaders() []string { return r.rawHeaders }

// HeaderLine returns the 1-based physical line (sheet row) of the header.
func (r *Reader) HeaderLine() int { return r.headerLine }

// Format returns "csv" or "xlsx".
func (r *Reader) Format() string { return r.format }

// Sheet returns the sheet read (xlsx only).
func (r *Reader) Sheet() string { return r.sheet }

// Above are the records above the header that are not blank (a title; the
// first rows of a file without a header, when a later row was taken for
// it), each with its line; a header of two rows keeps its first row out.
// With Options.HeaderLine they are not kept.
func (r *Reader) Above() (recs [][]string, lines []int) {
	for _, rec := range r.above {
		recs = append(recs, rec.fields)
		lines = append(lines, rec.line)
	}
	return recs, lines
}

// Path is the file read.
func (r *Reader) Path() string { return r.path }

// Encoding returns the text encoding ("" for xlsx). A UTF-8 file turns into
// Windows-1252 when a byte that is not UTF-8 appears, so the final answer is
// known at the end of the file.
func (r *Reader) Encoding() string {
	if r.csv == nil {
		return ""
	}
	return r.csv.encoding()
}

// Delimiter returns the field delimiter (',' for xlsx).
func (r *Reader) Delimiter() rune {
	if r.csv == nil {
		return ','
	}
	return rune(r.csv.sc.delim)
}

// Line returns the physical line (sheet row) where the row last returned by
// Next started.
func (r *Reader) Line() int { return r.line }

// estimateRows guesses the number of records of the file (0: unknown).
func (r *Reader) estimateRows() int {
	if r.csv == nil {
		return 0
	}
	return r.csv.estimateRecords(r.size)
}

// countedHash is a SHA-256 of the bytes written to it, and their count.
type countedHash struct {
	h hash.Hash
	n int64
}

func (c *countedHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

// SHA256 is the hex SHA-256 of the file's bytes once a reader opened with
// Options.Hash has read to the end; "" otherwise (a workbook, a file not
// read to its end or that changed while read).
func (r *Reader) SHA256() string {
	if r.hash == nil || r.hash.n != r.size {
		return ""
	}
	return hex.EncodeToString(r.hash.h.Sum(nil))
}

// Size returns the file size in bytes.
func (r *Reader) Size() int64 { return r.size }

// Close releases the file.
func (r *Reader) Close() error { return r.src.close() }

// Next returns the next data row, as wide as Headers, or io.EOF after the
// last. The slice is reused by the following call; its strings are not.
func (r *Reader) Next() ([]string, error) {
	row, err := r.nextBytes()
	if err != nil {
		return nil, err
	}
	if len(row) > len(r.strs) {
		r.strs = make([]string, len(row)) // a row of Options.Wide
	}
	return rowStrings(row, r.strs), nil
}

// Each hands fn every remaining data row (as Next returns it; Line tells
// where it is) until the last, fn's first error or ctx's end, which it
// checks every 1,024 rows.
func (r *Reader) Each(ctx context.Context, fn func(row []string) error) error {
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		row, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// rowStrings turns row into strings in dst (as long as row): one
// allocation a row, the fields substrings of one string.
func rowStrings(row [][]byte, dst []string) []string {
	n := 0
	for _, f := range row {
		n += len(f)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, f := range row {
		sb.Write(f)
	}
	all := sb.String()
	off := 0
	for i, f := range row {
		dst[i] = all[off : off+len(f)]
		off += len(f)
	}
	return dst[:len(row)]
}

// nextBytes is Next without the strings: the fields are valid until the
// next call.
func (r *Reader) nextBytes() ([][]byte, error) {
	for {
		var fields [][]byte
		if len(r.pending) > 0 {
			rec := r.pending[0]
			r.pending = r.pending[1:]
			for _, f := range rec.fields {
				fields = append(fields, []byte(f))
			}
			r.line = rec.line
			r.span, r.plain = nil, false
		} else {
			f, line, err := r.srcNext()
			if err != nil {
				if err == io.EOF {
					return nil, io.EOF
				}
				return nil, r.wrap(err, line)
			}
			fields = f
			r.line = line
			r.span, r.plain = nil, false
			if r.csv != nil {
				r.span = r.csv.span()
				r.plain = r.csv.sc.plain && len(f) == r.width
			}
		}
		if len(fields) == r.width {
			if blankBytes(fields) {
				r.blankRows++
				continue
			}
			return fields, nil
		}
		if row := r.fit(fields); row != nil {
			return row, nil
		}
	}
}

// fit makes a record of another width than the header's a row: padded
// with blanks or cut (kept whole with Options.Wide when it holds values
// beyond the header), or nil when it is not a row.
func (r *Reader) fit(fields [][]byte) [][]byte {
	if r.wide && len(fields) > r.width && !blankBytes(fields[r.width:]) {
		r.noteRagged(fields)
		return fields
	}
	// A record is judged within the header's columns: one that holds
	// values only beyond them is blank once cut to the header's width (as
	// the upload writes it), so it is not a row.
	if blankBytes(fields[:min(len(fields), r.width)]) {
		r.blankRows++
		if len(fields) > r.width && !blankBytes(fields[r.width:]) {
			r.beyond++
			if r.beyondLine == 0 {
				r.beyondLine = r.line
			}
		}
		return nil
	}
	r.noteRagged(fields)
	n := copy(r.row, fields)
	for i := n; i < r.width; i++ {
		r.row[i] = nil
	}
	return r.row
}

func (r *Reader) noteRagged(fields [][]byte) {
	// A sheet row ends at its last non-empty cell: short rows are normal.
	if r.format == "xlsx" && len(fields) < r.width {
		return
	}
	// Extra fields that are all blank (trailing delimiters) are harmless.
	if len(fields) > r.width && blankBytes(fields[r.width:]) {
		return
	}
	r.ragged++
	if r.raggedLine == 0 {
		r.raggedLine = r.line
	}
}

// blankBytes reports whether every field is empty or white space. White
// space is what the provider trims (Unicode's: ASCII spaces, tabs and line
// breaks, and U+0085 and U+00A0, the no-break space Excel exports), so
// that a record blank here is not counted or billed there either.
func blankBytes(fields [][]byte) bool {
	for _, f := range fields {
		if !blankField(f) {
			return false
		}
	}
	return true
}

// blankField reports whether f (UTF-8) is empty or white space.
func blankField(f []byte) bool {
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case c == ' ' || c-'\t' <= '\r'-'\t':
		case c == 0xC2 && i+1 < len(f) && (f[i+1] == 0x85 || f[i+1] == 0xA0):
			i++
		default:
			return false
		}
	}
	return true
}

// Warnings returns what reading found so far that the caller should know:
// complete once Next has returned io.EOF.
func (r *Reader) Warnings() []Warning {
	var ws []Warning
	if r.grouped {
		ws = append(ws, Warning{Line: r.headerLine,
			Message: fmt.Sprintf("the header is of two rows, lines %d and %d: each column's name joins the label over its group to its own (\"Phone 1 DNC\")",
				r.groupLine, r.headerLine)})
	}
	if r.skipped > 0 {
		ws = append(ws, Warning{Line: r.headerLine, Count: r.skipped,
			Message: fmt.Sprintf("the header is on line %d; %s above it skipped", r.headerLine, plural(r.skipped, "line", "lines"))})
	}
	if r.ragged > 0 {
		ws = append(ws, Warning{Line: r.raggedLine, Count: r.ragged,
			Message: fmt.Sprintf("%s a different number of fields than the header (%d): padded with blanks or cut", plural(r.ragged, "row has", "rows have"), r.width)})
	}
	if len(r.emptySheets) > 0 {
		ws = append(ws, Warning{Message: fmt.Sprintf("%s empty: read sheet %q", sheetsWord(r.emptySheets), r.sheet)})
	}
	if len(r.otherSheets) > 0 {
		ws = append(ws, Warning{Message: fmt.Sprintf("%s rows too, not read: only sheet %q is", sheetsHold(r.otherSheets), r.sheet)})
	}
	if r.xs != nil {
		ws = append(ws, r.xs.warnings()...)
	}
	if r.beyond > 0 {
		ws = append(ws, Warning{Line: r.beyondLine, Count: r.beyond,
			Message: fmt.Sprintf("%s values only beyond the header's %d columns: skipped, those values are lost", plural(r.beyond, "row has", "rows have"), r.width)})
	}
	if r.csv != nil {
		ws = append(ws, r.csv.warnings()...)
	}
	return ws
}

// sheetsHold names sheets: `sheet "A" holds`, `sheets "A", "B" hold`.
func sheetsHold(sheets []string) string {
	w := sheetsWord(sheets)
	if len(sheets) == 1 {
		return strings.TrimSuffix(w, " is") + " holds"
	}
	return strings.TrimSuffix(w, " are") + " hold"
}

// sheetsWord names sheets: `sheet "A" is`, `sheets "A", "B" are`.
func sheetsWord(sheets []string) string {
	q := make([]string, len(sheets))
	for i, s := range sheets {
		q[i] = fmt.Sprintf("%q", s)
	}
	if len(q) == 1 {
		return "sheet " + q[0] + " is"
	}
	return "sheets " + strings.Join(q, ", ") + " are"
}

func plural(n int, one, many string) string { return jobs.Plural(int64(n), one, many) }

// thousands writes n with thousands separators: 14252 → "14,252".
func thousands(n int) string { return jobs.Thousands(int64(n)) }
