package wizard

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs/testlists"
)

const phoneList = "Name,Cell,Home\r\n" +
	"Ann,(212) 555-0147,\r\n" +
	"Bob,,2125550148\r\n" +
	"Cy,1-212-555-0147 x12,\r\n" +
	"Di,1.23E+10,\r\n"

type dncHarness struct {
	d    *DNC
	w    fyne.Window
	f    *fakeBackend
	done chan string
}

func openDNC(t *testing.T, path string) *dncHarness {
	t.Helper()
	w := newWindow(t, fyne.NewSize(1200, 850))
	h := &dncHarness{w: w, f: newFake(nil, nil), done: make(chan string, 1)}
	h.d = dncOn(t, w, h.f, path, h.done)
	return h
}

// calls are the readings, inspections and counts the screen asked for.
func (h *dncHarness) calls() (reads, inspects, counts int) {
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	return h.f.reads, h.f.inspects, h.f.counts
}

func TestDNCDetectsThePhoneColumnAndShowsNormalisation(t *testing.T) {
	h := openDNC(t, testlists.WriteFile(t, "phones.csv", phoneList))
	d := h.d
	if d.colSel.Selected != "Cell" {
		t.Fatalf("phone column = %q, want Cell", d.colSel.Selected)
	}
	// The column found is scanned in the reading that inspects the list.
	if r, i, c := h.calls(); r != 1 || i != 0 || c != 0 {
		t.Fatalf("opening read the list %d times, inspected it %d times and scanned it %d times; want one reading", r, i, c)
	}
	for _, want := range []string{"4 rows", "2 valid", "2 invalid (1 blank)", "1 duplicate"} {
		if !strings.Contains(d.scanLine.Text, want) {
			t.Errorf("counts %q lack %q", d.scanLine.Text, want)
		}
	}
	if !strings.Contains(d.examples.Text, "(212) 555-0147  ->") {
		t.Errorf("examples = %q", d.examples.Text)
	}
	if !strings.Contains(d.invalid.Text, "1.23E+10") || !strings.Contains(d.invalid.Text, "scientific") {
		t.Errorf("invalid = %q", d.invalid.Text)
	}
	// The invalid numbers are left out by default; sent, they are
	// charged and refunded.
	if d.costLine.Text != "2 phones × 1 = 2 credits\nLeft out: 2 invalid numbers (not charged)" || !d.invCheck.Checked {
		t.Errorf("cost = %q", d.costLine.Text)
	}
	act(func() { d.invCheck.SetChecked(false) })
	if d.costLine.Text != "4 phones × 1 = 4 credits" {
		t.Errorf("cost = %q", d.costLine.Text)
	}
	if !strings.Contains(d.costAfter.Text, "2 credits refunded") {
		t.Errorf("after = %q", d.costAfter.Text)
	}
	if d.submitBtn.Disabled() {
		t.Fatal("submit disabled")
	}

	// Another column: scanned again.
	act(func() { d.colSel.SetSelected("Home") })
	idle(t, d.bg)
	if !strings.Contains(d.scanLine.Text, "1 valid") || !strings.Contains(d.scanLine.Text, "3 invalid (3 blank)") {
		t.Fatalf("after choosing Home: %q", d.scanLine.Text)
	}
	if _, _, c := h.calls(); c != 1 {
		t.Fatalf("another column scanned %d times, want once", c)
	}

	act(func() { tapSubmit(d.submitBtn, &d.payBtn) })
	idle(t, d.bg)
	if id := recv(t, h.done, "onDone"); id != "dnc_new" {
		t.Fatalf("onDone(%q)", id)
	}
	if s := h.f.submits; len(s) != 1 || s[0].plan.Mapping["phone"] != "Home" || filepath.Base(s[0].plan.Path) != "phones.csv" {
		t.Fatalf("submitted %+v", s)
	}
}

func TestDNCShortfallDisablesSubmit(t *testing.T) {
	w := newWindow(t, fyne.Size{})
	f := newFake(nil, nil)
	f.account.Credits = 3
	d := dncOn(t, w, f, testlists.WriteFile(t, "phones.csv", phoneList), nil)
	act(func() { d.invCheck.SetChecked(false) }) // 4 phones sent: 4 credits
	act(func() { test.Tap(d.submitBtn) })        // to the review
	if !d.submitBtn.Disabled() || !strings.Contains(d.costWarn.Text, "needs 1 more") {
		t.Fatalf("submit disabled %v, warning %q", d.submitBtn.Disabled(), d.costWarn.Text)
	}
}

func TestDNCFromTraceScrubsTheTracePhones(t *testing.T) {
	w := newWindow(t, fyne.NewSize(1200, 850))
	f := newFake(nil, nil)
	f.phones = testlists.WriteFile(t, "trace-phones.csv", "phone\r\n2125550147\r\n2125550148\r\n")
	done := make(chan string, 1)
	var d *DNC
	act(func() { d = NewDNCFromTrace(w, f, testEnv, "/lib/result.csv", "trc_1", func(id string) { done <- id }) })
	idle(t, d.bg)
	if d.column != "phone" || !strings.Contains(d.scanLine.Text, "2 valid") {
		t.Fatalf("column %q, counts %q", d.column, d.scanLine.Text)
	}
	act(func() { tapSubmit(d.submitBtn, &d.payBtn) })
	idle(t, d.bg)
	if id := recv(t, done, "onDone"); id != "dnc_new" {
		t.Fatalf("onDone(%q)", id)
	}
	// The scrub is linked to its trace, as `dnc submit --from-trace` links it.
	if s := f.submits; len(s) != 1 || s[0].plan.ParentTraceID != "trc_1" {
		t.Fatalf("submitted %+v", s)
	}
}

// A workbook holding phones on two sheets: the first is read and the
// other named; choosing it reads the list again from it, and the scrub
// sends that sheet.
func TestDNCChoosesTheSheetOfAWorkbook(t *testing.T) {
	path := testlists.WriteWorkbook(t, "phones.xlsx",
		testlists.Sheet{Name: "Sheet1", Rows: [][]any{{"Name", "Cell"}, {"Ann", "(212) 555-0147"}, {"Bob", "2125550148"}}},
		testlists.Sheet{Name: "Texts", Rows: [][]any{{"Mobile"}, {"3055550101"}, {"3055550102"}, {"3055550103"}}})
	h := openDNC(t, path)
	d := h.d
	if d.ins.Sheet != "Sheet1" || d.sheetSel == nil || strings.Join(d.sheetSel.Options, ",") != "Sheet1,Texts" ||
		!strings.Contains(d.warnings.Text, `sheet "Texts" holds rows too, not read`) {
		t.Fatalf("sheet %q, choice %v, warnings %q", d.ins.Sheet, d.sheetSel, d.warnings.Text)
	}
	saveShot(t, h.w, "dnc-sheets")
	act(func() { d.sheetSel.SetSelected("Texts") })
	idle(t, d.bg)
	if d.ins.Sheet != "Texts" || d.ins.Rows != 3 || d.colSel.Selected != "Mobile" || d.sheetSel.Selected != "Texts" {
		t.Fatalf("after choosing Texts: sheet %q, %d rows, column %q", d.ins.Sheet, d.ins.Rows, d.colSel.Selected)
	}
	act(func() { tapSubmit(d.submitBtn, &d.payBtn) })
	idle(t, d.bg)
	recv(t, h.done, "onDone")
	if s := h.f.submits; len(s) != 1 || s[0].plan.Input.Sheet != "Texts" || s[0].plan.Mapping["phone"] != "Mobile" {
		t.Fatalf("submitted %+v", s)
	}
}
