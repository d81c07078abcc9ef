package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// OpenResult opens a result CSV for the viewer: an index of its rows is
// built in one pass; rows are read back as the viewer asks for them.
func (s *Service) OpenResult(ctx context.Context, path string, progress func(done, total int64)) (Result, error) {
	r, err := library.OpenResultContext(ctx, path, library.Progress(progress))
	if err != nil {
		return nil, err
	}
	return &result{r: r}, nil
}

// result adapts library.Result (one mutable view) to Result.
type result struct {
	r *library.Result
}

func (x *result) Path() string                { return x.r.Path() }
func (x *result) Headers() []string           { return x.r.Headers() }
func (x *result) Len() int                    { return x.r.Len() }
func (x *result) Cell(row, col int) string    { return x.r.Cell(row, col) }
func (x *result) Close() error                { return x.r.Close() }
func (x *result) Warnings() []string          { return x.r.Warnings() }
func (x *result) viewLen() int                { return x.r.View() }
func (x *result) permutation() []int          { return x.r.Permutation() }
func (v resultView) Len() int                 { return v.x.viewLen() }
func (v resultView) Cell(row, col int) string { return v.x.r.Cell(row, col) }

// QuickFilters are the quick filters the result's columns allow.
func (x *result) QuickFilters() []jobs.QuickFilter {
	q := x.r.QuickFilters()
	var out []jobs.QuickFilter
	for _, f := range []struct {
		ok bool
		f  jobs.QuickFilter
	}{{q.Matched, jobs.QuickMatched}, {q.Mobile, jobs.QuickMobile}, {q.NotDNC, jobs.QuickNotDNC}, {q.NotLitigator, jobs.QuickNotLitigator}} {
		if f.ok {
			out = append(out, f.f)
		}
	}
	return out
}

// resultView is the result's current view (filter and sort applied).
type resultView struct{ x *result }

// Query applies q to the result's view and returns it. The view is shared:
// the newest query wins, which is what the viewer shows.
func (x *result) Query(ctx context.Context, q Query) (View, error) {
	// A quick filter the columns do not allow is an error (the library's):
	// a view never pretends to be filtered.
	f := library.Filter{Text: q.Text}
	for _, k := range q.Quick {
		switch k {
		case jobs.QuickMatched:
			f.MatchedOnly = true
		case jobs.QuickMobile:
			f.MobileOnly = true
		case jobs.QuickNotDNC:
			f.NotDNC = true
		case jobs.QuickNotLitigator:
			f.NotLitigator = true
		default:
			return nil, fmt.Errorf("unknown quick filter %q", k)
		}
	}
	if err := x.r.FilterContext(ctx, f, nil); err != nil {
		return nil, err
	}
	col := q.SortCol
	if col >= len(x.r.Headers()) {
		col = -1
	}
	if err := x.r.SortContext(ctx, col, q.Desc, nil); err != nil {
		return nil, err
	}
	return resultView{x}, nil
}

// ExportView writes the rows of v (the viewer's filtered and sorted view of
// r) to dest, .xlsx or .csv by its extension.
func (s *Service) ExportView(ctx context.Context, r Result, v View, dest string, progress func(done, total int64)) error {
	opts := export.Options{Progress: intProgress(progress)}
	if x, ok := r.(*result); ok {
		if p := x.permutation(); p != nil {
			opts.Rows = p
		}
		if m, err := library.ReadRecord(library.RecordPath(x.Path())); err == nil {
			opts.Meta = &m
		}
	}
	_, err := export.Export(ctx, r.Path(), dest, opts)
	return err
}

// ExportRequest is an export of a result file to Excel (.xlsx) or CSV.
type ExportRequest struct {
	Source string // a result CSV
	Dest   string // .xlsx or .csv
	// Record is the job record for the Summary sheet; "" the one beside
	// Source, when there is one.
	Record string
	// DNC, for a trace result, is a DNC result of its phones: each phone's
	// DNC and litigator flags are merged in.
	DNC string
	// OnlyCallable keeps only the numbers that may be called: of a trace
	// with DNC, and of a DNC result (Source) itself.
	OnlyCallable bool
	// TruncateLongCells cuts cells over Excel's 32,767 characters (listed
	// in the report) instead of failing.
	TruncateLongCells bool
	Progress          func(done, total int64)
}

