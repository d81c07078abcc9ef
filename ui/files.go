package ui

import (
	"context"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"

	"github.com/skipdesk/skipdesk/jobs/desk"
)

// onDropped routes files dropped on the window: an owner list to the trace
// wizard, a phone list to the DNC scrub, a result to the viewer. Only the
// first usable file is taken.
func (a *App) onDropped(_ fyne.Position, uris []fyne.URI) {
	for _, u := range uris {
		if u == nil || u.Scheme() != "file" {
			continue
		}
		ext := strings.ToLower(filepath.Ext(u.Path()))
		if ext == ".csv" || ext == ".xlsx" || ext == ".txt" || ext == ".tsv" {
			a.OpenFile(u.Path())
			return
		}
	}
	a.showProblem(desk.Problem{Title: "Not a list", What: "SkipDesk opens CSV and Excel (.xlsx) files.", Do: "Drop a .csv or .xlsx file on the window."})
}

// OpenFile starts the flow that fits the file at path.
func (a *App) OpenFile(path string) {
	if a.jobs == nil {
		return // not connected yet
	}
	background(a.ctx, func(ctx context.Context) (desk.FileKind, error) {
		return a.be.Classify(ctx, path)
	}, func(kind desk.FileKind, err error) {
		if err != nil {
			a.showError(err)
			return
		}
		switch kind {
		case desk.FileTraceResult, desk.FileDNCResult:
			a.openViewer(path, "")
		case desk.FilePhones:
			a.Flows.NewDNC(a, path)
		default:
			a.Flows.NewTrace(a, path)
		}
	})
}

// onOpenResult asks for a file and opens it (Ctrl+O).
func (a *App) onOpenResult() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		a.OpenFile(path)
	}, a.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".xlsx"}))
	if dir := a.libraryDir(); dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

func (a *App) libraryDir() string {
	if a.library != nil && len(a.library.items) > 0 {
		return filepath.Dir(a.library.items[0].Path)
	}
	return ""
}

// addShortcuts binds the keyboard shortcuts of the main actions.
func (a *App) addShortcuts() {
	bind := func(key fyne.KeyName, f func()) {
		a.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault},
			func(fyne.Shortcut) {
				if a.jobs != nil {
					f()
				}
			})
	}
	bind(fyne.KeyN, a.onNewTrace)
	bind(fyne.KeyD, a.onNewDNC)
	bind(fyne.KeyL, a.onSingleLookup)
	bind(fyne.KeyO, a.onOpenResult)
	bind(fyne.KeyR, a.refreshNow)
	bind(fyne.KeyComma, a.showSettings)
}
