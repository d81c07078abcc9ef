package wizard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// Trace is an open trace wizard.
type Trace struct {
	win    fyne.Window
	be     Backend
	onDone func(jobID string)

	ctx    context.Context
	cancel context.CancelFunc
	dlg    *dialog.CustomDialog
	stage

	path    string
	opts    input.Options
	ins     *input.Inspection
	board   *board
	pricing *client.Pricing
	account *client.Account
	rateErr error
	preset  string // preset applied automatically, if any

	mode        jobs.Mode
	includeLLCs bool
	dropDups    bool

	// widgets of the loaded wizard
	tabs       *container.AppTabs
	fileLine   *widget.Label
	warnings   *widget.Label
	modeRadio  *widget.RadioGroup
	modeHelp   *widget.Label
	llcCheck   *widget.Check
	llcHelp    *widget.Label
	dupCheck   *widget.Check
	costGrid   *fyne.Container
	costLines  []*widget.Label
	costTotal  *widget.Label
	costAfter  *widget.Label
	costWarn   *widget.Label
	summary    *widget.Label
	status     *widget.Label
	submitBtn  *widget.Button
	presetSel  *widget.Select
	presetName *widget.Entry
	presetNote *widget.Label
	previews   []*widget.Table
	optionsBox *fyne.Container

	// re-inspection when the name or key columns change (entity and
	// duplicate counts depend on them)
	reinspect     context.CancelFunc
	reinspectWait *time.Timer
	previewWait   *time.Timer
	counting      bool

	bg sync.WaitGroup // background work in flight (tests wait on it)
}

// Mode explanations, one line each.
const (
	helpNormal   = "Normal: searches by owner name and address. first_name and last_name must be mapped."
	helpEnhanced = "Enhanced: a deeper, address-only search. Names are ignored; each row costs the enhanced rate."
)

// NewTrace opens the trace wizard over win. With path "" it first asks for a
// file; otherwise it reads path at once (a file dropped on the window).
// onDone receives the new job's id after a successful submission, when the
// wizard has closed.
func NewTrace(win fyne.Window, b Backend, path string, onDone func(jobID string)) *Trace {
	t := newTrace(win, b, onDone)
	lastTrace = t
	if path != "" {
		t.show()
		t.open(path)
		return t
	}
	t.pickFile(func(p string) {
		t.show()
		t.open(p)
	})
	return t
}

func newTrace(win fyne.Window, b Backend, onDone func(string)) *Trace {
	t := &Trace{win: win, be: b, onDone: onDone, mode: jobs.ModeNormal}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	t.stage = newStage()
	return t
}

// show puts the wizard in a dialog that fills most of the window.
func (t *Trace) show() {
	t.dlg = dialog.NewCustomWithoutButtons("New skip trace", t.root, t.win)
	t.dlg.SetOnClosed(t.cancel)
	// Most of the window, and no more: a dialog larger than the window
	// makes the window grow past the screen.
	sz := t.win.Canvas().Size()
	t.dlg.Resize(fyne.NewSize(sz.Width*0.96, sz.Height*0.96))
	t.dlg.Show()
}

// goBG runs f off the UI thread; f comes back to it through do.
func (t *Trace) goBG(f func()) {
	t.bg.Add(1)
	go func() {
		defer t.bg.Done()
		f()
	}()
}

func (t *Trace) close() {
	t.cancel()
	if t.dlg != nil {
		t.dlg.Hide()
	}
}

func (t *Trace) pickFile(then func(path string)) { pickFile(t.win, then) }

// pickFile shows the open dialog for CSV and XLSX files over win.
func pickFile(win fyne.Window, then func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, win)
			return
		}
		if r == nil {
			return
		}
		p := r.URI().Path()
		r.Close()
		then(p)
	}, win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".txt", ".xlsx"}))
	d.Resize(win.Canvas().Size())
	d.Show()
}

