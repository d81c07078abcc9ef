package wizard

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The review before paying (workflow.Review): every submission of the
// window passes through it, whichever step Submit is pressed from. It
// says what is sent and what is left out and why, and holds the savings
// and the repairs (the wizard's own check boxes, on by default where they
// only save money and lose nothing), the warnings about the values, and
// the cost. The pay question then restates the total with each saving and
// repair applied.

// reviewPanel is the review step's words; the wizard adds its check boxes
// and its cost section beside them.
type reviewPanel struct {
	sent     *widget.Label // what is sent and charged
	leftOut  *widget.Label // what is left out, and why
	warnings *widget.Label // what may be wrong with the values
	nothing  *widget.Label // nothing to charge for: not sent
	review   workflow.Review
	shown    bool // a review is shown (the quote was in)
}

func newReviewPanel() *reviewPanel {
	r := &reviewPanel{sent: widget.NewLabel("Working out what is sent…"), leftOut: widget.NewLabel(""),
		warnings: widget.NewLabel(""), nothing: widget.NewLabel("")}
	for _, l := range []*widget.Label{r.sent, r.leftOut, r.warnings, r.nothing} {
		l.Wrapping = fyne.TextWrapWord
	}
	r.sent.TextStyle = fyne.TextStyle{Bold: true}
	r.warnings.Importance = widget.WarningImportance
	r.nothing.Importance = widget.DangerImportance
	r.leftOut.Hide()
	r.warnings.Hide()
	r.nothing.Hide()
	return r
}

// box lays the review out around the wizard's savings, repairs and cost.
func (r *reviewPanel) box(savings, repairs, cost fyne.CanvasObject) *fyne.Container {
	bold := func(s string) *widget.Label {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	return container.NewVBox(
		bold("What is sent"), r.sent, r.leftOut, r.nothing, r.warnings,
		widget.NewSeparator(), bold("Savings"), savings,
		repairs,
		widget.NewSeparator(), bold("Cost"), cost,
	)
}

// show sets the review out (priced false: not known yet).
func (r *reviewPanel) show(rv workflow.Review, priced bool, waiting string) {
	r.review, r.shown = rv, priced
	if !priced {
		setText(r.sent, waiting)
		r.leftOut.Hide()
		r.nothing.Hide()
		return
	}
	what := jobs.Plural(int64(rv.Sent), "row is", "rows are")
	if rv.Kind == jobs.KindDNC {
		what = jobs.Plural(int64(rv.Sent), "phone is", "phones are")
	}
	setText(r.sent, fmt.Sprintf("%s sent from %s, for %s.", what, rv.File, jobs.Credits(rv.Credits)))
	var lines []string
	for _, l := range rv.LeftOut {
		lines = append(lines, fmt.Sprintf("• Left out: %s — %s.", jobs.Plural(int64(l.Rows), "row", "rows"), l.Why))
	}
	setShown(r.leftOut, strings.Join(lines, "\n"))
	setShown(r.warnings, bullets("Check: ", rv.Warnings))
	nothing := ""
	if rv.Nothing != "" {
		nothing = "Nothing to charge for: " + rv.Nothing + ". It cannot be sent."
	}
	setShown(r.nothing, nothing)
}

// setShown sets a label's text and shows it, or hides it when s is "".
func setShown(l *widget.Label, s string) {
	setText(l, s)
	showIf(l, s != "")
}

func bullets(prefix string, lines []string) string {
	var b strings.Builder
	for i, s := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("• " + prefix + s)
	}
	return b.String()
}

// payMessage is the pay question's text: the total, each saving and repair
// applied, what is left out, and the balance after.
func payMessage(what string, q workflow.Quote, rv workflow.Review) string {
	p := paymentOf(q, what)
	rows := plural(q.Rows, "row", "rows")
	if q.DNC != nil {
		rows = plural(q.Rows, "phone", "phones")
	}
	msg := fmt.Sprintf("This %s of %s is charged %s now.\n", what, rows, jobs.Credits(q.Credits))
	if p.Metered {
		msg += fmt.Sprintf("Your unbilled usage goes from %s to %s credits.", jobs.Thousands(p.Balance), jobs.Thousands(p.After))
	} else {
		msg += fmt.Sprintf("Your balance goes from %s to %s credits.", jobs.Thousands(p.Balance), jobs.Thousands(p.After))
	}
	if q.DNC != nil && q.DNC.Refund > 0 {
		msg += fmt.Sprintf("\n%s come back when the job completes (invalid numbers).", jobs.Credits(q.DNC.Refund))
	}
	if applied := rv.Applied(); len(applied) > 0 {
		msg += "\n\nWith:\n" + bullets("", applied)
	}
	return msg
}
