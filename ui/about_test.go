package ui

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/assets"
)

// homeBackend is the fake with a data folder, as jobs/workflow has.
type homeBackend struct {
	*fakeBackend
	home string
}

func (b homeBackend) Home() string { return b.home }

// urlApp records the URLs the window asks the system to open.
type urlApp struct {
	fyne.App
	mu     sync.Mutex
	opened []string
}

func (u *urlApp) OpenURL(x *url.URL) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.opened = append(u.opened, x.String())
	return nil
}

// Help > About SkipDesk names the version and build, the licence, the
// notices, and the data folder, which its button opens.
func TestAboutFromHelpMenu(t *testing.T) {
	home := t.TempDir()
	fa := &urlApp{App: test.NewTempApp(t)}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1180, 760))
	a := New(fa, w, homeBackend{newFake(), home}, testOptions())
	t.Cleanup(a.Close)
	h := &harness{t: t, app: a, win: w}

	var about *fyne.MenuItem
	for _, m := range a.menu.Items {
		for _, it := range m.Items {
			if m.Label == "Help" && it.Label == "About SkipDesk" {
				about = it
			}
		}
	}
	if about == nil {
		t.Fatal("no Help > About SkipDesk in the menu")
	}
	h.do(about.Action)

	text := h.dialogText()
	for _, want := range []string{"SkipDesk", "Version " + assets.VersionString(), "Copyright (c) 2026 SkipDesk. All rights reserved.",
		"LICENSE.txt", "THIRD_PARTY_NOTICES.txt", home} {
		if !strings.Contains(text, want) {
			t.Errorf("the About dialog does not say %q:\n%s", want, text)
		}
	}
	h.tap(h.button("Open data folder"))
	fa.mu.Lock()
	defer fa.mu.Unlock()
	if want := fileURL(home).String(); len(fa.opened) != 1 || fa.opened[0] != want {
		t.Fatalf("opened %v, want %s", fa.opened, want)
	}
}
