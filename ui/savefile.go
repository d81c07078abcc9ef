package ui

import (
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// askSavePath asks where to save a file before anything is written: the
// save dialog opens in the export folder with name, made free ("name
// (2).xlsx") when a file of that name is there. Picking a file that exists
// asks before replacing it. then runs with the chosen path (UI thread);
// nothing runs when the person cancels.
func (a *App) askSavePath(name string, then func(path string)) {
	dir := a.outputDir()
	_ = os.MkdirAll(dir, 0o755) // the dialog opens on it; a failure shows when writing
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) { a.savePicked(w, err, then) }, a.win)
	d.SetFileName(filepath.Base(workflow.FreePath(filepath.Join(dir, name))))
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
	d.SetConfirmText("Save")
	d.SetOnClosed(func() { a.saving = false })
	d.Resize(fyne.NewSize(800, 560))
	a.saving = true
	d.Show()
	a.fire("save-as")
}

// savePicked is the save dialog's answer. The dialog has already asked
// before replacing a file and opened it for writing; the export writes the
// file itself (through a temporary file), so the writer is only closed.
func (a *App) savePicked(w fyne.URIWriteCloser, err error, then func(path string)) {
	if err != nil {
		a.showError(err)
		return
	}
	if w == nil {
		return // cancelled
	}
	path := w.URI().Path()
	w.Close()
	then(path)
}

// dropEmpty removes the empty file the save dialog left at path when the
// export to it failed: no empty spreadsheet stays behind with the name the
// person chose.
func dropEmpty(path string) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		os.Remove(path)
	}
}