// open reads path in the background and fetches rates at the same time.
func (t *Trace) open(path string) {
	t.path = path
	t.opts = input.Options{}
	t.showLoading(fmt.Sprintf("Reading %s…", filepath.Base(path)), t.close)
	ctx := t.ctx
	t.goBG(func() {
		ins, err := t.be.Inspect(ctx, path, t.opts)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				t.showError(err)
			} else {
				t.loaded(ins)
			}
		})
	})
	if t.pricing == nil {
		t.fetchRates()
	}
}

// fetchRates reads GET /pricing and GET /account off the UI thread.
func (t *Trace) fetchRates() {
	ctx := t.ctx
	t.goBG(func() {
		p, perr := t.be.Pricing(ctx)
		a, aerr := t.be.Account(ctx)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			t.pricing, t.rateErr = p, perr
			if aerr == nil {
				t.account = a
			} else if perr == nil {
				t.rateErr = fmt.Errorf("account: %w", aerr)
			}
			if t.board != nil {
				t.updateCost()
			}
		})
	})
}

func (t *Trace) showError(err error) {
	msg := widget.NewLabel("This file cannot be traced:\n" + err.Error())
	msg.Wrapping = fyne.TextWrapWord
	msg.Importance = widget.DangerImportance
	other := widget.NewButton("Choose another file…", func() { t.pickFile(t.open) })
	other.Importance = widget.HighImportance
	cancel := widget.NewButton("Close", t.close)
	t.setRoot(container.NewBorder(nil, container.NewHBox(other, cancel), nil, nil, msg))
}

