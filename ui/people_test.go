package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// shown is what the people view's cell (row, col) shows, its parts joined
// with " | ".
func (v *viewer) shown(row, col int) string {
	c := newPeopleCell()
	v.updateCell(widget.TableCellID{Row: row, Col: col}, c)
	var parts []string
	for _, l := range []*widget.Label{c.text, c.number, c.kind, c.status} {
		if l.Text != "" {
			parts = append(parts, l.Text)
		}
	}
	return strings.Join(parts, " | ")
}

// fixtureDate is when the fixtures' own flags were scrubbed, and on the
// screen.
var (
	fixtureDate = time.Now().Add(-72 * time.Hour)
	scrubbedOn  = " · scrubbed " + shortDate(fixtureDate)
)

// openFixture opens a result of layout/testdata in the window, as a result
// opened from the library is.
func openFixture(t *testing.T, h *harness, name string) *viewer {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "jobs", "layout", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	// A scrub date column of the fixture's says when its rows were scrubbed.
	src = []byte(strings.ReplaceAll(string(src), "2025-05-01", fixtureDate.UTC().Format(time.DateOnly)))
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	// Imported, its own flags scrubbed three days ago as the person said:
	// the file's own date says nothing.
	m := library.Meta{JobID: library.ImportPrefix + "fixture", Scrubbed: &library.GivenDate{Date: fixtureDate, By: "test", At: time.Now()}}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(library.RecordPath(path), b, 0o600); err != nil {
		t.Fatal(err)
	}
	r := h.fb.openIndexed(t, path)
	var v *viewer
	h.do(func() { v = h.app.showViewer(r, strings.TrimSuffix(name, ".csv")) })
	h.wait("indexed")
	return v
}

// query runs f on the UI thread and waits for the viewer's query it starts.
func (h *harness) query(v *viewer, f func()) {
	h.t.Helper()
	done := make(chan error, 1)
	h.do(func() {
		v.onQueried = func(err error) { done <- err }
		f()
	})
	select {
	case err := <-done:
		if err != nil {
			h.t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		h.t.Fatal("the viewer's query never ended")
	}
	h.do(func() { v.onQueried = nil })
}

// peopleCells are the people view's cells on screen (the caller holds the
// UI): the table's cells are drawn by its own renderer.
func (h *harness) peopleCells() []*peopleCell {
	var out []*peopleCell
	for _, o := range h.objects() {
		w, ok := o.(fyne.Widget)
		if !ok || fmt.Sprintf("%T", o) != "*widget.tableCells" {
			continue
		}
		for _, x := range test.WidgetRenderer(w).Objects() {
			if c, ok := x.(*peopleCell); ok && c.Visible() {
				out = append(out, c)
			}
		}
	}
	return out
}

func (v *viewer) titles() []string {
	var out []string
	for _, c := range v.cols {
		out = append(out, c.title)
	}
	return out
}

// peopleShows checks the people view's column titles (joined by commas)
// and what it shows in cells, by row and column.
func peopleShows(t *testing.T, v *viewer, titles string, cells map[[2]int]string) {
	t.Helper()
	if got := strings.Join(v.titles(), ","); got != titles {
		t.Fatalf("columns %s\nwant %s", got, titles)
	}
	for at, want := range cells {
		if got := v.shown(at[0], at[1]); got != want {
			t.Errorf("row %d, %s: %q, want %q", at[0]+1, v.cols[at[1]].title, got, want)
		}
	}
}

// A PropStream export: people, the property, five phones with their own
// DNC column and a row-level Litigator Yes/No, shown in words.
func TestPeopleViewPropStream(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "propstream.csv")
	h.do(func() {})
	if !v.people || v.mode.Selected != modePeople {
		t.Fatalf("opened in %q", v.mode.Selected)
	}
	peopleShows(t, v, "Owner,Property address,Phone 1,Phone 1 calling time,Phone 2,Phone 2 calling time,Phone 3,Phone 3 calling time,"+
		"Phone 4,Phone 4 calling time,Phone 5,Phone 5 calling time,E-mails,Mailing address", map[[2]int]string{
		{0, 0}: "John Smith; Ann Smith",
		{0, 1}: "12 Oak Ave, Austin, TX 78701",
		{0, 2}: "(512) 555-0101 | Mobile | OK to call" + scrubbedOn,
		// Texas on a Tuesday: 9 a.m. to 9 p.m., at 7:42 p.m.
		{0, 3}: "Callable 9 a.m.–9 p.m. CT · now 7:42 p.m.",
		{0, 4}: "(512) 555-0102 | Landline | DNC" + scrubbedOn,
		// A phone on a list has hours, never "callable".
		{0, 5}:  "Hours 9 a.m.–9 p.m. CT · now 7:42 p.m.",
		{0, 12}: "john@example.com",
		// Litigator: Yes is every phone's; a "?" DNC is not known.
		{1, 2}: "(214) 555-0103 | Mobile | litigator" + scrubbedOn,
		{1, 6}: "(214) 555-0108 | Landline | litigator, DNC unknown" + scrubbedOn,
		// A blank Litigator is not known, never clean.
		{3, 2}: "(713) 555-0111 | Mobile | litigator unknown" + scrubbedOn,
		{3, 4}: "",
	})
	// The flags the file carries make the DNC quick filters apply; only the
	// match status is missing, and the viewer says so.
	for _, f := range []jobs.QuickFilter{jobs.QuickMobile, jobs.QuickNotDNC, jobs.QuickNotLitigator, jobs.QuickCallable} {
		if v.quick[f].Disabled() {
			t.Errorf("%s is off: %s", f, v.why.Text)
		}
	}
	if !v.quick[jobs.QuickMatched].Disabled() || !strings.Contains(v.why.Text, "Matched: the result has no match status column") {
		t.Errorf("matched filter: %q", v.why.Text)
	}
	// "Callable" keeps the rows with a phone that may be called.
	h.query(v, func() { v.quick[jobs.QuickCallable].SetChecked(true) })
	if v.count.Text != "2 of 4 rows" {
		t.Errorf("callable only: %q", v.count.Text)
	}
	h.query(v, func() { v.quick[jobs.QuickCallable].SetChecked(false) })
	// A phone typed in any format finds its row.
	for _, typed := range []string{"(512) 555-0104", "512.555.0104", "+1 512 555 0104"} {
		h.query(v, func() { v.filter.SetText(typed) })
		if v.count.Text != "1 of 4 rows" || !strings.HasPrefix(v.shown(0, 0), "Linda Davis") {
			t.Errorf("filter %q: %q, first row %q", typed, v.count.Text, v.shown(0, 0))
		}
	}
	h.query(v, func() { v.filter.SetText("") })

	// On screen, every phone number is whole: never cut to fit.
	h.do(func() { h.win.Resize(fyne.NewSize(1180, 760)) })
	numbers := 0
	h.do(func() {
		for _, c := range h.peopleCells() {
			for _, o := range test.LaidOutObjects(c) {
				l, ok := o.(*widget.Label)
				if !ok || !l.Visible() || !strings.HasPrefix(l.Text, "(") || !strings.Contains(l.Text, ") 555-") {
					continue
				}
				numbers++
				if l.Size().Width < l.MinSize().Width {
					t.Errorf("%s is clipped: %.0f wide, needs %.0f", l.Text, l.Size().Width, l.MinSize().Width)
				}
			}
		}
	})
	if numbers == 0 {
		t.Fatal("no phone number on screen")
	}

	// The file's own columns are one click away.
	h.do(func() { v.mode.SetSelected(modeColumns) })
	h.tapHeader("Owner 1 First Name") // fails the test when not on screen
	h.settle()                        // the sort it asked for has drawn
	var got string
	h.do(func() { got = v.view.Cell(0, 4) })
	if got != "John" {
		t.Errorf("the file's columns: %q", got)
	}
}

