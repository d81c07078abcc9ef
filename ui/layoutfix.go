package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// The layout correction: every column of the result with what SkipDesk
// reads in it, as a choice the person can change — as the mapping board
// lets them map a list. The answer is remembered for every file with the
// same columns.

// worded is a value offered to a person (in a drop-down, as a check box),
// with the words it shows.
type worded[T comparable] struct {
	value T
	words string
}

// wordList is the values offered, in the order offered.
type wordList[T comparable] []worded[T]

// options are the words offered, in order.
func (l wordList[T]) options() []string {
	ws := make([]string, len(l))
	for i, w := range l {
		ws[i] = w.words
	}
	return ws
}

// valueOf is the value shown as words; fallback when no value is.
func (l wordList[T]) valueOf(words string, fallback T) T {
	for _, w := range l {
		if w.words == words {
			return w.value
		}
	}
	return fallback
}

// wordsOf is how v is shown; fallback when v is not offered.
func (l wordList[T]) wordsOf(v T, fallback string) string {
	for _, w := range l {
		if w.value == v {
			return w.words
		}
	}
	return fallback
}

// roleWords are the roles a column can have, in words, in the order offered.
var roleWords = wordList[layout.Role]{
	{layout.RoleOther, "Not used"},
	{layout.RolePhone, "Phone number"},
	{layout.RolePhoneType, "Phone type"},
	{layout.RoleFlag, "DNC or litigator flag"},
	{layout.RolePhoneDetail, "Other phone detail"},
	{layout.RoleMatch, "Match status"},
	{layout.RoleFirstName, "First name"},
	{layout.RoleLastName, "Last name"},
	{layout.RoleFullName, "Full name"},
	{layout.RoleEntity, "Company owner (yes/no)"},
	{layout.RoleEmail, "E-mail"},
	{layout.RoleStreet, "Street"},
	{layout.RoleStreet2, "Street, second line"},
	{layout.RoleCity, "City"},
	{layout.RoleState, "State"},
	{layout.RoleZip, "ZIP code"},
	{layout.RoleAddress, "Whole address"},
	{layout.RoleScope, "Whether the row was scrubbed"},
	{layout.RoleScrubDate, "Scrub date"},
}

// kindWords are the lists a flag column can answer.
var kindWords = wordList[layout.FlagKind]{
	{layout.Federal, "Federal DNC"},
	{layout.DNC, "DNC (no list named)"},
	{layout.State, "State DNC"},
	{layout.StateNamed, "One state's DNC"},
	{layout.Litigator, "Litigator"},
	{layout.Internal, "Internal DNC (the file's)"},
	{layout.Industry, "DMA or industry list"},
	{layout.Number, "Number status"},
	{layout.Restriction, "Notes or status in words"},
	{layout.Combined, "DNC or litigator (one answer)"},
}

// columnFix is one column's row in the correction dialog.
type columnFix struct {
	col  layout.Column
	role *widget.Select
	kind *widget.Select
	// phone is which phone a flag column answers for, where the file has
	// several: every phone of the row or one; nil otherwise.
	phone  *widget.Select
	phones []phoneChoice
	was    string // the phone chosen when the dialog opened ("" asked)
}

// phoneChoice is a phone a flag column may answer for, as offered.
type phoneChoice struct {
	words string
	slot  *layout.Slot // nil: every phone of the row
}

// everyPhone is the choice of a flag column about the whole row.
const everyPhone = "Every phone of the row"

func roleOf(words string) layout.Role {
	if words == listedWords {
		return layout.RolePhone
	}
	return roleWords.valueOf(words, layout.RoleOther)
}

func wordsOfRole(role layout.Role) string { return roleWords.wordsOf(role, "Not used") }

// listedWords name the role of a listed column (layout.ConvListed): phone
// numbers its header says are on a list. It is offered for such a column
// only, as what it is read as; "Phone number" reads them as plain numbers.
const listedWords = "Numbers on the list"

// columnWords is a column's role in words.
func columnWords(c layout.Column) string {
	if c.Role == layout.RolePhone && c.Convention == layout.ConvListed {
		return listedWords
	}
	return wordsOfRole(c.Role)
}

func kindOf(words string) layout.FlagKind { return kindWords.valueOf(words, layout.Combined) }

