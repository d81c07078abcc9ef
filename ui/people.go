package ui

import (
	"slices"
	"strings"
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

// peopleCol is one column of the people view.
type peopleCol struct {
	title   string
	width   float32
	sortCol int // the file's column the view sorts by; -1 not sortable
	kind    peopleKind
	phone   int // the row's phone shown (kind phoneCol)
}

type peopleKind int

const (
	ownerCol peopleKind = iota
	propertyCol
	mailingCol
	phoneCol
	emailCol
	matchCol
	windowCol // when the phone may be called, in its person's time
)

// Widths of the people view's columns. A phone column fits the number, its
// type and the longest usual status, so that a phone is never clipped.
const (
	phoneColWidth  = 390
	nameColWidth   = 220
	addrColWidth   = 300
	windowColWidth = 420
)

// peopleColumns are the people view's columns for a layout; none when it
// finds neither people nor phones.
func peopleColumns(l *layout.Layout) []peopleCol {
	var cols []peopleCol
	if len(l.People) > 0 {
		p := l.People[0]
		sort := firstOf(p.Last, p.Full, p.First)
		cols = append(cols, peopleCol{title: "Owner", width: nameColWidth, sortCol: sort, kind: ownerCol})
	}
	if has(l.Property) {
		cols = append(cols, peopleCol{title: "Property address", width: addrColWidth, sortCol: firstOf(l.Property.Street, l.Property.Full),
			kind: propertyCol})
	}
	for i := range l.Slots {
		title := "Phone"
		if len(l.Slots) > 1 {
			title = "Phone " + itoa(i+1)
		}
		cols = append(cols, peopleCol{title: title, width: phoneColWidth, sortCol: -1, kind: phoneCol, phone: i},
			peopleCol{title: title + " calling time", width: windowColWidth, sortCol: -1, kind: windowCol, phone: i})
	}
	if len(cols) == 0 {
		return nil
	}
	if len(l.Emails) > 0 {
		cols = append(cols, peopleCol{title: "E-mails", width: nameColWidth, sortCol: l.Emails[0], kind: emailCol})
	}
	if has(l.Mailing) {
		cols = append(cols, peopleCol{title: "Mailing address", width: addrColWidth, sortCol: firstOf(l.Mailing.Street, l.Mailing.Full),
			kind: mailingCol})
	}
	if l.Match >= 0 {
		cols = append(cols, peopleCol{title: "Match", width: 110, sortCol: l.Match, kind: matchCol})
	}
	return cols
}

func has(a layout.AddressColumns) bool {
	return a.Street >= 0 || a.City >= 0 || a.Zip >= 0 || a.Full >= 0
}

func firstOf(cols ...int) int {
	for _, c := range cols {
		if c >= 0 {
			return c
		}
	}
	return -1
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
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
	switch col.kind {
	case ownerCol:
		// An owner the file also names as a contact is shown once.
		var names []string
		for _, n := range row.People {
			s := n.String()
			if s != "" && !slices.ContainsFunc(names, func(x string) bool { return strings.EqualFold(x, s) }) {
				names = append(names, s)
			}
		}
		c.setText(strings.Join(names, "; "))
	case propertyCol:
		c.setText(row.Property.String())
	case mailingCol:
		c.setText(row.Mailing.String())
	case emailCol:
		c.setText(strings.Join(row.Emails, ", "))
	case matchCol:
		c.setText(matchWords(row.Match))
	case phoneCol:
		c.setText("")
		if col.phone >= len(row.Phones) {
			return
		}
		p := &row.Phones[col.phone]
		setLabel(c.number, p.Display(), widget.MediumImportance)
		setLabel(c.kind, typeWords(p.Type), widget.LowImportance)
		text, imp := phoneStatus(p, row)
		setLabel(c.status, text, imp)
	}
}

// showTime fills a calling-time cell: when the row's phone may be called,
// in its person's time, and whether it may now (at answers for a phone).
func (col peopleCol) showTime(c *peopleCell, row *layout.Row, at func(p *layout.Phone) workflow.CallingTime) {
	if col.phone >= len(row.Phones) {
		c.setText("")
		return
	}
	p := &row.Phones[col.phone]
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

func matchWords(m layout.Match) string {
	switch m {
	case layout.Matched:
		return "Found"
	case layout.NotMatched:
		return "Not found"
	}
	return ""
}

func typeWords(t layout.PhoneType) string {
	switch t {
	case layout.VoIP:
		return "VoIP"
	case "":
		return ""
	}
	return strings.ToUpper(string(t[:1])) + string(t[1:])
}

// phoneStatus says whether a phone may be called, or why not, with the
// date of the scrub that answered ("OK to call · scrubbed Jun 1"); a phone
// no scrub answered is "not scrubbed", never "OK".
func phoneStatus(p *layout.Phone, row *layout.Row) (string, widget.Importance) {
	text, imp := phoneVerdict(p)
	if p.Became != 0 {
		text += " (new since " + shortDate(p.Since) + ")"
	}
	if !p.Scrubbed.IsZero() && p.Block&layout.BlockInvalid == 0 {
		text += " · scrubbed " + shortDate(p.Scrubbed)
	}
	return text, imp
}

func phoneVerdict(p *layout.Phone) (string, widget.Importance) {
	scrubbed := p.Flags.Has.AnswersRegistry() || p.Flags.Has.AnswersLitigator() || p.Flags.Has.Has(layout.State)
	switch {
	case p.Callable():
		return "OK to call", widget.SuccessImportance
	case p.Block&layout.BlockInvalid != 0:
		return "invalid number", widget.DangerImportance
	case p.Block&layout.BlockCompany != 0:
		return "on your do-not-call list", widget.DangerImportance
	case !scrubbed:
		return "not scrubbed", widget.LowImportance
	case p.Block&^(layout.UnknownBlocks|layout.DateBlocks|layout.BlockUnsure) == 0:
		return p.Block.String(), widget.WarningImportance
	}
	return p.Block.String(), widget.DangerImportance
}

// shortDate is "Jun 1", with the year when it is not this year's.
func shortDate(t time.Time) string {
	t = t.Local()
	if t.Year() == time.Now().Year() {
		return t.Format("Jan 2")
	}
	return t.Format("Jan 2, 2006")
}
