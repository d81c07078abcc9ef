package export

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

const (
	resultsSheet    = "Results"
	summarySheet    = "Summary"
	complianceSheet = "Compliance"
	widthSample     = 200 // rows looked at to size the columns
	minWidth        = 6.0
	maxWidth        = 50.0
)

// textColumn tells, by its header, a column whose values are codes rather
// than quantities: phones, zips, ids, numbers. Such values are written as
// text so that "02134" and "4111111111111111" stay as they are.
func textColumn(header string) bool {
	h := strings.ToLower(header)
	for _, k := range []string{"phone", "zip", "postal", "number", "apn", "parcel", "fips"} {
		if strings.Contains(h, k) {
			return true
		}
	}
	for _, tok := range strings.FieldsFunc(h, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
		if tok == "id" || tok == "ids" || strings.HasSuffix(tok, "id") && len(tok) <= 4 {
			return true
		}
	}
	return h == "no" || h == "#"
}

// numeric reports whether v is safe to write as an Excel number: plain
// decimal digits with an optional fraction, no sign, no leading zero (a
// code), at most 15 significant digits (Excel's precision).
func numeric(v string) bool {
	if v == "" || len(v) > 16 {
		return false
	}
	digits, dot := 0, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && i > 0 && i < len(v)-1:
			dot = true
		default:
			return false
		}
	}
	if v[0] == '0' && len(v) > 1 && v[1] != '.' {
		return false
	}
	return digits <= 15
}

// formulaLike reports a value a spreadsheet could take for a formula. A
// phone number in E.164 ("+13055550100": a plus and 11 digits) is not one:
// a spreadsheet reads it as a number, and a dialer needs its plus.
func formulaLike(v string) bool {
	if v == "" || e164(v) {
		return false
	}
	switch v[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// e164 reports a US number written "+1" and 10 digits.
func e164(v string) bool {
	if len(v) != 12 || v[0] != '+' || v[1] != '1' {
		return false
	}
	for i := 2; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// utf16Len counts UTF-16 units (Excel's measure of a cell's length).
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += utf16.RuneLen(r)
		i += size
	}
	return n
}

// truncateUTF16 cuts s to at most n UTF-16 units on a character boundary.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		l := utf16.RuneLen(r)
		if l < 0 {
			l = 1
		}
		if units+l > n {
			return s[:i]
		}
		units += l
	}
	return s
}

// rowRange is the slice of the export order one results sheet holds.
type rowRange struct{ from, to int }

// sheet is the results sheet (0-based) holding rows from rr.from on.
func (rr rowRange) sheet() int { return rr.from / (maxSheetRows - 1) }

// writeXLSX writes the rows of an indexed result (rows: the export order,
// nil file order) as a workbook: the rows go from the result straight to a
// deflate stream on the output file while the workbook is zipped, the XML
// written on one core while the other compresses it.
func writeXLSX(ctx context.Context, r *library.Result, rows []int, out io.Writer, total int, opts Options, rep *Report) error {
	headers := capHeaders(r.Headers(), rep)
	order := func(i int) int {
		if rows != nil {
			return rows[i]
		}
		return i
	}
	sampleIdx := make([]int, 0, widthSample)
	for i := 0; i < min(total, widthSample); i++ {
		sampleIdx = append(sampleIdx, order(i))
	}
	sample, err := r.ReadRows(sampleIdx)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	rw := newRowWriter(r.Path(), headers, opts.TruncateLongCells, rep)
	done := 0
	fill := func(w io.Writer, rr rowRange) error {
		aw := newAsyncWriter(w)
		buf := aw.get()
		idx := make([]int, 0, 2048)
		var err error
		for a := rr.from; a < rr.to && err == nil; a += cap(idx) {
			if err = cancelled(ctx); err != nil {
				break
			}
			idx = idx[:0]
			for i := a; i < min(rr.to, a+cap(idx)); i++ {
				idx = append(idx, order(i))
			}
			var recs [][]string
			if recs, err = r.ReadRows(idx); err != nil {
				err = fmt.Errorf("export: %w", err)
				break
			}
			for j, rec := range recs {
				if buf, err = rw.appendRow(buf, 2+a+j-rr.from, rec, idx[j]+1); err != nil {
					break
				}
				if len(buf) >= asyncChunk {
					if err = aw.put(buf); err != nil {
						break
					}
					buf = aw.get()
				}
			}
			done += len(recs)
			if opts.Progress != nil {
				opts.Progress(done, total)
			}
		}
		if err == nil {
			err = aw.put(buf)
		}
		if cerr := aw.close(); err == nil {
			err = cerr
		}
		return err
	}
	entry := func(zw *zip.Writer, name string, head, tail []byte, rr rowRange) error {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(head)
		}
		if err == nil {
			err = fill(w, rr)
		}
		if err == nil {
			_, err = w.Write(tail)
		}
		return err
	}
	return writeWorkbook(out, headers, columnWidths(headers, sample), total, opts, rep, entry)
}

