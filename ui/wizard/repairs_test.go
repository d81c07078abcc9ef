package wizard

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// damagedRows: three ZIP codes Excel shortened, one row with no street.
var damagedRows = [][]string{
	{"JOHN", "SMITH", "1 MAIN ST", "HOBOKEN", "NJ", "7030", "", "", "", ""},
	{"MARY", "JONES", "", "NEWARK", "NJ", "7102", "", "", "", ""},
	{"ANN", "LEE", "3 ELM RD", "HOUSTON", "TX", "77002", "", "", "", ""},
	{"BO", "WU", "4 PINE LN", "BOSTON", "MA", "2108", "", "", "", ""},
}

// TestTraceRepairsBeforePaying: the review offers to give the shortened
// ZIP codes their zero back (with an example) and to leave out the row
// without a street, both on by default; the cost counts without it (and
// with it once turned off), Submit asks once with the total, each repair
// and the balance after, and the plan sent carries the repairs.
func TestTraceRepairsBeforePaying(t *testing.T) {
	f := newFake(traceHeaders, damagedRows)
	h := openTrace(t, f)
	tr := h.tr
	if tr.repairs.box.Hidden || tr.repairs.zipCheck.Hidden || tr.repairs.addr.Hidden {
		t.Fatal("the repairs are not offered")
	}
	if s := tr.repairs.zipCheck.Text; s != "Give 3 ZIP codes back the leading zero Excel dropped" {
		t.Errorf("zip offer %q", s)
	}
	if s := tr.repairs.zipNote.Text; !strings.Contains(s, `"7030" becomes "07030"`) {
		t.Errorf("zip example %q", s)
	}
	if s := tr.repairs.addr.Text; !strings.Contains(s, `Leave out the 1 row with no street address in "Property Address"`) {
		t.Errorf("address offer %q", s)
	}
	if !tr.repairs.zipCheck.Checked || !tr.repairs.addr.Checked {
		t.Fatal("the repairs that lose nothing are not on by default")
	}
	if findLabel(tr.costGrid, "Left out: 1 row with no street address (not charged)") == nil || findLabel(tr.costGrid, "ZIP codes repaired in the rows sent: 2") == nil {
		t.Fatalf("cost %q without the repairs made", tr.costTotal.Text)
	}
	with := tr.costTotal.Text
	act(func() { tr.repairs.addr.SetChecked(false) })
	h.settle(t)
	if tr.costTotal.Text == with || findLabel(tr.costGrid, "Left out: 1 row with no street address (not charged)") != nil {
		t.Fatalf("cost %q → %q with the row sent", with, tr.costTotal.Text)
	}
	act(func() { tr.repairs.addr.SetChecked(true) })
	h.settle(t)

	// Submit asks once, with the total and the balance after.
	q, _ := tr.quote()
	act(func() { pressSubmit(tr.submitBtn, &tr.payBtn) })
	if tr.payBtn == nil {
		t.Fatal("Submit did not ask before paying")
	}
	top := h.w.Canvas().Overlays().Top()
	want := fmt.Sprintf("Your balance goes from 1,000 to %s credits", jobs.Thousands(1000-q.Credits))
	if findLabel(top, want) == nil || findLabel(top, "3 rows is charged "+jobs.Credits(q.Credits)) == nil {
		t.Fatalf("the confirmation does not say %q", want)
	}
	for _, w := range []string{"• Give 3 ZIP codes back the leading zero Excel dropped", "• Leave out 1 row with no street address"} {
		if findLabel(top, w) == nil {
			t.Errorf("the confirmation does not restate %q", w)
		}
	}
	if len(f.submits) != 0 {
		t.Fatal("sent before the person confirmed")
	}
	act(func() { test.Tap(tr.payBtn) })
	recv(t, h.done, "onDone")
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.submits) != 1 || !f.submits[0].plan.PadZips || !f.submits[0].plan.LeaveOutNoAddress {
		t.Fatalf("submitted %+v", f.submits)
	}
}

