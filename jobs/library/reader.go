package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Result gives paged, sorted and filtered access to a result file without
// holding its rows as strings. Opening reads where each row starts (8 bytes
// a row); rows are read back by seeking, and a cache of 512-row blocks
// makes Cell cheap for rows near each other, as a table widget asks for
// them. Filters and sorts run on a column store built once (Index): the
// rows folded in one buffer, typed sort keys, and, through the layout,
// each row's phones and quick filters (see store, phoneIndex). The view
// (filter and sort) is a list of rows, 4 bytes a row. Safe for concurrent
// use.
type Result struct {
	path    string
	f       *os.File
	size    int64
	headers []string
	// life ends with Close: the building of the store stops.
	life context.Context
	kill context.CancelFunc

	mu       sync.Mutex
	starts   []int64 // byte offset of each data row known: every row once complete
	complete bool    // starts holds every row
	tailOff  int64   // where the rows after the first page start (while not complete)
	tailLine int     // lines before tailOff

	st       *store        // the column store; nil until Index
	building chan struct{} // closed when the build under way ends; nil when none
	buildErr error         // a build's failure other than a cancellation

	phones         *phoneIndex   // the layout's reading of every row; nil until needed
	phonesBuilding chan struct{} // closed when the phone pass under way ends
	lgen           int           // bumped by SetLayout: phones belong to one layout

	filter Filter
	sel    []int32 // the rows the filter keeps, in file order; nil: every row
	selGen int     // bumped when sel changes
	found  answers // recent answers of filter texts

	sortCol  int
	desc     bool
	asc      *colOrder         // sel sorted by ascCol, ascending
	ascCol   int               // -1: asc is not known
	ascSel   int               // the selGen asc was made for
	orders   map[int]*colOrder // every row sorted, by column: the latest few
	orderUse []int             // the columns of orders, least recently sorted first
	view     []int32           // the rows shown, in order; nil: every row in file order

	gen     int // bumped on every view change; stamps cache blocks
	cache   map[int]*block
	tick    int
	lastErr error

	unclosed int // line of a quoted value never closed; 0 when none

	layout *layout.Layout    // nil until Layout or SetLayout
	join   *layout.FlagIndex // DNC results' flags of the phones, or nil
	// places answers the calling time of the phones ("callable-now"); nil
	// until SetCalltime.
	places *calltime.Places
}

// BlockRows is the number of rows read and cached together.
const BlockRows = 512

// FirstPage is how many rows StartResult reads before it returns.
const FirstPage = BlockRows

const cacheBlocks = 16

type block struct {
	rows [][]string
	used int
	gen  int
}

// Progress reports work done out of a total (bytes while reading the
// file).
type Progress func(done, total int64)

// OpenResult opens a result file and finds where each of its rows starts.
func OpenResult(path string) (*Result, error) {
	return OpenResultContext(context.Background(), path, nil)
}

// OpenResultContext opens a result file and finds where each of its rows
// starts, reporting progress in bytes; ctx cancels the reading. The column
// store is built when the first filter or sort needs it (or by Index).
func OpenResultContext(ctx context.Context, path string, progress Progress) (*Result, error) {
	return openResult(ctx, path, progress, -1)
}

// StartResult opens a result file and reads its header and first
// FirstPage rows: enough to show the first page at once. Index reads the
// rest (a filter or a sort calls it); until then Len counts the rows read.
func StartResult(ctx context.Context, path string) (*Result, error) {
	return openResult(ctx, path, nil, FirstPage)
}

func openResult(ctx context.Context, path string, progress Progress, limit int) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("library: open result: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("library: open result %s: %w", path, err)
	}
	r := &Result{path: path, f: f, size: info.Size(), sortCol: -1, ascCol: -1, cache: map[int]*block{}, orders: map[int]*colOrder{}}
	r.life, r.kill = context.WithCancel(context.Background())
	if err := r.readHead(ctx, progress, limit); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// readHead reads the header and up to limit rows (all when limit < 0).