// Export writes a result as req says and reports what it wrote.
func (s *Service) Export(ctx context.Context, req ExportRequest) (*export.Report, error) {
	var meta *library.Meta
	record := req.Record
	if record == "" {
		if _, err := os.Stat(library.RecordPath(req.Source)); err == nil {
			record = library.RecordPath(req.Source)
		}
	}
	if record != "" {
		m, err := library.ReadRecord(record)
		if err != nil {
			return nil, fmt.Errorf("job record: %w", err)
		}
		meta = &m
	}
	if req.DNC != "" {
		return export.ExportCallable(ctx, req.Source, req.DNC, req.Dest, export.CallableOptions{OnlyCallable: req.OnlyCallable,
			Meta: meta, Progress: intProgress(req.Progress)})
	}
	opts := export.Options{Meta: meta, Progress: intProgress(req.Progress), TruncateLongCells: req.TruncateLongCells}
	if req.OnlyCallable {
		rows, err := callableDNCRows(ctx, req.Source)
		if err != nil {
			return nil, err
		}
		opts.Rows = rows
	}
	return export.Export(ctx, req.Source, req.Dest, opts)
}

// ExportJob writes a job's result to dest (.xlsx or .csv). With callable,
// a DNC job's result keeps only the numbers that may be called (valid, not
// on the DNC registry, not a litigator); a trace's result gets each phone's
// flags from the newest DNC scrub of its phones and keeps only the callable
// phones. ErrNeedScrub when the trace's phones were never scrubbed.
func (s *Service) ExportJob(ctx context.Context, j Job, dest string, callable bool, progress func(done, total int64)) error {
	if j.ResultPath == "" {
		return fmt.Errorf("%s: the result is not downloaded yet", j.Name)
	}
	req := ExportRequest{Source: j.ResultPath, Dest: dest, OnlyCallable: callable, Progress: progress}
	if callable && j.Kind != jobs.KindDNC {
		lib, err := s.library()
		if err != nil {
			return err
		}
		if req.DNC, err = newestScrubOf(lib, j.ID); err != nil {
			return err
		}
	}
	_, err := s.Export(ctx, req)
	return err
}

// callableDNCRows are the rows of a DNC result whose number may be called.
func callableDNCRows(ctx context.Context, path string) ([]int, error) {
	r, err := library.OpenResultContext(ctx, path, nil)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	qf := r.QuickFilters()
	if !qf.NotDNC || !qf.NotLitigator {
		return nil, fmt.Errorf("%s is not a DNC result (no dnc and litigator columns)", filepath.Base(path))
	}
	if err := r.FilterContext(ctx, library.Filter{NotDNC: true, NotLitigator: true}, nil); err != nil {
		return nil, err
	}
	status := r.Column("status")
	rows := []int{}
	for i := 0; i < r.View(); i++ {
		if status >= 0 && r.Cell(i, status) != "ok" {
			continue
		}
		rows = append(rows, r.RowIndex(i))
	}
	return rows, r.Err()
}

// newestScrubOf finds the newest DNC result in lib made from a trace's phones.
func newestScrubOf(lib *library.Library, traceID string) (string, error) {
	entries, err := lib.List()
	if err != nil {
		return "", err
	}
	for _, e := range entries { // newest first
		if e.Meta.Kind == jobs.KindDNC && e.Meta.ParentTraceID == traceID {
			return e.Path, nil
		}
	}
	return "", ErrNeedScrub
}

// SearchLibrary lists the downloaded results, newest first; with a query,
// only those with a matching row (phone numbers compare by their digits),
// each with a few of its hits.
func (s *Service) SearchLibrary(ctx context.Context, q string) ([]LibraryItem, error) {
	lib, err := s.library()
	if err != nil {
		return nil, err
	}
	entries, err := lib.List()
	if err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	var hits map[string][]string
	if q != "" {
		hs, err := lib.Search(ctx, q, library.DefaultSearchLimit*5)
		if err != nil {
			return nil, err
		}
		hits = map[string][]string{}
		for _, h := range hs {
			if len(hits[h.Path]) < 3 {
				hits[h.Path] = append(hits[h.Path], hitText(h))
			}
		}
	}
	var out []LibraryItem
	for _, e := range entries {
		if hits != nil && hits[e.Path] == nil {
			continue
		}
		kind := jobs.KindTrace
		if e.Meta.Kind == jobs.KindDNC {
			kind = jobs.KindDNC
		}
		name := e.Meta.Name
		if name == "" {
			name = filepath.Base(e.Path)
		}
		out = append(out, LibraryItem{Path: e.Path, JobID: e.Meta.JobID, Kind: kind, Name: name,
			Rows: e.Meta.TotalRows, CreatedAt: e.Meta.CreatedAt, Size: e.Size, Hits: hits[e.Path]})
	}
	return out, nil
}

