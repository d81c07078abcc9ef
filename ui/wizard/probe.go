//go:build harness

package wizard

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// TraceProbe lets an end-to-end script (package ui/e2e) see and reach the
// widgets of the trace wizard that was opened last, so that it can point
// the real mouse at them. Every method runs on the UI thread.
type TraceProbe struct {
	sessionProbe
	t *Trace
}

// sessionProbe reads what both screens hold in their session.
type sessionProbe struct{ s *session }

// Closed reports whether the screen's dialog is gone.
func (p sessionProbe) Closed() bool { return p.s.ctx.Err() != nil }

// Submit is the Submit button.
func (p sessionProbe) Submit() *widget.Button { return p.s.submitBtn }

// Pay is the Pay button of the confirmation Submit asks; nil before.
func (p sessionProbe) Pay() *keys.Button { return p.s.payBtn }

// lastTrace is the trace wizard opened last (UI thread only).
var lastTrace *Trace

// opened notes the wizard or scrub opened last, for the probes.
func opened(w any) {
	switch v := w.(type) {
	case *Trace:
		lastTrace = v
	case *DNC:
		lastDNC = v
	}
}

// LastTrace is the trace wizard opened last, nil when none was.
func LastTrace() *TraceProbe {
	if lastTrace == nil {
		return nil
	}
	return &TraceProbe{sessionProbe{&lastTrace.session}, lastTrace}
}

// Ready reports whether the file is read, the rates are in and no recount
// is pending: the wizard shows its final numbers.
func (p *TraceProbe) Ready() bool {
	t := p.t
	_, priced := t.quote()
	return t.board != nil && priced && !t.counting && t.summary != nil && t.summary.Text != ""
}

// Tab selects the wizard's tab i (0 file, 1 map, 2 options and cost).
func (p *TraceProbe) Tab(i int) { p.t.tabs.SelectIndex(i) }

// Chip is the header's chip in the pool of columns.
func (p *TraceProbe) Chip(header string) fyne.CanvasObject {
	for _, c := range p.t.board.pool {
		if c.header == header {
			return c
		}
	}
	return nil
}

// Slot is the card of a service field's slot, where chips are dropped.
func (p *TraceProbe) Slot(key string) fyne.CanvasObject {
	if s := p.t.board.slotByK[key]; s != nil {
		return s.card
	}
	return nil
}

// Choose picks header for key in the slot's dropdown ("" clears it): the
// keyboard path of the mapping.
func (p *TraceProbe) Choose(key, header string) {
	s := p.t.board.slotByK[key]
	if header == "" {
		header = notMapped
	}
	s.sel.SetSelected(header)
}

// Find types q in the pool's "Find a column" box (long lists only); it
// reports whether there is one.
func (p *TraceProbe) Find(q string) bool {
	if p.t.board.find == nil {
		return false
	}
	p.t.board.find.SetText(q)
	return true
}

// Reveal scrolls the fields so that key's slot is in view.
func (p *TraceProbe) Reveal(key string) {
	if s := p.t.board.slotByK[key]; s != nil {
		p.t.board.reveal(s)
	}
}

// Columns is how many columns the file has.
func (p *TraceProbe) Columns() int { return len(p.t.ins.Headers) }

// Mapping is the current mapping.
func (p *TraceProbe) Mapping() map[string]string { return p.t.board.mapping() }

// Problems are the problems the board shows, one per line.
func (p *TraceProbe) Problems() string {
	var out []string
	for _, pr := range p.t.board.result.Problems {
		out = append(out, pr.Message)
	}
	return strings.Join(out, "\n")
}

// IncludeLLCs is the include-LLCs check box.
func (p *TraceProbe) IncludeLLCs() *keys.Check { return p.t.llcCheck }

// Summary is the estimate line of the footer.
func (p *TraceProbe) Summary() string { return p.t.summary.Text }

// DNCProbe is TraceProbe for the DNC scrub opened last.
type DNCProbe struct {
	sessionProbe
	d *DNC
}

