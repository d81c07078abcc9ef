package wizard

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

var boardHeaders = []string{"Owner First", "Owner Last", "Situs Street", "Situs City", "Situs State", "Situs Zip", "Notes"}

var boardSample = [][]string{
	{"JOHN", "SMITH", "1 MAIN ST", "AUSTIN", "TX", "78701", ""},
	{"MARY", "JONES", "2 OAK AVE", "DALLAS", "TX", "75201", "call later"},
}

func center(o fyne.CanvasObject) fyne.Position {
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return at.Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/2))
}

// dragTo drags obj (a chip) onto target with the test driver.
func dragTo(c fyne.Canvas, obj, target fyne.CanvasObject) {
	from, to := center(obj), center(target)
	test.Drag(c, from, to.X-from.X, to.Y-from.Y)
}

func newTestBoard(t *testing.T) (*board, fyne.Window) {
	t.Helper()
	return boardWindow(t, boardHeaders, boardSample, fyne.NewSize(1100, 800))
}

// boardWindow is a mapping board of headers and rows, alone in a new test
// window of size.
func boardWindow(t testing.TB, headers []string, rows [][]string, size fyne.Size) (*board, fyne.Window) {
	test.NewTempApp(t)
	b := newBoard(headers, rows, checkFor(headers))
	w := test.NewTempWindow(t, b.object())
	w.Resize(size)
	return b, w
}

func TestDragChipOntoSlotMapsAndRevalidates(t *testing.T) {
	b, w := newTestBoard(t)
	name := b.groups[mapping.GroupName].problem
	if !strings.Contains(name.Text, "Owner first name and Owner last name") {
		t.Fatalf("before: name group problem = %q, want both names missing", name.Text)
	}
	dragTo(w.Canvas(), b.pool[0], b.slotByK[mapping.FirstName].card)
	if got := b.m[mapping.FirstName]; got != "Owner First" {
		t.Fatalf("first_name = %q after drop, want %q", got, "Owner First")
	}
	if !strings.Contains(name.Text, "choose the column of Owner last name") || strings.Contains(name.Text, "Owner first name") {
		t.Fatalf("after: name group problem = %q, want only last_name missing", name.Text)
	}
	if b.slotByK[mapping.FirstName].sel.Selected != "Owner First" {
		t.Fatalf("select shows %q", b.slotByK[mapping.FirstName].sel.Selected)
	}
	if b.pool[0].state != chipMapped {
		t.Fatalf("pool chip state = %v, want mapped", b.pool[0].state)
	}
	if b.ghost.box.Visible() {
		t.Fatal("the floating chip is still shown after the drop")
	}
}

// A long list of columns gets a search box that narrows the pool; a chip
// found that way drags like any other.
func TestFindColumnNarrowsThePool(t *testing.T) {
	headers, rows := wideFile()
	b, w := boardWindow(t, headers, rows, fyne.NewSize(1100, 800))
	if b.find == nil {
		t.Fatal("no search box for 200 columns")
	}
	test.Type(b.find, "mailing")
	var shown []string
	for _, c := range b.pool {
		if c.Visible() {
			shown = append(shown, c.header)
		}
	}
	if len(shown) != 4 || shown[0] != "Mailing Address" {
		t.Fatalf("shown %v, want the four mailing columns", shown)
	}
	if !strings.Contains(b.poolTitle.Text, "4 of 200") {
		t.Fatalf("title %q", b.poolTitle.Text)
	}
	var zip *chip
	for _, c := range b.pool {
		if c.header == "Mailing Zip" {
			zip = c
		}
	}
	b.reveal(b.slotByK[mapping.MailingZip]) // scrolled into view, as a person would
	dragTo(w.Canvas(), zip, b.slotByK[mapping.MailingZip].card)
	if b.m[mapping.MailingZip] != "Mailing Zip" {
		t.Fatalf("mailing_zip = %q after the drop", b.m[mapping.MailingZip])
	}
	b.find.SetText("")
	for _, c := range b.pool {
		if !c.Visible() {
			t.Fatalf("%q still hidden after the search was cleared", c.header)
		}
	}

	// A short list has no search box.
	if newBoard(boardHeaders, boardSample, checkFor(boardHeaders)).find != nil {
		t.Fatal("a search box for a handful of columns")
	}
}

// checkFor validates a mapping of a file with these headers as the trace
// wizard does (normal mode, no splits).
func checkFor(headers []string) func(mapping.Mapping) mapping.Result {
	ins := &input.Inspection{Headers: headers}
	return func(m mapping.Mapping) mapping.Result {
		return workflow.Validate(ins, workflow.Plan{Kind: jobs.KindTrace, Mapping: m})
	}
}

// TestBoardConfidenceWords: a guess from a header that names the field is
// shown as certain; a looser one with its share and, below 90%, "check".
func TestBoardConfidenceWords(t *testing.T) {
	b, _ := newTestBoard(t)
	m := mapping.Mapping{mapping.FirstName: "Owner First", mapping.LastName: "Owner Last", mapping.PropertyCity: "City"}
	b.setMapping(m, map[string]origin{
		mapping.FirstName:    {auto: true, certain: true, confidence: 0.94},
		mapping.LastName:     {auto: true, confidence: 0.92},
		mapping.PropertyCity: {auto: true, confidence: 0.7},
	})
	for k, want := range map[string]string{mapping.FirstName: "auto · certain", mapping.LastName: "auto · 92% sure",
		mapping.PropertyCity: "auto · 70% sure — check"} {
		if got := b.slotByK[k].conf.Text; got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}
