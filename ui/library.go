package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// libraryView lists the downloaded results and searches them offline.
type libraryView struct {
	sh *shell
	be LibraryBackend
	// openViewerAt opens a result in a viewer tab at a row.
	openViewerAt func(path, name string, row int)
	// scrubAsk is an import's scrub date question while it shows.
	scrubAsk *scrubDateAsk
	items    []workflow.LibraryItem
	search_  *widget.Entry
	list     *widget.List
	status   *widget.Label
	indexBar *widget.Label // the library index being brought up to date
	debounce *busy.Timer
	keys     int // keys typed into the search
	// gen numbers the searches; answered is the one whose answer shows
	// and shownQuery its query.
	gen, answered int
	shownQuery    string
	content       fyne.CanvasObject

	// onSearched is called on the UI thread after each search is shown.
	onSearched func()
}

func newLibraryView(a *shell, be LibraryBackend, openViewerAt func(path, name string, row int)) *libraryView {
	v := &libraryView{sh: a, be: be, openViewerAt: openViewerAt}
	v.search_ = widget.NewEntry()
	v.search_.SetPlaceHolder("Search every downloaded result: phone, name, address…")
	v.search_.OnChanged = func(string) {
		if v.debounce != nil {
			v.debounce.Stop()
		}
		// A timer that fired while the window was busy still runs: only
		// the last key's searches.
		v.keys++
		key := v.keys
		v.debounce = a.after(a.opts.FilterDelay, func() {
			a.do(func() {
				if key == v.keys {
					v.search()
				}
			})
		})
	}
	v.status = widget.NewLabel("")
	v.indexBar = widget.NewLabel("")
	v.indexBar.Importance = widget.LowImportance
	v.indexBar.Hide()
	v.list = widget.NewList(
		func() int { return len(v.items) },
		func() fyne.CanvasObject {
			title := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			title.Truncation = fyne.TextTruncateEllipsis
			info := widget.NewLabel("")
			info.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(title, info)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < 0 || id >= len(v.items) {
				return
			}
			box := o.(*fyne.Container)
			it := v.items[id]
			box.Objects[0].(*widget.Label).SetText(it.Name)
			box.Objects[1].(*widget.Label).SetText(libraryLine(it))
		},
	)
	v.list.OnSelected = func(id widget.ListItemID) {
		if id >= 0 && id < len(v.items) {
			it := v.items[id]
			v.list.UnselectAll()
			if it.Path == "" {
				v.fetchAndOpen(it) // a row of a teammate's result
				return
			}
			v.openViewerAt(it.Path, it.Name, it.Row) // a search hit: at its row
		}
	}
	imp := widget.NewButtonWithIcon("Import a result…", theme.FolderOpenIcon(), v.onImport)
	v.content = container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, nil, imp, v.search_), v.status, v.indexBar), nil, nil, nil, v.list)
	return v
}

// onImport asks for a result made elsewhere (CSV or XLSX) and copies it
// into the library, then opens it.
func (v *libraryView) onImport() {
	v.sh.pickFile([]string{".csv", ".txt", ".xlsx"}, v.importResult)
}

// importResult asks when the DNC answers of a result made elsewhere were
// scrubbed, then copies it into the library and opens it.
func (v *libraryView) importResult(path string) {
	v.askScrubDate(filepath.Base(path), func(scrubbed time.Time) { v.importDated(path, scrubbed) })
}

// scrubDateAsk is the question of an import's scrub date, while shown.
type scrubDateAsk struct {
	dialog *dialog.ConfirmDialog
	entry  *widget.Entry
}

// askScrubDate asks when the DNC answers of the file name were scrubbed;
// then gets the date (zero: not known).
func (v *libraryView) askScrubDate(name string, then func(time.Time)) {
	a := v.sh
	entry := widget.NewEntry()
	entry.SetPlaceHolder("YYYY-MM-DD, e.g. " + time.Now().Format(time.DateOnly))
	note := widget.NewLabel("When were the Do-Not-Call answers in this file scrubbed? A call may rest on a scrub no more than " +
		"31 days old, so SkipDesk needs the date. Rows with a scrub date of their own keep it. Leave it empty if you do not " +
		"know: no other phone of the file will be callable until its numbers are scrubbed again.")
	note.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Import "+name, "Import", "Cancel",
		container.NewVBox(note, widget.NewForm(widget.NewFormItem("Scrubbed on", entry))), func(ok bool) {
			v.scrubAsk = nil
			if !ok {
				return
			}
			text := strings.TrimSpace(entry.Text)
			if text == "" {
				then(time.Time{})
				return
			}
			t, err := time.ParseInLocation(time.DateOnly, text, time.Local)
			switch {
			case err != nil:
				a.showMessage("Not a date", fmt.Sprintf("%q is not a date such as %s: nothing was imported.", text, time.Now().Format(time.DateOnly)))
			case t.After(time.Now()):
				a.showMessage("A date in the future", "A scrub cannot have been made on "+t.Format("Jan 2, 2006")+": nothing was imported.")
			default:
				then(t)
			}
		}, a.win)
	keys.Track(a.win, d, d.Confirm, nil)
	v.scrubAsk = &scrubDateAsk{dialog: d, entry: entry}
	d.Resize(fyne.NewSize(560, 0))
	d.Show()
	a.fire("scrub-date")
}