// lastDNC is the DNC scrub opened last (UI thread only).
var lastDNC *DNC

// LastDNC is the DNC scrub opened last, nil when none was.
func LastDNC() *DNCProbe {
	if lastDNC == nil {
		return nil
	}
	return &DNCProbe{sessionProbe{&lastDNC.session}, lastDNC}
}

// Ready reports whether the phone column is scanned and the rates are in.
func (p *DNCProbe) Ready() bool {
	d := p.d
	return d.submitBtn != nil && d.counts != nil && !d.scanning && d.rates != nil
}

// Summary is the estimate line of the footer.
func (p *DNCProbe) Summary() string { return p.d.summary.Text }

// Reuse is the check box that skips the rows traced before; nil until the
// library is known to hold some.
func (p *TraceProbe) Reuse() *keys.Check {
	if p.t.reuseCtl == nil || !p.t.reuseCtl.box.Visible() {
		return nil
	}
	return p.t.reuseCtl.check
}

// PadZips is the offer to give shortened ZIP codes their zero back; nil
// when not offered.
func (p *TraceProbe) PadZips() *keys.Check {
	if r := p.t.repairs; r != nil && !r.box.Hidden && !r.zipCheck.Hidden {
		return r.zipCheck
	}
	return nil
}

// LeaveOutNoAddress is the offer to leave out the rows without a street;
// nil when not offered.
func (p *TraceProbe) LeaveOutNoAddress() *keys.Check {
	if r := p.t.repairs; r != nil && !r.box.Hidden && !r.addr.Hidden {
		return r.addr
	}
	return nil
}

// CostTotal is the cost section's total.
func (p *TraceProbe) CostTotal() string {
	if p.t.costTotal == nil {
		return ""
	}
	return p.t.costTotal.Text
}

// LeaveOutInvalid is the offer to leave the invalid numbers out; nil when
// not offered.
func (p *DNCProbe) LeaveOutInvalid() *keys.Check {
	if c := p.d.invCheck; c != nil && !c.Hidden {
		return c
	}
	return nil
}

// LeaveOutAbroad is the offer to leave the numbers outside the US out; nil
// when not offered.
func (p *DNCProbe) LeaveOutAbroad() *keys.Check {
	if c := p.d.abCheck; c != nil && !c.Hidden {
		return c
	}
	return nil
}

// AbroadText is what the scrub says of its numbers outside the US.
func (p *DNCProbe) AbroadText() string { return p.d.abroad.Text }

// ShowInvalid scrolls the scrub's details to its list of invalid numbers.
func (p *DNCProbe) ShowInvalid() {
	d := p.d
	d.detailsScroll.ScrollToOffset(fyne.NewPos(0, d.invalid.Position().Y-theme.Padding()))
}

// ScrollTop scrolls the scrub's details back to the top.
func (p *DNCProbe) ScrollTop() { p.d.detailsScroll.ScrollToTop() }

// Cost is the scrub's cost lines.
func (p *DNCProbe) Cost() string { return p.d.costLine.Text }

// ShowCost shows the review step, scrolled down to the cost section.
func (p *TraceProbe) ShowCost() {
	p.t.tabs.SelectIndex(reviewStep)
	p.t.optionsScroll.ScrollToBottom()
}

// ShowReview shows the review step from its top.
func (p *TraceProbe) ShowReview() {
	p.t.tabs.SelectIndex(reviewStep)
	p.t.optionsScroll.ScrollToTop()
}

// Review is the review the review step shows (zero before the price).
func (p *TraceProbe) Review() workflow.Review { return p.t.review.review }

// ShowReview shows the scrub's review step.
func (p *DNCProbe) ShowReview() { p.d.tabs.SelectIndex(dncReviewStep) }

// Review is the review the scrub's review step shows.
func (p *DNCProbe) Review() workflow.Review { return p.d.review.review }

// CostNote is the cost section's note (why there is no price, a warning).
func (p *TraceProbe) CostNote() string {
	if p.t.costWarn == nil {
		return ""
	}
	return p.t.costWarn.Text
}
