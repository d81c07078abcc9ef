package ui

import (
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// openingApp is an app whose system cannot open a file (no app for its
// kind), but can show a folder.
type openingApp struct {
	*notifyApp
	mu     sync.Mutex
	opened []string
}

func (a *openingApp) OpenURL(u *url.URL) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if strings.HasSuffix(u.Path, ".csv") || strings.HasSuffix(u.Path, ".pdf") {
		return errors.New("no application is registered for this kind of file")
	}
	a.opened = append(a.opened, u.Path)
	return nil
}

// "Open with system app" failing says so in words and offers "Show in
// folder", which opens the file's folder.
func TestOpenFailingOffersTheFolder(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	app := &openingApp{notifyApp: h.fyneA}
	h.do(func() { h.app.shell.fyne = app })
	path := filepath.Join(t.TempDir(), "owners 2026-11-26 a1b2c3.csv")
	h.do(func() { h.app.shell.openFile(path) })
	h.wait("open-failed")
	if text := h.dialogText(); !strings.Contains(text, "No app on this computer opened") {
		t.Fatalf("said %q", text)
	}
	var show *widget.Button
	h.do(func() {
		for _, o := range test.LaidOutObjects(h.win.Canvas().Overlays().Top()) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Show in folder" {
				show = b
			}
		}
	})
	if show == nil {
		t.Fatal("the message offers no Show in folder")
	}
	h.tap(show)
	app.mu.Lock()
	defer app.mu.Unlock()
	if len(app.opened) != 1 || app.opened[0] != filepath.Dir(path) {
		t.Fatalf("opened %q, want the folder %s", app.opened, filepath.Dir(path))
	}
}