// A DealMachine export: snake_case columns, contacts with their own phones
// and e-mails, types Mobile/Home/Work/Other; no flags yet.
func TestPeopleViewDealMachine(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "dealmachine.csv")
	h.do(func() {})
	peopleShows(t, v, "Owner,Property address,Phone 1,Phone 1 calling time,Phone 2,Phone 2 calling time,Phone 3,Phone 3 calling time,"+
		"Phone 4,Phone 4 calling time,E-mails,Mailing address", map[[2]int]string{
		// The owner the file also names as contact 1 is shown once.
		{0, 0}:  "John Smith; Ann Smith",
		{0, 2}:  "(512) 555-0101 | Mobile | not scrubbed",
		{0, 4}:  "(512) 555-0102 | Home | not scrubbed",
		{0, 6}:  "(512) 555-0112 | Work | not scrubbed",
		{0, 10}: "john@example.com, ann@example.com",
		{1, 2}:  "(214) 555-0103 | Other | not scrubbed",
		{2, 0}:  "Oak Holdings LLC",
		{2, 2}:  "",
	})
	// No snake_case header and no true/false in the default view.
	for i := 0; i < v.view.Len(); i++ {
		for j, c := range v.cols {
			if s := v.shown(i, j); strings.Contains(s, "true") || strings.Contains(s, "false") {
				t.Errorf("row %d, %s shows %q", i+1, c.title, s)
			}
			if strings.Contains(c.title, "_") {
				t.Errorf("column %q", c.title)
			}
		}
	}
	// Not scrubbed: the DNC filters cannot apply, and the viewer says why.
	if !v.quick[jobs.QuickCallable].Disabled() || !strings.Contains(v.why.Text, "Callable, Callable now: the result has no DNC flags: scrub its phones first") {
		t.Errorf("callable filter on a trace never scrubbed: %q", v.why.Text)
	}
	h.query(v, func() { v.quick[jobs.QuickMobile].SetChecked(true) })
	if v.count.Text != "2 of 3 rows" {
		t.Errorf("mobile only: %q", v.count.Text)
	}
}

