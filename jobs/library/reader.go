package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Result gives paged, sorted and filtered access to a result file without
// loading it: opening builds an index of where each row starts (8 bytes per
// row, one streaming pass), rows are read back by seeking, and the current
// view (sort and filter) is a permutation of row numbers (4 bytes per row).
// A cache of 512-row blocks makes Cell cheap for rows near each other, as a
// table widget asks for them. Safe for concurrent use.
type Result struct {
	path    string
	f       *os.File
	size    int64
	headers []string
	starts  []int64 // byte offset of each data row

	mu      sync.Mutex
	order   []int32  // sorted permutation of all rows; nil: file order
	keep    []uint64 // filter bitset over physical rows; nil: all rows
	view    []int32  // order filtered; nil: no filter (order or file order)
	sortCol int
	desc    bool
	filter  Filter
	gen     int // bumped on every view change; stamps cache blocks
	cache   map[int]*block
	tick    int
	lastErr error

	unclosed int // line of a quoted value never closed; 0 when none

	layout *layout.Layout    // nil until Layout or SetLayout
	join   *layout.FlagIndex // DNC results' flags of the phones, or nil
}

// BlockRows is the number of rows read and cached together.
const BlockRows = 512

const cacheBlocks = 16

type block struct {
	rows [][]string
	used int
	gen  int
}

// Progress reports work done out of a total (bytes while indexing, rows
// while sorting or filtering).
type Progress func(done, total int64)

// OpenResult opens a result file and indexes its rows.
func OpenResult(path string) (*Result, error) {
	return OpenResultContext(context.Background(), path, nil)
}

// OpenResultContext opens a result file and indexes its rows, reporting
// progress in bytes; ctx cancels the indexing.
func OpenResultContext(ctx context.Context, path string, progress Progress) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("library: open result: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("library: open result %s: %w", path, err)
	}
	r := &Result{path: path, f: f, size: info.Size(), sortCol: -1, cache: map[int]*block{}}
	if err := r.index(ctx, progress); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

func (r *Result) index(ctx context.Context, progress Progress) error {
	sc := newScanner(io.NewSectionReader(r.f, 0, r.size), 0)
	// Result rows run 100-300 bytes: start near the row count to avoid
	// regrowing a large slice (trimmed below when far too big).
	r.starts = make([]int64, 0, min(r.size/100+16, 1<<22))
	for n := 0; ; n++ {
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
			break
		}
		if err != nil {
			return fmt.Errorf("library: read %s: line %d: %w", r.path, sc.line+1, err)
		}
		if blankRecord(rec) {
			continue
		}
		if r.headers == nil {
			r.headers = headerRow(rec)
			continue
		}
		r.starts = append(r.starts, start)
	}
	if r.headers == nil {
		return fmt.Errorf("library: %s: %w", r.path, errNoHeader)
	}
	r.unclosed = sc.unclosed
	if cap(r.starts) > len(r.starts)+len(r.starts)/4+1024 {
		r.starts = slices.Clip(slices.Clone(r.starts))
	}
	if progress != nil {
		progress(r.size, r.size)
	}
	return nil
}

// Warnings are the problems of the file that reading got around, for the
// user to see: a quoted value never closed (the rest of the file reads as
// one last row). Nil for a sound file.
func (r *Result) Warnings() []string { return warnings(r.unclosed) }

// Close releases the file.
func (r *Result) Close() error { return r.f.Close() }

// Path is the result file.
func (r *Result) Path() string { return r.path }

// Headers are the result's column names.
func (r *Result) Headers() []string { return slices.Clone(r.headers) }

// Len is the number of data rows in the file.
func (r *Result) Len() int { return len(r.starts) }

// Column returns the index of the named column (exact, then ignoring
// case), or -1.
func (r *Result) Column(name string) int {
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
	switch {
	case r.view != nil:
		return len(r.view)
	case r.keep != nil:
		return 0
	}
	return len(r.starts)
}

