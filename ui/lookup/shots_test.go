package lookup

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/client"
)

func TestLookupScreen(t *testing.T) {
	dir := os.Getenv("WIZARD_SHOTS")
	if dir == "" {
		t.Skip("set WIZARD_SHOTS=dir to save a screenshot of the single lookup")
	}
	f := &fake{res: &client.SingleTraceResult{Matched: true, FirstName: "JOHN", LastName: "SMITH",
		Phones: []client.Phone{{Number: "2125550147", Type: "mobile"}, {Number: "2125550148", Type: "landline"}},
		Emails: []string{"john.smith@example.com"}, Credits: 1}}
	s, w := open(t, f)
	fillRequired(s)
	typeIn(s.mStreet, "PO Box 9")
	typeIn(s.state, "Texas")
	act(func() { test.Tap(s.lookupBtn) })
	idle(t, s)
	typeIn(s.state, "TX")
	typeIn(s.mCity, "Austin")
	typeIn(s.mState, "TX")
	typeIn(s.mZip, "78702")
	act(func() { test.Tap(s.lookupBtn) })
	idle(t, s)
	out, err := os.Create(filepath.Join(dir, "lookup.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := png.Encode(out, w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
}
