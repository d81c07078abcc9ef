package wizard

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
	"github.com/skipdesk/skipdesk/ui/pick"
)

// Trace is an open trace wizard.
type Trace struct {
	session // counts are what the upload holds for the current mapping
	presets TraceBackend

	board  *board
	preset string // preset applied automatically, if any

	// countErr is why the counts could not be read.
	countErr error
	// sug is the automatic mapping, with the splits it suggests; splits
	// are those the person accepted.
	sug    mapping.Suggestion
	splits []mapping.Split

	mode        jobs.Mode
	confirmed   []string // fields whose values the person said are right
	includeLLCs bool
	dropDups    bool
	reuse       bool          // skip the rows traced before (the person's choice)
	reuseWithin time.Duration // how old a reused result may be
	reuseCtl    *reuseControls
	// repairs chosen before paying (see repairControls)
	padZips, leaveOutNoAddress bool
	repairs                    *repairControls

	// widgets of the loaded wizard
	fileLine      *widget.Label
	warnings      *widget.Label
	modeRadio     *widget.RadioGroup
	modeHelp      *widget.Label
	llcCheck      *keys.Check
	llcHelp       *widget.Label
	dupCheck      *keys.Check
	costGrid      *fyne.Container
	costLines     []*widget.Label
	costTotal     *widget.Label
	costAfter     *widget.Label
	costWarn      *widget.Label
	costRetry     *widget.Button // reads the rates again when they could not be read
	summary       *widget.Label
	status        *widget.Label
	presetSel     *keys.Select
	presetName    *keys.Entry
	presetNote    *widget.Label
	previews      []*widget.Table
	optionsBox    *fyne.Container
	reviewBox     *fyne.Container   // the review step's content
	optionsScroll *container.Scroll // the review step's scroll
	boardSlot     *fyne.Container   // holds the board, rebuilt when splits change
	splitBar      *fyne.Container   // offers (or undoes) the suggested splits

	// re-inspection when the name or key columns change (entity and
	// duplicate counts depend on them)
	reinspect     context.CancelFunc
	reinspectWait *busy.Timer
	previewWait   *busy.Timer
	counting      bool
}

// Mode explanations, one line each.
const (
	helpNormal   = "Normal: searches by the owner's name and address; the first and last name columns are needed. Each row costs the normal rate."
	helpEnhanced = "Enhanced: a deeper, address-only search. Names are ignored; each row costs the enhanced rate."
)

