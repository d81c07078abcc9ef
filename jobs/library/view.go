package library

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// Filter selects rows. Each word of Text must appear in some cell, both
// folded (case, accents, punctuation and spacing aside: "oneil" finds
// O'NEIL, "jose" JOSÉ); a Text made of a phone number's characters with at
// least 7 digits is a phone search: it finds the number in any format among
// the phones the layout reads, as the library's search does. The quick
// filters go through the result's layout (see Result.Layout and the layout
// package): MatchedOnly keeps the rows the trace matched; the phone filters
// keep a row when at least one of its phones passes all of them (the
// phones that fail are the viewer's to hide). A quick filter the layout
// cannot apply is an error saying why (see QuickFilters), so a view never
// pretends to be filtered.
type Filter struct {
	Text  string
	Quick []jobs.QuickFilter
	// At is the instant "callable-now" is read at (the view's "now").
	At time.Time
}

// IsZero reports whether the filter selects every row.
func (f Filter) IsZero() bool {
	return strings.TrimSpace(f.Text) == "" && len(f.Quick) == 0
}

// Equal reports whether two filters select the same rows.
func (f Filter) Equal(o Filter) bool {
	return f.Text == o.Text && slices.Equal(f.Quick, o.Quick) &&
		(!slices.Contains(f.Quick, jobs.QuickCallableNow) || f.At.Equal(o.At))
}

// Filter applies f to the view (keeping the sort).
func (r *Result) Filter(f Filter) error {
	return r.FilterContext(context.Background(), f, nil)
}

// FilterContext is Filter with cancellation, and progress in bytes while
// the file is first read into the column store (see Index).
func (r *Result) FilterContext(ctx context.Context, f Filter, progress Progress) error {
	col, desc := r.Sorted()
	return r.Query(ctx, f, col, desc, progress)
}

// CurrentFilter is the filter in effect.
func (r *Result) CurrentFilter() Filter {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.filter
}

// Sort orders the view by a column (-1: file order), keeping the filter.
// Blank values go last either way; a column whose non-blank values are
// all numbers sorts numerically, all dates by date, any other by its
// folded text. Ties keep file order, either way.
func (r *Result) Sort(col int, desc bool) error {
	return r.SortContext(context.Background(), col, desc, nil)
}

// SortContext is Sort with cancellation and progress (see FilterContext).
func (r *Result) SortContext(ctx context.Context, col int, desc bool, progress Progress) error {
	return r.Query(ctx, r.CurrentFilter(), col, desc, progress)
}

// Sorted tells the current sort column (-1 for none) and direction.
func (r *Result) Sorted() (col int, desc bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sortCol, r.desc
}

// Query sets the filter and the sort of the view at once. The same query
// again costs nothing; a filter text that narrows an earlier one looks
// only at that one's rows; a sort reversed is not sorted again; a sort of
// a filtered view sorts its rows alone. The column store is built first
// when it is not (progress in bytes); ctx cancels, and a cancelled query
// leaves the view as it was.
func (r *Result) Query(ctx context.Context, f Filter, col int, desc bool, progress Progress) error {
	if col >= len(r.headers) {
		return fmt.Errorf("library: sort: no column %d (%d columns)", col, len(r.headers))
	}
	col = max(col, -1)
	desc = desc && col >= 0
	r.mu.Lock()
	same := r.filter.Equal(f) && r.sortCol == col && r.desc == desc
	r.mu.Unlock()
	if same {
		return nil
	}
	if err := r.Index(ctx, progress); err != nil {
		return err
	}
	for {
		done, err := r.query(ctx, f, col, desc)
		if done || err != nil {
			return err
		}
		// The layout changed meanwhile: ask again through the new one.
	}
}

