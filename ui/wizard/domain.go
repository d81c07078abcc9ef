package wizard

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// payment is what the cost section says of a quote's payment: the balance
// before and after (or the metered usage), and why the account cannot pay.
type payment struct {
	Metered          bool
	Balance, After   int64
	CanPay           bool
	Reason, Warnings string
}

func paymentOf(q workflow.Quote, what string) payment {
	p := q.Payment
	out := payment{CanPay: p.CanPay, Balance: p.Balance, After: p.BalanceAfter, Warnings: strings.Join(p.Warnings, "\n")}
	if p.Metered != nil {
		out.Metered = true
		out.Balance, out.After = p.Metered.UnbilledUsage, p.Metered.UsageAfter
	}
	switch {
	case p.CanPay:
	case p.Shortfall > 0:
		out.Reason = fmt.Sprintf("Not enough credits: this %s needs %s more (balance %s, cost %s). Top up or reduce the rows.",
			what, jobs.Thousands(p.Shortfall), jobs.Thousands(p.Balance), jobs.Thousands(q.Credits))
	case p.Blocker != "":
		out.Reason = strings.ToUpper(p.Blocker[:1]) + p.Blocker[1:] + "."
	}
	return out
}

// afterLine is "Balance: 25,000 credits → after: 24,800 credits" (or the
// metered usage).
func (p payment) afterLine() string {
	if p.Metered {
		return fmt.Sprintf("Metered billing: unbilled usage %s credits now, %s after this job", jobs.Thousands(p.Balance), jobs.Thousands(p.After))
	}
	return fmt.Sprintf("Balance: %s credits now, %s after this job", jobs.Thousands(p.Balance), jobs.Thousands(p.After))
}

// summaryLine is the footer's one line about a quote.
func summaryLine(q workflow.Quote, p payment) string {
	sum := "Estimate: " + jobs.Credits(q.Credits)
	if !p.Metered {
		sum += " · balance after " + jobs.Thousands(p.After)
	}
	if !p.CanPay {
		sum += " · cannot pay"
	}
	return sum
}

// wrapping is a label of text that wraps its words, of importance imp.
func wrapping(text string, imp widget.Importance) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = imp
	return l
}

// toggle is a check box of label, ticked as *on is, that keeps *on as the
// person ticks it and then runs changed.
func toggle(label string, on *bool, changed func()) *keys.Check {
	c := keys.NewCheck(label, nil)
	c.Checked = *on
	c.OnChanged = func(v bool) { *on = v; changed() }
	return c
}

// showProblem shows err in the user's terms (what happened, what to do).
func showProblem(win fyne.Window, err error) {
	p := workflow.Explain(err, "")
	msg := wrapping(p.String(), widget.MediumImportance)
	d := dialog.NewCustom(p.Title, "OK", msg, win)
	d.Resize(fyne.NewSize(480, 240))
	d.Show()
}

// isDuplicate reports whether a submission was refused as a repeat of a
// recent one: nothing was sent, the person is asked first.
func isDuplicate(err error) bool { return errors.Is(err, workflow.ErrDuplicate) }

// confirmAgain asks before paying twice for the same file. Cancel is the
// default: the highlighted button, with the focus (Space presses it).
func confirmAgain(win fyne.Window, what string, err error, yes func(), no func()) {
	msg := "This " + what + " was already submitted with the same settings. Submitting again starts a new job and is charged again."
	if d, ok := workflow.DuplicateOf(err); ok {
		msg = fmt.Sprintf("%s was submitted with the same mapping and options on %s", d.FileName, d.At.Local().Format("Jan 2 at 15:04"))
		switch {
		case d.MaybeCharged:
			msg += "; its outcome is unknown, so it may have been charged."
		case d.JobID != "" && d.Status != "":
			msg += fmt.Sprintf(" (job %s, %s, %s net).", d.JobID, d.Status, jobs.Credits(d.Net))
		case d.JobID != "":
			msg += " (job " + d.JobID + ")."
		default:
			msg += "."
		}
		msg += " Submitting again starts a new job and is charged again."
	}
	l := wrapping(msg, widget.MediumImportance)
	var dlg *dialog.CustomDialog
	cancel := keys.NewButton("Cancel", func() { dlg.Hide(); no() })
	cancel.Importance = widget.HighImportance
	again := &widget.Button{Text: "Submit again and pay again", Importance: widget.DangerImportance, OnTapped: func() { dlg.Hide(); yes() }}
	dlg = dialog.NewCustomWithoutButtons("Already submitted: pay again?", container.NewVBox(l, container.NewHBox(layout.NewSpacer(), again, cancel)), win)
	keys.Track(win, dlg, cancel.OnTapped, cancel.OnTapped) // never pays twice by a key
	dlg.Resize(fyne.NewSize(560, 0))
	dlg.Show()
	win.Canvas().Focus(cancel)
}