// sheetEntry writes results sheet rr as zip entry name: head (excelize's
// sheet XML up to its rows, and the header row), the data rows, tail.
type sheetEntry func(zw *zip.Writer, name string, head, tail []byte, rr rowRange) error

// writeWorkbook builds the workbook with excelize (styles, frozen header,
// column widths, autofilter, the Summary and Compliance sheets) for total
// data rows, and writes it to out: a zip writer given to excelize
// (SetZipWriter) hands each results sheet to entry, which puts the rows in
// just before </sheetData>. No temporary sheet file, no workbook held in
// memory. The cells written damaged become the report's warnings
// (cellDamage), for every .xlsx the package writes.
func writeWorkbook(out io.Writer, headers []string, widths []float64, total int, opts Options, rep *Report, entry sheetEntry) error {
	ncols := max(len(headers), 1)
	f := excelize.NewFile()
	defer f.Close()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fills, err := addResultSheets(f, ncols, widths, total, rep)
	if err != nil {
		return err
	}
	rep.Rows = total
	if _, err := f.NewSheet(summarySheet); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := writeSummary(f, opts, rep); err != nil {
		return err
	}
	if opts.Proof != nil {
		if err := writeCompliance(f, opts.Proof); err != nil {
			return err
		}
	}
	f.SetActiveSheet(0)
	header := newRowWriter("", headers, false, rep).appendHeader(nil, bold)
	sz := newSpliceZip(out, fills, func(zw *zip.Writer, name string, head, tail []byte, rr rowRange) error {
		return entry(zw, name, append(head, header...), tail, rr)
	})
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return sz })
	werr := f.Write(io.Discard)
	if sz.err != nil {
		return sz.err
	}
	if werr != nil {
		return fmt.Errorf("export: write workbook: %w", werr)
	}
	if !sz.closed {
		return fmt.Errorf("export: workbook not completed")
	}
	rep.cellDamage()
	return nil
}

// addResultSheets adds the results sheets, as many as total rows need (per
// sheet, Excel's limit less the header), each with its column widths,
// frozen header and autofilter, and returns the zip entry of each sheet
// with the rows it is to hold. The rows themselves are written later, by
// writeXLSX's fill, while the workbook is zipped.
func addResultSheets(f *excelize.File, ncols int, widths []float64, total int, rep *Report) (map[string]rowRange, error) {
	per := maxSheetRows - 1
	nsheets := max(1, (total+per-1)/per)
	var err error
	lastCol, _ := excelize.ColumnNumberToName(ncols)
	fills := map[string]rowRange{}
	for k := 0; k < nsheets; k++ {
		name := resultsSheet
		if k == 0 {
			err = f.SetSheetName("Sheet1", name)
		} else {
			name = fmt.Sprintf("%s %d", resultsSheet, k+1)
			_, err = f.NewSheet(name)
		}
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		rr := rowRange{from: k * per, to: min(total, (k+1)*per)}
		ref := "A1:" + lastCol + strconv.Itoa(1+rr.to-rr.from)
		if err := f.SetSheetDimension(name, ref); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		sw, err := f.NewStreamWriter(name)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		// excelize keeps the last column set first: set them from the
		// right so that <cols> comes out in ascending order, as Excel wants.
		for i := len(widths) - 1; i >= 0; i-- {
			if err := sw.SetColWidth(i+1, i+1, widths[i]); err != nil {
				return nil, fmt.Errorf("export: %w", err)
			}
		}
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
			Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		if err := f.AutoFilter(name, ref, nil); err != nil {
			return nil, fmt.Errorf("export: autofilter: %w", err)
		}
		if err := sw.Flush(); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		fills["xl/worksheets/sheet"+strconv.Itoa(sw.SheetID)+".xml"] = rr
		rep.Sheets = append(rep.Sheets, name)
	}
	return fills, nil
}

