package ui

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/flow"
)

// quickFilters in display order, with their labels.
var quickFilters = wordList[jobs.QuickFilter]{
	{jobs.QuickMatched, "Matched"},
	{jobs.QuickMobile, "Mobile"},
	{jobs.QuickNotDNC, "Not DNC"},
	{jobs.QuickNotLitigator, "Not litigator"},
	{jobs.QuickCallable, "Callable"},
	{jobs.QuickCallableNow, "Callable now"},
}

// viewer is one opened result: a virtualised table over the result's
// current view — the people and their phones in words by default, the
// file's own columns one click away — a filter box, quick filters, sort by
// header tap, export, and "open with the system app". Fields are touched
// on the UI thread only.
type viewer struct {
	sh      *shell
	be      ResultsBackend
	exports *exports
	// closed closes the viewer's tab; addInternal asks to put numbers on
	// the company's do-not-call list (the Do not call tab's dialog).
	closed      func()
	addInternal func(numbers []string, source string, done func())
	res         workflow.Result
	name        string
	headers     []string

	view workflow.View
	q    workflow.Query
	gen  int
	stop context.CancelFunc

	// indexed: the whole file is read into the viewer's store (until then
	// the first page shows, and reading shows its progress); stopIndex
	// stops the reading; pendingRow is a row to show once it is read.
	indexed    bool
	stopIndex  context.CancelFunc
	reading    *widget.ProgressBar
	pendingRow int
	// layoutTools act on rows read through the layout: off until it is
	// known.
	layoutTools []*widget.Button

	// people: the table shows the people view (cols) rather than the
	// file's columns; rows caches the rows read through the layout.
	people bool
	cols   []peopleCol
	rows   map[int]layout.Row

	table   *widget.Table
	filter  *widget.Entry
	quick   map[jobs.QuickFilter]*widget.Check
	why     *widget.Label // why the quick filters that cannot apply cannot
	count   *widget.Label
	mode    *widget.RadioGroup
	unsure  *fyne.Container // the layout's open questions, with "Check the columns"
	warning *widget.Label   // damage found in the file, when any
	body    *fyne.Container // holds the table
	item    *container.TabItem

	// onQueried is called on the UI thread after each query result is
	// shown (tests wait on it); onIndexed once the whole file is read.
	onQueried func(err error)
	onIndexed func(err error)
	// fixing is the correction dialog while it is open.
	fixing *columnsDialog
	// selRow is the view's row selected (-1 none): "Do not call…" acts on it.
	selRow int
	// quitMinute stops the minute's ticker: the calling times and
	// "Callable now" read again each minute.
	quitMinute chan struct{}
}

// openViewer opens path in a new tab (off the UI thread while it loads).
func (a *App) openViewer(path, name string) { a.openViewerAt(path, name, 0) }

// openViewerAt opens path (or selects its tab) and shows its data row row
// (1-based; 0 the top), selected: where a search hit is.
func (a *App) openViewerAt(path, name string, row int) {
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	for item, v := range a.viewers {
		if v.res.Path() == path {
			a.tabs.Select(item)
			v.showRow(row)
			return
		}
	}
	// The tab shows as soon as the first page is read; the rest is read
	// in the tab, with its progress (index).
	a.withProgress("Opening "+name, func(ctx context.Context, progress func(int64, int64)) error {
		res, err := a.svc.Results.OpenResult(ctx, path, progress)
		if err != nil {
			return err
		}
		a.do(func() { a.showViewer(res, name).showRow(row) })
		return nil
	}, func(err error) {
		if err != nil {
			a.showError(err)
		}
	})
}

// showViewer adds the tab for an opened result (UI thread).
func (a *App) showViewer(res workflow.Result, name string) *viewer {
	v := newViewer(a.shell, a.svc.Results, a.exports, res, name)
	v.closed = func() { a.closeViewer(v.item) }
	v.addInternal = a.internal.askAdd
	v.item = container.NewTabItemWithIcon(name, theme.DocumentIcon(), v.content())
	if a.viewers == nil {
		a.viewers = map[*container.TabItem]*viewer{}
	}
	a.viewers[v.item] = v
	a.tabs.Append(v.item)
	a.tabs.Select(v.item)
	a.fire("viewer")
	v.index()
	return v
}

