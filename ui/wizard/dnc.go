package wizard

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// DNC is an open DNC scrub: pick a phone list, choose its phone column
// (detected), see how the numbers will be normalised and what it costs,
// submit.
type DNC struct {
	session // counts are the phone column's scan

	column   string
	dropDups bool
	// leaveOutInvalid: the invalid numbers leave the upload before paying.
	leaveOutInvalid bool
	// leaveOutAbroad: the numbers outside the US leave it too.
	leaveOutAbroad bool
	scanErr        error
	scanning       bool
	stopScan       context.CancelFunc
	read           *workflow.Counts // the scan made in the list's reading, until a column is chosen
	fromJob        string           // the trace whose phones are scrubbed, if any
	reuse          bool             // skip the phones scrubbed in the last 31 days (the person's choice)
	reuseCtl       *reuseControls

	fileLine      *widget.Label
	warnings      *widget.Label
	colSel        *keys.Select
	colNote       *widget.Label
	scanLine      *widget.Label
	examples      *widget.Label
	invalid       *widget.Label
	dupCheck      *keys.Check
	invCheck      *keys.Check
	abroad        *widget.Label // the numbers outside the US
	abCheck       *keys.Check
	costRetry     *widget.Button // reads the rates again when they could not be read
	detailsScroll *container.Scroll
	costLine      *widget.Label
	costAfter     *widget.Label
	costWarn      *widget.Label
	summary       *widget.Label
	topBox        *fyne.Container
	details       *fyne.Container
	preview       *widget.Table
	reviewBox     *fyne.Container // the review step's content
}

// NewDNC opens the DNC scrub over win. With path "" it first asks for a file.
func NewDNC(win fyne.Window, b DNCBackend, env Env, path string, onDone func(jobID string)) *DNC {
	d := newDNC(win, b, env, onDone)
	if path != "" {
		d.show()
		d.open(path)
		return d
	}
	pickFile(win, func(p string) {
		d.show()
		d.open(p)
	})
	return d
}

// NewDNCFromTrace scrubs the phones of a completed trace: the backend writes
// them (phone_1..phone_3 of the result) to a phone list, which the scrub
// then opens like any other.
func NewDNCFromTrace(win fyne.Window, b DNCBackend, env Env, traceResultPath, traceJobID string, onDone func(jobID string)) *DNC {
	d := newDNC(win, b, env, onDone)
	d.fromJob = traceJobID
	d.show()
	d.fromTrace(traceResultPath, traceJobID)
	return d
}

// NewDNCOfTracePhones opens the scrub on a list of some of a trace's
// phones (those a stale scrub answered): the scrub is linked to the trace
// as a scrub of its phones.
func NewDNCOfTracePhones(win fyne.Window, b DNCBackend, env Env, phonesPath, traceJobID string, onDone func(jobID string)) *DNC {
	d := newDNC(win, b, env, onDone)
	d.fromJob = traceJobID
	d.show()
	d.open(phonesPath)
	return d
}

func newDNC(win fyne.Window, b DNCBackend, env Env, onDone func(string)) *DNC {
	d := &DNC{session: newSession(win, b, env, onDone)}
	// The savings and repairs that lose nothing start on (the command
	// line's defaults too).
	def := workflow.Plan{Kind: jobs.KindDNC}.WithDefaults()
	d.reuse, d.leaveOutInvalid, d.leaveOutAbroad = def.Reuse, def.LeaveOutInvalid, def.LeaveOutAbroad
	opened(d)
	return d
}

func (d *DNC) show() { d.session.show("Scrub phones against DNC and litigator lists", 0.92) }

func (d *DNC) fromTrace(resultPath, jobID string) {
	d.showLoading("Collecting the trace's phones…", d.close)
	background(&d.session, d.ctx, func(ctx context.Context) (workflow.Plan, error) {
		return d.be.TracePhones(ctx, resultPath, jobID)
	}, func(p workflow.Plan, err error) {
		if err != nil {
			d.failed(fmt.Errorf("collecting the phones of trace %s: %w", jobID, err))
			return
		}
		d.open(p.Path)
	})
}