// NewTrace opens the trace wizard over win. With path "" it first asks for a
// file; otherwise it reads path at once (a file dropped on the window).
// onDone receives the new job's id after a successful submission, when the
// wizard has closed.
func NewTrace(win fyne.Window, b TraceBackend, env Env, path string, onDone func(jobID string)) *Trace {
	t := newTrace(win, b, env, onDone)
	opened(t)
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

func newTrace(win fyne.Window, b TraceBackend, env Env, onDone func(string)) *Trace {
	t := &Trace{session: newSession(win, b, env, onDone), presets: b, mode: jobs.ModeNormal}
	// The savings and repairs that lose nothing start on (the command
	// line's defaults too).
	d := workflow.Plan{Kind: jobs.KindTrace}.WithDefaults()
	t.reuse, t.reuseWithin, t.padZips, t.leaveOutNoAddress = d.Reuse, d.ReuseWithin, d.PadZips, d.LeaveOutNoAddress
	return t
}

// show puts the wizard in a dialog that fills most of the window.
func (t *Trace) show() { t.session.show("New skip trace", 0.96) }

func (t *Trace) pickFile(then func(path string)) { pickFile(t.win, then) }

// pickFile asks over win for the CSV or Excel list to work on.
func pickFile(win fyne.Window, then func(path string)) {
	pick.File(win, "Choose a list", []string{".csv", ".txt", ".xlsx"}, "", then)
}

// open reads path in the background and fetches rates at the same time.
func (t *Trace) open(path string) {
	// The reading counts the plan the wizard opens with (the preset saved
	// for the file's headers, or the automatic mapping of its start; the
	// options as they stand), so that its price needs no second reading; a
	// change counts again.
	first := t.plan()
	first.Path, first.Input, first.Splits, first.Mapping = path, t.inputFor(path), nil, nil
	ctx := t.ctx
	var opening *mapping.Preset // written by the reading, read once it is done
	t.inspect(path, func(head *input.Inspection) workflow.Plan {
		p := first
		if opening, _ = openingPreset(ctx, t.presets, head.Headers); opening != nil {
			p.Mapping = opening.Mapping.Clone()
		} else {
			p.Mapping = workflow.Suggest(head, jobs.KindTrace).Mapping()
		}
		return p
	}, func(ins *input.Inspection, c *workflow.Counts) { t.loaded(ins, c, opening) }, t.showError)
	if t.rates == nil {
		t.fetchRates()
	}
}

// fetchRates reads the rates, then prices the mapping again.
func (t *Trace) fetchRates() {
	t.readRates(func() {
		if t.board != nil {
			t.updateCost()
		}
	})
}

func (t *Trace) showError(err error) { t.showFailure("traced", err, t.open) }

// loaded builds the wizard for an inspected file; counts, when not nil,
// were counted in the same reading (kept while they fit the plan), for the
// preset opening (nil: the automatic mapping).
func (t *Trace) loaded(ins *input.Inspection, counts *workflow.Counts, opening *mapping.Preset) {
	t.ins = ins
	t.counts, t.countErr, t.splits = counts, nil, nil
	t.sug = workflow.Suggest(ins, jobs.KindTrace)
	t.confirmed = nil
	t.board = newBoard(ins.Headers, ins.Sample, t.check)
	t.board.onChange, t.board.onConfirm = t.mappingChanged, t.confirmValues

	t.fileLine = wrapping("", widget.MediumImportance)
	t.warnings = wrapping("", widget.WarningImportance)
	t.describeFile()

	t.modeRadio = widget.NewRadioGroup([]string{"Normal", "Enhanced"}, t.modeChanged)
	t.modeRadio.Horizontal = true
	t.modeRadio.Required = true
	t.modeHelp = wrapping(helpNormal, widget.MediumImportance)
	t.llcCheck = keys.NewCheck("", func(on bool) { t.includeLLCs = on; t.updateCost() })
	t.llcHelp = wrapping("", widget.LowImportance)
	t.dupCheck = keys.NewCheck("", func(on bool) { t.dropDups = on; t.updateCost() })
	t.reuseCtl = newReuseControls(jobs.KindTrace, t.reuse, t.reuseWithin, func(on bool, within time.Duration) {
		t.reuse, t.reuseWithin = on, within
		t.updateCost()
	})
	t.review = newReviewPanel()
	t.repairs = t.newRepairControls()

	t.costTotal = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.costAfter = widget.NewLabel("")
	t.costWarn = wrapping("", widget.DangerImportance)
	t.costRetry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), t.fetchRates)
	t.costRetry.Hide()
	t.costGrid = container.NewVBox()
	t.summary = widget.NewLabel("")
	t.summary.TextStyle = fyne.TextStyle{Bold: true}
	t.status = widget.NewLabel("")
	t.status.Truncation = fyne.TextTruncateEllipsis
	t.submitBtn = widget.NewButton(submitLabel, t.submit)
	t.submitBtn.Importance = widget.HighImportance

	// Presets: offered, and applied when the header signature matches.
	t.presetSel = keys.NewSelect(nil, t.applyPreset)
	t.presetSel.PlaceHolder = "Apply a saved preset…"
	t.presetName = keys.NewEntry()
	t.presetName.SetText(strings.TrimSuffix(filepath.Base(t.path), filepath.Ext(t.path)))
	t.presetNote = wrapping("", widget.LowImportance)
	savePreset := widget.NewButton("Save as preset", t.savePreset)

	top := container.NewVBox(t.fileLine, t.warnings)
	if row := t.sheetRow(t.open); row != nil {
		top.Add(row)
	}
	fileTab := container.NewBorder(
		top,
		container.NewHBox(keys.NewButton("Choose another file…", func() { t.pickFile(t.open) }), keys.NewButton("Next: map the columns", func() { t.tabs.SelectIndex(1) })),
		nil, nil, t.newPreview())
	presetBar := container.NewBorder(nil, nil, t.presetSel, container.NewHBox(widget.NewLabel("Name:"), container.NewGridWrap(fyne.NewSize(200, t.presetName.MinSize().Height), t.presetName), savePreset), t.presetNote)
	t.splitBar = container.NewVBox()
	presetBar = container.NewVBox(presetBar, t.splitBar)
	t.boardSlot = container.NewStack(t.board.object())
	mapSplit := container.NewVSplit(t.boardSlot, t.newPreview())
	mapSplit.Offset = 0.72
	mapTab := container.NewBorder(presetBar, container.NewHBox(layout.NewSpacer(), keys.NewButton("Next: options", t.nextStep)), nil, nil, mapSplit)
	t.optionsBox = container.NewVBox(
		widget.NewLabelWithStyle("Mode", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.modeRadio, t.modeHelp,
		widget.NewSeparator(),
		widget.NewLabelWithStyle("Companies", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		t.llcCheck, t.llcHelp,
	)
	optionsTab := container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), keys.NewButton("Next: review before paying", t.nextStep)),
		nil, nil, container.NewVScroll(t.optionsBox))
	// The review: what is sent and left out, the savings, the repairs and
	// the cost, before paying.
	cost := container.NewVBox(t.costGrid, t.costTotal, t.costAfter, t.costWarn, container.NewHBox(t.costRetry))
	t.reviewBox = t.review.box(container.NewVBox(t.dupCheck, t.reuseCtl.box), t.repairs.box, cost)
	t.optionsScroll = container.NewVScroll(t.reviewBox)
	t.tabs = container.NewAppTabs(
		container.NewTabItem("1 · File", fileTab),
		container.NewTabItem("2 · Map columns", mapTab),
		container.NewTabItem("3 · Options", optionsTab),
		container.NewTabItem("4 · Review and pay", t.optionsScroll),
	)
	t.tabs.OnSelected = func(*container.TabItem) { t.updateSubmit() }
	cancel := widget.NewButton("Cancel", t.close)
	buttons := container.NewVBox(layout.NewSpacer(), container.NewHBox(cancel, t.submitBtn), layout.NewSpacer())
	footer := container.NewBorder(widget.NewSeparator(), nil, nil, buttons, container.NewVBox(t.summary, t.status))
	t.setRoot(container.NewBorder(nil, footer, nil, nil, t.tabs))

	// The preset saved for these headers, else the automatic mapping.
	t.modeRadio.SetSelected("Normal") // runs modeChanged → board revalidates
	if opening != nil {
		t.applyMatched(opening)
	} else {
		t.board.setMapping(t.sug.Mapping(), t.autoOrigins())
	}
	t.showSplits()
	t.loadPresets()
	t.watchIndex(t.updateCost)
}