// loaded builds the wizard for an inspected file.
func (t *Trace) loaded(ins *input.Inspection) {
	t.ins = ins
	stats := statsOf(ins)
	t.board = newBoard(ins.Headers, ins.Sample, stats, t.mode)
	t.board.onChange = t.mappingChanged

	t.fileLine = widget.NewLabel("")
	t.fileLine.Wrapping = fyne.TextWrapWord
	t.warnings = widget.NewLabel("")
	t.warnings.Wrapping = fyne.TextWrapWord
	t.warnings.Importance = widget.WarningImportance
	t.describeFile()

	t.modeRadio = widget.NewRadioGroup([]string{"Normal", "Enhanced"}, t.modeChanged)
	t.modeRadio.Horizontal = true
	t.modeRadio.Required = true
	t.modeHelp = widget.NewLabel(helpNormal)
	t.modeHelp.Wrapping = fyne.TextWrapWord
	t.llcCheck = widget.NewCheck("", func(on bool) { t.includeLLCs = on; t.updateCost() })
	t.llcHelp = widget.NewLabel("")
	t.llcHelp.Wrapping = fyne.TextWrapWord
	t.llcHelp.Importance = widget.LowImportance
	t.dupCheck = widget.NewCheck("", func(on bool) { t.dropDups = on; t.updateCost() })

	t.costTotal = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.costAfter = widget.NewLabel("")
	t.costWarn = widget.NewLabel("")
	t.costWarn.Importance = widget.DangerImportance
	t.costWarn.Wrapping = fyne.TextWrapWord
	t.costGrid = container.NewVBox()
	t.summary = widget.NewLabel("")
	t.summary.TextStyle = fyne.TextStyle{Bold: true}
	t.status = widget.NewLabel("")
	t.status.Truncation = fyne.TextTruncateEllipsis
	t.submitBtn = widget.NewButton("Submit trace", t.submit)
	t.submitBtn.Importance = widget.HighImportance

	// Presets: offered, and applied when the header signature matches.
	t.presetSel = widget.NewSelect(nil, t.applyPreset)
	t.presetSel.PlaceHolder = "Apply a saved preset…"
	t.presetName = widget.NewEntry()
	t.presetName.SetText(strings.TrimSuffix(filepath.Base(t.path), filepath.Ext(t.path)))
	t.presetNote = widget.NewLabel("")
	t.presetNote.Importance = widget.LowImportance
	t.presetNote.Wrapping = fyne.TextWrapWord
	savePreset := widget.NewButton("Save as preset", t.savePreset)

	fileTab := container.NewBorder(
		container.NewVBox(t.fileLine, t.warnings),
		container.NewHBox(widget.NewButton("Choose another file…", func() { t.pickFile(t.open) }), widget.NewButton("Next: map the columns", func() { t.tabs.SelectIndex(1) })),
		nil, nil, t.newPreview())
	presetBar := container.NewBorder(nil, nil, t.presetSel, container.NewHBox(widget.NewLabel("Name:"), container.NewGridWrap(fyne.NewSize(200, t.presetName.MinSize().Height), t.presetName), savePreset), t.presetNote)
	mapSplit := container.NewVSplit(t.board.object(), t.newPreview())
	mapSplit.Offset = 0.72
	mapTab := container.NewBorder(presetBar, nil, nil, nil, mapSplit)
	t.optionsBox = container.NewVBox(
		widget.NewLabelWithStyle("Mode", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.modeRadio, t.modeHelp,
		widget.NewSeparator(),
		t.llcCheck, t.llcHelp, t.dupCheck,
		widget.NewSeparator(),
		widget.NewLabelWithStyle("Cost", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.costGrid, t.costTotal, t.costAfter, t.costWarn,
	)
	optionsTab := container.NewVScroll(t.optionsBox)
	t.tabs = container.NewAppTabs(
		container.NewTabItem("1 · File", fileTab),
		container.NewTabItem("2 · Map columns", mapTab),
		container.NewTabItem("3 · Options & cost", optionsTab),
	)
	cancel := widget.NewButton("Cancel", t.close)
	buttons := container.NewVBox(layout.NewSpacer(), container.NewHBox(cancel, t.submitBtn), layout.NewSpacer())
	footer := container.NewBorder(widget.NewSeparator(), nil, nil, buttons, container.NewVBox(t.summary, t.status))
	t.setRoot(container.NewBorder(nil, footer, nil, nil, t.tabs))

	// First guess: auto-mapping, then a matching preset replaces it.
	sug := mapping.AutoMap(ins.Headers, ins.Sample, jobs.KindTrace)
	origins := map[string]origin{}
	for _, g := range sug.Guesses {
		origins[g.Key] = origin{auto: true, confidence: g.Confidence, reason: g.Reason}
	}
	t.modeRadio.SetSelected("Normal") // runs modeChanged → board revalidates
	t.board.setMapping(sug.Mapping(), origins)
	t.loadPresets()
}

// statsOf gives Validate the per-column blank counts.
func statsOf(ins *input.Inspection) *mapping.Stats {
	if len(ins.Blanks) != len(ins.Headers) {
		return nil
	}
	s := &mapping.Stats{Rows: ins.Rows, Blanks: make(map[string]int, len(ins.Headers))}
	for i, h := range ins.Headers {
		s.Blanks[h] = ins.Blanks[i]
	}
	return s
}

func (t *Trace) describeFile() {
	t.fileLine.SetText(fileLine(t.path, t.ins))
	ws := warningLines(t.ins)
	if len(ws) == 0 {
		t.warnings.SetText("No problems found in the file.")
		t.warnings.Importance = widget.SuccessImportance
	} else {
		t.warnings.SetText(strings.Join(ws, "\n"))
		t.warnings.Importance = widget.WarningImportance
	}
	t.warnings.Refresh()
}

// fileLine says what was found in a file: name, format, encoding, delimiter,
// rows and columns.
func fileLine(path string, ins *input.Inspection) string {
	parts := []string{filepath.Base(path), strings.ToUpper(ins.Format)}
	if ins.Encoding != "" {
		parts = append(parts, ins.Encoding)
	}
	if ins.Format == "csv" {
		parts = append(parts, "delimiter "+delimiterName(ins.Delimiter))
	}
	if ins.Sheet != "" {
		parts = append(parts, "sheet "+ins.Sheet)
	}
	parts = append(parts, plural(ins.Rows, "row", "rows"), plural(len(ins.Headers), "column", "columns"))
	if ins.HeaderLine > 1 {
		parts = append(parts, fmt.Sprintf("header on line %d", ins.HeaderLine))
	}
	return strings.Join(parts, " · ")
}

// warningLines lists the inspection's warnings, one bullet each.
func warningLines(ins *input.Inspection) []string {
	var ws []string
	for _, w := range ins.Warnings {
		ws = append(ws, "• "+w.String())
	}
	if ins.DuplicateRows > 0 && !hasWarningAbout(ins.Warnings, "duplicate") {
		ws = append(ws, "• "+plural(ins.DuplicateRows, "duplicate row", "duplicate rows")+" (same name and address)")
	}
	return ws
}

func hasWarningAbout(ws []input.Warning, word string) bool {
	for _, w := range ws {
		if strings.Contains(strings.ToLower(w.Message), word) {
			return true
		}
	}
	return false
}

func delimiterName(r rune) string {
	switch r {
	case ',':
		return "comma"
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	case '|':
		return "pipe"
	case 0:
		return "none"
	}
	return strconv.QuoteRune(r)
}

// thousands formats 12345 as "12,345".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// newPreview is a grid of the first rows; headers show the field they feed.
func (t *Trace) newPreview() *widget.Table {
	tbl := previewTable(t.ins, func(h string) string {
		if k := t.keyOf(h); k != "" {
			return h + " → " + k
		}
		return h
	})
	t.previews = append(t.previews, tbl)
	return tbl
}

// previewTable is a virtualised grid of an inspection's sample rows, with
// row numbers and the headers (as label gives them).
func previewTable(ins *input.Inspection, label func(header string) string) *widget.Table {
	// Each column is as wide as its header with the longest field name it
	// can show, within bounds; the row numbers' column fits the last number.
	bold := fyne.TextStyle{Bold: true}
	size := theme.TextSize()
	pad := 2 * theme.InnerPadding()
	widths := make([]float32, len(ins.Headers))
	for i, h := range ins.Headers {
		w := fyne.MeasureText(h+" → property_street", size, bold).Width + pad
		widths[i] = min(max(w, previewMinColumn), previewColumn)
	}
	// Cells hold their text already cut to the column's width, worked out
	// once per cell: a label that truncates itself measures its text many
	// times on every redraw, which made a redraw of the grid cost ~100 ms.
	cells := map[int]string{}
	tbl := widget.NewTable(
		func() (int, int) { return len(ins.Sample), len(ins.Headers) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			k := id.Row*len(ins.Headers) + id.Col
			v, ok := cells[k]
			if !ok {
				if row := ins.Sample[id.Row]; id.Col < len(row) {
					v = fitWidth(row[id.Col], widths[id.Col]-pad, size, fyne.TextStyle{})
				}
				cells[k] = v
			}
			setText(o.(*widget.Label), v)
		})
	tbl.ShowHeaderRow = true
	tbl.ShowHeaderColumn = true
	tbl.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, bold)
	}
	tbl.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		switch {
		case id.Row < 0 && id.Col >= 0:
			setText(l, fitWidth(label(ins.Headers[id.Col]), widths[id.Col]-pad, size, bold))
		case id.Col < 0 && id.Row >= 0:
			setText(l, strconv.Itoa(id.Row+1))
		default:
			setText(l, "")
		}
	}
	for i, w := range widths {
		tbl.SetColumnWidth(i, w)
	}
	tbl.SetColumnWidth(-1, fyne.MeasureText(strconv.Itoa(max(len(ins.Sample), 1)), size, bold).Width+pad)
	return tbl
}

