package ui

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/flow"
)

// quickFilters in display order.
var quickFilters = []struct {
	f     jobs.QuickFilter
	label string
}{
	{jobs.QuickMatched, "Matched only"},
	{jobs.QuickMobile, "Mobile only"},
	{jobs.QuickNotDNC, "Not DNC"},
	{jobs.QuickNotLitigator, "Not litigator"},
}

// viewer is one opened result: a virtualised table over the result's current
// view, a filter box, quick filters, sort by header tap, export, and "open
// with the system app". Fields are touched on the UI thread only.
type viewer struct {
	app     *App
	res     workflow.Result
	name    string
	headers []string

	view workflow.View
	q    workflow.Query
	gen  int
	stop context.CancelFunc

	table    *widget.Table
	filter   *widget.Entry
	quick    map[jobs.QuickFilter]*widget.Check
	count    *widget.Label
	warning  *widget.Label // damage found in the file, when any
	item     *container.TabItem
	debounce *time.Timer

	// onQueried is called on the UI thread after each query result is
	// shown (tests wait on it).
	onQueried func(err error)
}

// openViewer opens path in a new tab (off the UI thread while it loads).
func (a *App) openViewer(path, name string) {
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	for item, v := range a.viewers {
		if v.res.Path() == path {
			a.tabs.Select(item)
			return
		}
	}
	a.withProgress("Opening "+name, func(ctx context.Context, progress func(int64, int64)) error {
		res, err := a.be.OpenResult(ctx, path, progress)
		if err != nil {
			return err
		}
		a.do(func() { a.showViewer(res, name) })
		return nil
	}, func(err error) {
		if err != nil {
			a.showError(err)
		}
	})
}

// showViewer adds the tab for an opened result (UI thread).
func (a *App) showViewer(res workflow.Result, name string) *viewer {
	v := newViewer(a, res, name)
	v.item = container.NewTabItemWithIcon(name, theme.DocumentIcon(), v.content())
	if a.viewers == nil {
		a.viewers = map[*container.TabItem]*viewer{}
	}
	a.viewers[v.item] = v
	a.tabs.Append(v.item)
	a.tabs.Select(v.item)
	return v
}

func newViewer(a *App, res workflow.Result, name string) *viewer {
	v := &viewer{app: a, res: res, name: name, headers: res.Headers(), q: workflow.Query{SortCol: -1}}
	v.view = res
	v.table = widget.NewTableWithHeaders(v.length, v.createCell, v.updateCell)
	v.table.ShowHeaderColumn = true
	v.table.CreateHeader = func() fyne.CanvasObject { return newHeaderCell() }
	v.table.UpdateHeader = v.updateHeader
	for i, h := range v.headers {
		v.table.SetColumnWidth(i, columnWidth(h))
	}
	// The row numbers' column fits the largest number.
	v.table.SetColumnWidth(-1, float32(len(fmt.Sprint(res.Len())))*10+32)
	v.filter = widget.NewEntry()
	v.filter.SetPlaceHolder("Filter: any text in any column (phone, name, address…)")
	v.filter.OnChanged = v.onFilterChanged
	v.quick = map[jobs.QuickFilter]*widget.Check{}
	v.count = widget.NewLabel("")
	v.showCount()
	return v
}

// columnWidth is a starting width from the header; the user can drag it.
func columnWidth(h string) float32 {
	w := float32(len(h))*8 + 40
	return min(max(w, 90), 260)
}

func (v *viewer) content() fyne.CanvasObject {
	quick := container.NewHBox()
	allowed := v.res.QuickFilters()
	for _, qf := range quickFilters {
		if !slices.Contains(allowed, qf.f) {
			continue // shown only where the columns exist
		}
		c := widget.NewCheck(qf.label, func(bool) { v.onQuickChanged() })
		v.quick[qf.f] = c
		quick.Add(c)
	}
	tools := container.NewHBox(
		widget.NewButtonWithIcon("Export .xlsx", theme.DocumentSaveIcon(), func() { v.onExport(".xlsx") }),
		widget.NewButtonWithIcon("Export .csv", theme.DocumentSaveIcon(), func() { v.onExport(".csv") }),
		widget.NewButtonWithIcon("Open with system app", theme.ComputerIcon(), v.onOpenExternal),
	)
	top := container.NewBorder(nil, nil, nil, v.count, v.filter)
	// The quick filters and the tools share a row while it is wide enough.
	bar := flow.New(quick, tools)
	head := container.NewVBox(top, bar)
	if w := v.res.Warnings(); len(w) > 0 {
		// A damaged file still opens; the user is told what is off.
		msg := widget.NewLabel("This file is damaged: " + strings.Join(w, "; ") + ".")
		msg.Importance = widget.WarningImportance
		msg.Wrapping = fyne.TextWrapWord
		v.warning = msg
		head.Add(msg)
	}
	return container.NewBorder(head, nil, nil, nil, v.table)
}

// length is the table's size. Until the table has a height it reports no
// rows: Fyne's table lays out every row of a table it has not sized yet
// (one divider per row: 400,000 widgets for a large result).
func (v *viewer) length() (int, int) {
	if v.table.Size().Height <= 0 {
		return 0, len(v.headers)
	}
	return v.view.Len(), len(v.headers)
}

