package ui

import (
	"context"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/pick"
)

// onDropped routes files dropped on the window: an owner list to the trace
// wizard, a phone list to the DNC scrub, a result to the viewer. Only the
// first usable file is taken.
func (a *App) onDropped(_ fyne.Position, uris []fyne.URI) {
	if a.dialogOpen() {
		a.showProblem(workflow.Problem{Title: "Finish what is open first",
			What: "A file was dropped while another window of SkipDesk is open.",
			Do:   "Finish or cancel it, then drop the file again."})
		return
	}
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
	a.showProblem(workflow.Problem{Title: "Not a list", What: "SkipDesk opens CSV and Excel (.xlsx) files.", Do: "Drop a .csv or .xlsx file on the window."})
}

// OpenFile starts the flow that fits the file at path.
func (a *App) OpenFile(path string) {
	if a.jobs == nil {
		return // not connected yet
	}
	background(a.shell, a.ctx, func(ctx context.Context) (workflow.FileKind, error) {
		return a.svc.Results.Classify(ctx, path)
	}, func(kind workflow.FileKind, err error) {
		if err != nil {
			a.showError(err)
			return
		}
		switch kind {
		case workflow.FileTraceResult, workflow.FileDNCResult:
			if !strings.EqualFold(filepath.Ext(path), ".csv") {
				// A workbook from another service: a plain copy goes into
				// the library, where it opens like SkipDesk's own.
				a.library.importResult(path)
				return
			}
			a.openViewer(path, "")
		case workflow.FilePhones:
			a.Flows.NewDNC(path)
		default:
			a.Flows.NewTrace(path)
		}
	})
}

// onOpenResult asks for a file and opens it (Ctrl+O).
func (a *App) onOpenResult() {
	pick.File(a.win, "Open a result", []string{".csv", ".xlsx"}, a.libraryDir(), a.OpenFile)
}

func (a *App) libraryDir() string {
	if a.library != nil && len(a.library.items) > 0 {
		return filepath.Dir(a.library.items[0].Path)
	}
	return ""
}

// addShortcuts binds the keyboard shortcuts of the main actions, and puts
// the same actions in the window's menu: the menu shows each shortcut, and
// a menu's shortcut works even while a text box has the focus (the canvas's
// own shortcuts then go to the text box).
func (a *App) addShortcuts() {
	type action struct {
		label string
		key   fyne.KeyName
		f     func()
	}
	file := []action{
		{"New trace…", fyne.KeyN, a.onNewTrace},
		{"DNC scrub…", fyne.KeyD, a.onNewDNC},
		{"Single lookup…", fyne.KeyL, a.onSingleLookup},
		{"Open result…", fyne.KeyO, a.onOpenResult},
		{"Settings…", fyne.KeyComma, a.showSettings},
	}
	view := []action{{"Refresh", fyne.KeyR, a.refreshNow}}
	items := func(acts []action) []*fyne.MenuItem {
		var out []*fyne.MenuItem
		for _, x := range acts {
			sc := &desktop.CustomShortcut{KeyName: x.key, Modifier: fyne.KeyModifierShortcutDefault}
			run := func() {
				// Connected, and no dialog (a wizard, the settings) is
				// open: Ctrl+N there would stack a second wizard on it.
				if a.jobs != nil && !a.dialogOpen() {
					x.f()
				}
			}
			a.win.Canvas().AddShortcut(sc, func(fyne.Shortcut) { run() })
			out = append(out, &fyne.MenuItem{Label: x.label, Shortcut: sc, Action: run})
		}
		return out
	}
	a.menu = fyne.NewMainMenu(fyne.NewMenu("File", items(file)...), fyne.NewMenu("View", items(view)...), a.helpMenu())
	a.win.SetMainMenu(a.menu)
}