// spliceZip is the zip writer excelize writes the workbook through. It
// writes to the real output (excelize's own buffer stays empty), with
// deflate at BestSpeed: compressing the sheet XML is most of an export's
// time, and level 1 costs a few percent in size for about twice the speed
// of the default level. Entries named in fills are results sheets: their
// XML from excelize is held, and written back with the rows inserted.
type spliceZip struct {
	zw      *zip.Writer
	fills   map[string]rowRange
	entry   sheetEntry
	pending string
	held    bytes.Buffer
	err     error
	closed  bool
}

func newSpliceZip(out io.Writer, fills map[string]rowRange, entry sheetEntry) *spliceZip {
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	return &spliceZip{zw: zw, fills: fills, entry: entry}
}

func (z *spliceZip) Create(name string) (io.Writer, error) {
	if err := z.flush(); err != nil {
		return nil, err
	}
	if _, ok := z.fills[name]; ok {
		z.pending = name
		z.held.Reset()
		return &z.held, nil
	}
	return z.zw.Create(name)
}

func (z *spliceZip) AddFS(fsys fs.FS) error {
	if err := z.flush(); err != nil {
		return err
	}
	return z.zw.AddFS(fsys)
}

func (z *spliceZip) Close() error {
	if err := z.flush(); err != nil {
		return err
	}
	if err := z.zw.Close(); err != nil {
		z.err = fmt.Errorf("export: %w", err)
		return z.err
	}
	z.closed = true
	return nil
}

func (z *spliceZip) flush() error {
	if z.err != nil {
		return z.err
	}
	if z.pending == "" {
		return nil
	}
	name := z.pending
	z.pending = ""
	xml := z.held.Bytes()
	at := bytes.LastIndex(xml, []byte("</sheetData>"))
	if at < 0 {
		z.err = fmt.Errorf("export: sheet %s from excelize has no sheetData", name)
		return z.err
	}
	err := z.entry(z.zw, name, slices.Clip(xml[:at]), xml[at:], z.fills[name])
	if err != nil {
		z.err = err
	}
	return err
}

// asyncWriter hands filled buffers to a goroutine that writes them (into
// the deflate stream) while the next buffer fills.
type asyncWriter struct {
	ch   chan []byte
	free chan []byte
	errc chan error
	bad  atomic.Pointer[error] // the first write error
}

const asyncChunk = 256 << 10

func newAsyncWriter(dst io.Writer) *asyncWriter {
	a := &asyncWriter{ch: make(chan []byte, 2), free: make(chan []byte, 4), errc: make(chan error, 1)}
	for range 4 {
		a.free <- make([]byte, 0, asyncChunk+64<<10)
	}
	go func() {
		var err error
		for b := range a.ch {
			if err == nil {
				if _, err = dst.Write(b); err != nil {
					a.bad.Store(&err)
				}
			}
			a.free <- b[:0]
		}
		a.errc <- err
	}()
	return a
}

func (a *asyncWriter) get() []byte { return <-a.free }

// put hands b over; after a failed write it returns that write's error
// (a full disk, say) and the caller stops.
func (a *asyncWriter) put(b []byte) error {
	if err := a.bad.Load(); err != nil {
		return *err
	}
	a.ch <- b
	return nil
}

func (a *asyncWriter) close() error {
	close(a.ch)
	return <-a.errc
}

// rowWriter appends the sheet XML of rows.
type rowWriter struct {
	path    string
	headers []string
	cols    [][]byte // column letters
	text    []bool
	trunc   bool
	rep     *Report
}

func newRowWriter(path string, headers []string, trunc bool, rep *Report) *rowWriter {
	w := &rowWriter{path: path, headers: headers, trunc: trunc, rep: rep}
	for _, h := range w.headers {
		w.text = append(w.text, textColumn(h))
	}
	w.colName(len(headers))
	return w
}