// A scrub whose "Known Litigator" marks litigators with X and leaves the
// others blank: SkipDesk asks; the person says a blank is clean; the view
// reads again, and the answer holds for the next file with these columns.
func TestLayoutCorrection(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "invented_scrub.csv")
	h.do(func() {})
	if !h.hasText(`SkipDesk is not sure how to read this file: "Known Litigator" marks numbers and leaves the others blank`) {
		t.Fatal("no question about the marks")
	}
	if got := v.shown(0, 0); got != "(512) 555-0101 | Mobile | litigator unknown"+scrubbedOn {
		t.Fatalf("before: %q", got)
	}
	h.tap(h.button("Check the columns…"))
	h.waitFor("the correction dialog", func() (open bool) { h.do(func() { open = v.fixing != nil }); return })
	text := h.dialogText()
	for _, want := range []string{"What the flag values mean", "Known Litigator: litigator, for Phone", "(blank)", "4 rows", `"X"`, "1 row",
		"What each column holds", "Telephone #"} {
		if !strings.Contains(text, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, text)
		}
	}
	var blank *valueFix
	h.do(func() {
		for _, f := range v.fixing.values {
			if f.column == "Known Litigator" && f.value == "" {
				blank = f
			}
		}
	})
	if blank == nil || blank.choice.Selected != "Not known: never call" {
		t.Fatalf("the blank of Known Litigator: %+v", blank)
	}
	h.do(func() { blank.choice.SetSelected("Not on the list") })
	save := h.button("Save")
	h.query(v, func() { test.Tap(save) })
	if got := v.shown(0, 0); got != "(512) 555-0101 | Mobile | OK to call"+scrubbedOn {
		t.Errorf("after: %q", got)
	}
	if got := v.shown(2, 0); got != "(214) 555-0103 | VoIP | litigator"+scrubbedOn {
		t.Errorf("the X row after: %q", got)
	}
	if h.hasText("SkipDesk is not sure") {
		t.Error("the question is still asked")
	}

	// Another file with the same columns is read the same way.
	w := openFixture(t, h, "invented_scrub.csv")
	h.do(func() {})
	if got := w.shown(0, 0); got != "(512) 555-0101 | Mobile | OK to call"+scrubbedOn || !w.res.Layout().Sure() {
		t.Errorf("the next file: %q, sure %v", got, w.res.Layout().Sure())
	}
}

// A scrub whose DNC column's name holds a word SkipDesk does not know
// ("DNC Waived"): its values are offered with no reading chosen, saving
// without a choice answers nothing, and the person's readings answer it.
func TestUnknownWordCorrection(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "waived_scrub.csv")
	h.do(func() {})
	if !h.hasText(`SkipDesk does not know "waived" in "DNC Waived"`) {
		t.Fatal("no question about the word")
	}
	check := func() map[string]*valueFix {
		h.tap(h.button("Check the columns…"))
		h.waitFor("the correction dialog", func() (open bool) { h.do(func() { open = v.fixing != nil }); return })
		got := map[string]*valueFix{}
		h.do(func() {
			for _, f := range v.fixing.values {
				if f.column == "DNC Waived" {
					got[f.value] = f
				}
			}
		})
		return got
	}
	fixes := check()
	if len(fixes) != 2 || fixes["Y"] == nil || fixes["N"] == nil || fixes["Y"].choice.Selected != "" || fixes["N"].choice.Selected != "" {
		t.Fatalf("the values of DNC Waived offered as %+v: want Y and N, neither chosen", fixes)
	}
	save := h.button("Save")
	h.do(func() { test.Tap(save) }) // nothing to save: the view is not read again
	if !h.hasText(`SkipDesk does not know "waived" in "DNC Waived"`) {
		t.Fatal("saved with no reading chosen, the question is gone")
	}
	fixes = check()
	h.do(func() {
		fixes["Y"].choice.SetSelected("Not on the list")
		fixes["N"].choice.SetSelected("On the list: never call")
	})
	save = h.button("Save")
	h.query(v, func() { test.Tap(save) })
	if h.hasText("SkipDesk is not sure") || !v.res.Layout().Sure() {
		t.Error("answered, the question is still asked")
	}
	if got := v.shown(1, 0); !strings.Contains(got, "OK to call") {
		t.Errorf("the waived number after: %q", got)
	}
	if got := v.shown(0, 0); !strings.Contains(got, "DNC") {
		t.Errorf("the number not waived after: %q", got)
	}
}

// Export from the people view writes the view in words (ExportPeople);
// from "Columns as in the file", the file's own columns (ExportView).
func TestExportFollowsTheView(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "propstream.csv")
	h.do(func() { v.onExport(".csv") })
	h.save("")
	h.wait("saved")
	h.do(func() { v.mode.SetSelected(modeColumns) })
	h.do(func() { v.onExport(".csv") })
	h.save("")
	h.wait("saved")
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.exported) != 2 || len(fb.people) != 1 || fb.people[0] != fb.exported[0] {
		t.Fatalf("exported %q, in words %q: want the first in words, the second as the file is", fb.exported, fb.people)
	}
}