func (r *Result) readHead(ctx context.Context, progress Progress, limit int) error {
	sc := newScanner(io.NewSectionReader(r.f, 0, r.size), 0)
	if limit < 0 {
		// Result rows run 100-300 bytes: start near the row count to avoid
		// regrowing a large slice (trimmed below when far too big).
		r.starts = make([]int64, 0, min(r.size/100+16, 1<<22))
	}
	if err := r.readHeader(sc); err != nil {
		return err
	}
	for n := 0; limit < 0 || len(r.starts) < limit; n++ {
		if n%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(sc.off, r.size)
			}
		}
		start, rec, err := sc.next()
		if err == io.EOF {
			r.complete = true
			break
		}
		if err != nil {
			return fmt.Errorf("library: read %s: line %d: %w", r.path, sc.line+1, err)
		}
		if blankRecord(rec) {
			continue
		}
		r.starts = append(r.starts, start)
	}
	r.tailOff, r.tailLine = sc.off, sc.line
	if r.complete {
		r.unclosed = sc.unclosed
		if cap(r.starts) > len(r.starts)+len(r.starts)/4+1024 {
			r.starts = slices.Clip(slices.Clone(r.starts))
		}
	}
	if progress != nil {
		progress(sc.off, r.size)
	}
	return nil
}

// readHeader reads the header (findHeader); the rows read past it are
// the first rows.
func (r *Result) readHeader(sc *scanner) error {
	headers, ahead, err := findHeader(sc)
	if errors.Is(err, errNoHeader) {
		return fmt.Errorf("library: %s: %w", r.path, errNoHeader)
	}
	if err != nil {
		return fmt.Errorf("library: read %s: line %d: %w", r.path, sc.line+1, err)
	}
	r.headers = headers
	for _, h := range ahead {
		r.starts = append(r.starts, h.start)
	}
	return nil
}

// expectRows guesses the number of rows from the rows read so far.
func (r *Result) expectRows() int {
	if r.complete || len(r.starts) == 0 {
		return len(r.starts)
	}
	per := float64(r.tailOff-r.starts[0]) / float64(len(r.starts))
	return len(r.starts) + int(float64(r.size-r.tailOff)/max(per, 1)*1.05)
}