func (d *DNC) open(path string) {
	// The reading scans the column found at the file's start, so that its
	// price needs no second reading; another column is scanned again.
	first := d.plan()
	first.Path, first.Input = path, d.inputFor(path)
	d.inspect(path, func(head *input.Inspection) workflow.Plan {
		p := first
		col, _ := phoneColumn(head)
		p.Mapping = mapping.Mapping{mapping.Phone: col}
		return p
	}, d.loaded, d.failed)
	if d.rates == nil {
		d.fetchRates()
	}
}

// fetchRates reads the rates, then shows the cost again.
func (d *DNC) fetchRates() { d.readRates(d.update) }

func (d *DNC) failed(err error) { d.showFailure("scrubbed", err, d.open) }

// loaded builds the screen for an inspected file; counts, when not nil,
// are the scan of the column found at its start, made in the same reading.
func (d *DNC) loaded(ins *input.Inspection, counts *workflow.Counts) {
	d.ins, d.read = ins, counts
	d.watchIndex(d.update)
	d.fileLine = wrapping(fileLine(d.path, ins), widget.MediumImportance)
	var ws []string
	for _, w := range ins.Warnings {
		ws = append(ws, "• "+w.String())
	}
	d.warnings = wrapping(strings.Join(ws, "\n"), widget.WarningImportance)
	if len(ws) == 0 {
		d.warnings.Hide()
	}
	d.colSel = keys.NewSelect(ins.Headers, d.columnChosen)
	d.colSel.PlaceHolder = "Choose the phone column"
	d.colNote = widget.NewLabel("")
	d.colNote.Importance = widget.LowImportance
	d.scanLine = wrapping("", widget.MediumImportance)
	d.examples = wrapping("", widget.MediumImportance)
	d.invalid = wrapping("", widget.WarningImportance)
	d.dupCheck = keys.NewCheck("Leave out repeated numbers", func(on bool) { d.dropDups = on; d.update() })
	d.invCheck = toggle("", &d.leaveOutInvalid, d.update)
	d.invCheck.Hide()
	d.abroad = wrapping("", widget.WarningImportance)
	d.abCheck = toggle("", &d.leaveOutAbroad, d.update)
	d.abCheck.Hide()
	d.reuseCtl = newReuseControls(jobs.KindDNC, d.reuse, 0, func(on bool, _ time.Duration) { d.reuse = on; d.update() })
	d.review = newReviewPanel()
	d.costLine = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.costAfter = widget.NewLabel("")
	d.costWarn = wrapping("", widget.DangerImportance)
	d.costRetry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), d.fetchRates)
	d.costRetry.Hide()
	d.summary = widget.NewLabel("")
	d.summary.Truncation = fyne.TextTruncateEllipsis
	d.submitBtn = widget.NewButton(submitLabel, d.submit)
	d.submitBtn.Importance = widget.HighImportance

	bold := func(s string) *widget.Label {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	d.topBox = container.NewVBox(d.fileLine, d.warnings)
	if row := d.sheetRow(d.open); row != nil {
		d.topBox.Add(row)
	}
	d.topBox.Add(container.NewHBox(bold("Phone column"), container.NewGridWrap(fyne.NewSize(280, d.colSel.MinSize().Height), d.colSel), d.colNote))
	d.details = container.NewVBox(
		bold("What the numbers look like"), d.scanLine,
		bold("How numbers will be normalised"), d.examples,
		d.invalid, d.abroad,
	)
	d.preview = previewTable(ins, func(h string) string {
		if h == d.column {
			return h + " -> " + mapping.Label(mapping.Phone)
		}
		return h
	})
	d.detailsScroll = container.NewVScroll(d.details)
	split := container.NewVSplit(d.detailsScroll, d.preview)
	split.Offset = 0.66
	listTab := container.NewBorder(d.topBox, container.NewHBox(layout.NewSpacer(), keys.NewButton("Next: review before paying", d.nextStep)),
		nil, nil, split)
	repairs := container.NewVBox(bold("Before paying"), d.invCheck, d.abCheck)
	cost := container.NewVBox(d.costLine, d.costAfter, d.costWarn, container.NewHBox(d.costRetry))
	d.reviewBox = d.review.box(container.NewVBox(d.dupCheck, d.reuseCtl.box), repairs, cost)
	d.tabs = container.NewAppTabs(
		container.NewTabItem("1 · Phone column", listTab),
		container.NewTabItem("2 · Review and pay", container.NewVScroll(d.reviewBox)),
	)
	d.tabs.OnSelected = func(*container.TabItem) { d.update() }
	footer := container.NewBorder(widget.NewSeparator(), nil, nil,
		container.NewHBox(widget.NewButton("Cancel", d.close), d.submitBtn), d.summary)
	d.setRoot(container.NewBorder(nil, footer, nil, nil, d.tabs))

	col, note := phoneColumn(ins)
	d.colNote.SetText(note)
	if col != "" {
		d.colSel.SetSelected(col) // starts the scan, unless the reading made it
	} else {
		d.update()
	}
}