// The preview grid's column widths, most and least.
const (
	previewColumn    = 260
	previewMinColumn = 90
)

// keyOf is the field a header is mapped to ("" when none).
func (t *Trace) keyOf(header string) string {
	if t.board == nil {
		return ""
	}
	for _, k := range t.board.m.SortedKeys() {
		if t.board.m[k] == header {
			return k
		}
	}
	return ""
}

func (t *Trace) modeChanged(label string) {
	mode := jobs.ModeNormal
	help := helpNormal
	if label == "Enhanced" {
		mode, help = jobs.ModeEnhanced, helpEnhanced
	}
	t.mode = mode
	t.modeHelp.SetText(help)
	t.board.setMode(mode) // revalidates, then mappingChanged
}

// mappingChanged runs after every change of the board.
func (t *Trace) mappingChanged() {
	t.schedulePreviews()
	t.scheduleRecount()
	t.updateCost()
}

// schedulePreviews refreshes the preview grids (their headers name the
// mapped fields) once changes pause: redrawing a grid costs far more than the
// change itself, and a burst of drops needs one redraw.
func (t *Trace) schedulePreviews() {
	if t.previewWait != nil && t.previewWait.Stop() {
		t.bg.Done()
	}
	ctx := t.ctx
	t.bg.Add(1)
	t.previewWait = time.AfterFunc(previewDelay, func() {
		defer t.bg.Done()
		do(func() {
			if ctx.Err() != nil {
				return
			}
			for _, p := range t.previews {
				p.Refresh()
			}
		})
	})
}