// index reads the whole result into the viewer's store off the UI thread,
// showing its progress; then the row count shows, and any row asked for.
func (v *viewer) index() {
	ctx, cancel := context.WithCancel(v.sh.ctx)
	v.stopIndex = cancel
	v.reading.SetValue(0)
	v.reading.Show()
	progress := v.sh.throttled(func(done, total int64) { v.reading.SetValue(float64(done) / float64(total)) })
	v.sh.spawn(func() {
		err := v.res.Index(ctx, progress)
		v.sh.do(func() {
			v.reading.Hide()
			if err != nil {
				if ctx.Err() == nil {
					v.sh.showError(err)
				}
			} else {
				v.indexed = true
				v.relayout() // the layout is known: the people and their phones
				v.showQuickFilters()
				for _, b := range v.layoutTools {
					b.Enable()
				}
				v.showCount()
				v.showWarnings()
				if row := v.pendingRow; row > 0 {
					v.pendingRow = 0
					v.showRow(row)
				}
			}
			if v.onIndexed != nil {
				v.onIndexed(err)
			}
			v.sh.fire("indexed")
		})
	})
}

// closeViewer closes the result shown in tab item.
func (a *App) closeViewer(item *container.TabItem) {
	if v, ok := a.viewers[item]; ok {
		v.close()
		delete(a.viewers, item)
	}
	a.tabs.Remove(item)
}

func newViewer(sh *shell, be ResultsBackend, ex *exports, res workflow.Result, name string) *viewer {
	v := &viewer{sh: sh, be: be, exports: ex, res: res, name: name, headers: res.Headers(), q: workflow.Query{SortCol: -1}}
	v.view = res
	v.filter = widget.NewEntry()
	v.filter.SetPlaceHolder("Filter: a phone in any format, a name, an address…")
	v.filter.OnChanged = v.onFilterChanged
	v.quick = map[jobs.QuickFilter]*widget.Check{}
	v.why = widget.NewLabel("")
	v.why.Importance = widget.LowImportance
	v.why.Wrapping = fyne.TextWrapWord
	v.count = widget.NewLabel("")
	v.reading = widget.NewProgressBar()
	v.reading.Hide()
	v.warning = widget.NewLabel("")
	v.warning.Importance = widget.WarningImportance
	v.warning.Wrapping = fyne.TextWrapWord
	v.warning.Hide()
	v.mode = widget.NewRadioGroup([]string{modePeople, modeColumns}, v.onMode)
	v.mode.Horizontal = true
	v.mode.Required = true
	v.unsure = container.NewVBox()
	v.body = container.NewStack()
	v.showPending()
	v.showCount()
	v.q.At = v.sh.now()
	v.everyMinute()
	return v
}

// now is the minute the viewer reads calling times at.
func (sh *shell) now() time.Time {
	now := time.Now
	if sh.opts.Now != nil {
		now = sh.opts.Now
	}
	return now().Truncate(time.Minute)
}

// everyMinute reads the calling times again each minute: the people
// view's "now", and the rows "Callable now" keeps.
func (v *viewer) everyMinute() {
	if v.sh.opts.MinuteEvery <= 0 {
		return
	}
	t := time.NewTicker(v.sh.opts.MinuteEvery)
	quit := make(chan struct{})
	v.quitMinute = quit
	go func() {
		defer t.Stop()
		for {
			select {
			case <-t.C:
				v.sh.do(v.onMinute)
			case <-quit:
				return
			}
		}
	}()
}

// onMinute shows the calling times of the new minute; a view filtered to
// the phones callable now is read again (UI thread).
func (v *viewer) onMinute() {
	at := v.sh.now()
	if at.Equal(v.q.At) {
		return
	}
	v.q.At = at
	if slices.Contains(v.q.Quick, jobs.QuickCallableNow) {
		v.query(func() {})
		return
	}
	clear(v.rows)
	v.table.Refresh()
}

// showPending shows the first rows' cells as the file writes them while
// the whole file is read: no row is read through a layout before the
// layout is known (its conventions are read over the whole file).
func (v *viewer) showPending() {
	v.cols, v.rows, v.people = nil, map[int]layout.Row{}, false
	v.buildTable()
	v.mode.SetSelected(modeColumns)
	v.mode.Disable()
}

// The viewer's two ways of showing a result.
const (
	modePeople  = "People and phones"
	modeColumns = "Columns as in the file"
)

// relayout builds the table for the result's (new) layout: the people view
// when the layout finds people or phones, else the file's columns.
func (v *viewer) relayout() {
	l := v.res.Layout()
	v.cols = peopleColumns(l)
	v.rows = map[int]layout.Row{}
	v.people = len(v.cols) > 0
	v.buildTable()
	if v.people {
		v.mode.Enable()
		v.mode.SetSelected(modePeople)
	} else {
		v.mode.SetSelected(modeColumns)
		v.mode.Disable()
	}
	v.showQuestions(l)
}