// autoOrigins says which keys the automatic mapping chose, and how sure.
func (t *Trace) autoOrigins() map[string]origin {
	origins := map[string]origin{}
	for _, g := range t.sug.Guesses {
		origins[g.Key] = origin{auto: true, certain: g.Certain(), confidence: g.Confidence, reason: g.Reason}
	}
	return origins
}

// plan is the submission as the wizard stands: the same Plan the command
// line builds from its flags.
func (t *Trace) plan() workflow.Plan {
	p := workflow.Plan{Kind: jobs.KindTrace, Path: t.path, Input: t.opts, Splits: t.splits, Mode: t.mode,
		IncludeLLCs: t.includeLLCs, DropDuplicates: t.dropDups, Reuse: t.reuse, ReuseWithin: t.reuseWithin,
		PadZips: t.padZips, LeaveOutNoAddress: t.leaveOutNoAddress, ValuesConfirmed: t.confirmed}
	if t.board != nil {
		p.Mapping = t.board.mapping()
	}
	return p
}

// check validates a mapping of the board with the layer's rules.
func (t *Trace) check(m mapping.Mapping) mapping.Result {
	p := t.plan()
	p.Mapping = m
	return workflow.Validate(t.ins, p)
}

// confirmValues: the person says the field's column is right although
// its values do not look like the field's.
func (t *Trace) confirmValues(key string) {
	if !slices.Contains(t.confirmed, key) {
		t.confirmed = append(t.confirmed, key)
	}
	t.board.revalidate()
}

