package wizard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// DNC is an open DNC scrub: pick a phone list, choose its phone column
// (detected), see how the numbers will be normalised and what it costs,
// submit.
type DNC struct {
	win    fyne.Window
	be     Backend
	onDone func(jobID string)

	ctx    context.Context
	cancel context.CancelFunc
	dlg    *dialog.CustomDialog
	stage

	path     string
	opts     input.Options
	ins      *input.Inspection
	column   string
	scan     *phone.Scan
	scanErr  error
	scanning bool
	stopScan context.CancelFunc
	pricing  *client.Pricing
	account  *client.Account
	rateErr  error
	fromJob  string // the trace whose phones are scrubbed, if any

	fileLine  *widget.Label
	warnings  *widget.Label
	colSel    *widget.Select
	colNote   *widget.Label
	counts    *widget.Label
	examples  *widget.Label
	invalid   *widget.Label
	costLine  *widget.Label
	costAfter *widget.Label
	costWarn  *widget.Label
	summary   *widget.Label
	submitBtn *widget.Button
	topBox    *fyne.Container
	details   *fyne.Container
	preview   *widget.Table

	bg sync.WaitGroup
}

// NewDNC opens the DNC scrub over win. With path "" it first asks for a file.
func NewDNC(win fyne.Window, b Backend, path string, onDone func(jobID string)) *DNC {
	d := newDNC(win, b, onDone)
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
func NewDNCFromTrace(win fyne.Window, b Backend, traceResultPath, traceJobID string, onDone func(jobID string)) *DNC {
	d := newDNC(win, b, onDone)
	d.fromJob = traceJobID
	d.show()
	d.fromTrace(traceResultPath, traceJobID)
	return d
}

func newDNC(win fyne.Window, b Backend, onDone func(string)) *DNC {
	d := &DNC{win: win, be: b, onDone: onDone}
	lastDNC = d
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.stage = newStage()
	return d
}

func (d *DNC) goBG(f func()) {
	d.bg.Add(1)
	go func() {
		defer d.bg.Done()
		f()
	}()
}

func (d *DNC) show() {
	d.dlg = dialog.NewCustomWithoutButtons("Scrub phones against DNC and litigator lists", d.root, d.win)
	d.dlg.SetOnClosed(d.cancel)
	sz := d.win.Canvas().Size()
	d.dlg.Resize(fyne.NewSize(sz.Width*0.92, sz.Height*0.92))
	d.dlg.Show()
}

func (d *DNC) close() {
	d.cancel()
	if d.dlg != nil {
		d.dlg.Hide()
	}
}

func (d *DNC) fromTrace(resultPath, jobID string) {
	d.showLoading("Collecting the trace's phones…", d.close)
	ctx := d.ctx
	d.goBG(func() {
		p, err := d.be.TracePhones(ctx, resultPath, jobID)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				d.failed(fmt.Errorf("collecting the phones of trace %s: %w", jobID, err))
				return
			}
			d.open(p)
		})
	})
}

func (d *DNC) open(path string) {
	d.path = path
	d.opts = input.Options{}
	d.showLoading(fmt.Sprintf("Reading %s…", filepath.Base(path)), d.close)
	ctx := d.ctx
	d.goBG(func() {
		ins, err := d.be.Inspect(ctx, path, d.opts)
		do(func() {
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				d.failed(err)
				return
			}
			d.loaded(ins)
		})
	})
	if d.pricing == nil {
		d.goBG(func() {
			p, perr := d.be.Pricing(ctx)
			a, aerr := d.be.Account(ctx)
			do(func() {
				if ctx.Err() != nil {
					return
				}
				d.pricing, d.account, d.rateErr = p, a, errors.Join(perr, aerr)
				d.update()
			})
		})
	}
}

func (d *DNC) failed(err error) {
	msg := widget.NewLabel("This file cannot be scrubbed:\n" + err.Error())
	msg.Wrapping = fyne.TextWrapWord
	msg.Importance = widget.DangerImportance
	other := widget.NewButton("Choose another file…", func() { pickFile(d.win, d.open) })
	other.Importance = widget.HighImportance
	d.setRoot(container.NewBorder(nil, container.NewHBox(other, widget.NewButton("Close", d.close)), nil, nil, msg))
}