// buildTable makes the table for the current mode; the row selected in
// the table it replaces (a search hit's, the person's) is selected and
// shown in the new one.
func (v *viewer) buildTable() {
	sel := -1
	if v.table != nil {
		sel = v.selRow
	}
	defer func() {
		if sel >= 0 && sel < v.view.Len() {
			v.scrollTo(sel + 1)
		}
	}()
	v.table = widget.NewTableWithHeaders(v.length, v.createCell, v.updateCell)
	v.table.ShowHeaderColumn = true
	v.table.CreateHeader = func() fyne.CanvasObject { return newHeaderCell() }
	v.table.UpdateHeader = v.updateHeader
	v.selRow = -1
	v.table.OnSelected = func(id widget.TableCellID) { v.selRow = id.Row }
	if v.people {
		for i, c := range v.cols {
			v.table.SetColumnWidth(i, c.width)
		}
	} else {
		for i := range v.headers {
			v.table.SetColumnWidth(i, v.columnWidth(i))
		}
	}
	// The row numbers' column fits the largest number.
	v.table.SetColumnWidth(-1, float32(len(fmt.Sprint(v.res.Len())))*10+32)
	v.body.Objects = []fyne.CanvasObject{v.table}
	v.body.Refresh()
}

func (v *viewer) onMode(m string) {
	people := m == modePeople && len(v.cols) > 0
	if people == v.people || v.body == nil {
		return
	}
	v.people = people
	v.buildTable()
}

// showQuestions shows what SkipDesk is not sure of in the layout, with a
// way to say.
func (v *viewer) showQuestions(l *layout.Layout) {
	v.unsure.Objects = nil
	if !l.Sure() {
		msg := "SkipDesk is not sure how to read this file: " + l.Questions[0].Message
		if n := len(l.Questions); n > 1 {
			msg += fmt.Sprintf(" (and %d more)", n-1)
		}
		q := widget.NewLabel(msg)
		q.Wrapping = fyne.TextWrapWord
		q.Importance = widget.WarningImportance
		check := widget.NewButton("Check the columns…", v.onCheckColumns)
		check.Importance = widget.HighImportance
		v.unsure.Add(container.NewBorder(nil, nil, nil, check, q))
	}
	v.unsure.Refresh()
}

// columnWidth is a starting width for the file's column i that fits its
// header and the values of the first rows (up to a limit: a long value is
// clipped, not the column's every value); the person can drag it.
func (v *viewer) columnWidth(i int) float32 {
	const rows = 50
	size, bold := theme.TextSize(), fyne.TextStyle{Bold: true}
	w := fyne.MeasureText(v.headers[i], size, bold).Width + 24 // the sort arrow
	for r := 0; r < min(rows, v.res.Len()); r++ {
		w = max(w, fyne.MeasureText(v.res.Cell(r, i), size, fyne.TextStyle{}).Width)
	}
	return min(max(w+4*theme.InnerPadding(), 90), 340)
}

func (v *viewer) content() fyne.CanvasObject {
	quick := container.NewHBox()
	for _, qf := range quickFilters {
		c := widget.NewCheck(qf.words, func(bool) { v.onQuickChanged() })
		v.quick[qf.value] = c
		quick.Add(c)
	}
	v.showQuickFilters()
	tools := container.NewHBox(
		widget.NewButtonWithIcon("Export .xlsx", theme.DocumentSaveIcon(), func() { v.onExport(".xlsx") }),
		widget.NewButtonWithIcon("Export .csv", theme.DocumentSaveIcon(), func() { v.onExport(".csv") }),
		v.layoutTool(widget.NewButtonWithIcon("Columns…", theme.ListIcon(), v.onCheckColumns)),
		v.layoutTool(widget.NewButtonWithIcon("Do not call…", doNotCallIcon, v.onDoNotCall)),
		widget.NewButtonWithIcon("Open in app", theme.ComputerIcon(), v.onOpenExternal),
		widget.NewButtonWithIcon("Close", theme.CancelIcon(), func() { v.closed() }),
	)
	top := container.NewBorder(nil, nil, v.mode, container.NewHBox(v.reading, v.count), v.filter)
	// The quick filters and the tools share a row while it is wide enough.
	bar := flow.New(quick, tools)
	head := container.NewVBox(top, bar, v.why, v.unsure, v.warning)
	v.showWarnings()
	return container.NewBorder(head, nil, nil, nil, v.body)
}

// showWarnings says what is off in the file (a damaged file still opens).
func (v *viewer) showWarnings() {
	w := v.res.Warnings()
	if len(w) == 0 {
		v.warning.Hide()
		return
	}
	v.warning.SetText("This file is damaged: " + strings.Join(w, "; ") + ".")
	v.warning.Show()
}

