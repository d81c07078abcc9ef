// Package export writes a result (or the filtered view of one) to a file a
// spreadsheet user opens: .xlsx through excelize, or CSV with a UTF-8 BOM for
// Excel. Files are written to a temporary name and renamed when complete,
// with the permissions any new file gets (0666 less the umask).
//
// Choices, in the .xlsx:
//   - Every string is an inline string cell: a value starting with = + - @
//     is text, never a formula. Columns named like phone, zip, postal, id,
//     number (and apn, parcel, fips) are text whatever they hold; elsewhere
//     a value becomes a number only when it is plain decimal digits with no
//     sign, no leading zero and at most 15 significant digits.
//   - A cell longer than Excel's 32,767 characters fails the export with a
//     *CellTooLongError naming the row and column, unless
//     Options.TruncateLongCells asks to cut it (each cut cell is listed in
//     Report.Truncated). Nothing is cut silently.
//   - Past 1,048,576 rows the rows continue in "Results 2", "Results 3"...;
//     each sheet repeats the header. "Summary" follows the results sheets.
//   - excelize builds the workbook (styles, bold frozen header through its
//     StreamWriter, widths, autofilter, Summary); the data rows are written
//     as sheet XML straight into the zip while excelize saves, through the
//     zip writer it accepts (SetZipWriter), deflating at BestSpeed on a
//     second goroutine. On 400k rows × 26 columns this runs at 0.14-0.22×
//     the time of excelize's StreamWriter used plainly, with ~30 MB peak RSS
//     against ~190 MB (bench/export.sh), for a file ~20% larger.
//
// In CSV, a value starting with = + - @, tab or carriage return gets a
// leading ' (OWASP's advice against CSV injection).
//
// A file that cannot be written (a full disk, a read-only folder) fails the
// export with a *WriteError naming it; an earlier file of the same name is
// left as it was.
package export

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/library"
)

// Formats.
const (
	FormatXLSX = "xlsx"
	FormatCSV  = "csv"
)

// Excel's limits.
const (
	ExcelMaxRows      = 1048576 // rows per sheet, the header included
	ExcelMaxCellChars = 32767   // UTF-16 units per cell
)

// maxSheetRows is ExcelMaxRows; tests lower it to exercise the sheet split.
var maxSheetRows = ExcelMaxRows

// Options tune an export.
type Options struct {
	// Meta, when set, fills the "Summary" sheet of an .xlsx.
	Meta *library.Meta
	// Phones, when set, are the phones kept and left out by reason, for
	// the Summary sheet.
	Phones *PhoneCounts
	// Rows are the 0-based data rows to export, in order (the viewer's
	// filtered and sorted view: library.Result.Permutation). Nil exports
	// every row in file order; an empty non-nil slice exports none.
	Rows []int
	// Progress is called now and then with rows done and the total (an
	// estimate while the source is read in file order; exact at the end).
	Progress func(done, total int)
	// Format is "xlsx" or "csv"; empty takes it from dst's extension.
	Format string
	// TruncateLongCells writes a cell longer than Excel's 32,767 characters
	// cut to the limit and lists it in Report.Truncated. By default such a
	// cell fails the export with a *CellTooLongError: never silently cut.
	TruncateLongCells bool
	// Proof, when set, adds a Compliance sheet to an .xlsx (see Proof).
	Proof *Proof
}

