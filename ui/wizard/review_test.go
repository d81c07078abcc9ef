package wizard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/testlists"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// Submit pressed from any step leads to the review, and asks nothing
// there yet; on the review it asks before paying, restating each repair.
func TestSubmitFromAnyStepLeadsToTheReview(t *testing.T) {
	f := newFake(traceHeaders, damagedRows)
	h := openTrace(t, f)
	tr := h.tr
	for step := range reviewStep {
		act(func() { tr.tabs.SelectIndex(step) })
		if tr.submitBtn.Text != submitLabel || tr.submitBtn.Disabled() {
			t.Fatalf("step %d: Submit %q (disabled %v)", step+1, tr.submitBtn.Text, tr.submitBtn.Disabled())
		}
		act(func() { test.Tap(tr.submitBtn) })
		if !tr.onReview() || tr.payBtn != nil || len(f.submits) != 0 {
			t.Fatalf("Submit on step %d: review shown %v, asked to pay %v, sent %d", step+1, tr.onReview(), tr.payBtn != nil, len(f.submits))
		}
	}
	rv := tr.review.review
	if !tr.review.shown || rv.Sent != 3 || !strings.HasPrefix(tr.review.sent.Text, "3 rows are sent from owners.csv, for ") {
		t.Fatalf("review %q: %+v", tr.review.sent.Text, rv)
	}
	if !strings.Contains(tr.review.leftOut.Text, "Left out: 1 row — no street address") {
		t.Errorf("left out: %q", tr.review.leftOut.Text)
	}
	q, _ := tr.quote()
	if tr.submitBtn.Text != "Pay "+fmt.Sprint(q.Credits)+" credits and submit…" || tr.submitBtn.Disabled() {
		t.Fatalf("on the review Submit reads %q (disabled %v)", tr.submitBtn.Text, tr.submitBtn.Disabled())
	}
	act(func() { test.Tap(tr.submitBtn) })
	if tr.payBtn == nil {
		t.Fatal("Submit on the review did not ask before paying")
	}
	top := h.w.Canvas().Overlays().Top()
	for _, w := range []string{"With:", "• Give 3 ZIP codes back", "• Leave out 1 row with no street address"} {
		if findLabel(top, w) == nil {
			t.Errorf("the pay question does not restate %q", w)
		}
	}
}

// Ctrl+Tab and Next move between the wizard's steps; Ctrl+Shift+Tab goes
// back.
func TestWizardStepsByKeyboard(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	tr := h.tr
	act(func() { tr.show() })
	act(func() { tr.tabs.SelectIndex(0) })
	c := h.w.Canvas()
	for want := 1; want <= reviewStep; want++ {
		act(func() { c.(fyne.Shortcutable).TypedShortcut(keys.NextStep) })
		if got := tr.tabs.SelectedIndex(); got != want {
			t.Fatalf("Ctrl+Tab: step %d, want %d", got+1, want+1)
		}
	}
	act(func() { c.(fyne.Shortcutable).TypedShortcut(keys.PrevStep) })
	if got := tr.tabs.SelectedIndex(); got != reviewStep-1 {
		t.Fatalf("Ctrl+Shift+Tab: step %d", got+1)
	}
}

// A phone list whose numbers are all invalid is refused before any
// charge from the window: with the invalid numbers left out (the default)
// nothing is left to send, and sent anyway every number would be charged
// and refunded; the review says so and Pay is off; were the send forced,
// the application layer refuses it and the balance stays.
func TestWindowRefusesNothingBillable(t *testing.T) {
	svc := openOn(t, startSandbox(t, sandbox.DefaultConfig()), workflow.Config{Home: t.TempDir()})
	defer svc.Close()
	before, err := svc.Sessions().Account(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("Name,Cell\r\n")
	for i := range 60 {
		fmt.Fprintf(&b, "Lead %d,555-01%02d\r\n", i, i) // seven digits: invalid
	}
	w := newWindow(t, fyne.NewSize(1180, 760))
	sent := make(chan string, 1)
	d := dncOn(t, w, FromWorkflow(svc), testlists.WriteFile(t, "phones.csv", b.String()), sent)
	act(func() { test.Tap(d.submitBtn) }) // to the review
	for _, tc := range []struct {
		leaveOut bool
		says     string
	}{
		{true, "no phone number is left to scrub"},
		{false, "none of its phone numbers is a valid US number"},
	} {
		act(func() { d.invCheck.SetChecked(tc.leaveOut) })
		if !strings.Contains(d.review.nothing.Text, tc.says) || d.review.nothing.Hidden || !d.submitBtn.Disabled() {
			t.Fatalf("left out %v: %q (hidden %v), Pay disabled %v", tc.leaveOut, d.review.nothing.Text, d.review.nothing.Hidden, d.submitBtn.Disabled())
		}
		act(func() { d.submit() }) // Enter on the review: nothing asked
		if d.payBtn != nil {
			t.Fatal("asked to pay for nothing")
		}
		// Forced past the screen, the layer refuses before any charge.
		q, ok := d.quote()
		if !ok {
			t.Fatal("not priced")
		}
		_, err := svc.Submissions().Submit(context.Background(), d.plan(), d.ins, workflow.SubmitOptions{Quote: &q})
		if !errors.Is(err, workflow.ErrNothingBillable) {
			t.Fatalf("the layer took it: %v", err)
		}
	}
	select {
	case id := <-sent:
		t.Fatalf("submitted %s", id)
	default:
	}
	after, err := svc.Sessions().Account(t.Context())
	if err != nil || after.Credits != before.Credits {
		t.Fatalf("balance %d → %d (%v)", before.Credits, after.Credits, err)
	}
}
