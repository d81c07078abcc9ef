// Package pick asks for a file to open in a way that works from the
// keyboard alone: the file's path typed in a field (Enter opens it), or the
// file dialog from a Browse… button.
package pick

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/ui/keys"
)

// Asker is the question shown by File while it shows.
type Asker struct {
	Path   *keys.Entry  // the path typed
	Browse *keys.Button // opens the file dialog
	Open   *keys.Button
	Why    *widget.Label // why the path typed cannot be opened
	d      *dialog.CustomDialog
}

// File asks over win for a file with one of exts (".csv"), starting in
// dir when it is not "", and hands its path to then. The path field has
// the focus; Enter opens the path typed, Escape closes the question.
func File(win fyne.Window, title string, exts []string, dir string, then func(path string)) *Asker {
	a := &Asker{Path: keys.NewEntry(), Why: widget.NewLabel("")}
	a.Path.SetPlaceHolder("Type the file's path, or choose Browse…")
	a.Why.Importance = widget.DangerImportance
	a.Why.Wrapping = fyne.TextWrapWord
	a.Why.Hide()
	open := func() {
		p, err := Check(a.Path.Text, exts)
		if err != nil {
			a.Why.SetText(err.Error())
			a.Why.Show()
			return
		}
		a.d.Hide()
		then(p)
	}
	a.Path.OnSubmitted = func(string) { open() }
	a.Open = keys.NewButton("Open", open)
	a.Open.Importance = widget.HighImportance
	a.Browse = keys.NewButton("Browse…", func() { a.browse(win, exts, dir, then) })
	a.Browse.Icon = theme.FolderOpenIcon()
	cancel := keys.NewButton("Cancel", func() { a.d.Hide() })
	hint := widget.NewLabel("Files: " + strings.Join(exts, ", "))
	hint.Importance = widget.LowImportance
	body := container.NewVBox(container.NewBorder(nil, nil, nil, a.Browse, a.Path), a.Why, hint,
		container.NewHBox(layout.NewSpacer(), cancel, a.Open))
	a.d = dialog.NewCustomWithoutButtons(title, body, win)
	keys.Track(win, a.d, open, nil)
	a.d.Resize(fyne.NewSize(640, 0))
	a.d.Show()
	win.Canvas().Focus(a.Path)
	return a
}

// browse shows the file dialog, in the folder of the path typed when there
// is one.
func (a *Asker) browse(win fyne.Window, exts []string, dir string, then func(string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			a.Why.SetText(err.Error())
			a.Why.Show()
			return
		}
		if r == nil {
			return
		}
		p := r.URI().Path()
		r.Close()
		a.d.Hide()
		then(p)
	}, win)
	d.SetFilter(storage.NewExtensionFileFilter(exts))
	if t := strings.TrimSpace(a.Path.Text); t != "" {
		if fi, err := os.Stat(expand(t)); err == nil && fi.IsDir() {
			dir = expand(t)
		} else if fi, err := os.Stat(filepath.Dir(expand(t))); err == nil && fi.IsDir() {
			dir = filepath.Dir(expand(t))
		}
	}
	if dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// Check is the path typed, made absolute ("~" is the home folder), when it
// is a file with one of exts; else why it cannot be opened.
func Check(typed string, exts []string) (string, error) {
	t := strings.Trim(strings.TrimSpace(typed), `"'`)
	if t == "" {
		return "", errors.New("type the file's path, or choose Browse… to find it")
	}
	p, err := filepath.Abs(expand(t))
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("there is no file %s", p)
	case err != nil:
		return "", err
	case fi.IsDir():
		return "", fmt.Errorf("%s is a folder: type the file's name after it, or choose Browse…", p)
	}
	if !slices.Contains(exts, strings.ToLower(filepath.Ext(p))) {
		return "", fmt.Errorf("%s is not one of the files SkipDesk opens (%s)", filepath.Base(p), strings.Join(exts, ", "))
	}
	return p, nil
}

// expand replaces a leading "~" with the home folder.
func expand(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[1:])
		}
	}
	return p
}