func (v *viewer) createCell() fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

// updateCell only indexes the view and sets the text: it runs for every
// visible cell on every scroll.
func (v *viewer) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	o.(*widget.Label).SetText(v.view.Cell(id.Row, id.Col))
}

func (v *viewer) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*headerCell)
	switch {
	case id.Row < 0 && id.Col >= 0 && id.Col < len(v.headers):
		text := v.headers[id.Col]
		if v.q.SortCol == id.Col {
			if v.q.Desc {
				text += " ▼"
			} else {
				text += " ▲"
			}
		}
		b.SetText(text)
		col := id.Col
		b.OnTapped = func() { v.onHeaderTapped(col) }
	case id.Col < 0 && id.Row >= 0:
		b.SetText(fmt.Sprint(id.Row + 1))
		b.OnTapped = nil
	default:
		b.SetText("")
		b.OnTapped = nil
	}
}

// onHeaderTapped sorts by the column: ascending, then descending, then the
// file's order.
func (v *viewer) onHeaderTapped(col int) {
	switch {
	case v.q.SortCol != col:
		v.q.SortCol, v.q.Desc = col, false
	case !v.q.Desc:
		v.q.Desc = true
	default:
		v.q.SortCol, v.q.Desc = -1, false
	}
	v.runQuery()
}

func (v *viewer) onFilterChanged(string) {
	if v.debounce != nil {
		v.debounce.Stop()
	}
	v.debounce = time.AfterFunc(v.app.opts.FilterDelay, func() { v.app.do(v.runQuery) })
}

func (v *viewer) onQuickChanged() { v.runQuery() }

// runQuery starts the current query off the UI thread, cancelling the one
// before; only the newest result is shown.
func (v *viewer) runQuery() {
	v.q.Text = strings.TrimSpace(v.filter.Text)
	v.q.Quick = v.q.Quick[:0:0]
	for _, qf := range quickFilters {
		if c, ok := v.quick[qf.f]; ok && c.Checked {
			v.q.Quick = append(v.q.Quick, qf.f)
		}
	}
	if v.stop != nil {
		v.stop()
	}
	ctx, cancel := context.WithCancel(v.app.ctx)
	v.stop = cancel
	v.gen++
	gen, q := v.gen, v.q
	v.count.SetText("Filtering…")
	v.app.spawn(func() {
		view, err := v.res.Query(ctx, q)
		v.app.do(func() {
			if gen != v.gen {
				return // a newer query is running
			}
			if err == nil {
				v.view = view
				v.table.Refresh()
				v.table.ScrollToTop()
			} else if ctx.Err() == nil {
				v.app.showError(err)
			}
			v.showCount()
			if v.onQueried != nil {
				v.onQueried(err)
			}
		})
	})
}

func (v *viewer) showCount() {
	n, total := v.view.Len(), v.res.Len()
	if n == total {
		v.count.SetText(jobs.Thousands(int64(total)) + " rows")
	} else {
		v.count.SetText(jobs.Thousands(int64(n)) + " of " + jobs.Thousands(int64(total)) + " rows")
	}
}

// onExport writes the rows shown (filtered and sorted) to the output folder.
func (v *viewer) onExport(ext string) {
	a := v.app
	name := v.name
	if v.view.Len() != v.res.Len() {
		name += " filtered"
	}
	dest := filepath.Join(a.outputDir(), name+ext)
	view := v.view
	a.withProgress("Exporting "+jobs.Thousands(int64(view.Len()))+" rows", func(ctx context.Context, progress func(int64, int64)) error {
		return a.be.ExportView(ctx, v.res, view, dest, progress)
	}, func(err error) {
		if err != nil {
			a.showError(err)
			return
		}
		a.showSaved(dest)
	})
}

// onOpenExternal opens the result file with the system's app for CSV files.
func (v *viewer) onOpenExternal() {
	u := &url.URL{Scheme: "file", Path: filepath.ToSlash(v.res.Path())}
	if err := v.app.fyne.OpenURL(u); err != nil {
		v.app.showError(err)
	}
}

func (v *viewer) close() {
	if v.stop != nil {
		v.stop()
	}
	if v.debounce != nil {
		v.debounce.Stop()
	}
	go v.res.Close()
}

// headerCell is a column header of the viewer: its name, cut with an
// ellipsis to the column's width (a button's text would run over the next
// header), and a tap to sort.
type headerCell struct {
	widget.Label
	OnTapped func()
}

func newHeaderCell() *headerCell {
	h := &headerCell{}
	h.TextStyle = fyne.TextStyle{Bold: true}
	h.Truncation = fyne.TextTruncateEllipsis
	h.ExtendBaseWidget(h)
	return h
}

// Tapped implements fyne.Tappable.
func (h *headerCell) Tapped(*fyne.PointEvent) {
	if h.OnTapped != nil {
		h.OnTapped()
	}
}

// Cursor shows a hand over a header that sorts.
func (h *headerCell) Cursor() desktop.Cursor {
	if h.OnTapped != nil {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}