// phoneColumn is the phone column found in the file's headers and first
// rows, and how it was found: a list made from a trace has "phone";
// otherwise auto-mapping finds it, or it is the file's only column.
func phoneColumn(ins *input.Inspection) (col, note string) {
	for _, g := range workflow.Suggest(ins, jobs.KindDNC).Guesses {
		if g.Key == mapping.Phone {
			col, note = g.Header, fmt.Sprintf("detected (%d%% sure)", pct(g.Confidence))
		}
	}
	if col == "" && len(ins.Headers) == 1 {
		col, note = ins.Headers[0], "the file's only column"
	}
	if col == "" {
		note = "no phone column recognised: choose one"
	}
	return col, note
}

func (d *DNC) columnChosen(col string) {
	if col == d.column {
		return
	}
	d.column = col
	d.counts, d.scanErr = nil, nil
	if d.stopScan != nil {
		d.stopScan()
	}
	if c := d.read; c.Fits(d.plan()) {
		d.read, d.counts = nil, c // scanned as the list was read
		d.preview.Refresh()
		d.update()
		return
	}
	ctx, cancel := context.WithCancel(d.ctx)
	d.stopScan = cancel
	d.scanning = true
	d.preview.Refresh()
	d.update()
	p, ins := d.plan(), d.ins
	background(&d.session, ctx, func(ctx context.Context) (*workflow.Counts, error) {
		return d.be.Count(ctx, p, ins)
	}, func(c *workflow.Counts, err error) {
		d.scanning = false
		d.counts, d.scanErr = c, err
		d.update()
	})
}

// plan is the scrub as the screen stands: the Plan `skipdesk-cli dnc
// submit` builds from its flags.
func (d *DNC) plan() workflow.Plan {
	return workflow.Plan{Kind: jobs.KindDNC, Path: d.path, Input: d.opts, Mapping: mapping.Mapping{mapping.Phone: d.column},
		DropDuplicates: d.dropDups, ParentTraceID: d.fromJob, Reuse: d.reuse, LeaveOutInvalid: d.leaveOutInvalid,
		LeaveOutAbroad: d.leaveOutAbroad}
}

// quote prices the scrub once the column is scanned and the rates are in.
func (d *DNC) quote() (workflow.Quote, bool) { return d.price(d.plan()) }