// importDated copies a result made elsewhere, scrubbed on scrubbed (zero:
// not known), into the library and opens it.
func (v *libraryView) importDated(path string, scrubbed time.Time) {
	a := v.sh
	var said []string // what the import did beside the result opened, said once its progress is gone
	a.withProgress("Importing "+filepath.Base(path), func(ctx context.Context, _ func(int64, int64)) error {
		it, err := v.be.ImportResult(ctx, path, workflow.ImportOptions{Scrubbed: scrubbed})
		if err != nil {
			return err
		}
		for _, o := range it.Others {
			said = append(said, fmt.Sprintf("Also imported, as a result of its own (a sheet under other columns): %s, %s. Find it in the Library.",
				o.Name, jobs.Plural(int64(o.Rows), "row", "rows")))
		}
		for _, w := range it.Warnings {
			said = append(said, capitalise(w)+".")
		}
		a.do(func() {
			v.search()
			v.openViewerAt(it.Path, it.Name, 0)
		})
		return nil
	}, func(err error) {
		switch {
		case err != nil:
			a.showError(err)
		case len(said) > 0:
			a.showMessage("Imported "+filepath.Base(path), strings.Join(said, "\n\n"))
		}
	})
}

// fetchAndOpen brings a result found in a teammate's library here (a
// download from the provider, with progress and Cancel) and opens it at the
// row found.
func (v *libraryView) fetchAndOpen(it workflow.LibraryItem) {
	withProgressOf(v.sh, "Downloading "+it.Name+" (in "+it.Teammate+"'s library)", func(ctx context.Context, progress func(int64, int64)) (workflow.LibraryItem, error) {
		return v.be.FetchResult(ctx, it, progress)
	}, orShowError(v.sh, func(got workflow.LibraryItem) {
		v.search()
		v.openViewerAt(got.Path, got.Name, got.Row)
	}))
}

func libraryLine(it workflow.LibraryItem) string {
	var parts []string
	switch it.Kind {
	case jobs.KindDNC:
		parts = append(parts, "DNC")
	default:
		parts = append(parts, "Trace")
	}
	if !it.CreatedAt.IsZero() {
		parts = append(parts, it.CreatedAt.Local().Format("Jan 2, 2006"))
	}
	if it.Rows > 0 {
		parts = append(parts, jobs.Thousands(int64(it.Rows))+" rows")
	}
	switch {
	case it.Size >= 1<<20:
		parts = append(parts, fmt.Sprintf("%.1f MB", float64(it.Size)/(1<<20)))
	case it.Size > 0:
		parts = append(parts, fmt.Sprintf("%d KB", (it.Size+1023)/1024))
	}
	if len(it.Hits) > 0 {
		parts = append(parts, "found: "+strings.Join(it.Hits, "; "))
	}
	if it.Path == "" && it.Teammate != "" && it.JobID != "" {
		parts = append(parts, "select to download it here")
	}
	return strings.Join(parts, " · ")
}

// search runs the library search off the UI thread; only the newest answer
// is shown.
func (v *libraryView) search() {
	a := v.sh
	q := strings.TrimSpace(v.search_.Text)
	v.gen++
	gen := v.gen
	if q != "" {
		v.status.SetText("Searching…")
	}
	background(a, a.ctx, func(ctx context.Context) ([]workflow.LibraryItem, error) {
		return v.be.SearchLibrary(ctx, q)
	}, func(items []workflow.LibraryItem, err error) {
		if gen != v.gen {
			return
		}
		v.answered, v.shownQuery = gen, q
		if err != nil {
			v.status.SetText(workflow.Explain(err, "").String())
		} else {
			v.items = items
			switch {
			case len(items) == 0 && q == "":
				v.status.SetText("No results downloaded yet. Completed jobs appear here once opened or exported.")
			case len(items) == 0:
				v.status.SetText("No downloaded result contains \"" + workflow.EchoQuery(q) + "\".")
			case q == "":
				v.status.SetText(fmt.Sprintf("%s on this computer. Select one to open it.", plural(len(items), "result", "results")))
			default:
				v.status.SetText(hitsLine(items, q))
			}
		}
		v.list.Refresh()
		if v.onSearched != nil {
			v.onSearched()
		}
	})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return jobs.Thousands(int64(n)) + " " + many
}
