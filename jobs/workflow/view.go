package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// Results are read through their layout (jobs/layout): which columns are
// the people, their addresses and e-mails, each phone with its type and
// flags. The layout is detected from the header and the first rows; the
// person corrects it where SkipDesk is unsure, and the correction is
// remembered for every file with the same header (Signature). A trace's
// view carries the flags of the DNC scrubs of its phones.

// OpenResult opens a result CSV for the viewer. It returns once the first
// page can show, its cells as the file writes them: Result.Index reads the
// whole file (on every core, in one pass: the viewer's store, and the
// values the layout's conventions are read from), then the result is read
// through its layout — detected with the person's answers for these
// headers, a trace's phones with the flags of the scrubs made of them —
// and each row's phones and quick filters are read. Until then nothing is
// read through a layout: Person is empty, and a query or an export waits
// for Index. Rows are read back as the viewer asks for them. progress is
// not called: the first page takes no time to speak of.
func (s *ResultService) OpenResult(ctx context.Context, path string, progress func(done, total int64)) (Result, error) {
	r, err := library.StartResult(ctx, path)
	if err != nil {
		return nil, err
	}
	return &result{s: s.core, r: r, indexing: make(chan struct{}, 1)}, nil
}

// result adapts library.Result (one mutable view) to Result.
type result struct {
	s *core
	r *library.Result

	// indexing holds a token while Index runs (one at a time); indexed
	// once it has succeeded.
	indexing chan struct{}
	indexed  bool

	mu    sync.Mutex
	rd    *layout.Reader // nil until the layout is known
	scrub []string       // the DNC results joined, newest first
	open  []layout.FileQuestions
	quick []jobs.QuickFilter
	at    time.Time // the instant the view's "callable-now" was read at
	row   layout.Row
}

func (x *result) Path() string             { return x.r.Path() }
func (x *result) Headers() []string        { return x.r.Headers() }
func (x *result) Len() int                 { return x.r.Len() }
func (x *result) Cell(row, col int) string { return x.r.Cell(row, col) }
func (x *result) Close() error             { return x.r.Close() }
func (x *result) Warnings() []string       { return x.r.Warnings() }
func (x *result) Layout() *layout.Layout   { return x.r.Layout() }
func (x *result) RowIndex(row int) int     { return row }
func (x *result) Scrubs() []string         { x.mu.Lock(); defer x.mu.Unlock(); return x.scrub }

// Index reads the whole file (see OpenResult), reporting progress in
// bytes over two passes: the store with the layout's values, then every
// row through the layout. A second call waits for the first; once done it
// returns at once.
func (x *result) Index(ctx context.Context, progress func(done, total int64)) error {
	select {
	case x.indexing <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-x.indexing }()
	if x.indexed {
		return nil
	}
	size := int64(1)
	if info, err := os.Stat(x.r.Path()); err == nil {
		size = max(info.Size(), 1)
	}
	pass := func(k int64) library.Progress { // pass k of 2
		if progress == nil {
			return nil
		}
		return func(done, total int64) { progress(k*size+done*size/max(total, 1), 2*size) }
	}
	l, err := x.readLayout(ctx, pass(0))
	if err != nil {
		return err
	}
	if err := x.apply(ctx, l); err != nil {
		return err
	}
	if err := x.r.IndexLayout(ctx, pass(1)); err != nil {
		return err
	}
	x.indexed = true
	return nil
}

// readLayout builds the store, profiling in the same pass the columns
// whose values the layout's conventions are read from, and detects the
// layout from them: as library.DetectLayoutContext finds it (the roles
// from the first rows, the conventions over the whole file).
func (x *result) readLayout(ctx context.Context, progress library.Progress) (*layout.Layout, error) {
	idx := make([]int, min(x.r.Len(), library.LayoutSample))
	for i := range idx {
		idx[i] = i
	}
	sample, err := x.r.ReadRows(idx)
	if err != nil {
		return nil, err
	}
	headers := x.r.Headers()
	opts := x.s.layoutOptions()
	cols := layout.Detect(headers, sample, opts).ProfileColumns()
	pr := layout.NewProfiler(len(headers), cols)
	if err := x.r.Index(ctx, progress, &library.RowSink{Columns: cols, Add: pr.Add}); err != nil {
		return nil, err
	}
	opts.Profile = pr.Profile()
	return layout.Detect(headers, sample, opts), nil
}

// Open are the questions open about the layouts the view rests on (the
// result's and its scrubs') that bear on callability.
func (x *result) Open() []layout.FileQuestions { x.mu.Lock(); defer x.mu.Unlock(); return x.open }

// QuickFilters are the quick filters the result's layout allows.
func (x *result) QuickFilters() []jobs.QuickFilter { return x.r.QuickFilters() }

// CannotFilter says why a quick filter cannot apply, nil when it can.
func (x *result) CannotFilter(f jobs.QuickFilter) error { return x.r.CannotFilter(f) }

// Person reads data row i through the layout (no phone filter). The result
// is its own view until it is queried: view row i is data row i.
func (x *result) Person(i int) layout.Row { return x.person(i, nil) }