// Index reads the whole file into the column store that filters and sorts
// run on (every row folded, typed sort keys and, when a layout is set,
// each row's phones and quick filters), on every core, in one pass,
// reporting progress in bytes. A second call waits for the first; once
// built, it returns at once. ctx (or Close) cancels it.
//
// A sink given (at most one; nil is none) is handed every row of the file
// in file order as the pass reads it: what a whole-file reading such as a
// layout's profile needs costs no pass of its own. When the store is built
// already, the rows are read again for the sink alone.
func (r *Result) Index(ctx context.Context, progress Progress, sinks ...*RowSink) error {
	var sink *RowSink
	if len(sinks) > 0 {
		sink = sinks[0]
	}
	for {
		r.mu.Lock()
		switch {
		case r.st != nil && sink == nil:
			r.mu.Unlock()
			return nil
		case r.st != nil:
			b := r.newBuilder(false)
			b.sink = sink
			r.mu.Unlock()
			ctx, stop := mergeCancel(ctx, r.life)
			defer stop()
			_, err := b.run(ctx, progress)
			return err
		case r.buildErr != nil:
			r.mu.Unlock()
			return r.buildErr
		case r.building != nil:
			ch := r.building
			r.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		ch := make(chan struct{})
		r.building = ch
		b := r.newBuilder(true)
		b.sink = sink
		gen, l, join := r.lgen, r.layout, r.join
		r.mu.Unlock()
		err := r.build(ctx, b, progress, gen, l, join)
		close(ch)
		return err
	}
}

// IndexLayout reads every row through the layout set (each row's phones
// and the quick filters they pass), as the first filter needing them
// would, reporting progress in bytes; at once when done already.
func (r *Result) IndexLayout(ctx context.Context, progress Progress) error {
	if err := r.Index(ctx, nil); err != nil {
		return err
	}
	_, _, err := r.phoneIndexProgress(ctx, progress)
	return err
}

// build makes the store (and the phone index for layout l of generation
// gen, when l is set) and keeps it.
func (r *Result) build(ctx context.Context, b *builder, progress Progress, gen int, l *layout.Layout, join *layout.FlagIndex) error {
	ctx, stop := mergeCancel(ctx, r.life)
	defer stop()
	if l != nil {
		b.reader = func() *layout.Reader { return l.NewReader(join) }
	}
	res, err := b.run(ctx, progress)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.building = nil
	if err != nil {
		if ctx.Err() == nil {
			r.buildErr = err
		}
		return err
	}
	r.st, r.starts, r.complete = res.st, res.starts, true
	if res.unclosed != 0 {
		r.unclosed = res.unclosed
	}
	r.gen++ // blocks cached were read with the first page's starts
	if res.phones != nil && gen == r.lgen {
		r.phones = res.phones
	}
	return nil
}

// newBuilder is a pass over the rows as they are known now (r.mu held);
// fold: build the column store.
func (r *Result) newBuilder(fold bool) *builder {
	b := &builder{r: r, known: r.starts, complete: r.complete, tailOff: r.tailOff, tailLine: r.tailLine, expect: r.expectRows(),
		places: r.places}
	if fold {
		b.fold, b.columns, b.hints = true, len(r.headers), newTypeHints(len(r.headers))
	}
	return b
}

// mergeCancel is ctx, cancelled too when also ends.
func mergeCancel(ctx, also context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(also, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// phoneIndex is the phone index of the current layout, read from the file
// in one pass when not built with the store.
func (r *Result) phoneIndex(ctx context.Context) (*phoneIndex, int, error) {
	return r.phoneIndexProgress(ctx, nil)
}

func (r *Result) phoneIndexProgress(ctx context.Context, progress Progress) (*phoneIndex, int, error) {
	r.Layout() // detected, when none is set
	for {
		r.mu.Lock()
		gen := r.lgen
		switch {
		case r.phones != nil:
			x := r.phones
			r.mu.Unlock()
			return x, gen, nil
		case r.phonesBuilding != nil:
			ch := r.phonesBuilding
			r.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, gen, ctx.Err()
			}
		}
		ch := make(chan struct{})
		r.phonesBuilding = ch
		b := r.newBuilder(false)
		l, join := r.layout, r.join
		r.mu.Unlock()
		x, err := r.readPhones(ctx, b, l, join, progress)
		r.mu.Lock()
		r.phonesBuilding = nil
		if err == nil && gen == r.lgen {
			r.phones = x
		}
		r.mu.Unlock()
		close(ch)
		if err != nil {
			return nil, gen, err
		}
		if gen == r.lgen {
			return x, gen, nil
		}
	}
}

// readPhones reads every row through layout l.
func (r *Result) readPhones(ctx context.Context, b *builder, l *layout.Layout, join *layout.FlagIndex, progress Progress) (*phoneIndex, error) {
	ctx, stop := mergeCancel(ctx, r.life)
	defer stop()
	b.reader = func() *layout.Reader { return l.NewReader(join) }
	res, err := b.run(ctx, progress)
	if err != nil {
		return nil, err
	}
	return res.phones, nil
}

// Warnings are the problems of the file that reading got around, for the
// user to see: a quoted value never closed (the rest of the file reads as
// one last row). Nil for a sound file; known once every row is read.
func (r *Result) Warnings() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return warnings(r.unclosed)
}

// Close releases the file and stops the building of the store.
func (r *Result) Close() error {
	r.kill()
	return r.f.Close()
}

// Path is the result file.
func (r *Result) Path() string { return r.path }

// Headers are the result's column names.
func (r *Result) Headers() []string { return slices.Clone(r.headers) }

// Len is the number of data rows in the file: those read so far until the
// result is indexed (see StartResult).
func (r *Result) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.starts)
}

