package ui

import (
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/assets"
)

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
// notices, and the data folder, which its button opens; Escape closes it.
func TestAboutFromHelpMenu(t *testing.T) {
	h, fa, home := helpWindow(t)
	h.do(helpItem(t, h.app, "About SkipDesk").Action)

	text := h.dialogText()
	for _, want := range []string{"SkipDesk", "Version " + assets.VersionString(), "Copyright (c) 2026 SkipDesk. All rights reserved.",
		"LICENSE.txt", "THIRD_PARTY_NOTICES.txt", home} {
		if !strings.Contains(text, want) {
			t.Errorf("the About dialog does not say %q:\n%s", want, text)
		}
	}
	// Escape closes it.
	h.do(func() { h.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	h.do(func() {
		if h.win.Canvas().Overlays().Top() != nil {
			t.Error("Escape left About open")
		}
	})
	h.do(helpItem(t, h.app, "About SkipDesk").Action)
	h.tap(h.button("Open data folder"))
	fa.mu.Lock()
	defer fa.mu.Unlock()
	if want := fileURL(home).String(); len(fa.opened) != 1 || fa.opened[0] != want {
		t.Fatalf("opened %v, want %s", fa.opened, want)
	}
}

// Help > Getting started explains the modes and their cost, the scrub, the
// litigator list, the callable list and where files go, with buttons that
// open the folders; Escape closes it.
func TestGuideFromHelpMenu(t *testing.T) {
	h, fa, home := helpWindow(t)
	w := h.win
	h.do(helpItem(t, h.app, "Getting started").Action)
	var text string
	h.do(func() {
		for _, x := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
			if r, ok := x.(*widget.RichText); ok {
				for _, seg := range r.Segments {
					text += segmentText(seg)
				}
			}
		}
	})
	for _, want := range []string{"Normal searches by the owner's name", "Enhanced searches by the address alone", "litigator",
		"31 days", "Callable list", "proof of scrub", "data folder", home, "Settings"} {
		if !strings.Contains(text, want) {
			t.Errorf("the guide does not say %q:\n%s", want, text)
		}
	}
	h.tap(h.button("Open data folder"))
	fa.mu.Lock()
	opened := slices.Clone(fa.opened)
	fa.mu.Unlock()
	if want := fileURL(home).String(); len(opened) != 1 || opened[0] != want {
		t.Fatalf("opened %v, want %s", opened, want)
	}
	h.do(func() { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	h.do(func() {
		if w.Canvas().Overlays().Top() != nil {
			t.Error("Escape left the guide open")
		}
	})
}

// segmentText is the text of a rich text segment, lists included.
func segmentText(seg widget.RichTextSegment) string {
	switch s := seg.(type) {
	case *widget.ListSegment:
		var b strings.Builder
		for _, it := range s.Items {
			b.WriteString(segmentText(it) + "\n")
		}
		return b.String()
	case *widget.ParagraphSegment:
		var b strings.Builder
		for _, it := range s.Texts {
			b.WriteString(segmentText(it))
		}
		return b.String() + "\n"
	case *widget.TextSegment:
		return s.Text
	}
	return seg.Textual()
}

// helpWindow is the window, on an app that records the addresses it opens,
// with its data folder.
func helpWindow(t *testing.T) (h *harness, fa *urlApp, home string) {
	home = t.TempDir()
	fa = &urlApp{App: test.NewTempApp(t)}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1180, 760))
	fb := newFake()
	fb.home = home
	a := New(fa, w, fb.services(), testOptions())
	t.Cleanup(a.Close)
	return &harness{t: t, app: a, win: w}, fa, home
}

// helpItem is the Help menu's item of that label.
func helpItem(t *testing.T, a *App, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range a.menu.Items {
		for _, it := range m.Items {
			if m.Label == "Help" && it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no Help > %s in the menu", label)
	return nil
}