func (r *Result) physical(viewRow int) int {
	switch {
	case r.view != nil:
		return int(r.view[viewRow])
	case r.order != nil:
		return int(r.order[viewRow])
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
	var src []int32
	switch {
	case r.view != nil:
		src = r.view
	case r.keep != nil:
		return []int{}
	case r.order != nil:
		src = r.order
	default:
		return nil
	}
	out := make([]int, len(src))
	for i, v := range src {
		out[i] = int(v)
	}
	return out
}

// Rows returns up to n rows of the view starting at offset.
func (r *Result) Rows(offset, n int) ([][]string, error) {
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
	r.mu.Unlock()
	return r.ReadRows(idx)
}

// ReadRows reads data rows of the file by their 0-based numbers, in the
// order given. Runs of consecutive rows are read with one read.
func (r *Result) ReadRows(idx []int) ([][]string, error) {
	out := make([][]string, 0, len(idx))
	var buf []byte
	for k := 0; k < len(idx); {
		a := idx[k]
		if a < 0 || a >= len(r.starts) {
			return out, fmt.Errorf("library: %s: row %d out of range (%d rows)", r.path, a+1, len(r.starts))
		}
		b := a
		for k+1 < len(idx) && idx[k+1] == b+1 {
			k++
			b++
		}
		k++
		from, to := r.starts[a], r.end(b)
		if n := int(to - from); cap(buf) < n {
			buf = make([]byte, n)
		} else {
			buf = buf[:n]
		}
		if _, err := r.f.ReadAt(buf, from); err != nil && !(errors.Is(err, io.EOF) && to == r.size) {
			return out, fmt.Errorf("library: read %s: row %d: %w", r.path, a+1, err)
		}
		for i := a; i <= b; i++ {
			rec := buf[r.starts[i]-from : r.end(i)-from]
			out = append(out, parseRecord(rec, make([]string, 0, len(r.headers))))
		}
	}
	return out, nil
}

// end is where row i's bytes end (the next row's start: any blank records
// between rows are read and ignored, parseRecord stops at the first record).
func (r *Result) end(i int) int64 {
	if i+1 < len(r.starts) {
		return r.starts[i+1]
	}
	return r.size
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
		rows, err := r.ReadRows(idx)
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

// scan reads every data row in file order.
func (r *Result) scan(ctx context.Context, progress Progress, fn func(i int, rec []string)) error {
	if len(r.starts) == 0 {
		return nil
	}
	sc := newScanner(io.NewSectionReader(r.f, r.starts[0], r.size-r.starts[0]), r.starts[0])
	var rec []string
	total := int64(len(r.starts))
	for i := 0; i < len(r.starts); {
		if i%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(int64(i), total)
			}
		}
		start, b, err := sc.next()
		if err != nil {
			if err == io.EOF {
				return fmt.Errorf("library: %s changed while reading (row %d)", r.path, i+1)
			}
			return fmt.Errorf("library: read %s: row %d: %w", r.path, i+1, err)
		}
		if start != r.starts[i] {
			if start < r.starts[i] {
				continue // a blank record
			}
			return fmt.Errorf("library: %s changed while reading (row %d)", r.path, i+1)
		}
		rec = parseRecord(b, rec)
		fn(i, rec)
		i++
	}
	if progress != nil {
		progress(total, total)
	}
	return nil
}

// Sort orders the view by a column (-1: file order). Blank values go last
// either way; a column whose non-blank values are all numbers sorts
// numerically, any other ignoring case. Ties keep file order. Memory: one
// copy of the column's values while sorting, 4 bytes a row after.
func (r *Result) Sort(col int, desc bool) error {
	return r.SortContext(context.Background(), col, desc, nil)
}