// column returns the index of the named column (exact, then ignoring
// case), or -1.
func (r *Result) column(name string) int {
	if i := slices.Index(r.headers, name); i >= 0 {
		return i
	}
	for i, h := range r.headers {
		if strings.EqualFold(h, name) {
			return i
		}
	}
	return -1
}

// View is the number of rows in the current view (after the filter).
func (r *Result) View() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.viewLen()
}

func (r *Result) viewLen() int {
	if r.view != nil {
		return len(r.view)
	}
	return len(r.starts)
}

func (r *Result) physical(viewRow int) int {
	if r.view != nil {
		return int(r.view[viewRow])
	}
	return viewRow
}

// RowIndex maps a row of the view to its 0-based data row in the file.
func (r *Result) RowIndex(viewRow int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if viewRow < 0 || viewRow >= r.viewLen() {
		return -1
	}
	return r.physical(viewRow)
}

// Permutation returns the view as 0-based data rows of the file, in view
// order; nil when the view is the whole file in file order.
func (r *Result) Permutation() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.view == nil {
		return nil
	}
	out := make([]int, len(r.view))
	for i, v := range r.view {
		out[i] = int(v)
	}
	return out
}

// page returns up to n rows of the view starting at offset.
func (r *Result) page(offset, n int) ([][]string, error) {
	r.mu.Lock()
	if offset < 0 || n < 0 {
		r.mu.Unlock()
		return nil, fmt.Errorf("library: rows %d+%d: out of range", offset, n)
	}
	end := min(offset+n, r.viewLen())
	idx := make([]int, 0, max(end-offset, 0))
	for i := offset; i < end; i++ {
		idx = append(idx, r.physical(i))
	}
	starts, tail := r.starts, r.rowsEnd()
	r.mu.Unlock()
	return r.readRows(starts, tail, idx)
}

// ReadRows reads data rows of the file by their 0-based numbers, in the
// order given. Runs of consecutive rows are read with one read.
func (r *Result) ReadRows(idx []int) ([][]string, error) {
	r.mu.Lock()
	starts, tail := r.starts, r.rowsEnd()
	r.mu.Unlock()
	return r.readRows(starts, tail, idx)
}

// rowsEnd is where the last row known ends (r.mu held).
func (r *Result) rowsEnd() int64 {
	if r.complete {
		return r.size
	}
	return r.tailOff
}

// readRows reads rows idx of the rows starting at starts, the last of
// them ending at tail.
func (r *Result) readRows(starts []int64, tail int64, idx []int) ([][]string, error) {
	out := make([][]string, 0, len(idx))
	// end is where row i's bytes end (the next row's start: any blank
	// records between rows are read and ignored, parseRecord stops at the
	// first record).
	end := func(i int) int64 {
		if i+1 < len(starts) {
			return starts[i+1]
		}
		return tail
	}
	var buf []byte
	for k := 0; k < len(idx); {
		a := idx[k]
		if a < 0 || a >= len(starts) {
			return out, fmt.Errorf("library: %s: row %d out of range (%d rows)", r.path, a+1, len(starts))
		}
		b := a
		for k+1 < len(idx) && idx[k+1] == b+1 {
			k++
			b++
		}
		k++
		from, to := starts[a], end(b)
		if n := int(to - from); cap(buf) < n {
			buf = make([]byte, n)
		} else {
			buf = buf[:n]
		}
		if _, err := r.f.ReadAt(buf, from); err != nil && !(errors.Is(err, io.EOF) && to == r.size) {
			return out, fmt.Errorf("library: read %s: row %d: %w", r.path, a+1, err)
		}
		for i := a; i <= b; i++ {
			rec := buf[starts[i]-from : end(i)-from]
			row := parseRecord(rec, make([]string, 0, len(r.headers)))
			fixRecord(rec, row)
			out = append(out, row)
		}
	}
	return out, nil
}

// Cell returns a cell of the view from the block cache ("" outside the
// view or when the read failed: Err tells). Cheap for rows near each other.
func (r *Result) Cell(row, col int) string {
	rec := r.Row(row)
	if col < 0 || col >= len(rec) {
		return ""
	}
	return rec[col]
}