func (d *DNC) loaded(ins *input.Inspection) {
	d.ins = ins
	d.fileLine = widget.NewLabel(fileLine(d.path, ins))
	d.fileLine.Wrapping = fyne.TextWrapWord
	var ws []string
	for _, w := range ins.Warnings {
		ws = append(ws, "• "+w.String())
	}
	d.warnings = widget.NewLabel(strings.Join(ws, "\n"))
	d.warnings.Wrapping = fyne.TextWrapWord
	d.warnings.Importance = widget.WarningImportance
	if len(ws) == 0 {
		d.warnings.Hide()
	}
	d.colSel = widget.NewSelect(ins.Headers, d.columnChosen)
	d.colSel.PlaceHolder = "Choose the phone column"
	d.colNote = widget.NewLabel("")
	d.colNote.Importance = widget.LowImportance
	d.counts = widget.NewLabel("")
	d.counts.Wrapping = fyne.TextWrapWord
	d.examples = widget.NewLabel("")
	d.examples.Wrapping = fyne.TextWrapWord
	d.invalid = widget.NewLabel("")
	d.invalid.Wrapping = fyne.TextWrapWord
	d.invalid.Importance = widget.WarningImportance
	d.costLine = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.costAfter = widget.NewLabel("")
	d.costWarn = widget.NewLabel("")
	d.costWarn.Wrapping = fyne.TextWrapWord
	d.costWarn.Importance = widget.DangerImportance
	d.summary = widget.NewLabel("")
	d.summary.Truncation = fyne.TextTruncateEllipsis
	d.submitBtn = widget.NewButton("Submit DNC scrub", d.submit)
	d.submitBtn.Importance = widget.HighImportance

	bold := func(s string) *widget.Label {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	d.topBox = container.NewVBox(d.fileLine, d.warnings,
		container.NewHBox(bold("Phone column"), container.NewGridWrap(fyne.NewSize(280, d.colSel.MinSize().Height), d.colSel), d.colNote))
	d.details = container.NewVBox(
		bold("What the numbers look like"), d.counts,
		bold("How numbers will be normalised"), d.examples,
		d.invalid,
		widget.NewSeparator(),
		bold("Cost"), d.costLine, d.costAfter, d.costWarn,
	)
	d.preview = previewTable(ins, func(h string) string {
		if h == d.column {
			return h + " → phone"
		}
		return h
	})
	split := container.NewVSplit(container.NewVScroll(d.details), d.preview)
	split.Offset = 0.66
	footer := container.NewBorder(widget.NewSeparator(), nil, nil,
		container.NewHBox(widget.NewButton("Cancel", d.close), d.submitBtn), d.summary)
	d.setRoot(container.NewBorder(d.topBox, footer, nil, nil, split))

	// The phone column: a list made from a trace has "phone"; otherwise
	// auto-mapping finds it.
	col := ""
	sug := mapping.AutoMap(ins.Headers, ins.Sample, jobs.KindDNC)
	for _, g := range sug.Guesses {
		if g.Key == mapping.Phone {
			col = g.Header
			d.colNote.SetText(fmt.Sprintf("detected (%d%% sure)", pct(g.Confidence)))
		}
	}
	if col == "" && len(ins.Headers) == 1 {
		col = ins.Headers[0]
		d.colNote.SetText("the file's only column")
	}
	if col != "" {
		d.colSel.SetSelected(col) // starts the scan
	} else {
		d.colNote.SetText("no phone column recognised: choose one")
		d.update()
	}
}

func (d *DNC) columnChosen(col string) {
	if col == d.column {
		return
	}
	d.column = col
	d.scan, d.scanErr = nil, nil
	if d.stopScan != nil {
		d.stopScan()
	}
	ctx, cancel := context.WithCancel(d.ctx)
	d.stopScan = cancel
	d.scanning = true
	d.preview.Refresh()
	d.update()
	path, opts := d.path, d.opts
	d.goBG(func() {
		s, err := phone.ScanColumn(ctx, path, col, phone.ScanOptions{Input: opts})
		do(func() {
			if ctx.Err() != nil {
				return
			}
			d.scanning = false
			d.scan, d.scanErr = s, err
			d.update()
		})
	})
}

// update shows the scan, the cost and the submit state.
func (d *DNC) update() {
	if d.ins == nil {
		return
	}
	switch {
	case d.column == "":
		d.counts.SetText("Choose the column that holds the phone numbers.")
		d.examples.SetText("")
		d.invalid.SetText("")
	case d.scanning:
		d.counts.SetText("Reading the phone numbers…")
	case d.scanErr != nil:
		d.counts.SetText("The column could not be read: " + d.scanErr.Error())
	case d.scan != nil:
		s := d.scan
		d.counts.SetText(fmt.Sprintf("%s · %s valid (%s unique) · %s invalid (%s blank) · %s · %s reformatted",
			plural(s.Rows, "row", "rows"), thousands(int64(s.Valid)), thousands(int64(s.Unique)),
			thousands(int64(s.Invalid)), thousands(int64(s.Blank)),
			plural(s.Duplicates, "duplicate", "duplicates"), thousands(int64(s.Reformatted))))
		var ex []string
		for _, e := range s.Examples {
			ex = append(ex, fmt.Sprintf("%s  →  %s", e.Raw, e.Normalized))
		}
		if len(ex) == 0 {
			ex = append(ex, "Every valid number is already written as 10 digits.")
		}
		d.examples.SetText(strings.Join(ex, "\n"))
		var inv []string
		for _, e := range s.InvalidExamples {
			raw := e.Raw
			if strings.TrimSpace(raw) == "" {
				raw = "(blank)"
			}
			inv = append(inv, fmt.Sprintf("line %d: %s — %s", e.Line, raw, e.Reason))
		}
		if len(inv) > 0 {
			d.invalid.SetText("Invalid numbers are charged, then refunded when the job completes:\n" + strings.Join(inv, "\n"))
		} else {
			d.invalid.SetText("")
		}
	}

	ok := false
	switch {
	case d.pricing == nil && d.rateErr != nil:
		d.costLine.SetText("")
		d.costWarn.SetText("Rates could not be read: " + d.rateErr.Error())
		d.summary.SetText("Cost unknown")
	case d.pricing == nil:
		d.costLine.SetText("Reading the current rates…")
		d.summary.SetText("Cost: reading rates…")
	case d.scan == nil:
		d.costLine.SetText(fmt.Sprintf("%d credit per phone (dnc rate)", d.pricing.Rates.DNC))
		d.costAfter.SetText("")
		d.costWarn.SetText("")
		d.summary.SetText("")
	default:
		c, e := dncCost(d.scan, d.pricing, d.account)
		d.costLine.SetText(fmt.Sprintf("%s × %d = %s credits", plural(e.Rows, "phone", "phones"), e.Rate, thousands(e.Credits)))
		after := ""
		switch {
		case c.Metered:
			after = fmt.Sprintf("Metered billing: unbilled usage %s → %s credits", thousands(c.Balance), thousands(c.After))
		case d.account != nil:
			after = fmt.Sprintf("Balance: %s credits → after: %s credits", thousands(c.Balance), thousands(c.After))
		}
		if e.Refund > 0 {
			after += fmt.Sprintf("\n%s refunded for invalid numbers when the job completes (net %s)", plural(int(e.Refund), "credit", "credits"), thousands(e.NetCredits))
		}
		d.costAfter.SetText(after)
		warn := strings.Join(c.Warnings, "\n")
		if !c.CanPay {
			warn = c.Reason
			if c.Shortfall > 0 {
				warn = fmt.Sprintf("Not enough credits: this scrub needs %s more (balance %s, cost %s).", thousands(c.Shortfall), thousands(c.Balance), thousands(c.Total))
			}
		}
		d.costWarn.SetText(warn)
		sum := "Estimate: " + thousands(c.Total) + " credits"
		if !c.Metered && d.account != nil {
			sum += " · balance after " + thousands(c.After)
		}
		d.summary.SetText(sum)
		ok = c.CanPay && d.scan.Rows > 0
	}
	if ok {
		d.submitBtn.Enable()
	} else {
		d.submitBtn.Disable()
	}
	// Texts changed length: lay the two boxes out again.
	d.topBox.Refresh()
	d.details.Refresh()
}

func (d *DNC) submit() { d.send(false) }

func (d *DNC) send(again bool) {
	d.submitBtn.Disable()
	ctx, cancel := context.WithCancel(d.ctx)
	p := newProgress(d.win, "Uploading "+filepath.Base(d.path), cancel)
	name := filepath.Base(d.path)
	up := client.DNCUpload{Path: d.path, FileName: name, PhoneColumn: d.column, Progress: p.update}
	opts := d.opts
	d.goBG(func() {
		id, err := d.be.SubmitDNC(ctx, up, opts, again)
		do(func() {
			p.done()
			cancel()
			d.submitted(id, err)
		})
	})
}

func (d *DNC) submitted(id string, err error) {
	switch {
	case err == nil:
		d.close()
		if d.onDone != nil {
			d.onDone(id)
		}
	case isDuplicate(err):
		confirmAgain(d.win, "phone list", err, func() { d.send(true) }, d.update)
	case errors.Is(err, context.Canceled):
		d.update()
		d.summary.SetText("Upload cancelled. If any bytes reached the service, the job list shows it as \"unknown — may be charged\" until it is reconciled.")
	default:
		showProblem(d.win, err)
		d.update()
	}
}