// TestTraceConfirmCancelSendsNothing: Cancel in the confirmation sends
// nothing and leaves Submit ready.
func TestTraceConfirmCancelSendsNothing(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	h := openTrace(t, f)
	act(func() { pressSubmit(h.tr.submitBtn, &h.tr.payBtn) })
	cancel := findButton(h.w.Canvas().Overlays().Top(), "Cancel")
	if cancel == nil {
		t.Fatal("no Cancel in the confirmation")
	}
	act(func() { test.Tap(cancel) })
	h.settle(t)
	if len(f.submits) != 0 || h.tr.submitBtn.Disabled() || h.tr.ctx.Err() != nil {
		t.Fatalf("after Cancel: %d submissions, submit disabled %v", len(f.submits), h.tr.submitBtn.Disabled())
	}
}

// TestTraceWithoutNamesOffersSplitOrEnhanced: a single full-name column
// is offered as a split into first and last names; without any name,
// Enhanced mode is offered, and one tap chooses it.
func TestTraceWithoutNamesOffersSplitOrEnhanced(t *testing.T) {
	headers := []string{"Owner Name", "Property Address", "Property City", "Property State", "Property Zip"}
	rows := [][]string{{"JOHN SMITH", "1 MAIN ST", "AUSTIN", "TX", "78701"}, {"MARY JONES", "3 ELM RD", "HOUSTON", "TX", "77002"}}
	h := openTrace(t, newFake(headers, rows))
	r := h.tr.repairs
	if r.box.Hidden || r.split.Hidden || r.split.Text != `Split "Owner Name" into first and last names` || r.enhanced.Hidden {
		t.Fatalf("offer: box hidden %v, split %q (hidden %v), enhanced hidden %v", r.box.Hidden, r.split.Text, r.split.Hidden, r.enhanced.Hidden)
	}
	act(func() { test.Tap(r.split) })
	h.settle(t)
	if m := h.tr.board.mapping(); m[mapping.FirstName] == "" || m[mapping.LastName] == "" || !r.names.Hidden || h.tr.submitBtn.Disabled() {
		t.Fatalf("after the split: mapping %v, names help shown %v, submit disabled %v", m, !r.names.Hidden, h.tr.submitBtn.Disabled())
	}

	headers = []string{"Property Address", "Property City", "Property State", "Property Zip"}
	h = openTrace(t, newFake(headers, [][]string{{"1 MAIN ST", "AUSTIN", "TX", "78701"}}))
	r = h.tr.repairs
	if r.box.Hidden || !r.split.Hidden || r.enhanced.Hidden || !strings.Contains(r.names.Text, "Enhanced mode") {
		t.Fatalf("no names: split shown %v, enhanced hidden %v, %q", !r.split.Hidden, r.enhanced.Hidden, r.names.Text)
	}
	act(func() { test.Tap(r.enhanced) })
	h.settle(t)
	if h.tr.mode != jobs.ModeEnhanced || !r.box.Hidden || h.tr.submitBtn.Disabled() {
		t.Fatalf("after Enhanced: mode %q, offer shown %v, submit disabled %v", h.tr.mode, !r.box.Hidden, h.tr.submitBtn.Disabled())
	}
}

// TestDNCLeavesOutInvalidBeforePaying: the invalid numbers are listed (the
// first ones, then "and N more"), leaving them out lowers the price with no
// refund to wait for, and the plan sent carries the choice.
func TestDNCLeavesOutInvalidBeforePaying(t *testing.T) {
	var b strings.Builder
	b.WriteString("Name,Cell\r\n")
	for i := range 30 {
		fmt.Fprintf(&b, "P%d,555-01%02d\r\n", i, i) // 7 digits: invalid
	}
	b.WriteString("Ann,(212) 555-0147\r\nBo,305 555 0101\r\n")
	h := openDNC(t, testlists.WriteFile(t, "phones.csv", b.String()))
	d := h.d
	if !strings.Contains(d.invalid.Text, "and 20 more") || strings.Count(d.invalid.Text, "line ") != shownInvalid {
		t.Errorf("invalid list %q", d.invalid.Text)
	}
	if d.invCheck.Hidden || !strings.Contains(d.invCheck.Text, "Leave out the 30 invalid numbers") {
		t.Fatalf("offer %q (hidden %v)", d.invCheck.Text, d.invCheck.Hidden)
	}
	act(func() { d.invCheck.SetChecked(true) })
	if !strings.HasPrefix(d.costLine.Text, "2 phones × 1 = 2 credits") || !strings.Contains(d.costLine.Text, "Left out: 30 invalid numbers (not charged)") ||
		strings.Contains(d.costAfter.Text, "refunded") || !strings.Contains(d.invalid.Text, "left out of the upload") {
		t.Fatalf("cost %q, after %q", d.costLine.Text, d.costAfter.Text)
	}
	act(func() { pressSubmit(d.submitBtn, &d.payBtn) })
	top := h.w.Canvas().Overlays().Top()
	if findLabel(top, "This scrub of 2 phones is charged 2 credits") == nil || findLabel(top, "from 1,000 to 998 credits") == nil {
		t.Fatal("the confirmation does not say the total and the balance after")
	}
	act(func() { test.Tap(d.payBtn) })
	idle(t, d.bg)
	recv(t, h.done, "onDone")
	if s := h.f.submits; len(s) != 1 || !s[0].plan.LeaveOutInvalid {
		t.Fatalf("submitted %+v", s)
	}
}