// person reads row i of the current view, leaving out the phones that fail
// quick; an empty row until the layout is known.
func (x *result) person(i int, quick []jobs.QuickFilter) layout.Row {
	rec := x.r.Row(i)
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.rd == nil {
		return layout.Row{}
	}
	x.rd.Read(rec, &x.row)
	row := x.row
	row.People = append([]layout.Name(nil), row.People...)
	row.Emails = append([]string(nil), row.Emails...)
	row.Phones = append([]layout.Phone(nil), row.Phones...)
	layout.Keep(&row, quick)
	return row
}

// relayout reads the result again through its layout (with the person's
// answers for its header, over the whole file) and the flags of the scrubs
// of its phones: after a correction, or a change of the company's list.
func (x *result) relayout(ctx context.Context) error {
	if err := x.Index(ctx, nil); err != nil {
		return err
	}
	l, err := library.DetectLayoutContext(ctx, x.r.Path(), x.s.layoutOptions())
	if err != nil {
		return err
	}
	return x.apply(ctx, l)
}

// apply reads the result through layout l and the flags of the scrubs of
// its phones (each read with the person's answers for its own header).
func (x *result) apply(ctx context.Context, l *layout.Layout) error {
	opts := x.s.layoutOptions()
	scrubs := x.s.scrubsOf(x.r.Path())
	if l.Kind == layout.KindDNC {
		scrubs = nil
	}
	join, open, err := library.LoadFlags(ctx, opts, scrubs...)
	if err != nil {
		return fmt.Errorf("the DNC results of %s: %w", filepath.Base(x.r.Path()), err)
	}
	if qs := l.Blocking(); len(qs) > 0 {
		open = append([]layout.FileQuestions{{File: x.r.Path(), Questions: qs}}, open...)
	}
	// The company's own list, and the age of every answer.
	if err := x.s.checks(ctx, join, x.r.Path()); err != nil {
		return err
	}
	if l.Kind == layout.KindDNC {
		// A phone list scrubbed again: what changed since the scrub before.
		x.s.earlierAnswers(ctx, x.r, l, join)
	}
	if e, err := x.s.compliance().CallingRules(); err == nil {
		// Without the rules "callable-now" cannot apply, and says why.
		x.r.SetCalltime(calltime.NewPlaces(e))
	}
	x.r.SetLayout(l, join)
	x.mu.Lock()
	x.rd, x.scrub, x.open, x.quick = l.NewReader(join), scrubs, open, nil
	x.mu.Unlock()
	return nil
}

// resultView is the result's current view (filter and sort applied).
type resultView struct{ x *result }

func (v resultView) Len() int                 { return v.x.r.View() }
func (v resultView) Cell(row, col int) string { return v.x.r.Cell(row, col) }
func (v resultView) RowIndex(row int) int     { return v.x.r.RowIndex(row) }

// Person is view row i read through the layout; with the query's phone
// filters, the phones that fail them are left out.
func (v resultView) Person(i int) layout.Row {
	v.x.mu.Lock()
	quick := v.x.quick
	v.x.mu.Unlock()
	return v.x.person(i, quick)
}

// Query applies q to the result's view and returns it. The view is shared:
// the newest query wins, which is what the viewer shows. A quick filter
// the layout cannot apply is an error saying why: a view never pretends to
// be filtered.
func (x *result) Query(ctx context.Context, q Query) (View, error) {
	if err := x.Index(ctx, nil); err != nil {
		return nil, err
	}
	col := q.SortCol
	if col >= len(x.r.Headers()) {
		col = -1
	}
	at := q.At
	if at.IsZero() {
		at = time.Now().Truncate(time.Minute)
	}
	if err := x.r.Query(ctx, library.Filter{Text: q.Text, Quick: q.Quick, At: at}, col, q.Desc, nil); err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.quick = append([]jobs.QuickFilter(nil), q.Quick...)
	x.at = at
	x.mu.Unlock()
	return resultView{x}, nil
}

// CallingTime says when a phone of a row may be called (see Result).
func (x *result) CallingTime(row *layout.Row, p *layout.Phone, at time.Time) CallingTime {
	places := x.r.Places()
	if places == nil {
		return CallingTime{}
	}
	a := places.AnswerVendor(places.AreaID(p.Key), places.AddressID(calltime.RowAddresses(row)), places.VendorID(p.Vendor), at, at)
	return CallingTime{Now: a.Placed && a.Reason == "", Text: a.Words(at, p.Block == 0)}
}

// scrubsOf are the DNC results in the library made from the trace whose
// result is at path, newest first (none for other files).
func (s *core) scrubsOf(path string) []string {
	m, err := library.ReadRecord(library.RecordPath(path))
	if err != nil || m.JobID == "" || m.Kind == jobs.KindDNC {
		return nil
	}
	lib, err := s.library()
	if err != nil {
		return nil
	}
	entries, err := lib.List()
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries { // newest first
		if e.Meta.Kind == jobs.KindDNC && e.Meta.ParentTraceID == m.JobID {
			out = append(out, e.Path)
		}
	}
	return out
}