// previewDelay is the pause after which the preview grids are redrawn.
var previewDelay = 250 * time.Millisecond

// scheduleRecount re-inspects the file when the columns that decide company
// rows (the mapped names) or duplicates (the mapped columns) changed. It waits
// a moment so that a burst of changes reads the file once.
func (t *Trace) scheduleRecount() {
	m := t.board.mapping()
	opts := estimate.Options(t.opts, m)
	names, keys := opts.NameColumns, opts.KeyColumns
	if estimate.Fits(t.ins, m) && slices.Equal(keys, t.ins.KeyColumns) {
		return
	}
	if t.reinspect != nil {
		t.reinspect()
	}
	if t.reinspectWait != nil && t.reinspectWait.Stop() {
		t.bg.Done() // the timer will not run
	}
	ctx, cancel := context.WithCancel(t.ctx)
	t.reinspect = cancel
	t.counting = true
	path := t.path
	t.bg.Add(1)
	t.reinspectWait = time.AfterFunc(recountDelay, func() {
		defer t.bg.Done()
		ins, err := t.be.Inspect(ctx, path, opts)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			t.counting = false
			if err == nil {
				ins.NameColumns, ins.KeyColumns = names, keys
				t.ins.EntityRows, t.ins.DuplicateRows = ins.EntityRows, ins.DuplicateRows
				t.ins.NameColumns, t.ins.KeyColumns = names, keys
			}
			t.updateCost()
		})
	})
}

// recountDelay lets a burst of mapping changes re-read the file once.
var recountDelay = 300 * time.Millisecond

// updateCost refreshes the options' counts, the estimate and the submit state.
func (t *Trace) updateCost() {
	if t.board == nil {
		return
	}
	m := t.board.mapping()
	ins := t.ins
	ent := ins.EntityRows
	if len(m.NameColumns()) == 0 {
		ent = 0
	}
	llc := fmt.Sprintf("Include LLCs and companies (%s company rows found)", thousands(int64(ent)))
	if t.counting {
		llc = "Include LLCs and companies (counting company rows…)"
	}
	setCheckText(t.llcCheck, llc)
	setCheckText(t.dupCheck, fmt.Sprintf("Drop duplicate rows (%s found)", thousands(int64(ins.DuplicateRows))))
	if t.mode == jobs.ModeEnhanced {
		t.llcHelp.SetText("In enhanced mode company rows are folded into the main job at the enhanced rate; otherwise they are skipped and not billed.")
	} else if t.pricing != nil {
		t.llcHelp.SetText(fmt.Sprintf("Company rows run as a separate sub-job at the llc rate (%d credits per row); otherwise they are skipped and not billed.", t.pricing.Rates.LLC))
	}

	res := t.board.result
	problems := len(res.Errors())
	switch {
	case t.pricing == nil && t.rateErr != nil:
		t.setCostUnavailable("Rates could not be read: " + t.rateErr.Error())
		t.summary.SetText("Cost unknown")
	case t.pricing == nil:
		t.setCostUnavailable("Reading the current rates…")
		t.summary.SetText("Cost: reading rates…")
	default:
		c := traceCost(ins, m, t.mode, t.includeLLCs, t.dropDups, t.pricing, t.account)
		t.showCost(c)
	}
	switch {
	case problems > 0:
		t.status.Importance = widget.DangerImportance
		t.status.SetText(plural(problems, "problem", "problems") + " to fix in the mapping: " + res.Errors()[0].Message)
	case t.counting:
		t.status.Importance = widget.MediumImportance
		t.status.SetText("Counting company and duplicate rows…")
	default:
		t.status.Importance = widget.SuccessImportance
		msg := "The mapping is complete."
		if ws := res.Warnings(); len(ws) > 0 {
			t.status.Importance = widget.WarningImportance
			msg += " Note: " + ws[0].Message
		}
		t.status.SetText(msg)
	}
	t.status.Refresh()
	t.updateSubmit()
	t.optionsBox.Refresh() // texts changed length: lay the options out again
}

