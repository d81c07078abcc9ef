package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/flow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// The company's own do-not-call list: the numbers that must never be in a
// callable list, whatever the registries say. Numbers go on it by hand,
// pasted many at a time, from a file or from a result's row; each keeps
// when, why and from where; a removal needs a reason.

// Columns of the list.
var internalColumns = []struct {
	title string
	width float32
}{
	{"Phone", 150}, {"Added", 150}, {"Reason", 260}, {"Source", 260}, {"Added by", 140}, {"Keep until", 110},
}

// internalView is the "Do not call" tab. UI thread only. It shows a window
// onto the list (the newest entries a search picks, internalShown at
// most): a list of a million numbers is searched in the ledger, never
// held here.
type internalView struct {
	sh      *shell
	be      InternalBackend
	exports *exports
	// changed is called once the list changed (the open results are read
	// again).
	changed func()
	shown   []workflow.InternalEntry
	found   workflow.InternalFound
	search  *widget.Entry
	count   *widget.Label
	table   *widget.Table
	remove  *widget.Button
	content fyne.CanvasObject
	sel     int // row of shown selected, -1 none
	// seq numbers the searches: an answer to an older one is dropped.
	seq int
}

// internalShown is how many entries the tab shows at most.
const internalShown = 1000

func newInternalView(sh *shell, be InternalBackend, ex *exports, changed func()) *internalView {
	v := &internalView{sh: sh, be: be, exports: ex, changed: changed, sel: -1}
	v.search = widget.NewEntry()
	v.search.SetPlaceHolder("Find a number (any format) or a reason…")
	v.search.OnChanged = func(string) { v.load() }
	v.count = widget.NewLabel("")
	v.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(v.shown), len(internalColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.cell(id.Row, id.Col)) })
	v.table.ShowHeaderColumn = false
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		if id.Row < 0 && id.Col >= 0 && id.Col < len(internalColumns) {
			l.SetText(internalColumns[id.Col].title)
			l.TextStyle.Bold = true
		}
	}
	for i, c := range internalColumns {
		v.table.SetColumnWidth(i, c.width)
	}
	v.table.OnSelected = func(id widget.TableCellID) {
		v.sel = id.Row
		setEnabled(v.remove, v.sel >= 0 && v.sel < len(v.shown))
	}
	add := keys.NewPrimary("Add numbers…", theme.ContentAddIcon(), v.onAdd)
	imp := widget.NewButtonWithIcon("Import a file…", theme.FolderOpenIcon(), v.onImport)
	opts := widget.NewButtonWithIcon("Import opt-outs…", theme.MailReplyIcon(), v.onImportOptOuts)
	exp := widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), v.onExport)
	v.remove = widget.NewButtonWithIcon("Remove…", theme.DeleteIcon(), v.onRemove)
	v.remove.Disable()
	intro := widget.NewLabel("Numbers your company must never call, whatever the registries say: they are left out of every callable list " +
		"and marked wherever they appear.")
	intro.Wrapping = fyne.TextWrapWord
	head := container.NewVBox(intro, container.NewBorder(nil, nil, nil, v.count, v.search), flow.New(container.NewHBox(add, imp, opts, exp, v.remove)))
	if sh.session.Sandbox {
		note := widget.NewLabel("Sandbox: this list lives in the practice session and is forgotten when SkipDesk closes.")
		note.Importance = widget.WarningImportance
		head.Add(note)
	}
	v.content = container.NewBorder(head, nil, nil, nil, v.table)
	return v
}

func (v *internalView) cell(row, col int) string {
	if row < 0 || row >= len(v.shown) {
		return ""
	}
	e := v.shown[row]
	switch col {
	case 0:
		return phone.Format(e.Number)
	case 1:
		return e.AddedAt.Local().Format("Jan 2, 2006 15:04")
	case 2:
		return e.Reason
	case 3:
		return e.Source
	case 4:
		return e.By
	case 5:
		return workflow.KeepUntilText(e)
	}
	return ""
}

// load searches the list again (off the UI thread) and shows what it
// finds.
func (v *internalView) load() {
	a := v.sh
	v.seq++
	seq, q := v.seq, v.search.Text
	background(a, a.ctx, func(ctx context.Context) (workflow.InternalFound, error) {
		return v.be.FindInternal(ctx, q, internalShown)
	}, func(found workflow.InternalFound, err error) {
		if seq != v.seq {
			return // a newer search is on its way
		}
		if err != nil {
			a.showError(err)
			return
		}
		v.show(found)
		a.fire("internal-list")
	})
}