// Row returns a row of the view from the block cache; nil outside the view.
// The slice must not be modified.
func (r *Result) Row(row int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if row < 0 || row >= r.viewLen() {
		return nil
	}
	bi := row / BlockRows
	r.tick++
	b := r.cache[bi]
	if b == nil || b.gen != r.gen {
		first := bi * BlockRows
		last := min(first+BlockRows, r.viewLen())
		idx := make([]int, 0, last-first)
		for i := first; i < last; i++ {
			idx = append(idx, r.physical(i))
		}
		rows, err := r.readRows(r.starts, r.rowsEnd(), idx)
		if err != nil {
			r.lastErr = err
			return nil
		}
		if len(r.cache) >= cacheBlocks {
			oldest, oldTick := -1, math.MaxInt
			for k, c := range r.cache {
				if c.used < oldTick {
					oldest, oldTick = k, c.used
				}
			}
			delete(r.cache, oldest)
		}
		b = &block{rows: rows, gen: r.gen}
		r.cache[bi] = b
	}
	b.used = r.tick
	if i := row - bi*BlockRows; i < len(b.rows) {
		return b.rows[i]
	}
	return nil
}

// Err is the last read error met by Cell or Row.
func (r *Result) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastErr
}

// LayoutSample is how many rows Result.Layout and DetectLayout read, with
// the header, to find a result's layout.
const LayoutSample = 200

// Layout is the result's layout: the one set with SetLayout, else the one
// detected from the header and the first LayoutSample rows.
func (r *Result) Layout() *layout.Layout {
	r.mu.Lock()
	l := r.layout
	r.mu.Unlock()
	if l != nil {
		return l
	}
	idx := make([]int, min(r.Len(), LayoutSample))
	for i := range idx {
		idx[i] = i
	}
	sample, err := r.ReadRows(idx)
	if err != nil {
		sample = nil
	}
	l = layout.Detect(r.headers, sample, layout.Options{})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.layout == nil {
		r.layout = l
	}
	return r.layout
}

// SetLayout sets the layout the result is read through (one corrected by
// the person, or detected with the upload's header), and join, the flags
// of DNC results of its phones (nil for none). The filter is cleared; the
// phones and quick filters are read again through the new layout when a
// filter next needs them.
func (r *Result) SetLayout(l *layout.Layout, join *layout.FlagIndex) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.layout, r.join = l, join
	r.lgen++
	r.phones = nil
	r.found = answers{} // a phone search's answers read the old layout's phones
	r.resetView()
}

// SetCalltime gives the rules the phones' calling time is read by: each
// row's addresses are placed as its phones are read, and "callable-now"
// can apply.
func (r *Result) SetCalltime(p *calltime.Places) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.places = p
	r.lgen++
	r.phones = nil
	r.resetView()
}

// Places are the calling rules set with SetCalltime, or nil.
func (r *Result) Places() *calltime.Places {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.places
}

// Join is the DNC results' flags set with SetLayout, or nil.
func (r *Result) Join() *layout.FlagIndex {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.join
}

// QuickFilters are the quick filters this result's layout (and its joined
// DNC results) allow, in the order they are offered; CannotFilter says why
// another cannot apply.
func (r *Result) QuickFilters() []jobs.QuickFilter {
	var out []jobs.QuickFilter
	for _, f := range jobs.QuickFilters {
		if r.CannotFilter(f) == nil {
			out = append(out, f)
		}
	}
	return out
}

// CannotFilter says why quick filters cannot apply to this result; nil
// when they can.
func (r *Result) CannotFilter(fs ...jobs.QuickFilter) error {
	if err := r.Layout().Check(r.Join(), fs...); err != nil {
		return err
	}
	if slices.Contains(fs, jobs.QuickCallableNow) && r.Places() == nil {
		return &layout.CannotFilterError{Filter: jobs.QuickCallableNow, Why: "the calling rules are not loaded"}
	}
	return nil
}
