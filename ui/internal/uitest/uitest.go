// Package uitest holds what the tests of the ui packages share: a stand-in
// for the UI thread, and screenshots on request.
package uitest

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"
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