// show puts what a search found in the table.
func (v *internalView) show(found workflow.InternalFound) {
	v.found, v.shown = found, found.Entries
	v.sel = -1
	v.table.UnselectAll()
	setEnabled(v.remove, false)
	v.count.SetText(countText(found))
	v.table.Refresh()
}

// countText says how much of the list the tab shows.
func countText(f workflow.InternalFound) string {
	total := jobs.Plural(int64(f.Total), "number", "numbers")
	switch {
	case f.Matching == f.Total && len(f.Entries) == f.Total:
		return total
	case f.Matching == f.Total:
		return fmt.Sprintf("the newest %s of %s", jobs.Thousands(int64(len(f.Entries))), total)
	case len(f.Entries) == f.Matching:
		return fmt.Sprintf("%s of %s", jobs.Thousands(int64(f.Matching)), total)
	}
	return fmt.Sprintf("the newest %s of %s found, of %s", jobs.Thousands(int64(len(f.Entries))), jobs.Thousands(int64(f.Matching)), total)
}

// onAdd asks for numbers (one, or many pasted) and a reason.
func (v *internalView) onAdd() { v.askAdd(nil, "", v.load) }

// askAdd asks for numbers to put on the list — prefilled with numbers,
// from source ("" by hand) — and a reason; done runs after.
func (v *internalView) askAdd(numbers []string, source string, done func()) {
	a := v.sh
	nums := widget.NewMultiLineEntry()
	nums.SetPlaceHolder("One number per line, in any format, or paste a column of numbers")
	nums.SetText(strings.Join(numbers, "\n"))
	nums.SetMinRowsVisible(6)
	reason := widget.NewEntry()
	reason.SetPlaceHolder("Asked not to be called, a complaint…")
	form := widget.NewForm(widget.NewFormItem("Numbers", nums), widget.NewFormItem("Reason", reason))
	d := dialog.NewCustomConfirm("Add to your do-not-call list", "Add", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		list := workflow.SplitNumbers(nums.Text)
		src := source
		if src == "" {
			src = "by hand"
			if len(list) > 1 {
				src = "pasted"
			}
		}
		background(a, a.ctx, func(ctx context.Context) (workflow.InternalAdded, error) {
			return v.be.AddInternal(ctx, list, strings.TrimSpace(reason.Text), src)
		}, func(res workflow.InternalAdded, err error) {
			if err != nil {
				a.showError(err)
				return
			}
			a.showAdded(res)
			v.changed()
			if done != nil {
				done()
			}
		})
	}, a.win)
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
	a.win.Canvas().Focus(nums)
}

// showAdded says what an addition did, with every number left out.
func (a *shell) showAdded(res workflow.InternalAdded) {
	msg := fmt.Sprintf("%s added to your do-not-call list.", jobs.Plural(int64(res.Added), "number", "numbers"))
	if res.Already > 0 {
		msg += fmt.Sprintf(" %s already on it.", jobs.Plural(int64(res.Already), "was", "were"))
	}
	if n := len(res.Invalid); n > 0 {
		shown := res.Invalid[:min(n, 10)]
		msg += fmt.Sprintf("\n\nNot valid phone numbers, left out: %s", strings.Join(shown, ", "))
		if n > len(shown) {
			msg += fmt.Sprintf(" and %d more", n-len(shown))
		}
		msg += "."
	}
	a.showMessage("Do-not-call list", msg)
}

// onImport asks for a file and offers its columns.
func (v *internalView) onImport() {
	v.sh.pickFile([]string{".csv", ".txt", ".xlsx"}, v.importFile)
}

// importFile reads every row of the file at path, counting its columns,
// then offers them (askColumns).
func (v *internalView) importFile(path string) {
	withProgressOf(v.sh, "Reading "+filepath.Base(path), func(ctx context.Context, progress func(int64, int64)) (workflow.ListFile, error) {
		return v.be.ScanListFile(ctx, path, listBar(progress))
	}, orShowError(v.sh, v.askColumns))
}