// showSplits offers the suggested splits (a full-name column, a one-line
// address), or, once accepted, says so with a way back.
func (t *Trace) showSplits() {
	t.splitBar.Objects = nil
	switch {
	case len(t.splits) > 0:
		var cols []string
		for _, sp := range t.splits {
			cols = append(cols, fmt.Sprintf("%q", sp.Column))
		}
		note := wrapping("Split "+strings.Join(cols, " and ")+" into separate fields: the upload carries the split columns.", widget.MediumImportance)
		t.splitBar.Add(container.NewBorder(nil, nil, nil, widget.NewButton("Undo the split", t.undoSplits), note))
	case len(t.sug.Splits) > 0:
		for _, sp := range t.sug.Splits {
			msg := fmt.Sprintf("%q holds %s in one column", sp.Column, splitWhat(sp))
			if sp.Example != "" {
				msg += fmt.Sprintf(", for example %q becomes %s", sp.Example, strings.Join(sp.ExampleInto, " | "))
			}
			note := wrapping(msg+".", widget.MediumImportance)
			t.splitBar.Add(note)
		}
		btn := widget.NewButton("Split into separate fields", t.acceptSplits)
		btn.Importance = widget.HighImportance
		t.splitBar.Add(container.NewHBox(btn))
	}
	t.splitBar.Refresh()
}

func splitWhat(sp mapping.Split) string {
	if sp.Kind == mapping.SplitName {
		return "whole names (first and last)"
	}
	return "whole addresses (street, city, state and ZIP)"
}

// acceptSplits takes the suggested splits: the board then offers the
// split columns, mapped to their fields.
func (t *Trace) acceptSplits() {
	p := workflow.AcceptSplits(t.plan(), t.ins, t.sug)
	t.splits = p.Splits
	t.rebuildBoard(p.Mapping, t.autoOrigins())
}

// undoSplits goes back to the file's own columns and the automatic mapping.
func (t *Trace) undoSplits() {
	t.splits = nil
	t.rebuildBoard(t.sug.Mapping(), t.autoOrigins())
}

// rebuildBoard puts a new board (the file's columns and those the splits
// derive) in place of the old one, with mapping m.
func (t *Trace) rebuildBoard(m mapping.Mapping, origins map[string]origin) {
	p := t.plan()
	headers := p.Headers(t.ins.Headers)
	t.board = newBoard(headers, workflow.SplitSample(t.ins, t.splits), t.check)
	t.board.onChange, t.board.onConfirm = t.mappingChanged, t.confirmValues
	t.boardSlot.Objects = []fyne.CanvasObject{t.board.object()}
	t.boardSlot.Refresh()
	t.board.setMapping(m, origins)
	t.showSplits()
}

// describeFile says what the reading found, and the rows repeated as the
// counts of the current mapping find them (nothing said of them until
// they are counted).
func (t *Trace) describeFile() {
	setText(t.fileLine, fileLine(t.path, t.ins))
	ws := warningLines(t.ins)
	counted := t.counts.Fits(t.plan())
	if counted && t.counts.Duplicates > 0 {
		ws = append(ws, "• "+plural(t.counts.Duplicates, "row repeats", "rows repeat")+
			" an earlier row in every column mapped: billed again if sent (the review can leave them out)")
	}
	text, imp := strings.Join(ws, "\n"), widget.WarningImportance
	switch {
	case len(ws) > 0:
	case !counted && !t.board.result.OK():
		text, imp = "No problems found in the file. Repeated rows are counted once the columns are mapped.", widget.MediumImportance
	case !counted:
		text, imp = "No problems found in the file. Counting repeated rows…", widget.MediumImportance
	default:
		text, imp = "No problems found in the file.", widget.SuccessImportance
	}
	// Called at every change of the price: the label is laid out again
	// only when what it says changes.
	if t.warnings.Text != text || t.warnings.Importance != imp {
		t.warnings.Importance = imp
		t.warnings.SetText(text)
	}
}

