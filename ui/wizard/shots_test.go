package wizard

import (
	"os"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs/testlists"
	"github.com/skipdesk/skipdesk/ui/internal/uitest"
)

// saveShot writes the window to $WIZARD_SHOTS/name.png when that variable is
// set: a way to look at the screens without a display.
func saveShot(t *testing.T, w fyne.Window, name string) {
	t.Helper()
	uitest.SaveShot(t, "WIZARD_SHOTS", name+".png", w.Canvas().Capture)
}

func TestTraceScreens(t *testing.T) {
	if os.Getenv("WIZARD_SHOTS") == "" {
		t.Skip("set WIZARD_SHOTS=dir to save screenshots of the wizard")
	}
	f := newFake(traceHeaders, traceRows)
	f.rows = append(f.rows, f.rows[0]) // one duplicate row
	h := openTrace(t, f)
	h.w.Resize(fyne.NewSize(1280, 800))
	saveShot(t, h.w, "trace-1-file")
	act(func() { h.tr.tabs.SelectIndex(1) })
	m := fullMapping()
	delete(m, "mailing_zip")
	m["property_city"] = "Town"
	h.set(t, m)
	saveShot(t, h.w, "trace-2-map")
	act(func() { h.tr.tabs.SelectIndex(2); h.tr.llcCheck.SetChecked(true) })
	h.settle(t)
	saveShot(t, h.w, "trace-3-options")
}

func TestDNCScreen(t *testing.T) {
	if os.Getenv("WIZARD_SHOTS") == "" {
		t.Skip("set WIZARD_SHOTS=dir to save screenshots of the DNC scrub")
	}
	h := openDNC(t, testlists.WriteFile(t, "phones.csv", phoneList))
	saveShot(t, h.w, "dnc")
	h = openDNC(t, testlists.WriteFile(t, "abroad.csv", phoneList+"Ed,(416) 555-0199,\r\nFi,876-555-0102,\r\n"))
	h.w.Resize(fyne.NewSize(1280, 800))
	saveShot(t, h.w, "dnc-abroad")
	act(func() { h.d.tabs.SelectIndex(dncReviewStep) })
	saveShot(t, h.w, "dnc-abroad-review")
}