// capHeaders cuts a header longer than a cell of Excel holds (a file whose
// first line is not a header) to ExcelMaxCellChars, with a warning naming
// its column: Excel refuses to open a workbook holding such a cell. The
// headers given are not changed.
func capHeaders(headers []string, rep *Report) []string {
	out, cloned := headers, false
	for i, h := range headers {
		if len(h) <= ExcelMaxCellChars/3 {
			continue // cheap test before counting
		}
		l := utf16Len(h)
		if l <= ExcelMaxCellChars {
			continue
		}
		if !cloned {
			out, cloned = slices.Clone(headers), true
		}
		out[i] = truncateUTF16(h, ExcelMaxCellChars)
		name, _ := excelize.ColumnNumberToName(i + 1)
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the header of column %s is %s characters long, more than the %s a cell of Excel holds: it is cut to %s",
			name, jobs.Thousands(int64(l)), jobs.Thousands(ExcelMaxCellChars), jobs.Thousands(ExcelMaxCellChars)))
	}
	return out
}

func (w *rowWriter) colName(i int) []byte {
	for len(w.cols) <= i {
		name, _ := excelize.ColumnNumberToName(len(w.cols) + 1)
		w.cols = append(w.cols, []byte(name))
	}
	return w.cols[i]
}

func (w *rowWriter) column(i int) string {
	if i < len(w.headers) && w.headers[i] != "" && len(w.headers[i]) <= 200 {
		return w.headers[i]
	}
	return "column " + string(w.colName(i))
}

// appendRow appends one <row> with its cells; srcRow (1-based data row of
// the source) names the row in errors.
func (w *rowWriter) appendRow(buf []byte, sheetRow int, rec []string, srcRow int) ([]byte, error) {
	var num [20]byte
	rn := strconv.AppendInt(num[:0], int64(sheetRow), 10)
	buf = append(buf, `<row r="`...)
	buf = append(buf, rn...)
	buf = append(buf, `">`...)
	for i, v := range rec {
		if v == "" {
			continue
		}
		if len(v) > ExcelMaxCellChars/3 { // cheap test before counting
			if l := utf16Len(v); l > ExcelMaxCellChars {
				col := w.column(i)
				if !w.trunc {
					return buf, &CellTooLongError{Path: w.path, Row: srcRow, Column: col, Length: l}
				}
				v = truncateUTF16(v, ExcelMaxCellChars)
				w.rep.Truncated = append(w.rep.Truncated, CellRef{Row: srcRow, Column: col, Length: l})
			}
		}
		buf = append(buf, `<c r="`...)
		buf = append(buf, w.colName(i)...)
		buf = append(buf, rn...)
		if (i >= len(w.text) || !w.text[i]) && numeric(v) {
			buf = append(buf, `"><v>`...)
			buf = append(buf, v...)
			buf = append(buf, `</v></c>`...)
			continue
		}
		// An inline string: never a formula whatever it starts with, kept
		// exactly as written (leading zeros, long digit runs).
		if v[0] == ' ' || v[len(v)-1] == ' ' || v[0] == '\t' || v[len(v)-1] == '\t' || v[0] == '\n' || v[len(v)-1] == '\n' {
			buf = append(buf, `" t="inlineStr"><is><t xml:space="preserve">`...)
		} else {
			buf = append(buf, `" t="inlineStr"><is><t>`...)
		}
		var esc, rep int
		buf, esc, rep = appendEscaped(buf, v)
		if esc > 0 {
			w.rep.Escaped = append(w.rep.Escaped, CellRef{Row: srcRow, Column: w.column(i), Length: esc})
		}
		if rep > 0 {
			w.rep.Replaced = append(w.rep.Replaced, CellRef{Row: srcRow, Column: w.column(i), Length: rep})
		}
		buf = append(buf, `</t></is></c>`...)
	}
	return append(buf, `</row>`...), nil
}

// appendHeader appends the header row (row 1) in the bold style: written
// here rather than by excelize so that its names are escaped as the data
// are (excelize writes "_x0041_" as it is, which readers decode to "A").
func (w *rowWriter) appendHeader(buf []byte, style int) []byte {
	st := strconv.Itoa(style)
	buf = append(buf, `<row r="1">`...)
	for i, h := range w.headers {
		buf = append(buf, `<c r="`...)
		buf = append(buf, w.colName(i)...)
		buf = append(buf, `1" s="`...)
		buf = append(buf, st...)
		if h != "" && (h[0] == ' ' || h[len(h)-1] == ' ') {
			buf = append(buf, `" t="inlineStr"><is><t xml:space="preserve">`...)
		} else {
			buf = append(buf, `" t="inlineStr"><is><t>`...)
		}
		buf, _, _ = appendEscaped(buf, h)
		buf = append(buf, `</t></is></c>`...)
	}
	return append(buf, `</row>`...)
}

