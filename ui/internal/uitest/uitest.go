// Package uitest holds what the tests of the ui packages share: a stand-in
// for the UI thread, screenshots on request, and the text a screen shows.
package uitest

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Thread stands for the UI thread in tests: the Fyne test driver runs
// fyne.Do inline on the calling goroutine, so the screens' background
// updates and a test's own actions take turns on it, as they do on the
// real main thread.
type Thread struct{ mu sync.Mutex }

// Do runs f as the UI thread would.
func (th *Thread) Do(f func()) {
	th.mu.Lock()
	defer th.mu.Unlock()
	f()
}

// SaveShot writes the image capture takes as a PNG file named name in the
// folder the environment variable env names; when env is not set it does
// nothing (a way to look at the screens without a display).
func SaveShot(t testing.TB, env, name string, capture func() image.Image) {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := png.Encode(out, capture()); err != nil {
		t.Fatal(err)
	}
}

// Text is the text of the labels and canvas texts laid out in o, one a
// line, in the order they are laid out: what a person reads there (a
// label's text stands twice, as the label and as the text it draws; a
// button's once).
func Text(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		switch l := x.(type) {
		case *widget.Label:
			b.WriteString(l.Text + "\n")
		case *canvas.Text:
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}