// askColumns offers the file's columns with what each holds: the
// phone-looking ones ticked, the others with why they are not.
func (v *internalView) askColumns(f workflow.ListFile) {
	a := v.sh
	name := filepath.Base(f.Path)
	checks := make([]*widget.Check, len(f.Columns))
	box := container.NewVBox()
	for i, c := range f.Columns {
		checks[i] = widget.NewCheck(columnLabel(c), nil)
		checks[i].SetChecked(c.Phone)
		box.Add(checks[i])
	}
	reason := widget.NewEntry()
	reason.SetText("imported from " + name)
	rows := jobs.Plural(int64(f.Rows), "row", "rows")
	if len(f.Sheets) > 1 {
		rows += fmt.Sprintf(" on %d sheets (%s)", len(f.Sheets), strings.Join(f.Sheets, ", "))
	}
	intro := widget.NewLabel(fmt.Sprintf("%s has %s. The columns ticked go on your do-not-call list, every row of them.", name, rows))
	intro.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(box)
	scroll.SetMinSize(fyne.NewSize(0, min(float32(len(f.Columns))*40, 320)))
	body := container.NewVBox(intro, scroll, widget.NewForm(widget.NewFormItem("Reason", reason)))
	if f.OptOuts != "" {
		warn := widget.NewLabel(fmt.Sprintf("This file looks like %s: every row's number goes on the list, whatever the row says. "+
			"To put on only the rows that are opt-outs, cancel and use Import opt-outs…", f.OptOuts))
		warn.Wrapping = fyne.TextWrapWord
		warn.Importance = widget.WarningImportance
		body.Objects = append([]fyne.CanvasObject{warn}, body.Objects...)
	}
	d := dialog.NewCustomConfirm("Import numbers from "+name, "Import", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		var cols []string
		for i, c := range checks {
			if c.Checked {
				cols = append(cols, f.Columns[i].Label())
			}
		}
		if len(cols) == 0 {
			a.showMessage("Do-not-call list", "No column was ticked: nothing was imported.")
			return
		}
		v.runImport(workflow.ListImport{Path: f.Path, Columns: cols, Reason: strings.TrimSpace(reason.Text)})
	}, a.win)
	d.Resize(fyne.NewSize(620, 0))
	d.Show()
	a.fire("list-columns")
}

// columnLabel says what a column of a file holds for the list.
func columnLabel(c workflow.ListColumn) string {
	if !c.Phone {
		return c.Label() + ": " + c.Why
	}
	s := c.Label() + ": " + jobs.Plural(int64(c.Numbers), "phone number", "phone numbers")
	if c.Invalid > 0 {
		s += ", " + jobs.Plural(int64(c.Invalid), "value", "values") + " not a number"
	}
	return s
}

// listBar turns an import's steps into one bar: reading the rows, then
// adding the numbers, each half of it.
func listBar(progress func(done, total int64)) func(workflow.ListProgress) {
	return func(p workflow.ListProgress) {
		if p.Total <= 0 {
			return
		}
		done := p.Done * 1000 / p.Total
		if p.Step == "adding" {
			done += 1000
		}
		progress(done, 2000)
	}
}

// runImport puts the numbers of the columns picked on the list, then
// says what it did.
func (v *internalView) runImport(req workflow.ListImport) {
	a := v.sh
	withProgressOf(a, "Adding the numbers of "+filepath.Base(req.Path), func(ctx context.Context, progress func(int64, int64)) (workflow.ListImported, error) {
		return v.be.ImportInternal(ctx, req, listBar(progress))
	}, func(res workflow.ListImported, err error) {
		if res.Added > 0 {
			v.changed()
			v.load()
		}
		if err != nil {
			a.showError(err)
			return
		}
		a.showImported(res)
	})
}

// maxInvalidShown is how many values that are not numbers the window
// lists (the command line's dnc-list import lists them all).
const maxInvalidShown = 200

