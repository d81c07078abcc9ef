package desk

import (
	"context"
	"encoding/json"
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
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// ErrNeedScrub: a trace's callable list needs a DNC scrub of its phones
// first ("Scrub these phones").
var ErrNeedScrub = errors.New("the trace's phones have not been scrubbed against the DNC and litigator lists yet")

// Download puts a completed job's result into the library (when not there
// yet) and returns the job with ResultPath set. Jobs the tracker follows are
// downloaded by it; this covers jobs only the API lists (history from
// before this computer's ledger).
func (d *Desk) Download(ctx context.Context, j Job, progress func(done, total int64)) (Job, error) {
	if j.ResultPath != "" {
		if _, err := os.Stat(j.ResultPath); err == nil {
			return j, nil
		}
	}
	s, err := d.current()
	if err != nil {
		return j, err
	}
	if j.Status != "completed" || j.ID == "" || j.Kind == jobs.KindSingle {
		return j, fmt.Errorf("%s has no result to download (status %s)", j.Name, j.Status)
	}
	kind := jobs.KindTrace
	if j.Kind == jobs.KindDNC {
		kind = jobs.KindDNC
	}
	dl, err := s.trk.Fetch(ctx, kind, j.ID, progress)
	if err != nil {
		return j, err
	}
	j.ResultPath = dl.Path
	return j, nil
}

// OpenResult opens a result CSV for the viewer: an index of its rows is
// built in one pass; rows are read back as the viewer asks for them.
func (d *Desk) OpenResult(ctx context.Context, path string, progress func(done, total int64)) (Result, error) {
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
func (x *result) library() *library.Result    { return x.r }
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
func (d *Desk) ExportView(ctx context.Context, r Result, v View, dest string, progress func(done, total int64)) error {
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

// ExportJob writes a job's result to dest (.xlsx or .csv). With callable,
// a DNC job's result keeps only the numbers that may be called (valid, not
// on the DNC registry, not a litigator); a trace's result gets each phone's
// flags from the newest DNC scrub of its phones and keeps only the callable
// phones. ErrNeedScrub when the trace's phones were never scrubbed.
func (d *Desk) ExportJob(ctx context.Context, j Job, dest string, callable bool, progress func(done, total int64)) error {
	if j.ResultPath == "" {
		return fmt.Errorf("%s: the result is not downloaded yet", j.Name)
	}
	var meta *library.Meta
	if m, err := library.ReadRecord(library.RecordPath(j.ResultPath)); err == nil {
		meta = &m
	}
	if !callable {
		_, err := export.Export(ctx, j.ResultPath, dest, export.Options{Meta: meta, Progress: intProgress(progress)})
		return err
	}
	if j.Kind == jobs.KindDNC {
		rows, err := callableDNCRows(ctx, j.ResultPath)
		if err != nil {
			return err
		}
		_, err = export.Export(ctx, j.ResultPath, dest, export.Options{Meta: meta, Rows: rows, Progress: intProgress(progress)})
		return err
	}
	s, err := d.current()
	if err != nil {
		return err
	}
	dnc, err := newestScrubOf(s.lib, j.ID)
	if err != nil {
		return err
	}
	_, err = export.ExportCallable(ctx, j.ResultPath, dnc, dest, export.CallableOptions{OnlyCallable: true, Meta: meta, Progress: intProgress(progress)})
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

// linkParent notes, in a downloaded DNC result's job record, the trace whose
// phones it scrubbed (from the submission's options), so the callable list
// can find it later.
func (d *Desk) linkParent(s *session, jobID, path string) {
	sub, err := s.led.SubmissionForJob(context.Background(), jobID)
	if err != nil || sub.Kind != jobs.KindDNC {
		return
	}
	var o submit.Options
	if json.Unmarshal(sub.Options, &o) != nil || o.ParentTraceID == "" {
		return
	}
	m, err := library.ReadRecord(library.RecordPath(path))
	if err != nil || m.ParentTraceID == o.ParentTraceID {
		return
	}
	m.ParentTraceID = o.ParentTraceID
	_ = s.lib.Record(m, path)
}

// SearchLibrary lists the downloaded results, newest first; with a query,
// only those with a matching row (phone numbers compare by their digits),
// each with a few of its hits.
func (d *Desk) SearchLibrary(ctx context.Context, q string) ([]LibraryItem, error) {
	lib, err := d.library()
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
func (d *Desk) library() (*library.Library, error) {
	if s, err := d.current(); err == nil {
		return s.lib, nil
	}
	dir := filepath.Join(d.home, "results")
	if os.Getenv("SKIPDESK_HOME") == "" && d.opts.Home == "" {
		if x, err := library.DefaultDir(); err == nil {
			dir = x
		}
	}
	return library.Open(dir)
}

// Result columns that tell a result file from a list.
var (
	traceResultCols = []string{"match_status", "owner_first_name", "phone_1"}
	dncResultCols   = []string{"phone_normalized", "dnc", "litigator"}
)

// Classify says which flow a file belongs to: a result (the viewer), a
// phone list (the DNC scrub) or an owner list (the trace wizard).
func (d *Desk) Classify(ctx context.Context, path string) (FileKind, error) {
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
func (d *Desk) SampleList(ctx context.Context) (string, error) {
	dir := filepath.Join(d.home, "samples")
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