// fileLine says what was found in a file: name, format, encoding, delimiter,
// rows and columns.
func fileLine(path string, ins *input.Inspection) string {
	parts := []string{filepath.Base(path), strings.ToUpper(ins.Format)}
	if ins.Encoding != "" {
		parts = append(parts, ins.Encoding)
	}
	if ins.Format == "csv" {
		parts = append(parts, "fields separated by "+input.DelimiterName(ins.Delimiter))
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
	return ws
}

// thousands formats 12345 as "12,345".
func thousands(n int64) string { return jobs.Thousands(n) }

// newPreview is a grid of the first rows; headers show the field they feed.
func (t *Trace) newPreview() *widget.Table {
	tbl := previewTable(t.ins, func(h string) string {
		if k := t.keyOf(h); k != "" {
			return h + " -> " + mapping.Label(k)
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
		w := fyne.MeasureText(h+" -> Property street address", size, bold).Width + pad
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
	t.board.revalidate() // then mappingChanged
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
	t.previewWait.Stop()
	ctx := t.ctx
	t.previewWait = t.bg.AfterFunc(t.env.PreviewDelay, func() {
		t.env.Do(func() {
			if ctx.Err() != nil {
				return
			}
			for _, p := range t.previews {
				p.Refresh()
			}
		})
	})
}

// scheduleRecount counts the file again when what the counts depend on
// changed (the mapped names and columns, the splits): company rows and
// duplicates. It waits a moment so that a burst of changes reads the file
// once.
func (t *Trace) scheduleRecount() {
	p := t.plan()
	t.stopRecount() // a count of an earlier plan is not wanted now
	if t.counts.Fits(p) || !t.board.result.OK() {
		return
	}
	ctx, cancel := context.WithCancel(t.ctx)
	t.reinspect = cancel
	t.counting = true
	ins := t.ins
	t.reinspectWait = t.bg.AfterFunc(t.env.RecountDelay, func() {
		c, err := t.be.Count(ctx, p, ins)
		t.env.Do(func() {
			if ctx.Err() != nil {
				return
			}
			t.counting = false
			t.counts, t.countErr = c, err
			t.updateCost()
		})
	})
}

// stopRecount stops the count scheduled or running, if any.
func (t *Trace) stopRecount() {
	if t.reinspect != nil {
		t.reinspect()
		t.reinspect = nil
	}
	t.reinspectWait.Stop()
	t.counting = false
}

// quote prices the current plan, when its counts and the rates are in.
func (t *Trace) quote() (workflow.Quote, bool) { return t.price(t.plan()) }

// updateCost refreshes the options' counts, the estimate and the submit state.
func (t *Trace) updateCost() {
	if t.board == nil {
		return
	}
	t.describeFile()
	fits := t.counts.Fits(t.plan())
	llc, dup := "Include LLCs and companies (counting company rows…)", "Drop duplicate rows (counting…)"
	if fits {
		llc = fmt.Sprintf("Include LLCs and companies (%s company rows found)", jobs.Thousands(int64(t.counts.EntityRows)))
		dup = fmt.Sprintf("Drop duplicate rows (%s found)", jobs.Thousands(int64(t.counts.Duplicates)))
	}
	setCheckText(t.llcCheck, llc)
	setCheckText(t.dupCheck, dup)
	t.showRepairs()
	if t.mode == jobs.ModeEnhanced {
		t.llcHelp.SetText("In enhanced mode company rows are folded into the main job at the enhanced rate; otherwise they are skipped and not billed.")
	} else if t.rates != nil {
		t.llcHelp.SetText(fmt.Sprintf("Company rows run as a separate sub-job at the llc rate (%s per row); otherwise they are skipped and not billed.", jobs.Credits(t.rates.Pricing.Rates.LLC)))
	}

	res := t.board.result
	problems := len(res.Errors())
	t.costRetry.Hide()
	q, priced := t.quote()
	t.reuseCtl.show(q, priced)
	switch {
	case t.rates == nil && t.rateErr != nil:
		t.setCostUnavailable(ratesProblem(t.rateErr))
		t.summary.SetText(ratesSummary(t.rateErr))
		t.costRetry.Show()
	case t.rates == nil:
		t.setCostPending("Reading the current rates…")
		t.summary.SetText("Cost: reading rates…")
	case problems > 0:
		t.setCostPending("The cost is worked out once the mapping is complete.")
		t.summary.SetText("Cost: complete the mapping first")
	case !priced && t.countErr != nil && !t.counting:
		t.setCostUnavailable("The file could not be counted: " + workflow.Explain(t.countErr, "").What)
		t.summary.SetText("Cost unknown")
	case !priced && t.counting && t.indexNote() != "":
		t.setCostPending(t.indexNote())
		t.summary.SetText("Cost: checking the library…")
	case !priced:
		t.setCostPending("Counting the rows…")
		t.summary.SetText("Cost: counting…")
	default:
		t.showCost(q)
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
	t.showReview(q, priced)
	t.updateSubmit()
	t.optionsBox.Refresh() // texts changed length: lay the options out again
	t.reviewBox.Refresh()
}

// showReview sets out the review of the plan priced as q.
func (t *Trace) showReview(q workflow.Quote, priced bool) {
	var rv workflow.Review
	if priced {
		rv = workflow.ReviewOf(t.plan(), q, t.board.result)
	}
	t.review.show(rv, priced, t.summary.Text)
}

func setCheckText(c *keys.Check, s string) {
	if c.Text != s {
		c.Text = s
		c.Refresh()
	}
}

func plural(n int, one, many string) string { return jobs.Plural(int64(n), one, many) }

// setCostUnavailable says why there is no price: msg, in red (a problem
// to solve).
func (t *Trace) setCostUnavailable(msg string) { t.noCost(msg, widget.DangerImportance) }

// setCostPending says what the price waits for (the rates, a count), in
// the ordinary colour: nothing is wrong.
func (t *Trace) setCostPending(msg string) { t.noCost(msg, widget.MediumImportance) }

// noCost says why there is no price yet: the lines, total and balance
// are hidden (an empty label still takes a line: the reason would stand
// below a blank block).
func (t *Trace) noCost(msg string, imp widget.Importance) {
	t.costGrid.Objects, t.costLines = nil, nil
	t.costGrid.Refresh()
	showIf(t.costGrid, false)
	setShown(t.costTotal, "")
	setShown(t.costAfter, "")
	t.costWarn.Importance = imp
	t.costWarn.Refresh()
	setShown(t.costWarn, msg)
}

func (t *Trace) showCost(q workflow.Quote) {
	var extra []string
	if l := reuseCostLine(q); l != "" {
		extra = append(extra, l)
	}
	extra = append(extra, repairedLines(q.Upload)...)
	n := len(q.Lines) + 1 + len(extra)
	for len(t.costLines) > n {
		t.costGrid.Remove(t.costLines[len(t.costLines)-1])
		t.costLines = t.costLines[:len(t.costLines)-1]
	}
	for len(t.costLines) < n {
		l := widget.NewLabel("")
		t.costLines = append(t.costLines, l)
		t.costGrid.Add(l)
	}
	for i, l := range q.Lines {
		var s string
		if l.Note != "" {
			s = fmt.Sprintf("%s: %s rows — %s", l.Label, jobs.Thousands(int64(l.Rows)), l.Note)
		} else {
			s = fmt.Sprintf("%s: %s rows × %d = %s", l.Label, jobs.Thousands(int64(l.Rows)), l.Rate, jobs.Credits(l.Credits))
		}
		setText(t.costLines[i], s)
	}
	dup := t.costLines[len(q.Lines)]
	switch {
	case q.DroppedDuplicates > 0:
		setText(dup, fmt.Sprintf("Duplicates dropped: %s (saves %s)", plural(q.DroppedDuplicates, "row", "rows"), jobs.Credits(q.DuplicateSavings)))
	case q.Duplicates > 0:
		setText(dup, fmt.Sprintf("Dropping the %s would save %s", plural(q.Duplicates, "duplicate row", "duplicate rows"), jobs.Credits(q.DuplicateSavings)))
	default:
		setText(dup, "No duplicate rows")
	}
	for i, l := range extra {
		setText(t.costLines[len(q.Lines)+1+i], l)
	}
	showIf(t.costGrid, true)
	setShown(t.costTotal, "Total: "+jobs.Credits(q.Credits))
	p := paymentOf(q, "job")
	setShown(t.costAfter, p.afterLine())
	warn := p.Warnings
	if !p.CanPay {
		warn = p.Reason
	}
	if t.costWarn.Importance != widget.DangerImportance {
		t.costWarn.Importance = widget.DangerImportance
		t.costWarn.Refresh()
	}
	setShown(t.costWarn, warn)
	setText(t.summary, summaryLine(q, p))
}

func (t *Trace) updateSubmit() {
	if t.tabs == nil {
		return
	}
	if !t.onReview() {
		// On any other step Submit leads to the review first, once the
		// mapping is complete.
		setButton(t.submitBtn, submitLabel, t.board != nil && t.board.result.OK())
		return
	}
	q, priced := t.quote()
	ok := t.board != nil && t.board.result.OK() && priced && !t.counting && q.Payment.CanPay && t.review.review.Nothing == ""
	setButton(t.submitBtn, payLabel(q, priced), ok)
}

// reviewStep is the review's tab.
const reviewStep = 3

// onReview reports whether the review step shows.
func (t *Trace) onReview() bool { return t.tabs != nil && t.tabs.SelectedIndex() == reviewStep }

// ---- presets -----------------------------------------------------------

// loadPresets offers the saved presets in the chooser.
func (t *Trace) loadPresets() {
	ctx := t.ctx
	t.goBG(func() {
		names, err := t.presets.PresetNames(ctx)
		t.env.Do(func() {
			if ctx.Err() == nil && err == nil {
				t.presetSel.SetOptions(names)
			}
		})
	})
}

// applyMatched applies the preset saved for the file's headers.
func (t *Trace) applyMatched(pr *mapping.Preset) {
	t.preset = pr.Name
	t.applyPreset1(pr)
	t.presetNote.SetText(fmt.Sprintf("Preset %q applied: this file has the same columns.", pr.Name))
}

// openingPreset is the preset a file with these headers opens with: the
// one saved for them, when it maps anything; nil when none.
func openingPreset(ctx context.Context, presets TraceBackend, headers []string) (*mapping.Preset, error) {
	pr, err := presets.MatchPreset(ctx, headers, jobs.KindTrace)
	if err != nil || pr == nil || len(pr.Mapping) == 0 {
		return nil, err
	}
	return pr, nil
}

func (t *Trace) applyPreset(name string) {
	if name == "" {
		return
	}
	background(&t.session, t.ctx, func(ctx context.Context) (*mapping.Preset, error) {
		return t.presets.LoadPreset(ctx, name)
	}, func(pr *mapping.Preset, err error) {
		if err != nil {
			showProblem(t.win, fmt.Errorf("preset %q: %w", name, err))
			return
		}
		t.applyPreset1(pr)
		t.presetNote.SetText(fmt.Sprintf("Preset %q applied.", name))
	})
}

// applyPreset1 applies a preset: its mapping (of the file's own columns:
// any split is undone) and its mode.
func (t *Trace) applyPreset1(pr *mapping.Preset) {
	origins := map[string]origin{}
	for k := range pr.Mapping {
		origins[k] = origin{preset: pr.Name}
	}
	if len(t.splits) > 0 {
		t.splits = nil
		t.rebuildBoard(pr.Mapping.Clone(), origins)
	} else {
		t.board.setMapping(pr.Mapping.Clone(), origins)
	}
	if pr.Mode == jobs.ModeEnhanced {
		t.modeRadio.SetSelected("Enhanced")
	}
}

func (t *Trace) savePreset() {
	name := strings.TrimSpace(t.presetName.Text)
	if name == "" {
		t.presetNote.SetText("Give the preset a name first.")
		return
	}
	ctx := t.ctx
	headers := t.ins.Headers
	p := t.plan()
	t.goBG(func() {
		err := t.presets.SavePreset(ctx, name, headers, p)
		t.env.Do(func() {
			if err != nil {
				showProblem(t.win, fmt.Errorf("saving preset %q: %w", name, err))
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

// submit leads to the review from any other step; on the review, it asks
// once before paying (the total with each saving and repair, and the
// balance after), then sends.
func (t *Trace) submit() {
	q, ok := t.quote()
	ready := t.board.result.OK() && ok && t.review.review.Nothing == ""
	t.confirm(reviewStep, "trace", q, ready, func() { t.send(false) }, t.updateSubmit)
}

// send uploads with a progress dialog; again resubmits a recent duplicate.
func (t *Trace) send(again bool) {
	q, ok := t.quote()
	if !ok {
		return
	}
	t.upload(t.plan(), q, again, afterSubmit{
		what:    "file",
		resend:  func() { t.send(true) },
		refresh: t.updateSubmit,
		recount: func() {
			// Count again: the library changed since the price was shown.
			t.counts = nil
			t.scheduleRecount()
			t.updateCost()
		},
		cancelled: func() {
			t.updateCost()
			t.status.SetText(cancelledNote)
		},
		allReused: t.allReused,
	})
}

// allReused says, once the wizard has closed after a submission that
// needed no job, that every row was traced before and the merged result
// is in the library.
func (t *Trace) allReused(res *workflow.Submitted) {
	dialog.ShowInformation("Nothing to trace",
		fmt.Sprintf("All %s of %s were traced before: nothing was sent and nothing was charged.\n"+
			"The result with their earlier data is in the library as %s.",
			plural(res.Reused, "row", "rows"), filepath.Base(t.path), filepath.Base(res.ResultPath)), t.win)
}