// confirmPay asks once before paying: what the job charges with each
// saving and repair applied (rv), and the balance (or metered usage) after
// it. Pay is the default button, with the focus. It returns the Pay button
// (tests and the harness press it).
func confirmPay(win fyne.Window, what string, q workflow.Quote, rv workflow.Review, yes func(), no func()) *keys.Button {
	l := wrapping(payMessage(what, q, rv), widget.MediumImportance)
	var dlg *dialog.CustomDialog
	answered := false
	cancel := keys.NewButton("Cancel", func() { answered = true; dlg.Hide(); no() })
	pay := keys.NewButton("Pay "+jobs.Credits(q.Credits)+" and submit", func() { answered = true; dlg.Hide(); yes() })
	pay.Importance = widget.HighImportance
	dlg = dialog.NewCustomWithoutButtons("Pay "+jobs.Credits(q.Credits)+"?", container.NewVBox(l, container.NewHBox(layout.NewSpacer(), cancel, pay)), win)
	dlg.SetOnClosed(func() {
		if !answered {
			no()
		}
	})
	keys.Track(win, dlg, pay.OnTapped, cancel.OnTapped) // Enter pays, Escape cancels
	dlg.Resize(fyne.NewSize(560, 0))
	dlg.Show()
	win.Canvas().Focus(pay)
	return pay
}

// The footer's Submit: it leads to the review first.
const submitLabel = "Review before paying…"

// payLabel is Submit's text on the review: what pressing it charges.
func payLabel(q workflow.Quote, priced bool) string {
	if !priced {
		return "Pay and submit…"
	}
	return "Pay " + jobs.Credits(q.Credits) + " and submit…"
}

// setButton sets a button's text and state, touching it only on a change.
func setButton(b *widget.Button, text string, enabled bool) {
	if b.Text != text {
		b.SetText(text)
	}
	if enabled && b.Disabled() {
		b.Enable()
	} else if !enabled && !b.Disabled() {
		b.Disable()
	}
}

// stepTabs selects the tab by steps after the selected one (-1 before),
// going round.
func stepTabs(tabs *container.AppTabs, by int) {
	if tabs == nil || len(tabs.Items) == 0 {
		return
	}
	n := len(tabs.Items)
	tabs.SelectIndex(((tabs.SelectedIndex()+by)%n + n) % n)
}

// ratesProblem says why the cost cannot be shown: the server away (the
// screen tries again by itself), or what the server said.
func ratesProblem(err error) string {
	if workflow.Unreachable(err) {
		return "The server can't be reached, so the cost can't be worked out yet. Trying again by itself every few seconds; Retry tries now."
	}
	return "Rates could not be read: " + workflow.Explain(err, "").What
}

// ratesSummary is the footer's line when the cost cannot be shown.
func ratesSummary(err error) string {
	if workflow.Unreachable(err) {
		return "Cost: waiting for the server, which can't be reached (trying again by itself)"
	}
	return "Cost unknown"
}

// retryLater runs again (on the UI thread) after env.RetryDelay unless ctx
// ends first; the timer pending before is replaced.
func retryLater(env Env, ctx context.Context, pending func() bool, again func()) (stop func() bool) {
	if pending != nil {
		pending()
	}
	if env.RetryDelay <= 0 || ctx.Err() != nil {
		return nil
	}
	return env.after(env.RetryDelay, func() {
		env.Do(func() {
			if ctx.Err() == nil {
				again()
			}
		})
	})
}