func wordsOfKind(k layout.FlagKind) string {
	return kindWords.wordsOf(k, kindWords[len(kindWords)-1].words)
}

// onCheckColumns reads how each flag value of the result reads (off the UI
// thread: every row is counted), then shows the correction dialog.
func (v *viewer) onCheckColumns() {
	a := v.sh
	path := v.res.Path()
	withProgressOf(a, "Reading the columns of "+v.name, func(ctx context.Context, _ func(int64, int64)) (layout.Summary, error) {
		return v.be.ReadLayout(ctx, path)
	}, func(sum layout.Summary, err error) {
		switch {
		case err == nil:
			v.showColumns(sum.Readings)
		case !errors.Is(err, context.Canceled):
			a.showError(fmt.Errorf("the columns of %s could not be read: %w", v.name, err))
		}
	})
}

// columnsDialog is the correction dialog shown: its choices.
type columnsDialog struct {
	dialog  *dialog.ConfirmDialog
	columns []*columnFix
	values  []*valueFix
}

// valueFix is one value of a flag column in the correction dialog.
type valueFix struct {
	column, value string // value "" is the blank
	was           string // how it read: flagged, clean, unknown
	choice        *widget.Select
}

// flagChoices are how a person can say a flag value reads.
var flagChoices = wordList[layout.Flag]{
	{layout.Flagged, "On the list: never call"},
	{layout.Clean, "Not on the list"},
	{layout.Unknown, "Not known: never call"},
}

func flagOfWords(w string) layout.Flag { return flagChoices.valueOf(w, layout.Unknown) }

func wordsOfReads(reads string) string {
	for _, c := range flagChoices {
		if c.value.String() == reads {
			return c.words
		}
	}
	return ""
}

// showColumns shows how SkipDesk reads each column and each flag value, and
// lets the person correct it.
func (v *viewer) showColumns(readings []layout.Reading) {
	l := v.res.Layout()
	values, valueFixes := v.valuesSection(readings)
	grid, fixes := v.columnsGrid(l)
	intro := "What SkipDesk reads in each column of this file. Change what is wrong: the answer is kept for every file with these columns."
	if !l.Sure() {
		intro = "SkipDesk is not sure of: "
		for i, q := range l.Questions {
			if i > 0 {
				intro += " "
			}
			intro += q.Message + "."
			if q.Blocks {
				intro += " (No callable list until you answer.)"
			}
		}
		if slices.ContainsFunc(fixes, func(f *columnFix) bool { return f.phone != nil && askedOf(l, "attach", f.col.Header) }) {
			intro += " Say which phone a column is about under About."
		}
	}
	top := widget.NewLabel(intro)
	top.Wrapping = fyne.TextWrapWord
	if !l.Sure() {
		top.Importance = widget.WarningImportance
	}
	body := container.NewVBox(values, widget.NewLabelWithStyle("What each column holds", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), grid)
	d := dialog.NewCustomConfirm("How SkipDesk reads "+v.name, "Save", "Cancel",
		container.NewBorder(top, nil, nil, nil, container.NewVScroll(body)), func(ok bool) {
			v.fixing = nil
			if ok {
				v.saveCorrection(l, fixes, valueFixes)
			}
		}, v.sh.win)
	v.fixing = &columnsDialog{dialog: d, columns: fixes, values: valueFixes}
	sz := v.sh.win.Canvas().Size()
	d.Resize(fyne.NewSize(sz.Width*0.85, sz.Height*0.85))
	d.Show()
}