func setCheckText(c *widget.Check, s string) {
	if c.Text != s {
		c.Text = s
		c.Refresh()
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(int64(n)) + " " + many
}

func (t *Trace) setCostUnavailable(msg string) {
	t.costGrid.Objects = nil
	t.costGrid.Refresh()
	t.costTotal.SetText("")
	t.costAfter.SetText("")
	t.costWarn.SetText(msg)
}

// canPay is the last estimate's verdict.
func (t *Trace) canPay() bool {
	if t.pricing == nil {
		return false
	}
	c := traceCost(t.ins, t.board.mapping(), t.mode, t.includeLLCs, t.dropDups, t.pricing, t.account)
	return c.CanPay
}

func (t *Trace) showCost(c cost) {
	for len(t.costLines) < len(c.Lines)+1 {
		l := widget.NewLabel("")
		t.costLines = append(t.costLines, l)
		t.costGrid.Add(l)
	}
	for i, l := range c.Lines {
		var s string
		if l.Note != "" {
			s = fmt.Sprintf("%s: %s rows — %s", l.Label, thousands(int64(l.Rows)), l.Note)
		} else {
			s = fmt.Sprintf("%s: %s rows × %d = %s credits", l.Label, thousands(int64(l.Rows)), l.Rate, thousands(l.Credits))
		}
		setText(t.costLines[i], s)
	}
	dup := t.costLines[len(c.Lines)]
	switch {
	case c.Dropped > 0:
		setText(dup, fmt.Sprintf("Duplicates dropped: %s rows (saves %s credits)", thousands(int64(c.Dropped)), thousands(c.Saved)))
	case c.Saved > 0:
		setText(dup, fmt.Sprintf("Dropping the %s would save %s", plural(t.ins.DuplicateRows, "duplicate row", "duplicate rows"), plural(int(c.Saved), "credit", "credits")))
	default:
		setText(dup, "No duplicate rows")
	}
	total := fmt.Sprintf("Total: %s credits", thousands(c.Total))
	setText(t.costTotal, total)
	var after string
	if c.Metered {
		after = fmt.Sprintf("Metered billing: unbilled usage %s → %s credits", thousands(c.Balance), thousands(c.After))
	} else if t.account != nil {
		after = fmt.Sprintf("Balance: %s credits → after: %s credits", thousands(c.Balance), thousands(c.After))
	}
	setText(t.costAfter, after)
	warn := strings.Join(c.Warnings, "\n")
	if !c.CanPay {
		warn = c.Reason
		if c.Shortfall > 0 {
			warn = fmt.Sprintf("Not enough credits: this job needs %s more (balance %s, cost %s). Top up or reduce the rows.", thousands(c.Shortfall), thousands(c.Balance), thousands(c.Total))
		}
	}
	setText(t.costWarn, warn)
	sum := "Estimate: " + thousands(c.Total) + " credits"
	if after != "" && !c.Metered {
		sum += " · balance after " + thousands(c.After)
	}
	if !c.CanPay {
		sum += " · cannot pay"
	}
	setText(t.summary, sum)
}

func (t *Trace) updateSubmit() {
	ok := t.board != nil && t.board.result.OK() && t.pricing != nil && !t.counting && t.canPay()
	if ok {
		t.submitBtn.Enable()
	} else {
		t.submitBtn.Disable()
	}
}

// ---- presets -----------------------------------------------------------

func (t *Trace) loadPresets() {
	ctx := t.ctx
	headers := t.ins.Headers
	t.goBG(func() {
		names, err := t.be.PresetNames(ctx)
		name, m, merr := t.be.MatchPreset(ctx, headers)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				t.presetSel.SetOptions(names)
			}
			if merr == nil && name != "" && len(m) > 0 {
				t.preset = name
				t.applyMapping(name, m)
				t.presetNote.SetText(fmt.Sprintf("Preset %q applied: this file has the same columns.", name))
			}
		})
	})
}

