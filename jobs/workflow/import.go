package workflow

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// ErrNotAResult: an imported file is a list to trace or scrub, not a
// result.
var ErrNotAResult = errors.New("not a result")

// ErrFutureDate: a scrub date given for an import lies in the future.
var ErrFutureDate = errors.New("a scrub date in the future")

// ImportOptions are what the person says of a result made elsewhere.
type ImportOptions struct {
	// Scrubbed is when its DNC answers were scrubbed (zero: not given).
	// It dates the rows that do not carry a scrub date of their own; a
	// file with neither makes no phone callable.
	Scrubbed time.Time
}

// ImportResult copies a result made elsewhere — another service's or
// tool's CSV or XLSX export — into the library as a plain CSV with a job
// record naming where it came from, so that it is viewed, searched,
// scrubbed and exported like SkipDesk's own. The file is read through the
// layout rules; a file that holds no results (a list of owners) is refused
// with ErrNotAResult. Importing the same file again gives the same entry.
//
// Its answers are dated by its own scrub date column, else by the date the
// person gives (opts.Scrubbed, recorded with who gave it and when), never by
// the file's date; a date in the future is refused (ErrFutureDate).
func (s *LibraryService) ImportResult(ctx context.Context, path string, opts ImportOptions) (LibraryItem, error) {
	if !opts.Scrubbed.IsZero() && opts.Scrubbed.After(time.Now().Add(24*time.Hour)) {
		return LibraryItem{}, fmt.Errorf("%s: %w: %s", filepath.Base(path), ErrFutureDate, opts.Scrubbed.Format(time.DateOnly))
	}
	lib, err := s.library()
	if err != nil {
		return LibraryItem{}, err
	}
	sum, err := fileSum(path)
	if err != nil {
		return LibraryItem{}, err
	}
	it, others, err := s.importSheet(ctx, lib, path, "", sum, opts)
	if err != nil {
		return LibraryItem{}, err
	}
	// A workbook's sheets under other columns than the first's (phones by
	// type, say) are results of their own: each is imported as one.
	for _, sheet := range others {
		o, _, err := s.importSheet(ctx, lib, path, sheet, sum, opts)
		switch {
		case errors.Is(err, ErrNotAResult):
			it.Warnings = append(it.Warnings, fmt.Sprintf("sheet %q holds no phone results: not imported", sheet))
		case err != nil:
			it.Warnings = append(it.Warnings, fmt.Sprintf("sheet %q was not imported: %v", sheet, err))
		default:
			it.Others = append(it.Others, o)
		}
	}
	s.indexInBackground(lib.Dir())
	return it, nil
}

// importSheet copies the result at path into lib: its first sheet holding
// rows with the sheets under the same header (sheet ""), or the sheet
// named alone, as an entry of its own. It returns the entry and, for
// sheet "", the workbook's sheets under other columns.
func (s *LibraryService) importSheet(ctx context.Context, lib *library.Library, path, sheet, sum string, opts ImportOptions) (LibraryItem, []string, error) {
	what := filepath.Base(path)
	if sheet != "" {
		what += fmt.Sprintf(", sheet %q", sheet)
	}
	headers, sample, err := readHead(path, sheet, library.LayoutSample)
	if err != nil {
		return LibraryItem{}, nil, err
	}
	l := layout.Detect(headers, sample, s.layoutOptions())
	if l.Kind != layout.KindTrace && l.Kind != layout.KindDNC {
		return LibraryItem{}, nil, fmt.Errorf("%s: %w: SkipDesk found no phone results in it; to trace its owners, start a new trace with it",
			what, ErrNotAResult)
	}
	info, err := os.Stat(path)
	if err != nil {
		return LibraryItem{}, nil, err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	id := library.ImportPrefix + sum[:12]
	if sheet != "" {
		name += " - " + sheet
		id += "-" + fmt.Sprintf("%x", sha256.Sum256([]byte(sheet)))[:6]
	}
	meta := library.Meta{JobID: id, Kind: jobs.Kind(l.Kind), Name: name + " (imported)",
		Status: jobs.StatusCompleted, SourceFile: path, CreatedAt: info.ModTime().UTC(), CompletedAt: info.ModTime().UTC()}
	if !opts.Scrubbed.IsZero() {
		meta.Scrubbed = &library.GivenDate{Date: opts.Scrubbed.UTC(), By: s.team().Computer(), At: time.Now().UTC()}
	}
	dest := lib.PathFor(meta)
	rows, others, err := copyAsCSV(ctx, path, sheet, dest)
	if err != nil {
		return LibraryItem{}, nil, err
	}
	meta.TotalRows = rows
	if err := lib.Record(meta, dest); err != nil {
		return LibraryItem{}, nil, err
	}
	return LibraryItem{Path: dest, JobID: meta.JobID, Kind: meta.Kind, Name: meta.Name, Rows: rows, CreatedAt: meta.CreatedAt}, others, nil
}

// copyAsCSV writes the rows of src (CSV in any encoding, or XLSX) to dest
// as a plain UTF-8 CSV, through a temporary file synced and renamed; it
// returns the data rows written. The sheet named is copied alone; with
// none, a workbook holding rows on several sheets is copied from each of
// them under the same header as the first's (an export split over
// sheets), and the sheets under other columns are returned, never left out
// without a word.
func copyAsCSV(ctx context.Context, src, sheet, dest string) (int, []string, error) {
	r, err := input.Open(src, input.Options{SampleRows: -1, Sheet: sheet})
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.part")
	if err != nil {
		return 0, nil, err
	}
	defer os.Remove(tmp.Name())
	c := &csvCopy{w: bufio.NewWriterSize(tmp, 1<<20)}
	c.line = input.AppendRecord(nil, r.Headers())
	_, err = c.w.Write(c.line)
	if err == nil {
		err = c.rows(ctx, r)
	}
	var others []string
	for _, other := range r.OtherSheets() {
		if err != nil {
			break
		}
		var o *input.Reader
		if o, err = input.Open(src, input.Options{SampleRows: -1, Sheet: other}); err != nil {
			break
		}
		if slices.Equal(o.Headers(), r.Headers()) {
			err = c.rows(ctx, o)
		} else {
			others = append(others, other)
		}
		o.Close()
	}
	if err == nil {
		err = c.w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, nil, fmt.Errorf("importing %s: %w", filepath.Base(src), err)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return 0, nil, err
	}
	library.SyncDir(filepath.Dir(dest))
	return c.n, others, nil
}

// csvCopy is a CSV being written from the rows of one or more readers.
type csvCopy struct {
	w    *bufio.Writer
	line []byte
	n    int // data rows written
}

// rows writes every data row of r.
func (c *csvCopy) rows(ctx context.Context, r *input.Reader) error {
	for {
		if c.n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		c.line = input.AppendRecord(c.line[:0], rec)
		if _, err := c.w.Write(c.line); err != nil {
			return err
		}
		c.n++
	}
}

// fileSum is the SHA-256 of a file, in hex.
func fileSum(path string) (string, error) {
	sum, _, err := input.HashFile(path)
	return sum, err
}