func hitText(h library.Hit) string {
	var parts []string
	for _, f := range h.Fields {
		if f.Value != "" && len(parts) < 4 {
			parts = append(parts, f.Value)
		}
	}
	return fmt.Sprintf("row %d: %s", h.Row, strings.Join(parts, ", "))
}

// library is the open session's library, or (offline, before any session)
// the default one.
func (s *Service) library() (*library.Library, error) {
	if sess, err := s.current(); err == nil {
		return sess.lib, sess.libErr
	}
	return library.Open(s.cfg.ResultsDir())
}

// Result columns that tell a result file from a list.
var (
	traceResultCols = []string{"match_status", "owner_first_name", "phone_1"}
	dncResultCols   = []string{"phone_normalized", "dnc", "litigator"}
)

// Classify says which flow a file belongs to: a result (the viewer), a
// phone list (the DNC scrub) or an owner list (the trace wizard).
func (s *Service) Classify(ctx context.Context, path string) (FileKind, error) {
	r, err := input.Open(path, input.Options{SampleRows: -1})
	if err != nil {
		return FileOwners, err
	}
	defer r.Close()
	headers := r.Headers()
	lower := make([]string, len(headers))
	for i, h := range headers {
		lower[i] = strings.ToLower(strings.TrimSpace(h))
	}
	hasAll := func(cols []string) bool {
		for _, c := range cols {
			if !slices.Contains(lower, c) {
				return false
			}
		}
		return true
	}
	switch {
	case strings.EqualFold(filepath.Ext(path), ".csv") && hasAll(traceResultCols):
		return FileTraceResult, nil
	case strings.EqualFold(filepath.Ext(path), ".csv") && hasAll(dncResultCols):
		return FileDNCResult, nil
	}
	phoneCols, nameOrAddr := 0, 0
	for _, h := range lower {
		switch {
		case strings.Contains(h, "phone") || strings.Contains(h, "mobile") || strings.Contains(h, "cell") || h == "number" || h == "tel":
			phoneCols++
		case strings.Contains(h, "name") || strings.Contains(h, "address") || strings.Contains(h, "street") || strings.Contains(h, "zip") || strings.Contains(h, "city"):
			nameOrAddr++
		}
	}
	if phoneCols > 0 && (nameOrAddr == 0 || len(lower) <= 2) {
		return FilePhones, nil
	}
	return FileOwners, nil
}

// SampleList writes the bundled sample owner list into the SkipDesk folder
// (once) and returns its path.
func (s *Service) SampleList(ctx context.Context) (string, error) {
	dir := filepath.Join(s.cfg.Home, "samples")
	path := filepath.Join(dir, assets.SampleOwnersName)
	if b, err := os.ReadFile(path); err == nil && string(b) == string(assets.SampleOwners) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := library.WriteFileAtomic(path, assets.SampleOwners); err != nil {
		return "", err
	}
	return path, nil
}

// intProgress adapts a progress callback to the export's int counts.
func intProgress(f func(done, total int64)) func(done, total int) {
	if f == nil {
		return nil
	}
	return func(done, total int) { f(int64(done), int64(total)) }
}

// Inspect reads a list (CSV or XLSX) in one streaming pass: encoding,
// delimiter, header, rows, company rows, blanks, duplicates, Excel damage.
func Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	return input.Inspect(ctx, path, opts)
}

// Inspect is the package's Inspect, for callers that hold a Service.
func (s *Service) Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	return Inspect(ctx, path, opts)
}

// LibraryWritable checks, before paying, that a result can be saved into
// the library.
func (s *Service) LibraryWritable() error {
	lib, err := s.library()
	if err != nil {
		return err
	}
	return lib.Writable()
}

// ErrEmptyLibrary: no result was ever downloaded into the library.
var ErrEmptyLibrary = errors.New("no results downloaded yet")

// ResultsDir is the library folder dir names, or the configured one.
func (s *Service) ResultsDir(dir string) string {
	if dir != "" {
		return dir
	}
	return s.cfg.ResultsDir()
}

// SearchRows finds the rows of the results in the library (dir; "" the
// configured one) that hold q — a phone in any format, a name, an address
// — at most limit of them. ErrEmptyLibrary when the configured library was
// never made.
func (s *Service) SearchRows(ctx context.Context, dir, q string, limit int) ([]library.Hit, error) {
	d := s.ResultsDir(dir)
	if _, err := os.Stat(d); err != nil {
		if dir == "" && errors.Is(err, os.ErrNotExist) {
			return nil, ErrEmptyLibrary
		}
		return nil, fmt.Errorf("library folder: %w", err)
	}
	lib, err := library.Open(d)
	if err != nil {
		return nil, err
	}
	return lib.Search(ctx, q, limit)
}