// showScan says what the phone column's scan found: how many rows, valid,
// unique, invalid, blank, repeated and reformatted numbers, with examples.
func (d *DNC) showScan() {
	switch {
	case d.column == "":
		d.scanLine.SetText("Choose the column that holds the phone numbers.")
		d.examples.SetText("")
		d.invalid.SetText("")
		d.abroad.SetText("")
	case d.scanning && d.indexNote() != "":
		d.scanLine.SetText("Reading the phone numbers… " + d.indexNote())
	case d.scanning:
		d.scanLine.SetText("Reading the phone numbers…")
	case d.scanErr != nil:
		d.scanLine.SetText("The column could not be read: " + workflow.Explain(d.scanErr, "").What)
	case d.counts != nil:
		s := d.counts.Phones
		line := fmt.Sprintf("%s · %s valid (%s unique) · %s invalid (%s blank) · %s · %s reformatted",
			plural(s.Rows, "row", "rows"), thousands(int64(s.Valid)), thousands(int64(s.Unique)),
			thousands(int64(s.Invalid)), thousands(int64(s.Blank)),
			plural(s.Duplicates, "duplicate", "duplicates"), thousands(int64(s.Reformatted)))
		if s.Abroad > 0 {
			line += " · " + thousands(int64(s.Abroad)) + " outside the US"
		}
		d.scanLine.SetText(line)
		var ex []string
		for _, e := range s.Examples {
			ex = append(ex, fmt.Sprintf("%s  ->  %s", e.Raw, e.Normalized))
		}
		if len(ex) == 0 {
			ex = append(ex, "Every valid number is already written as 10 digits.")
		}
		d.examples.SetText(strings.Join(ex, "\n"))
		d.showInvalid(s)
		d.showAbroad(s)
	}
}

// showAbroad lists the numbers outside the US (the first, and how many
// more) and offers to leave them out before paying.
func (d *DNC) showAbroad(s *phone.Scan) {
	if s.Abroad == 0 {
		d.abroad.SetText("")
		d.abCheck.Hide() // the choice stays for another column
		return
	}
	head := "Numbers outside the US (Canada, the Caribbean) are charged, and a US scrub cannot answer them:"
	if d.leaveOutAbroad {
		head = "Numbers outside the US (Canada, the Caribbean), left out of the upload (not charged: a US scrub cannot answer them):"
	}
	d.abroad.SetText(head + "\n" + exampleLines(s.AbroadExamples, s.Abroad))
	setCheckText(d.abCheck, fmt.Sprintf("Leave out the %s outside the US before paying (otherwise charged, and a US scrub cannot answer them)",
		plural(s.Abroad, "number", "numbers")))
	d.abCheck.Show()
}

// update shows the scan, the cost and the submit state.
func (d *DNC) update() {
	if d.ins == nil {
		return
	}
	d.showScan()

	ok := false
	d.costRetry.Hide()
	q, priced := d.quote()
	d.reuseCtl.show(q, priced)
	if d.counts != nil {
		setCheckText(d.dupCheck, fmt.Sprintf("Leave out repeated numbers (%s found)", jobs.Thousands(int64(d.counts.Duplicates))))
	}
	switch {
	case d.rates == nil && d.rateErr != nil:
		// A label with no text still takes a line: each is hidden
		// while it has nothing to say.
		setShown(d.costLine, "")
		setShown(d.costAfter, "")
		setShown(d.costWarn, ratesProblem(d.rateErr))
		d.summary.SetText(ratesSummary(d.rateErr))
		d.costRetry.Show()
	case d.rates == nil:
		setShown(d.costLine, "Reading the current rates…")
		setShown(d.costAfter, "")
		setShown(d.costWarn, "")
		d.summary.SetText("Cost: reading rates…")
	case !priced:
		setShown(d.costLine, fmt.Sprintf("%s per phone (dnc rate)", jobs.Credits(d.rates.Pricing.Rates.DNC)))
		setShown(d.costAfter, "")
		setShown(d.costWarn, "")
		d.summary.SetText("")
	default:
		e := q.DNC
		cost := fmt.Sprintf("%s × %d = %s", plural(e.Rows, "phone", "phones"), e.Rate, jobs.Credits(e.Credits))
		if l := reuseCostLine(q); l != "" {
			cost += "\n" + l
		}
		if ls := repairedLines(q.Upload); len(ls) > 0 {
			cost += "\n" + strings.Join(ls, "\n")
		}
		setShown(d.costLine, cost)
		pay := paymentOf(q, "scrub")
		after := pay.afterLine()
		if e.Refund > 0 {
			after += fmt.Sprintf("\n%s refunded for invalid numbers when the job completes (net %s)", jobs.Credits(e.Refund), jobs.Thousands(e.NetCredits))
		}
		setShown(d.costAfter, after)
		warn := pay.Warnings
		if !pay.CanPay {
			warn = pay.Reason
		}
		setShown(d.costWarn, warn)
		d.summary.SetText(summaryLine(q, pay))
		ok = pay.CanPay && (e.Rows > 0 || (q.Reuse != nil && q.Reuse.Skipped && q.Reuse.Rows > 0))
	}
	var rv workflow.Review
	if priced {
		rv = workflow.ReviewOf(d.plan(), q, mapping.Result{})
	}
	d.review.show(rv, priced, d.scanLine.Text)
	ok = ok && rv.Nothing == ""
	switch {
	case d.tabs == nil:
	case d.tabs.SelectedIndex() != dncReviewStep:
		setButton(d.submitBtn, submitLabel, true) // Submit leads to the review first
	default:
		setButton(d.submitBtn, payLabel(q, priced), ok)
	}
	// Texts changed length: lay the boxes out again.
	d.topBox.Refresh()
	d.details.Refresh()
	d.reviewBox.Refresh()
}