// TestDNCLeavesOutAbroadBeforePaying: numbers outside the US are listed
// with their country and left out by default (a US scrub charges for them
// and cannot answer them); turned off they are priced and sent, and the
// plan sent carries the choice.
func TestDNCLeavesOutAbroadBeforePaying(t *testing.T) {
	h := openDNC(t, testlists.WriteFile(t, "phones.csv",
		"Name,Cell\r\nAnn,(416) 555-0147\r\nBo,305 555 0101\r\nCy,1-876-555-0102\r\nDi,(212) 555-0147\r\nEd,604.555.0199\r\n"))
	d := h.d
	if d.abCheck.Hidden || !d.abCheck.Checked || !strings.Contains(d.abCheck.Text, "Leave out the 3 numbers outside the US") {
		t.Fatalf("offer %q (hidden %v, on %v)", d.abCheck.Text, d.abCheck.Hidden, d.abCheck.Checked)
	}
	if !strings.Contains(d.abroad.Text, "line 2: (416) 555-0147 — Canada") || !strings.Contains(d.abroad.Text, "line 4: 1-876-555-0102 — Jamaica") ||
		!strings.Contains(d.abroad.Text, "left out of the upload") {
		t.Errorf("numbers abroad %q", d.abroad.Text)
	}
	if !strings.HasPrefix(d.costLine.Text, "2 phones × 1 = 2 credits") || !strings.Contains(d.costLine.Text, "Left out: 3 numbers outside the US (not charged)") {
		t.Fatalf("cost with them left out %q", d.costLine.Text)
	}
	act(func() { d.abCheck.SetChecked(false) })
	if !strings.HasPrefix(d.costLine.Text, "5 phones × 1 = 5 credits") || strings.Contains(d.costLine.Text, "outside the US") ||
		!strings.Contains(d.abroad.Text, "are charged") {
		t.Fatalf("cost with them sent %q; %q", d.costLine.Text, d.abroad.Text)
	}
	act(func() { d.abCheck.SetChecked(true) })
	act(func() { pressSubmit(d.submitBtn, &d.payBtn) })
	act(func() { test.Tap(d.payBtn) })
	idle(t, d.bg)
	recv(t, h.done, "onDone")
	if s := h.f.submits; len(s) != 1 || !s[0].plan.LeaveOutAbroad {
		t.Fatalf("submitted %+v", s)
	}
}