// query computes the view and sets it; false when the layout changed
// while it ran.
func (r *Result) query(ctx context.Context, f Filter, col int, desc bool) (bool, error) {
	r.mu.Lock()
	st, gen := r.st, r.lgen
	sameSel := r.filter.Equal(f)
	sel, selGen := r.sel, r.selGen
	r.mu.Unlock()
	if !sameSel {
		var err error
		if sel, err = r.selection(ctx, st, f, gen); err != nil {
			return false, err
		}
		selGen = -1 // a new selection
	}
	asc, full, err := r.ordered(ctx, st, sel, selGen, col)
	if err != nil {
		return false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if gen != r.lgen {
		return false, nil
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if !sameSel || !r.filter.Equal(f) {
		r.setSel(f, sel)
	}
	r.sortCol, r.desc = col, desc
	r.asc, r.ascCol, r.ascSel = asc, col, r.selGen
	if full {
		r.keepOrder(col, asc)
	}
	switch {
	case col >= 0:
		r.setView(asc.view(desc))
	default:
		r.setView(sel)
	}
	return true, nil
}

// setSel sets the filter and the rows it keeps.
func (r *Result) setSel(f Filter, sel []int32) {
	r.filter = Filter{Text: f.Text, Quick: slices.Clone(f.Quick)}
	r.sel = sel
	r.selGen++
	r.asc, r.ascCol = nil, -1
}

// setView sets the rows shown.
func (r *Result) setView(view []int32) {
	r.view = view
	r.gen++
	clear(r.cache)
}

// resetView shows every row with the sort kept when its order over
// every row is known, else in file order.
func (r *Result) resetView() {
	r.setSel(Filter{}, nil)
	if o := r.orders[r.sortCol]; o != nil && r.sortCol >= 0 {
		r.asc, r.ascCol, r.ascSel = o, r.sortCol, r.selGen
		r.setView(o.view(r.desc))
		return
	}
	r.sortCol, r.desc = -1, false
	r.setView(nil)
}

// keptOrders is how many columns' orders over every row are kept.
const keptOrders = 4

// keepOrder keeps the order of every row by col, forgetting the oldest.
func (r *Result) keepOrder(col int, o *colOrder) {
	delete(r.orders, col)
	r.orderUse = slices.DeleteFunc(r.orderUse, func(c int) bool { return c == col })
	if len(r.orderUse) >= keptOrders {
		delete(r.orders, r.orderUse[0])
		r.orderUse = r.orderUse[1:]
	}
	r.orders[col] = o
	r.orderUse = append(r.orderUse, col)
}

// ordered is sel (nil: every row) sorted by col ascending (nil when col
// is -1), and whether it is every row's order (to keep). selGen is sel's
// generation when sel is the current selection, -1 otherwise.
func (r *Result) ordered(ctx context.Context, st *store, sel []int32, selGen, col int) (*colOrder, bool, error) {
	if col < 0 {
		return nil, false, nil
	}
	r.mu.Lock()
	cur := r.asc
	curOK := cur != nil && selGen >= 0 && r.ascCol == col && r.ascSel == selGen
	full := r.orders[col]
	r.mu.Unlock()
	switch {
	case curOK:
		return cur, sel == nil, nil // the order is known: a reverse costs nothing
	case full != nil && sel == nil:
		return full, true, nil
	case full != nil:
		return full.restrict(bitsetOf(sel, st.rows()), len(sel)), false, nil
	}
	o, err := st.sortRows(ctx, sel, col)
	return o, sel == nil, err
}

// selection is the rows f keeps, in file order (nil: every row), read
// through the layout of generation gen.
func (r *Result) selection(ctx context.Context, st *store, f Filter, gen int) ([]int32, error) {
	var keep bitset
	if len(f.Quick) > 0 {
		if err := r.CannotFilter(f.Quick...); err != nil {
			return nil, fmt.Errorf("library: filter %s: %w", filepath.Base(r.path), err)
		}
		x, _, err := r.phoneIndex(ctx)
		if err != nil {
			return nil, err
		}
		if keep, err = x.setAt(filterBits(f.Quick), f.At); err != nil {
			return nil, fmt.Errorf("library: filter %s: %w", filepath.Base(r.path), err)
		}
	}
	rows, err := r.textRows(ctx, st, f.Text, gen)
	switch {
	case err != nil:
		return nil, err
	case keep == nil:
		return rows, nil
	case rows == nil:
		return keep.rows(), nil
	}
	return keep.keep(rows), nil
}

// textRows are the rows matching a filter's text, in file order; nil when
// the text has nothing to look for.
func (r *Result) textRows(ctx context.Context, st *store, text string, gen int) ([]int32, error) {
	q := newTextQuery(text)
	if q == nil {
		return nil, nil
	}
	r.mu.Lock()
	base, exact := r.found.find(q, gen)
	r.mu.Unlock()
	if exact {
		return base, nil
	}
	x := &searcher{s: st, q: q}
	if q.digits != "" && len(r.Layout().Slots) > 0 {
		var err error
		if x.phones, _, err = r.phoneIndex(ctx); err != nil {
			return nil, err
		}
	}
	got, err := x.search(ctx, base)
	if err != nil {
		return nil, err
	}
	if got == nil {
		got = []int32{}
	}
	r.mu.Lock()
	r.found.add(q, gen, got, st.rows())
	r.mu.Unlock()
	return got, nil
}
