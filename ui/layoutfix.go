package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// The layout correction: every column of the result with what SkipDesk
// reads in it, as a choice the person can change — as the mapping board
// lets them map a list. The answer is remembered for every file with the
// same columns.

// roleWords are the roles a column can have, in words, in the order offered.
var roleWords = []struct {
	role  layout.Role
	words string
}{
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
}

// kindWords are the lists a flag column can answer.
var kindWords = []struct {
	kind  layout.FlagKind
	words string
}{
	{layout.Federal, "Federal DNC"},
	{layout.State, "State DNC"},
	{layout.Litigator, "Litigator"},
	{layout.Internal, "Internal DNC"},
	{layout.Combined, "DNC or litigator (one answer)"},
}

// columnFix is one column's row in the correction dialog.
type columnFix struct {
	col  layout.Column
	role *widget.Select
	kind *widget.Select
}

func roleOf(words string) layout.Role {
	for _, r := range roleWords {
		if r.words == words {
			return r.role
		}
	}
	return layout.RoleOther
}

func wordsOfRole(role layout.Role) string {
	for _, r := range roleWords {
		if r.role == role {
			return r.words
		}
	}
	return "Not used"
}

func kindOf(words string) layout.FlagKind {
	for _, k := range kindWords {
		if k.words == words {
			return k.kind
		}
	}
	return layout.Combined
}

func wordsOfKind(k layout.FlagKind) string {
	for _, x := range kindWords {
		if x.kind == k {
			return x.words
		}
	}
	return kindWords[len(kindWords)-1].words
}

// onCheckColumns shows how SkipDesk reads each column and lets the person
// correct it.
func (v *viewer) onCheckColumns() {
	l := v.res.Layout()
	var options, kinds []string
	for _, r := range roleWords {
		options = append(options, r.words)
	}
	for _, k := range kindWords {
		kinds = append(kinds, k.words)
	}
	grid := container.NewGridWithColumns(4,
		widget.NewLabelWithStyle("Column", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("First value", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("Holds", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabelWithStyle("List", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
	var fixes []*columnFix
	for _, c := range l.Columns {
		f := &columnFix{col: c}
		f.kind = widget.NewSelect(kinds, nil)
		f.kind.SetSelected(wordsOfKind(c.Kind))
		f.role = widget.NewSelect(options, func(w string) {
			if roleOf(w) == layout.RoleFlag {
				f.kind.Enable()
			} else {
				f.kind.Disable()
			}
		})
		f.role.SetSelected(wordsOfRole(c.Role))
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
		fixes = append(fixes, f)
	}
	intro := "What SkipDesk reads in each column of this file. Change what is wrong: the answer is kept for every file with these columns."
	if !l.Sure() {
		intro = "SkipDesk is not sure of: "
		for i, q := range l.Questions {
			if i > 0 {
				intro += " "
			}
			intro += q.Message
		}
	}
	top := widget.NewLabel(intro)
	top.Wrapping = fyne.TextWrapWord
	body := container.NewBorder(top, nil, nil, nil, container.NewVScroll(grid))
	d := dialog.NewCustomConfirm("How SkipDesk reads "+v.name, "Save", "Cancel", body, func(ok bool) {
		if ok {
			v.saveCorrection(l, fixes)
		}
	}, v.app.win)
	sz := v.app.win.Canvas().Size()
	d.Resize(fyne.NewSize(sz.Width*0.85, sz.Height*0.85))
	d.Show()
}

// saveCorrection keeps the columns the person changed and reads the result
// again through the corrected layout.
func (v *viewer) saveCorrection(l *layout.Layout, fixes []*columnFix) {
	c := &layout.Correction{Signature: l.Signature, Columns: map[string]layout.ColumnFix{}}
	for _, f := range fixes {
		role := roleOf(f.role.Selected)
		kind := kindOf(f.kind.Selected)
		if role == f.col.Role && (role != layout.RoleFlag || kind == f.col.Kind) {
			continue
		}
		fix := layout.ColumnFix{Role: role}
		if role == layout.RoleFlag {
			fix.Kind = &kind
		}
		c.Columns[f.col.Header] = fix
	}
	if len(c.Columns) == 0 && l.Sure() {
		return // nothing changed
	}
	a := v.app
	background(a, a.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, a.be.CorrectLayout(ctx, v.res, c)
	}, func(_ struct{}, err error) {
		if err != nil {
			a.showError(fmt.Errorf("the columns could not be saved: %w", err))
			return
		}
		v.relayout()
		v.showQuickFilters()
		v.runQuery()
	})
}