// layoutTool is b, off until the layout is known.
func (v *viewer) layoutTool(b *widget.Button) *widget.Button {
	v.layoutTools = append(v.layoutTools, b)
	if !v.indexed {
		b.Disable()
	}
	return b
}

// showQuickFilters enables the quick filters the layout allows and says
// why the others cannot apply: a filter is never an empty view. They wait
// for the layout.
func (v *viewer) showQuickFilters() {
	if !v.indexed {
		for _, c := range v.quick {
			c.Disable()
		}
		v.why.Hide()
		return
	}
	// Filters that cannot apply for one reason share its reason
	// ("Callable, Callable now: the result has no DNC flags…"), the
	// reasons one line while they fit: the rows keep the room.
	var whys []string
	labels := map[string][]string{}
	for _, qf := range quickFilters {
		c := v.quick[qf.value]
		err := v.res.CannotFilter(qf.value)
		if err == nil {
			c.Enable()
			continue
		}
		c.SetChecked(false)
		c.Disable()
		why := err.Error()
		var ce *layout.CannotFilterError
		if errors.As(err, &ce) {
			why = ce.Why
		}
		if labels[why] == nil {
			whys = append(whys, why)
		}
		labels[why] = append(labels[why], qf.words)
	}
	lines := make([]string, len(whys))
	for i, why := range whys {
		lines[i] = strings.Join(labels[why], ", ") + ": " + why
	}
	v.why.SetText(strings.Join(lines, " · "))
	if len(whys) == 0 {
		v.why.Hide()
	} else {
		v.why.Show()
	}
}

// length is the table's size. Until the table has a height it reports no
// rows: Fyne's table lays out every row of a table it has not sized yet
// (one divider per row: 400,000 widgets for a large result).
func (v *viewer) length() (int, int) {
	cols := len(v.headers)
	if v.people {
		cols = len(v.cols)
	}
	if v.table.Size().Height <= 0 {
		return 0, cols
	}
	return v.view.Len(), cols
}

func (v *viewer) createCell() fyne.CanvasObject {
	if v.people {
		return newPeopleCell()
	}
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

// updateCell only indexes memory (the file's cells, or the rows read
// through the layout, cached) and sets the text: it runs for every visible
// cell on every scroll.
func (v *viewer) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	if !v.people {
		o.(*widget.Label).SetText(v.view.Cell(id.Row, id.Col))
		return
	}
	row, ok := v.rows[id.Row]
	if !ok {
		if len(v.rows) > 512 {
			clear(v.rows)
		}
		row = v.view.Person(id.Row)
		// A number the file lists twice is shown once.
		row.Phones = row.DistinctPhones()
		v.rows[id.Row] = row
	}
	col := v.cols[id.Col]
	if col.Kind == workflow.PeopleWindow {
		col.showTime(o.(*peopleCell), &row, func(p *layout.Phone) workflow.CallingTime { return v.res.CallingTime(&row, p, v.q.At) })
		return
	}
	col.show(o.(*peopleCell), &row)
}