// unplain are the bytes that make appendEscaped look at a value byte by
// byte: control bytes, the XML's &, < and >, an _ (which may look like an
// escape) and the bytes of characters beyond ASCII. A table: every byte of
// an export is looked at here.
var unplain = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c < 0x20 || c == '&' || c == '<' || c == '>' || c == '_' || c >= utf8.RuneSelf
	}
	return t
}()

// appendEscaped appends v as the text of an OOXML string: & < > escaped,
// carriage returns kept as &#13;, and the characters XML cannot hold
// (control characters, U+FFFE, U+FFFF) written as OOXML's escapes _xHHHH_,
// which Excel and LibreOffice read back as the characters. Text that
// already looks like such an escape ("_x0041_") gets its underscore escaped
// (_x005F_x0041_) so that no reader decodes it. Bytes that are not UTF-8
// become U+FFFD. It returns how many characters were written as escapes
// and how many bytes were replaced, for the export to report.
func appendEscaped(buf []byte, v string) (_ []byte, escaped, replaced int) {
	plain := true
	for i := 0; i < len(v); i++ {
		if unplain[v[i]] {
			plain = false
			break
		}
	}
	if plain {
		return append(buf, v...), 0, 0
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '&':
				buf = append(buf, "&amp;"...)
			case c == '<':
				buf = append(buf, "&lt;"...)
			case c == '>':
				buf = append(buf, "&gt;"...)
			case c == '\r':
				buf = append(buf, "&#13;"...)
			case c == '_' && looksEscaped(v[i:]):
				buf = append(buf, "_x005F_"...)
			case c == '\n' || c == '\t' || c >= 0x20:
				buf = append(buf, c)
			default:
				buf = appendOOXMLEscape(buf, rune(c))
				escaped++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, "\uFFFD"...)
			replaced++
		case r == 0xFFFE || r == 0xFFFF:
			buf = appendOOXMLEscape(buf, r)
			escaped++
		default:
			buf = append(buf, v[i:i+size]...)
		}
		i += size
	}
	return buf, escaped, replaced
}