// ---- layout corrections ---------------------------------------------------

// layoutsFile keeps the person's layout corrections by header signature.
const layoutsFile = "layouts.json"

// layoutCorrection is the correction remembered for files with these
// headers, nil when none.
func (s *core) layoutCorrection(headers []string) *layout.Correction {
	return s.correctionFor(layout.Signature(headers))
}

// correctionFor is the correction remembered for a header signature, nil
// when none.
func (s *core) correctionFor(sig string) *layout.Correction {
	all, err := s.loadCorrections()
	if err != nil {
		return nil
	}
	return all[sig]
}

// layoutOptions are the options every reading of a result goes through:
// the person's answers, by header signature, wherever the file is read (the
// viewer, an export's DNC results, scrub-from-trace, the index, reuse).
func (s *core) layoutOptions() layout.Options {
	all, err := s.loadCorrections()
	if err != nil {
		all = nil
	}
	return layout.Options{Corrections: func(sig string) *layout.Correction { return all[sig] }}
}

func (s *core) loadCorrections() (map[string]*layout.Correction, error) {
	all, _, err := s.teamCorrections(context.Background())
	if all != nil || err != nil {
		return all, err
	}
	return s.fileCorrections()
}

// fileCorrections are the corrections kept in the data folder.
func (s *core) fileCorrections() (map[string]*layout.Correction, error) {
	b, err := os.ReadFile(filepath.Join(s.cfg.Home, layoutsFile))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]*layout.Correction{}, nil
	}
	if err != nil {
		return nil, err
	}
	all := map[string]*layout.Correction{}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("%s: %w", layoutsFile, err)
	}
	return all, nil
}

// CorrectLayout reads r through its layout detected with the person's
// correction c, and remembers c for every file with the same headers (the
// window's "Check the columns", as mapping presets are remembered).
func (s *ResultService) CorrectLayout(ctx context.Context, r Result, c *layout.Correction) error {
	x, ok := r.(*result)
	if !ok {
		return errors.New("workflow: not a result opened here")
	}
	s.layoutMu.Lock()
	defer s.layoutMu.Unlock()
	all, err := s.loadCorrections()
	if err != nil {
		all = map[string]*layout.Correction{} // a damaged file is replaced
	}
	sig := layout.Signature(x.r.Headers())
	c = mergeCorrection(all[sig], c)
	all[sig] = c
	if _, led, _ := s.teamCorrections(ctx); led != nil {
		// The team's: every computer reads the file the same way.
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := led.Saved().SaveLayout(ctx, sig, b); err != nil {
			return err
		}
		return x.relayout(ctx)
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := library.WriteFileAtomic(filepath.Join(s.cfg.Home, layoutsFile), b); err != nil {
		return err
	}
	if dir := filepath.Dir(x.r.Path()); filepath.Clean(dir) == filepath.Clean(s.cfg.ResultsDir()) {
		// The library's files of these headers are read anew.
		s.indexInBackground(dir)
	}
	return x.relayout(ctx)
}

// mergeCorrection is the correction old with the person's newer answers in
// c: a column or a value c speaks of takes c's answer, the others keep
// old's. A correction is made against the layout old already corrected, so
// what the person left alone stays as they last said.
func mergeCorrection(old, c *layout.Correction) *layout.Correction {
	if old == nil {
		return c
	}
	out := &layout.Correction{Signature: c.Signature, Columns: map[string]layout.ColumnFix{}, Values: map[string]map[string]layout.Flag{}}
	for _, from := range []*layout.Correction{old, c} {
		for h, f := range from.Columns {
			out.Columns[h] = f
		}
		for h, vals := range from.Values {
			m := out.Values[h]
			if m == nil {
				m = map[string]layout.Flag{}
				out.Values[h] = m
			}
			for v, f := range vals {
				m[v] = f
			}
		}
	}
	return out
}

// Recheck reads r again through its layout with the internal do-not-call
// list as it is now and the scrubs' age today (after the list changed, or
// a day later).
func (s *ResultService) Recheck(ctx context.Context, r Result) error {
	x, ok := r.(*result)
	if !ok {
		return errors.New("workflow: not a result opened here")
	}
	return x.relayout(ctx)
}

// ReadLayout says how SkipDesk reads the result at path (with the
// correction remembered for its headers): its people, phones and flag
// columns, and — from every row — how each flag value reads.
func (s *ResultService) ReadLayout(ctx context.Context, path string) (layout.Summary, error) {
	if !strings.EqualFold(filepath.Ext(path), ".csv") {
		// A workbook (or another text file) is read as a plain CSV copy.
		dir, err := os.MkdirTemp("", "skipdesk-layout-")
		if err != nil {
			return layout.Summary{}, err
		}
		defer os.RemoveAll(dir)
		tmp := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".csv")
		if _, _, err := copyAsCSV(ctx, path, "", tmp); err != nil {
			return layout.Summary{}, err
		}
		path = tmp
	}
	return library.ReadLayout(ctx, path, s.layoutOptions())
}
