package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The people view: a result's rows as a person reads them — the owner, the
// property, each phone formatted "(512) 555-0162" with its type and whether
// it may be called (or why not), the e-mails, the match — in words, whatever
// service wrote the file.

// peopleCol is one column of the people view (workflow.PeopleColumns:
// the exports write the same columns) with its width.
type peopleCol struct {
	workflow.PeopleColumn
	title   string
	width   float32
	sortCol int // the file's column the view sorts by; -1 not sortable
}

// Widths of the people view's columns. A phone column fits the number, its
// type and the longest usual status, so that a phone is never clipped.
const (
	phoneColWidth  = 390
	nameColWidth   = 220
	addrColWidth   = 300
	windowColWidth = 420
)

// colWidth is each kind of column's width.
var colWidth = map[workflow.PeopleKind]float32{
	workflow.PeopleOwner: nameColWidth, workflow.PeopleProperty: addrColWidth, workflow.PeoplePhone: phoneColWidth,
	workflow.PeopleEmails: nameColWidth, workflow.PeopleMailing: addrColWidth, workflow.PeopleMatch: 110,
	workflow.PeopleWindow: windowColWidth,
}

// peopleColumns are the people view's columns for a layout; none when it
// finds neither people nor phones.
func peopleColumns(l *layout.Layout) []peopleCol {
	var cols []peopleCol
	for _, c := range workflow.PeopleColumns(l) {
		cols = append(cols, peopleCol{PeopleColumn: c, title: c.Title, width: colWidth[c.Kind], sortCol: c.SortCol})
	}
	return cols
}

// peopleCell is a cell of the people view: a text, and for a phone its
// number, type and status.
type peopleCell struct {
	widget.BaseWidget
	text, number, kind, status *widget.Label
	box                        *fyne.Container
}

func newPeopleCell() *peopleCell {
	c := &peopleCell{text: widget.NewLabel(""), number: widget.NewLabel(""), kind: widget.NewLabel(""), status: widget.NewLabel("")}
	c.text.Truncation = fyne.TextTruncateEllipsis
	c.kind.Importance = widget.LowImportance
	c.status.Truncation = fyne.TextTruncateEllipsis
	// The number and its type keep their width; the status gives way.
	c.box = container.NewStack(c.text, container.NewBorder(nil, nil, container.NewHBox(c.number, c.kind), nil, c.status))
	c.ExtendBaseWidget(c)
	return c
}

func (c *peopleCell) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(c.box) }

func (c *peopleCell) setText(s string) {
	setLabel(c.text, s, widget.MediumImportance)
	for _, l := range []*widget.Label{c.number, c.kind, c.status} {
		setLabel(l, "", l.Importance)
	}
}

// show fills the cell from a row read through the layout.
func (col peopleCol) show(c *peopleCell, row *layout.Row) {
	if col.Kind != workflow.PeoplePhone {
		c.setText(col.Text(row))
		return
	}
	c.setText("")
	if col.Phone >= len(row.Phones) {
		return
	}
	p := &row.Phones[col.Phone]
	setLabel(c.number, p.Display(), widget.MediumImportance)
	setLabel(c.kind, layout.TypeWords(p.Type), widget.LowImportance)
	text, imp := phoneStatus(p, row)
	setLabel(c.status, text, imp)
}

// showTime fills a calling-time cell: when the row's phone may be called,
// in its person's time, and whether it may now (at answers for a phone).
func (col peopleCol) showTime(c *peopleCell, row *layout.Row, at func(p *layout.Phone) workflow.CallingTime) {
	if col.Phone >= len(row.Phones) {
		c.setText("")
		return
	}
	p := &row.Phones[col.Phone]
	ct := at(p)
	imp := widget.WarningImportance
	switch {
	case ct.Text == "":
		imp = widget.LowImportance
	case ct.Now && p.Callable():
		imp = widget.SuccessImportance
	case ct.Now:
		imp = widget.MediumImportance // the hours allow it; a list does not
	}
	c.setText("")
	setLabel(c.text, ct.Text, imp)
}

func setLabel(l *widget.Label, s string, imp widget.Importance) {
	if l.Text != s || l.Importance != imp {
		l.Text, l.Importance = s, imp
		l.Refresh()
	}
}

// phoneStatus says whether a phone may be called, or why not, with the
// date of the scrub that answered ("OK to call · scrubbed Jun 1"); a phone
// no scrub answered is "not scrubbed", never "OK". The words are the
// layout's (layout.Phone.StateWords), shared with the exports.
func phoneStatus(p *layout.Phone, row *layout.Row) (string, widget.Importance) {
	text, tone := p.StateWords()
	if p.Became != 0 {
		text += " (new since " + shortDate(p.Since) + ")"
	}
	if !p.Scrubbed.IsZero() && p.Block&layout.BlockInvalid == 0 {
		text += " · scrubbed " + shortDate(p.Scrubbed)
	}
	return text, toneImportance[tone]
}

// toneImportance shows each tone of a phone's state.
var toneImportance = map[layout.Tone]widget.Importance{
	layout.ToneQuiet: widget.LowImportance, layout.ToneGood: widget.SuccessImportance,
	layout.ToneCaution: widget.WarningImportance, layout.ToneStop: widget.DangerImportance,
}

// shortDate is "Jun 1", with the year when it is not this year's.
func shortDate(t time.Time) string {
	t = t.Local()
	if t.Year() == time.Now().Year() {
		return t.Format("Jan 2")
	}
	return t.Format("Jan 2, 2006")
}