// Report says what an export wrote.
type Report struct {
	Path      string
	Proof     string   // a callable export's proof PDF, beside it
	Rows      int      // data rows written
	Sheets    []string // .xlsx: the sheets holding rows
	Truncated []CellRef
	// Escaped lists the .xlsx cells holding characters XML cannot carry
	// (control characters, U+FFFE, U+FFFF; Length counts them), written as
	// OOXML's _xHHHH_ escapes: Excel and LibreOffice read them back as the
	// characters, simpler readers show the escape. Replaced lists cells
	// with bytes that are not UTF-8, written as U+FFFD. Both are also
	// summarised in Warnings.
	Escaped  []CellRef
	Replaced []CellRef
	// Warnings are the damage met in the source that the export got
	// around, for the user to see: a quoted value never closed, whose
	// row holds the rest of the file.
	Warnings []string
	// Phones are the phones kept and left out by reason (exports that
	// read phones: callable lists, quick filters).
	Phones *PhoneCounts `json:",omitempty"`
	// Parts are the files a preset's rows-per-file limit split the export
	// into, in order (Path is the first); none when it is one file.
	Parts []string `json:",omitempty"`

	// sum is the SHA-256 of the file at Path, taken while it was written
	// ("" when it was not); partSums are those of Parts.
	sum      string
	partSums []string
}

// CellRef names a cell of the source: its 1-based data row and its column.
type CellRef struct {
	Row    int
	Column string
	Length int // UTF-16 units before truncation
}

// CellTooLongError is a value longer than Excel allows in a cell.
type CellTooLongError struct {
	Path   string
	Row    int // 1-based data row of the source
	Column string
	Length int // UTF-16 units
}

func (e *CellTooLongError) Error() string {
	return fmt.Sprintf("export: %s: row %d, column %q: %d characters, more than Excel's %d per cell (export with truncation to cut it)",
		e.Path, e.Row, e.Column, e.Length, ExcelMaxCellChars)
}

// Export writes the result at src to dst: .xlsx or .csv (by opts.Format or
// dst's extension). dst appears complete or not at all.
func Export(ctx context.Context, src, dst string, opts Options) (*Report, error) {
	format, err := formatOf(dst, opts.Format)
	if err != nil {
		return nil, err
	}
	rep := &Report{Path: dst}
	if format == FormatCSV {
		s, err := openSource(src, opts.Rows)
		if err != nil {
			return nil, err
		}
		defer s.Close()
		total := s.Total()
		if total < 0 && opts.Progress != nil {
			total = estimateRows(src)
		}
		err = writeAtomic(dst, func(f *os.File) error { return writeCSV(ctx, s, f, total, opts, rep) })
		if err != nil {
			return nil, err
		}
	} else {
		// The .xlsx needs the row count before writing (sheet split,
		// autofilter ranges, summary) and reads rows by range: the
		// library's row index gives both.
		r, err := library.OpenResultContext(ctx, src, nil)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		defer r.Close()
		rep.Warnings = append(rep.Warnings, r.Warnings()...)
		total := r.Len()
		if opts.Rows != nil {
			total = len(opts.Rows)
		}
		err = writeAtomic(dst, func(f *os.File) error {
			return buffered(f, func(bw *bufio.Writer) error {
				return writeXLSX(ctx, r, opts.Rows, bw, total, opts, rep)
			})
		})
		if err != nil {
			return nil, err
		}
	}
	if opts.Progress != nil {
		opts.Progress(rep.Rows, rep.Rows)
	}
	return rep, nil
}

// cellDamage adds the warnings of the cells an .xlsx wrote as escapes or
// with replacement characters.
func (rep *Report) cellDamage() {
	rep.Warnings = append(rep.Warnings, cellWarnings(rep.Escaped,
		"control characters that XML cannot hold, written as Excel's _xHHHH_ escapes")...)
	rep.Warnings = append(rep.Warnings, cellWarnings(rep.Replaced,
		"bytes that are not UTF-8 text, written as the replacement character \uFFFD")...)
}

// cellWarnings summarises cells in one warning: how many, and the first few
// by row and column.
func cellWarnings(cells []CellRef, what string) []string {
	if len(cells) == 0 {
		return nil
	}
	var where []string
	for _, c := range cells[:min(len(cells), 5)] {
		where = append(where, fmt.Sprintf("row %d, column %q", c.Row, c.Column))
	}
	more := ""
	if len(cells) > 5 {
		more = fmt.Sprintf(" and %d more", len(cells)-5)
	}
	return []string{fmt.Sprintf("%d cells hold %s: %s%s", len(cells), what, strings.Join(where, "; "), more)}
}

