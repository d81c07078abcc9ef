package wizard

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/desk"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// costLine is one billed tier of an estimate.
type costLine struct {
	Label   string
	Rows    int
	Rate    int64
	Credits int64
	Note    string // "not traced" and the like, when Credits is 0 on purpose
}

// cost is what the wizard shows of an estimate.
type cost struct {
	Lines     []costLine
	Total     int64
	Metered   bool
	Balance   int64 // prepaid credits (or metered unbilled usage)
	After     int64 // balance after the charge (or usage after)
	CanPay    bool
	Shortfall int64
	Reason    string // why the account cannot pay, in words
	Dropped   int    // duplicate rows dropped
	Saved     int64  // credits that dropping duplicates saves (or would save)
	Warnings  []string
}

// traceCost prices a trace with jobs/estimate. Dropping duplicates removes
// those rows from the upload: the estimate is made for the rows that remain
// (duplicates counted as individuals, as estimate counts their savings).
func traceCost(ins *input.Inspection, m mapping.Mapping, mode jobs.Mode, includeLLCs, dropDups bool, p *client.Pricing, a *client.Account) cost {
	in := ins
	if dropDups && ins.DuplicateRows > 0 {
		cp := *ins
		cp.Rows -= ins.DuplicateRows
		cp.DuplicateRows = 0
		in = &cp
	}
	e := estimate.Estimate(in, m, mode, includeLLCs, p, a)
	c := cost{Total: e.Credits, Saved: e.DuplicateSavings}
	if dropDups {
		c.Dropped = ins.DuplicateRows
		c.Saved = int64(ins.DuplicateRows) * e.Individuals.Rate
	}
	label := "Individuals (normal rate)"
	if e.Mode == jobs.ModeEnhanced {
		label = "Individuals (enhanced rate)"
	}
	c.Lines = append(c.Lines, costLine{Label: label, Rows: e.Individuals.Rows, Rate: e.Individuals.Rate, Credits: e.Individuals.Credits})
	comp := costLine{Label: "Companies / LLCs", Rows: e.Companies.Rows, Rate: e.Companies.Rate, Credits: e.Companies.Credits}
	switch {
	case !e.Companies.Billed:
		comp.Note = "skipped: not traced, not billed"
	case e.Mode == jobs.ModeEnhanced:
		comp.Label = "Companies / LLCs (in the enhanced job)"
	default:
		comp.Label = "Companies / LLCs (llc rate)"
	}
	c.Lines = append(c.Lines, comp)
	c.payment(e.Payment)
	return c
}

// dncCost prices a DNC scrub of a scanned phone column.
func dncCost(scan *phone.Scan, p *client.Pricing, a *client.Account) (cost, estimate.DNCResult) {
	e := estimate.EstimateDNC(scan, p, a)
	c := cost{Total: e.Credits, Lines: []costLine{{Label: "Phones (dnc rate)", Rows: e.Rows, Rate: e.Rate, Credits: e.Credits}}}
	c.payment(e.Payment)
	return c, e
}

func (c *cost) payment(p estimate.Payment) {
	c.CanPay, c.Shortfall, c.Reason = p.CanPay, p.Shortfall, p.Blocker
	c.Balance, c.After = p.Balance, p.BalanceAfter
	if p.Metered != nil {
		c.Metered = true
		c.Balance, c.After = p.Metered.UnbilledUsage, p.Metered.UsageAfter
	}
	c.Warnings = p.Warnings
	if c.Reason != "" {
		c.Reason = strings.ToUpper(c.Reason[:1]) + c.Reason[1:] + "."
	}
}

// isDuplicate reports whether a submission was refused as a repeat of a
// recent one: nothing was sent, the user is asked first.
func isDuplicate(err error) bool { return errors.Is(err, submit.ErrDuplicate) }

// showProblem shows err in the user's terms (what happened, what to do).
func showProblem(win fyne.Window, err error) {
	p := desk.Explain(err, "")
	msg := widget.NewLabel(p.String())
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(p.Title, "OK", msg, win)
	d.Resize(fyne.NewSize(480, 240))
	d.Show()
}

// confirmAgain asks before paying twice for the same file.
func confirmAgain(win fyne.Window, what string, err error, yes func(), no func()) {
	msg := "This " + what + " was already submitted with the same settings. Submitting again starts a new job and is charged again."
	var de *submit.DuplicateError
	if errors.As(err, &de) && de.Earlier != nil {
		msg = de.Error() + "."
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	l := widget.NewLabel(msg)
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Submit again and pay again?", "Submit again", "Cancel", l, func(ok bool) {
		if ok {
			yes()
		} else {
			no()
		}
	}, win)
	d.Resize(fyne.NewSize(520, 260))
	d.Show()
}