// TestTraceCostWhileTheServerIsAway: the cost section says the server
// can't be reached in plain words (no transport text), offers Retry, and
// prices by itself once the server is back.
func TestTraceCostWhileTheServerIsAway(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.ratesErr = &url.Error{Op: "Get", URL: "https://api.example.com/v1/pricing",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
	h := openTrace(t, f)
	tr := h.tr
	act(func() { tr.modeRadio.SetSelected("Enhanced") })
	h.settle(t)
	var warn string
	var retry bool
	var blank bool // a line of the price shown with nothing in it
	act(func() {
		warn, retry = tr.costWarn.Text, tr.costRetry.Visible()
		blank = tr.costGrid.Visible() || tr.costTotal.Visible() || tr.costAfter.Visible()
	})
	if !strings.Contains(warn, "can't be reached") || strings.Contains(warn, "dial") || !retry {
		t.Fatalf("cost %q, retry shown %v", warn, retry)
	}
	if blank {
		t.Error("the price's lines, total and balance stand empty above the reason it has none")
	}
	f.mu.Lock()
	f.ratesErr = nil
	f.mu.Unlock()
	// The retry's time comes: the rates are read again, by themselves.
	if retries.fire() == 0 {
		t.Fatal("no retry was armed while the server was away")
	}
	h.settle(t)
	var total string
	act(func() {
		total, retry = tr.costTotal.Text, tr.costRetry.Visible()
		blank = !tr.costGrid.Visible() || !tr.costTotal.Visible() || !tr.costAfter.Visible()
	})
	if !strings.HasPrefix(total, "Total:") || retry || blank {
		t.Fatalf("not priced after the server came back: %q (a line hidden: %v)", total, blank)
	}
}

// TestKeysInTheWizard: Escape in the question before paying cancels it
// (nothing sent), Enter in it pays; Escape on the wizard closes it.
func TestKeysInTheWizard(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	h := openTrace(t, f)
	tr := h.tr
	act(func() { tr.show() })
	c := h.w.Canvas()
	press := func(k fyne.KeyName) {
		act(func() {
			if fo := c.Focused(); fo != nil {
				fo.TypedKey(&fyne.KeyEvent{Name: k})
			} else {
				c.OnTypedKey()(&fyne.KeyEvent{Name: k})
			}
		})
	}
	act(func() { pressSubmit(tr.submitBtn, &tr.payBtn) })
	press(fyne.KeyEscape)
	h.settle(t)
	if len(f.submits) != 0 || tr.ctx.Err() != nil || tr.submitBtn.Disabled() {
		t.Fatalf("Escape in the question: %d sent, wizard closed %v", len(f.submits), tr.ctx.Err() != nil)
	}
	act(func() { c.Unfocus() })
	press(fyne.KeyEscape)
	if tr.ctx.Err() == nil {
		t.Fatal("Escape left the wizard open")
	}

	h = openTrace(t, f)
	act(func() { h.tr.show() })
	c = h.w.Canvas()
	act(func() { pressSubmit(h.tr.submitBtn, &h.tr.payBtn) })
	press(fyne.KeyReturn)
	recv(t, h.done, "onDone")
	if len(f.submits) != 1 {
		t.Fatalf("Enter in the question: %d sent", len(f.submits))
	}

	// Typing in a field of the wizard, Escape closes it too.
	h = openTrace(t, f)
	act(func() { h.tr.show() })
	c = h.w.Canvas()
	act(func() { c.Focus(h.tr.presetName) })
	press(fyne.KeyEscape)
	if h.tr.ctx.Err() == nil {
		t.Fatal("Escape in the preset's name left the wizard open")
	}
}

// TestDNCCostWhileTheServerIsAway: the scrub's cost says the server can't
// be reached, offers Retry, and prices by itself once it is back.
func TestDNCCostWhileTheServerIsAway(t *testing.T) {
	w := newWindow(t, fyne.NewSize(1200, 850))
	f := newFake(nil, nil)
	f.ratesErr = &url.Error{Op: "Get", URL: "https://api.example.com/v1/pricing",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
	d := dncOn(t, w, f, testlists.WriteFile(t, "phones.csv", phoneList), nil)
	var warn, summary string
	var retry bool
	var blank bool // a line of the price shown with nothing in it
	act(func() {
		warn, summary, retry = d.costWarn.Text, d.summary.Text, d.costRetry.Visible()
		blank = d.costLine.Visible() || d.costAfter.Visible()
	})
	if !strings.Contains(warn, "can't be reached") || strings.Contains(warn, "dial") || !retry || !strings.Contains(summary, "waiting for the server") {
		t.Fatalf("cost %q, summary %q, retry shown %v", warn, summary, retry)
	}
	if blank {
		t.Error("the price's line and balance stand empty above the reason it has none")
	}
	f.mu.Lock()
	f.ratesErr = nil
	f.mu.Unlock()
	// The retry's time comes: the rates are read again, by themselves.
	if retries.fire() == 0 {
		t.Fatal("no retry was armed while the server was away")
	}
	idle(t, d.bg)
	var cost string
	act(func() {
		cost, retry = d.costLine.Text, d.costRetry.Visible()
		blank = !d.costLine.Visible() || !d.costAfter.Visible()
	})
	if !strings.Contains(cost, "credits") || retry || strings.Contains(cost, "per phone") || blank {
		t.Fatalf("not priced after the server came back: %q (a line hidden: %v)", cost, blank)
	}
}