// looksEscaped reports text starting with _xHHHH_ (hex digits, any case).
func looksEscaped(s string) bool {
	if len(s) < 7 || s[1] != 'x' && s[1] != 'X' || s[6] != '_' {
		return false
	}
	for _, c := range []byte(s[2:6]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func appendOOXMLEscape(buf []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	return append(buf, '_', 'x', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15], '_')
}

// columnWidths sizes each column from its header and the sample rows, in
// characters, between minWidth and maxWidth.
func columnWidths(headers []string, sample [][]string) []float64 {
	w := make([]float64, len(headers))
	for i, h := range headers {
		w[i] = float64(utf8.RuneCountInString(h)) + 2 // room for the filter button
	}
	for _, rec := range sample {
		for i, v := range rec {
			if i < len(w) {
				w[i] = max(w[i], float64(utf8.RuneCountInString(v))+1)
			}
		}
	}
	for i := range w {
		w[i] = min(max(w[i], minWidth), maxWidth)
	}
	return w
}

func writeSummary(f *excelize.File, opts Options, rep *Report) error {
	m := opts.Meta
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	rows := [][]any{}
	if m != nil {
		date := func(t time.Time) any {
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
		}
		llcs := "no"
		if m.IncludeLLCs {
			llcs = "yes"
		}
		if m.Kind == jobs.KindDNC {
			rows = [][]any{
				{"Job", m.Name}, {"Job ID", m.JobID}, {"Kind", "DNC scrub"}, {"Source file", m.SourceFile},
				{"Status", m.Status}, {"Total rows", m.TotalRows},
				{"On DNC or litigator list", m.MatchCount}, {"Invalid numbers", m.ErrorCount},
				{"Rate", m.Rate}, {"Credits charged", m.CreditsCharged}, {"Credits refunded", m.CreditsRefunded},
				{"Net credits", m.Net()}, {"Created", date(m.CreatedAt)}, {"Completed", date(m.CompletedAt)},
			}
			if m.ParentTraceID != "" {
				rows = append(rows, []any{"Phones of trace", m.ParentTraceID})
			}
		} else {
			rows = [][]any{
				{"Job", m.Name}, {"Job ID", m.JobID}, {"Kind", "Skip trace"}, {"Source file", m.SourceFile},
				{"Mode", m.Mode}, {"Include LLCs", llcs}, {"Status", m.Status},
				{"Total rows", m.TotalRows}, {"Company rows", m.EntityRows}, {"Matches", m.MatchCount},
				{"No matches", m.NoMatchCount}, {"Errors", m.ErrorCount},
			}
			// A trace reports its rate only in a breakdown: no made-up 0.
			if m.Rate > 0 {
				rows = append(rows, []any{"Rate", m.Rate})
			}
			rows = append(rows, []any{"Credits charged", m.CreditsCharged}, []any{"Credits refunded", m.CreditsRefunded},
				[]any{"Net credits", m.Net()}, []any{"Created", date(m.CreatedAt)}, []any{"Completed", date(m.CompletedAt)})
		}
		if b := m.Breakdown; b != nil {
			for _, tier := range []struct {
				name string
				t    client.Tier
			}{{"Individuals", b.Individuals}, {"Companies", b.LLCs}} {
				rows = append(rows,
					[]any{tier.name + ": rows", tier.t.Rows}, []any{tier.name + ": rate", tier.t.Rate},
					[]any{tier.name + ": matches", tier.t.Match}, []any{tier.name + ": no matches", tier.t.NoMatch},
					[]any{tier.name + ": errors", tier.t.Error},
					[]any{tier.name + ": credits charged", tier.t.CreditsCharged},
					[]any{tier.name + ": credits refunded", tier.t.CreditsRefunded})
			}
		}
	} else {
		rows = append(rows, []any{"Job", "(no job record)"})
	}
	rows = append(rows, []any{"Rows exported", rep.Rows})
	if c := opts.Phones; c != nil {
		rows = append(rows, []any{"Phones kept", c.Kept}, []any{"Phones left out", c.LeftOut()})
		reasons := make([]string, 0, len(c.Left))
		for r := range c.Left {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		for _, r := range reasons {
			rows = append(rows, []any{"  left out: " + r, c.Left[r]})
		}
	}
	if len(rep.Sheets) > 1 {
		rows = append(rows, []any{"Sheets", strings.Join(rep.Sheets, ", ")})
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(summarySheet, cell, &r); err != nil {
			return fmt.Errorf("export: summary: %w", err)
		}
		if err := f.SetCellStyle(summarySheet, cell, cell, bold); err != nil {
			return fmt.Errorf("export: summary: %w", err)
		}
	}
	if err := f.SetColWidth(summarySheet, "A", "A", 20); err != nil {
		return fmt.Errorf("export: summary: %w", err)
	}
	return f.SetColWidth(summarySheet, "B", "B", 40)
}

// writeCompliance adds the Compliance sheet: the proof's lines (the PDF
// beside the export adds the workbook's own hash, which it cannot hold).
func writeCompliance(f *excelize.File, p *Proof) error {
	if _, err := f.NewSheet(complianceSheet); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	head, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 13}})
	for i, l := range p.lines(false) {
		a, _ := excelize.CoordinatesToCellName(1, i+1)
		b, _ := excelize.CoordinatesToCellName(2, i+1)
		if err := f.SetCellStr(complianceSheet, a, l.label); err != nil {
			return fmt.Errorf("export: compliance: %w", err)
		}
		if err := f.SetCellStr(complianceSheet, b, l.value); err != nil {
			return fmt.Errorf("export: compliance: %w", err)
		}
		style := bold
		if l.heading {
			style = head
		}
		if err := f.SetCellStyle(complianceSheet, a, a, style); err != nil {
			return fmt.Errorf("export: compliance: %w", err)
		}
	}
	if err := f.SetColWidth(complianceSheet, "A", "A", 28); err != nil {
		return fmt.Errorf("export: compliance: %w", err)
	}
	return f.SetColWidth(complianceSheet, "B", "B", 80)
}