func (t *Trace) applyPreset(name string) {
	if name == "" {
		return
	}
	ctx := t.ctx
	t.goBG(func() {
		m, err := t.be.LoadPreset(ctx, name)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				dialog.ShowError(fmt.Errorf("preset %q: %w", name, err), t.win)
				return
			}
			t.applyMapping(name, m)
			t.presetNote.SetText(fmt.Sprintf("Preset %q applied.", name))
		})
	})
}

func (t *Trace) applyMapping(preset string, m map[string]string) {
	origins := map[string]origin{}
	for k := range m {
		origins[k] = origin{preset: preset}
	}
	t.board.setMapping(mapping.Mapping(m).Clone(), origins)
}

func (t *Trace) savePreset() {
	name := strings.TrimSpace(t.presetName.Text)
	if name == "" {
		t.presetNote.SetText("Give the preset a name first.")
		return
	}
	ctx := t.ctx
	headers := t.ins.Headers
	m := t.board.mapping()
	t.goBG(func() {
		err := t.be.SavePreset(ctx, name, headers, m)
		do(func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf("saving preset %q: %w", name, err), t.win)
				return
			}
			t.presetNote.SetText(fmt.Sprintf("Saved as preset %q: files with these columns will use it automatically.", name))
			if !slices.Contains(t.presetSel.Options, name) {
				t.presetSel.SetOptions(append(t.presetSel.Options, name))
			}
		})
	})
}

// ---- submitting --------------------------------------------------------

func (t *Trace) submit() {
	if !t.board.result.OK() {
		return
	}
	t.send(false)
}

// send uploads with a progress dialog; again resubmits a recent duplicate.
func (t *Trace) send(again bool) {
	t.submitBtn.Disable()
	ctx, cancel := context.WithCancel(t.ctx)
	p := newProgress(t.win, "Uploading "+filepath.Base(t.path), cancel)
	up := client.TraceUpload{
		Path:          t.path,
		FileName:      filepath.Base(t.path),
		Mode:          string(t.mode),
		ColumnMapping: t.board.mapping(),
		IncludeLLCs:   t.includeLLCs,
		Progress:      p.update,
	}
	opts := t.opts
	drop := t.dropDups
	t.goBG(func() {
		id, err := t.be.SubmitTrace(ctx, up, opts, drop, again)
		do(func() {
			p.done()
			cancel()
			t.submitted(id, err)
		})
	})
}

func (t *Trace) submitted(id string, err error) {
	switch {
	case err == nil:
		t.close()
		if t.onDone != nil {
			t.onDone(id)
		}
	case isDuplicate(err):
		confirmAgain(t.win, "file", err, func() { t.send(true) }, t.updateSubmit)
	case errors.Is(err, context.Canceled):
		t.updateCost()
		t.status.SetText("Upload cancelled. If any bytes reached the service, the job list shows it as \"unknown — may be charged\" until it is reconciled.")
	default:
		showProblem(t.win, err)
		t.updateSubmit()
	}
}