// dncReviewStep is the scrub's review tab.
const dncReviewStep = 1

// submit leads to the review first; there it asks once before paying
// (the total with each saving and repair, and the balance after), then
// sends.
func (d *DNC) submit() {
	q, ok := d.quote()
	d.confirm(dncReviewStep, "scrub", q, ok && d.review.review.Nothing == "", func() { d.send(false) }, d.update)
}

func (d *DNC) send(again bool) {
	q, ok := d.quote()
	if !ok {
		return
	}
	d.upload(d.plan(), q, again, afterSubmit{
		what:    "phone list",
		resend:  func() { d.send(true) },
		refresh: d.update,
		recount: func() {
			c := d.column
			d.column = ""
			d.columnChosen(c) // count again: the library changed
		},
		cancelled: func() {
			d.update()
			d.summary.SetText(cancelledNote)
		},
		allReused: func(res *workflow.Submitted) {
			dialog.ShowInformation("Nothing to scrub",
				fmt.Sprintf("All %s were scrubbed in the last 31 days: nothing was sent and nothing was charged.\n"+
					"The result with their answers is in the library as %s.", plural(res.Reused, "phone", "phones"),
					filepath.Base(res.ResultPath)), d.win)
		},
	})
}

// shownInvalid is how many invalid numbers the scrub lists before "and N
// more".
const shownInvalid = 10

// exampleLines lists the first rows (shownInvalid at most) of the total
// of a kind, one a line with its reason, and how many more there are.
func exampleLines(rows []phone.Example, total int) string {
	var out []string
	for _, e := range rows[:min(len(rows), shownInvalid)] {
		raw := e.Raw
		if strings.TrimSpace(raw) == "" {
			raw = "(blank)"
		}
		out = append(out, fmt.Sprintf("line %d: %s — %s", e.Line, raw, e.Reason))
	}
	if more := total - len(out); more > 0 {
		out = append(out, fmt.Sprintf("and %s more", thousands(int64(more))))
	}
	return strings.Join(out, "\n")
}

// showInvalid lists the invalid numbers (all of them, or the first and
// how many more) and offers to leave them out before paying.
func (d *DNC) showInvalid(s *phone.Scan) {
	if s.Invalid == 0 {
		d.invalid.SetText("")
		d.invCheck.Hide() // the choice stays for another column
		return
	}
	rows := s.InvalidRows
	if len(rows) == 0 {
		rows = s.InvalidExamples
	}
	head := "Invalid numbers are charged, then refunded when the job completes:"
	if d.leaveOutInvalid {
		head = "Invalid numbers, left out of the upload (not charged):"
	}
	d.invalid.SetText(head + "\n" + exampleLines(rows, s.Invalid))
	setCheckText(d.invCheck, fmt.Sprintf("Leave out the %s before paying (otherwise charged, then refunded)",
		plural(s.Invalid, "invalid number", "invalid numbers")))
	d.invCheck.Show()
}