func formatOf(dst, format string) (string, error) {
	if format == "" {
		format = strings.TrimPrefix(strings.ToLower(filepath.Ext(dst)), ".")
	}
	switch format {
	case FormatXLSX, FormatCSV:
		return format, nil
	}
	return "", fmt.Errorf("export: %s: unknown format %q (want .xlsx or .csv)", dst, format)
}

// estimateRows counts line breaks: a quick estimate of the rows for progress.
func estimateRows(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n := 0
	for {
		k, err := f.Read(buf)
		for _, c := range buf[:k] {
			if c == '\n' {
				n++
			}
		}
		if err != nil {
			break
		}
	}
	return max(n-1, 0)
}

// writeAtomic creates dst through a temporary file in the same folder:
// written, synced, then renamed over dst. On failure dst is untouched (an
// earlier file of that name stays as it was) and the temporary file is
// removed; one left by an export that was killed is removed by a later
// export to the same name.
func writeAtomic(dst string, fill func(f *os.File) error) error {
	dir := filepath.Dir(dst)
	removeStale(dir, "."+filepath.Base(dst))
	f, err := createTemp(dir, "."+filepath.Base(dst)+".", ".tmp")
	if err != nil {
		return writeError(dst, err)
	}
	tmp := f.Name()
	err = fill(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		os.Remove(tmp)
		return writeError(dst, err)
	}
	library.SyncDir(dir)
	return nil
}

// writeAtomicSum is writeAtomic, returning the SHA-256 of what fill wrote
// (hex), taken as it was written.
func writeAtomicSum(dst string, fill func(w io.Writer) error) (string, error) {
	h := sha256.New()
	err := writeAtomic(dst, func(f *os.File) error { return fill(io.MultiWriter(f, h)) })
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// createTemp creates a new file prefix<random>suffix in dir with the
// permissions any program's new file gets (0666 less the umask), as a
// spreadsheet saving a file would: the export is the person's file, to open
// with other programs, where os.CreateTemp would make it private to its
// owner (0600).
func createTemp(dir, prefix, suffix string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if os.IsExist(err) {
			continue
		}
		return f, err
	}
	return nil, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"+suffix), Err: os.ErrExist}
}

// writeError says that dst could not be written and why, in the system's
// words ("no space left on device", "read-only file system"), rather than
// naming the temporary file. Other errors (a cell too long, a cancel, bad
// input) pass as they are.
func writeError(dst string, err error) error {
	var pe *os.PathError
	var le *os.LinkError
	var cause error
	switch {
	case errors.As(err, &pe):
		cause = pe.Err
	case errors.As(err, &le):
		cause = le.Err
	default:
		return err
	}
	return &WriteError{Path: dst, Err: cause}
}

// WriteError is an export file that could not be written: the folder is
// read-only or missing, the disk is full. Nothing was written at Path.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("export: cannot write %s: %v (nothing was written)", e.Path, e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// staleAfter is how long a temporary file goes unwritten before it counts
// as left by an export that died: a running export writes to it all along.
const staleAfter = 10 * time.Minute

// removeStale deletes the temporary files "<prefix>.*.tmp" in dir that no
// export has written to for staleAfter.
func removeStale(dir, prefix string) {
	old, _ := filepath.Glob(filepath.Join(dir, escapeGlob(prefix)+".*.tmp"))
	for _, p := range old {
		if info, err := os.Stat(p); err == nil && time.Since(info.ModTime()) > staleAfter {
			os.Remove(p)
		}
	}
}

func escapeGlob(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(s)
}

// checkCtx is called every ctxEvery rows.
const ctxEvery = 1024

func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// buffered runs write over a 1 MB buffer on w and flushes it.
func buffered(w io.Writer, write func(*bufio.Writer) error) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