// SortContext is Sort with cancellation and progress (rows).
func (r *Result) SortContext(ctx context.Context, col int, desc bool, progress Progress) error {
	if col >= len(r.headers) {
		return fmt.Errorf("library: sort: no column %d (%d columns)", col, len(r.headers))
	}
	col = max(col, -1)
	r.mu.Lock()
	same := r.sortCol == col && (r.desc == desc || col < 0)
	r.mu.Unlock()
	if same {
		return nil // the order is over all rows: still right under any filter
	}
	var order []int32
	if col >= 0 {
		keys := make([]string, len(r.starts))
		err := r.scan(ctx, progress, func(i int, rec []string) {
			if col < len(rec) {
				// A copy: the field shares the record's string, which
				// would otherwise stay in memory for every row.
				keys[i] = strings.Clone(strings.TrimSpace(rec[col]))
			}
		})
		if err != nil {
			return err
		}
		order = sortOrder(keys, desc)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.order, r.sortCol, r.desc = order, col, desc
	r.rebuildView()
	return nil
}

// Sorted tells the current sort column (-1 for none) and direction.
func (r *Result) Sorted() (col int, desc bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sortCol, r.desc
}

func sortOrder(keys []string, desc bool) []int32 {
	order := make([]int32, len(keys))
	for i := range order {
		order[i] = int32(i)
	}
	nums := make([]float64, len(keys))
	numeric, any := true, false
	for i, k := range keys {
		if k == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(k, ",", ""), 64)
		if err != nil || math.IsNaN(v) {
			numeric = false
			break
		}
		nums[i], any = v, true
	}
	numeric = numeric && any
	if !numeric {
		// Compare without case: lower each key once, not per comparison.
		for i, k := range keys {
			keys[i] = strings.ToLower(k)
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		ka, kb := keys[a], keys[b]
		switch {
		case ka == "" && kb == "":
			return 0
		case ka == "":
			return 1
		case kb == "":
			return -1
		}
		var c int
		if numeric {
			c = cmpFloat(nums[a], nums[b])
		} else {
			c = strings.Compare(ka, kb)
		}
		if desc {
			c = -c
		}
		return c
	})
	return order
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Filter selects rows. Each word of Text must appear (ignoring case) in some
// column; a Text made of a phone number's characters with at least 7 digits
// finds the number in any format, as the library's search does. The quick
// filters go through the result's layout (see Result.Layout and the layout
// package): MatchedOnly keeps the rows the trace matched; the phone filters
// keep a row when at least one of its phones passes all of them (the
// phones that fail are the viewer's to hide). A quick filter the layout
// cannot apply is an error saying why (see QuickFilters), so a view never
// pretends to be filtered.
type Filter struct {
	Text  string
	Quick []jobs.QuickFilter
}

// IsZero reports whether the filter selects every row.
func (f Filter) IsZero() bool {
	return strings.TrimSpace(f.Text) == "" && len(f.Quick) == 0
}

// Equal reports whether two filters select the same rows.
func (f Filter) Equal(o Filter) bool { return f.Text == o.Text && slices.Equal(f.Quick, o.Quick) }

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
	idx := make([]int, min(len(r.starts), LayoutSample))
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
// of DNC results of its phones (nil for none). The filter is cleared.
func (r *Result) SetLayout(l *layout.Layout, join *layout.FlagIndex) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.layout, r.join = l, join
	r.keep, r.filter = nil, Filter{}
	r.rebuildView()
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
	l, join := r.Layout(), r.Join()
	var out []jobs.QuickFilter
	for _, f := range jobs.QuickFilters {
		if l.Check(join, f) == nil {
			out = append(out, f)
		}
	}
	return out
}

// CannotFilter says why quick filter f cannot apply to this result; nil
// when it can.
func (r *Result) CannotFilter(f jobs.QuickFilter) error { return r.Layout().Check(r.Join(), f) }

// Filter applies f to the view (keeping the sort).
func (r *Result) Filter(f Filter) error {
	return r.FilterContext(context.Background(), f, nil)
}

// FilterContext is Filter with cancellation and progress (rows).
func (r *Result) FilterContext(ctx context.Context, f Filter, progress Progress) error {
	r.mu.Lock()
	same := r.filter.Equal(f)
	r.mu.Unlock()
	if same {
		return nil
	}
	var keep []uint64
	if !f.IsZero() {
		quick := f.Quick
		var rd *layout.Reader
		if len(quick) > 0 {
			l, join := r.Layout(), r.Join()
			if err := l.Check(join, quick...); err != nil {
				return fmt.Errorf("library: filter %s: %w", filepath.Base(r.path), err)
			}
			rd = l.NewReader(join)
		}
		q := newQuery(f.Text)
		scratch := make([]byte, 0, 64)
		var row layout.Row
		keep = make([]uint64, (len(r.starts)+63)/64)
		err := r.scan(ctx, progress, func(i int, rec []string) {
			if rd != nil {
				rd.ReadPhones(rec, &row)
				if !layout.Keep(&row, quick) {
					return
				}
			}
			if q != nil && q.match(rec, scratch) < 0 {
				return
			}
			keep[i/64] |= 1 << (i % 64)
		})
		if err != nil {
			return err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keep, r.filter = keep, Filter{Text: f.Text, Quick: slices.Clone(f.Quick)}
	r.rebuildView()
	return nil
}

// CurrentFilter is the filter in effect.
func (r *Result) CurrentFilter() Filter {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.filter
}

func (r *Result) rebuildView() {
	r.gen++
	clear(r.cache)
	if r.keep == nil {
		r.view = nil
		return
	}
	view := make([]int32, 0, 1024)
	n := len(r.starts)
	for i := 0; i < n; i++ {
		p := int32(i)
		if r.order != nil {
			p = r.order[i]
		}
		if r.keep[p/64]&(1<<(p%64)) != 0 {
			view = append(view, p)
		}
	}
	r.view = slices.Clip(view)
}