// showImported says what an import did: the numbers added, already on
// the list and repeated, the columns read and not read (with why), and the
// values that are not numbers with their lines.
func (a *shell) showImported(res workflow.ListImported) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s added to your do-not-call list from %s.", jobs.Plural(int64(res.Added), "number", "numbers"), res.File)
	if res.Already > 0 {
		fmt.Fprintf(&b, " %s already on it.", jobs.Plural(int64(res.Already), "was", "were"))
	}
	if res.Repeated > 0 {
		fmt.Fprintf(&b, " %s repeated in the file.", jobs.Plural(int64(res.Repeated), "number was", "numbers were"))
	}
	b.WriteString("\n\nRead:")
	for _, c := range res.Read {
		fmt.Fprintf(&b, "\n  %s (%s)", c.Label(), jobs.Plural(int64(c.Numbers), "number", "numbers"))
	}
	if len(res.NotRead) > 0 {
		b.WriteString("\n\nNot read:")
		for _, c := range res.NotRead {
			fmt.Fprintf(&b, "\n  %s: %s", c.Label(), c.Why)
		}
	}
	if n := len(res.Invalid); n > 0 {
		fmt.Fprintf(&b, "\n\nNot valid phone numbers, left out (%d):", n)
		for _, inv := range res.Invalid[:min(n, maxInvalidShown)] {
			fmt.Fprintf(&b, "\n  line %d, %s: %s (%s)", inv.Line, inv.Column, inv.Value, inv.Reason)
		}
		if n > maxInvalidShown {
			fmt.Fprintf(&b, "\n  and %d more (skipdesk-cli dnc-list import lists every one)", n-maxInvalidShown)
		}
	}
	msg := widget.NewLabel(b.String())
	msg.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(msg)
	scroll.SetMinSize(fyne.NewSize(560, 280))
	d := dialog.NewCustom("Do-not-call list", "OK", scroll, a.win)
	keys.Track(a.win, d, d.Hide, nil) // Enter and Escape close it
	d.Show()
	a.fire("list-imported")
}

// onExport asks where to save the list, then writes it there.
func (v *internalView) onExport() {
	a := v.sh
	v.exports.askSavePath("do-not-call list.csv", func(dest string) {
		background(a, a.ctx, func(ctx context.Context) (int, error) { return v.be.ExportInternal(ctx, dest) },
			func(_ int, err error) {
				if err != nil {
					dropEmpty(dest)
					a.showError(err)
					return
				}
				v.exports.showSaved(dest, "")
			})
	})
}

// onRemove takes the selected number off the list, with a reason.
func (v *internalView) onRemove() {
	if v.sel < 0 || v.sel >= len(v.shown) {
		return
	}
	a := v.sh
	e := v.shown[v.sel]
	reason := widget.NewEntry()
	reason.SetPlaceHolder("Why it comes off the list (kept in its history)")
	d := dialog.NewCustomConfirm("Remove "+phone.Format(e.Number)+"?", "Remove", "Cancel",
		container.NewVBox(widget.NewLabel("A number off this list may be called again."), reason), func(ok bool) {
			if !ok {
				return
			}
			backgroundErr(a, a.ctx, func(ctx context.Context) error {
				return v.be.RemoveInternal(ctx, e.Number, reason.Text)
			}, a.orShow(func() {
				v.changed()
				v.load()
			}))
		}, a.win)
	reason.OnChanged = func(s string) {
		if strings.TrimSpace(s) == "" {
			d.SetConfirmImportance(widget.LowImportance)
		} else {
			d.SetConfirmImportance(widget.DangerImportance)
		}
	}
	d.Resize(fyne.NewSize(460, 0))
	d.Show()
}

// recheckViewers reads every open result again with the list as it is now.
func (a *App) recheckViewers() { a.recheck(func(*viewer) bool { return true }) }

// recheckTraces reads every open result but a DNC scrub's again: a scrub
// just downloaded may be of its phones, and its answers then show at once
// (the quick filters that need them too), without closing the tab.
func (a *App) recheckTraces() {
	a.recheck(func(v *viewer) bool { l := v.res.Layout(); return l == nil || l.Kind != layout.KindDNC })
}

// recheck reads the open results which picks again (see Recheck).
func (a *App) recheck(which func(*viewer) bool) {
	for _, v := range a.viewers {
		if !which(v) {
			continue
		}
		v := v
		backgroundErr(a.shell, a.ctx, func(ctx context.Context) error {
			return a.svc.Results.Recheck(ctx, v.res)
		}, a.orShow(func() {
			v.relayout()
			v.showQuickFilters()
			v.runQuery()
			a.fire("rechecked")
		}))
	}
}
