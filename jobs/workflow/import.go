package workflow

import (
	"bufio"
	"context"
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
	headers, sample, err := readHead(path, library.LayoutSample)
	if err != nil {
		return LibraryItem{}, err
	}
	l := layout.Detect(headers, sample, s.layoutOptions())
	if l.Kind != layout.KindTrace && l.Kind != layout.KindDNC {
		return LibraryItem{}, fmt.Errorf("%s: %w: SkipDesk found no phone results in it; to trace its owners, start a new trace with it",
			filepath.Base(path), ErrNotAResult)
	}
	lib, err := s.library()
	if err != nil {
		return LibraryItem{}, err
	}
	sum, err := fileSum(path)
	if err != nil {
		return LibraryItem{}, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return LibraryItem{}, err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	meta := library.Meta{JobID: library.ImportPrefix + sum[:12], Kind: jobs.Kind(l.Kind), Name: name + " (imported)",
		Status: jobs.StatusCompleted, SourceFile: path, CreatedAt: info.ModTime().UTC(), CompletedAt: info.ModTime().UTC()}
	if !opts.Scrubbed.IsZero() {
		meta.Scrubbed = &library.GivenDate{Date: opts.Scrubbed.UTC(), By: s.team().Computer(), At: time.Now().UTC()}
	}
	dest := lib.PathFor(meta)
	rows, warnings, err := copyAsCSV(ctx, path, dest)
	if err != nil {
		return LibraryItem{}, err
	}
	meta.TotalRows = rows
	if err := lib.Record(meta, dest); err != nil {
		return LibraryItem{}, err
	}
	s.indexInBackground(lib.Dir())
	return LibraryItem{Path: dest, JobID: meta.JobID, Kind: meta.Kind, Name: meta.Name, Rows: rows, CreatedAt: meta.CreatedAt,
		Warnings: warnings}, nil
}

// copyAsCSV writes the rows of src (CSV in any encoding, or XLSX) to dest
// as a plain UTF-8 CSV, through a temporary file synced and renamed; it
// returns the data rows written. A workbook holding rows on several sheets
// is copied from each of them under the same header as the first's (an
// export split over sheets); every other sheet is named in the warnings
// returned, never left out without a word.
func copyAsCSV(ctx context.Context, src, dest string) (int, []string, error) {
	r, err := input.Open(src, input.Options{SampleRows: -1})
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
	var warnings []string
	for _, sheet := range r.OtherSheets() {
		if err != nil {
			break
		}
		var o *input.Reader
		if o, err = input.Open(src, input.Options{SampleRows: -1, Sheet: sheet}); err != nil {
			break
		}
		if slices.Equal(o.Headers(), r.Headers()) {
			err = c.rows(ctx, o)
		} else {
			warnings = append(warnings, fmt.Sprintf("sheet %q holds rows under other columns and is not imported: save it as a file of its own and import that too", sheet))
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
	return c.n, warnings, nil
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