// valuesSection lists each flag column's values, how many rows hold each
// and how SkipDesk reads it, with a choice to say otherwise.
func (v *viewer) valuesSection(readings []layout.Reading) (fyne.CanvasObject, []*valueFix) {
	box := container.NewVBox()
	var fixes []*valueFix
	choices := flagChoices.options()
	for _, r := range readings {
		switch r.Role {
		case layout.RoleFlag, layout.RoleScope, layout.RoleScrubDate:
		default:
			continue
		}
		box.Add(widget.NewLabelWithStyle(readingTitle(r), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		grid := container.NewGridWithColumns(3)
		for _, vc := range r.Values {
			shown := fmt.Sprintf("%q", vc.Value)
			if vc.Value == "" {
				shown = "(blank)"
			}
			if vc.Meaning != "" {
				shown += " · " + vc.Meaning
			}
			grid.Add(widget.NewLabel(shown))
			grid.Add(widget.NewLabel(jobs.Plural(int64(vc.Count), "row", "rows")))
			was := wordsOfReads(vc.Reads)
			if was == "" || r.Role != layout.RoleFlag || vc.Value == layout.NumbersValue {
				// An invalid number, or another reading no choice here gives.
				grid.Add(widget.NewLabel(vc.Reads))
				continue
			}
			f := &valueFix{column: r.Column, value: vc.Value, was: vc.Reads, choice: widget.NewSelect(choices, nil)}
			if askedOf(v.res.Layout(), "words", r.Column) {
				// SkipDesk does not know what the column's header says of
				// its values: the person chooses each, and only their
				// choice answers.
				f.was, f.choice.PlaceHolder = "", "What does it mean?"
			} else {
				f.choice.SetSelected(was)
			}
			grid.Add(f.choice)
			fixes = append(fixes, f)
		}
		box.Add(grid)
		if r.OtherCount > 0 {
			box.Add(widget.NewLabel(fmt.Sprintf("and %s rows with other values, each read as shown in the results", jobs.Thousands(int64(r.OtherCount)))))
		}
	}
	if len(box.Objects) == 0 {
		return box, nil
	}
	head := widget.NewLabelWithStyle("What the flag values mean", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.NewVBox(head, box), fixes
}

// readingTitle names a column that bears on callability, the list it
// answers for and the phones it answers for: "Phone 1 DNC: DNC, for Phone 1".
func readingTitle(r layout.Reading) string {
	what := r.List
	switch r.Role {
	case layout.RoleScope:
		what = "whether the row was scrubbed"
	case layout.RoleScrubDate:
		what = "when scrubbed"
	}
	if r.For != "" {
		return fmt.Sprintf("%s: %s, for %s", r.Column, what, r.For)
	}
	return fmt.Sprintf("%s: %s", r.Column, what)
}

// columnsGrid is every column with its first value, what SkipDesk reads in
// it and, for a flag, which list.
func (v *viewer) columnsGrid(l *layout.Layout) (*fyne.Container, []*columnFix) {
	grid := container.NewGridWithColumns(5,
		widget.NewLabelWithStyle("Column", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("First value", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("Holds", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("List", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("About", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	var fixes []*columnFix
	for _, c := range l.Columns {
		f := newColumnFix(c)
		f.offerPhones(l)
		head := widget.NewLabel(c.Header)
		head.Truncation = fyne.TextTruncateEllipsis
		first := widget.NewLabel("")
		if v.res.Len() > 0 && c.Index < len(v.headers) {
			first.SetText(v.res.Cell(0, c.Index))
		}
		first.Truncation = fyne.TextTruncateEllipsis
		grid.Add(head)
		grid.Add(first)
		grid.Add(f.role)
		grid.Add(f.kind)
		if f.phone != nil {
			grid.Add(f.phone)
		} else {
			grid.Add(widget.NewLabel(""))
		}
		fixes = append(fixes, f)
	}
	return grid, fixes
}

// offerPhones gives flag or scrub date column f the choice of the phone
// it answers for or dates, where the file has several: set to the one it
// is read as, or to none where SkipDesk asks (a Guess about the column),
// so that saving the dialog answers only what the person chose.
func (f *columnFix) offerPhones(l *layout.Layout) {
	if f.col.Role != layout.RoleFlag && f.col.Role != layout.RoleScrubDate {
		return
	}
	phones := []phoneChoice{{words: everyPhone}}
	for i := range l.Slots {
		if s := &l.Slots[i]; s.Part == 0 {
			phones = append(phones, phoneChoice{words: s.Label, slot: s})
		}
	}
	if len(phones) < 3 {
		return // one phone: nothing to choose
	}
	f.phones = phones
	open := askedOf(l, "attach", f.col.Header)
	words := make([]string, len(phones))
	for i, p := range phones {
		words[i] = p.words
		if !open && p.answers(f.col) {
			f.was = p.words
		}
	}
	f.phone = widget.NewSelect(words, nil)
	f.phone.PlaceHolder = "Which phone?"
	if f.was != "" {
		f.phone.SetSelected(f.was)
	}
}

// answers reports whether column c is read as answering for this choice.
func (p phoneChoice) answers(c layout.Column) bool {
	if p.slot == nil {
		return c.Group == "" && c.Qualifier == "" && c.SlotIndex < 0
	}
	return c.Group == p.slot.Group && c.Qualifier == p.slot.Qualifier && c.SlotIndex == p.slot.Index
}

// askedOf reports a question of the topic the layout asks about the column:
// "attach" (which phone it is about, answered under About), "words" (what a
// word of its header makes its values mean, answered value by value).
func askedOf(l *layout.Layout, topic, header string) bool {
	return l != nil && slices.ContainsFunc(l.Questions, func(q layout.Question) bool {
		return q.Topic == topic && slices.Contains(q.Columns, header)
	})
}

// place sets on fix the phone the person chose.
func (f *columnFix) place(fix *layout.ColumnFix) {
	for _, p := range f.phones {
		if p.words != f.phone.Selected {
			continue
		}
		group, qual, idx := "", "", -1
		if p.slot != nil {
			group, qual, idx = p.slot.Group, p.slot.Qualifier, p.slot.Index
		}
		fix.Group, fix.Qualifier, fix.SlotIndex = &group, &qual, &idx
	}
}

// newColumnFix is a column's choices of role and list, set to how it is
// read; the list is offered for a flag only. A listed column is offered
// what it is read as beside the roles.
func newColumnFix(c layout.Column) *columnFix {
	f := &columnFix{col: c}
	roles := roleWords.options()
	if columnWords(c) == listedWords {
		roles = append(roles, listedWords)
	}
	f.kind = widget.NewSelect(kindWords.options(), nil)
	f.kind.SetSelected(wordsOfKind(c.Kind))
	f.role = widget.NewSelect(roles, func(w string) {
		if roleOf(w) == layout.RoleFlag {
			f.kind.Enable()
		} else {
			f.kind.Disable()
		}
	})
	f.role.SetSelected(columnWords(c))
	return f
}

// changedColumns are the columns whose role or list the person changed,
// as the correction saves them.
func changedColumns(fixes []*columnFix) map[string]layout.ColumnFix {
	out := map[string]layout.ColumnFix{}
	for _, f := range fixes {
		role := roleOf(f.role.Selected)
		kind := kindOf(f.kind.Selected)
		moved := f.phone != nil && (role == layout.RoleFlag || role == layout.RoleScrubDate) && f.phone.Selected != f.was
		if f.role.Selected == columnWords(f.col) && (role != layout.RoleFlag || kind == f.col.Kind) && !moved {
			continue
		}
		fix := layout.ColumnFix{Role: role}
		if role == layout.RoleFlag {
			fix.Kind = &kind
		}
		if moved {
			f.place(&fix)
		}
		out[f.col.Header] = fix
	}
	return out
}

// saveCorrection keeps the columns and values the person changed and reads
// the result again through the corrected layout.
func (v *viewer) saveCorrection(l *layout.Layout, fixes []*columnFix, values []*valueFix) {
	c := &layout.Correction{Signature: l.Signature, Columns: changedColumns(fixes), Values: map[string]map[string]layout.Flag{}}
	for _, f := range values {
		flag := flagOfWords(f.choice.Selected)
		if f.choice.Selected == "" || flag.String() == f.was {
			continue // not chosen, or as it reads
		}
		if c.Values[f.column] == nil {
			c.Values[f.column] = map[string]layout.Flag{}
		}
		value := f.value
		if value == "" {
			value = "blank"
		}
		c.Values[f.column][value] = flag
	}
	if len(c.Columns) == 0 && len(c.Values) == 0 {
		return // nothing changed
	}
	a := v.sh
	backgroundErr(a, a.ctx, func(ctx context.Context) error {
		return v.be.CorrectLayout(ctx, v.res, c)
	}, func(err error) {
		if err != nil {
			a.showError(fmt.Errorf("the columns could not be saved: %w", err))
			return
		}
		v.relayout()
		v.showQuickFilters()
		v.runQuery()
	})
}