func (v *viewer) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*headerCell)
	switch {
	case id.Row < 0 && id.Col >= 0:
		text, sortCol := "", -1
		if v.people && id.Col < len(v.cols) {
			text, sortCol = v.cols[id.Col].title, v.cols[id.Col].sortCol
		} else if !v.people && id.Col < len(v.headers) {
			text, sortCol = v.headers[id.Col], id.Col
		}
		if sortCol >= 0 && v.q.SortCol == sortCol {
			if v.q.Desc {
				text += " (Z-A)"
			} else {
				text += " (A-Z)"
			}
		}
		b.SetText(text)
		b.OnTapped = nil
		if sortCol >= 0 {
			b.OnTapped = func() { v.onHeaderTapped(sortCol) }
		}
	case id.Col < 0 && id.Row >= 0:
		// The row's number in the file: it stays with its row when sorted.
		b.SetText(fmt.Sprint(v.view.RowIndex(id.Row) + 1))
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

// onFilterChanged filters at each key: the query before is cancelled, and
// a query that narrows the one before looks only at its rows.
func (v *viewer) onFilterChanged(string) { v.runQuery() }

func (v *viewer) onQuickChanged() { v.runQuery() }

// runQuery starts the current query off the UI thread, cancelling the one
// before; only the newest result is shown.
func (v *viewer) runQuery() {
	v.q.At = v.sh.now()
	v.q.Text = strings.TrimSpace(v.filter.Text)
	v.q.Quick = v.q.Quick[:0:0]
	for _, qf := range quickFilters {
		if c, ok := v.quick[qf.value]; ok && c.Checked {
			v.q.Quick = append(v.q.Quick, qf.value)
		}
	}
	v.query(v.table.ScrollToTop)
}

// query runs v.q off the UI thread, cancelling the query before; only the
// newest result is shown, and then is called after it (UI thread).
func (v *viewer) query(then func()) {
	if v.stop != nil {
		v.stop()
	}
	ctx, cancel := context.WithCancel(v.sh.ctx)
	v.stop = cancel
	v.gen++
	gen, q := v.gen, v.q
	if !v.indexed {
		v.count.SetText("Filtering…") // waits for the file to be read
	}
	v.sh.spawn(func() {
		view, err := v.res.Query(ctx, q)
		v.sh.do(func() {
			if gen != v.gen {
				return // a newer query is running
			}
			if err == nil {
				v.view = view
				clear(v.rows) // the people view's rows of the old view
				v.table.Refresh()
				then()
			} else if ctx.Err() == nil {
				v.sh.showError(err)
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
	switch {
	case !v.indexed:
		v.count.SetText("Reading the file…")
	case n == total:
		v.count.SetText(jobs.Thousands(int64(total)) + " rows")
	case slices.Contains(v.q.Quick, jobs.QuickCallableNow):
		// The instant matters: an empty view says it is a matter of time.
		v.count.SetText(jobs.Thousands(int64(n)) + " of " + jobs.Thousands(int64(total)) + " rows callable now")
	default:
		v.count.SetText(jobs.Thousands(int64(n)) + " of " + jobs.Thousands(int64(total)) + " rows")
	}
}

// onExport writes the rows shown (filtered and sorted) to the output
// folder. With "Callable" on, it is a callable list: the person's
// choices first, and its proof beside it.
func (v *viewer) onExport(ext string) {
	if slices.ContainsFunc(v.q.Quick, jobs.QuickFilter.Callable) {
		now := slices.Contains(v.q.Quick, jobs.QuickCallableNow)
		v.exports.askCallableChoices(v.name, now, func(ch workflow.CallableChoices) { v.export(ext, &ch) })
		return
	}
	v.export(ext, nil)
}

func (v *viewer) export(ext string, choices *workflow.CallableChoices) {
	what := ""
	switch {
	case choices != nil:
		what = "callable"
	case v.view.Len() != v.res.Len():
		what = "filtered"
	}
	v.exports.askSavePath(workflow.ExportName(v.name, what, ext), func(dest string) { v.exportTo(ext, choices, dest) })
}

// exportTo writes the rows shown to dest.
func (v *viewer) exportTo(ext string, choices *workflow.CallableChoices, dest string) {
	view := v.view
	people := v.people
	withProgressOf(v.sh, "Exporting "+jobs.Thousands(int64(view.Len()))+" rows", func(ctx context.Context, progress func(int64, int64)) (*workflow.ExportReport, error) {
		return v.write(ctx, people, view, dest, choices, progress)
	}, func(rep *workflow.ExportReport, err error) {
		v.exports.ended(dest, rep, err, choices, v.onCheckColumns, nil,
			func(c workflow.CallableChoices) { v.exportTo(ext, &c, dest) })
	})
}

// write exports view to dest: in words when the people view shows (a
// callable list in the people view's words, with its proof), else the
// file's own columns.
func (v *viewer) write(ctx context.Context, people bool, view workflow.View, dest string, choices *workflow.CallableChoices,
	progress func(int64, int64)) (*workflow.ExportReport, error) {
	switch {
	case people && choices != nil:
		c := *choices
		if c.Preset == "" {
			c.Preset = workflow.PeoplePreset
		}
		return v.be.ExportView(ctx, v.res, view, dest, &c, progress)
	case people:
		return v.be.ExportPeople(ctx, v.res, view, dest, progress)
	}
	return v.be.ExportView(ctx, v.res, view, dest, choices, progress)
}

// onOpenExternal opens the result file with the system's app for CSV files.
func (v *viewer) onOpenExternal() {
	v.sh.openFile(v.res.Path())
}

func (v *viewer) close() {
	if v.quitMinute != nil {
		close(v.quitMinute)
		v.quitMinute = nil
	}
	if v.stop != nil {
		v.stop()
	}
	if v.stopIndex != nil {
		v.stopIndex()
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

// viewerRows is the row count of the selected viewer tab, -1 when the
// selected tab is not a viewer or its file is still being read (UI
// thread).
func (a *App) viewerRows() int {
	if a.tabs == nil {
		return -1
	}
	if v, ok := a.viewers[a.tabs.Selected()]; ok && v.indexed {
		return v.view.Len()
	}
	return -1
}
