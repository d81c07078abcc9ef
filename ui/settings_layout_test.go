package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/settings"
)

// Settings at 1024×680, the default size and a full-screen size, in both
// themes: the person's settings come first and the webhooks sit under
// Advanced; Cancel and Save lie inside the window, below the settings
// (which scroll when they do not fit), never on top of them.
func TestSettingsFitAtEverySize(t *testing.T) {
	fb := newFake()
	fb.resumeErr = nil
	h := start(t, fb)
	for _, size := range []fyne.Size{{Width: 1024, Height: 680}, {Width: 1180, Height: 760}, {Width: 1920, Height: 1080}} {
		for _, th := range []string{settings.ThemeLight, settings.ThemeDark} {
			var f *settingsForm
			h.do(func() {
				h.app.applyTheme(th)
				h.win.Resize(size)
				f = h.app.newSettingsForm()
				f.dialog.Show()
			})
			var msg string
			h.do(func() { msg = settingsOverlap(h.win, f) })
			if msg != "" {
				t.Errorf("%v×%v, %s theme: %s", size.Width, size.Height, th, msg)
			}
			screenshot(t, h, fmt.Sprintf("settings-%vx%v-%s.png", size.Width, size.Height, th))
			h.do(f.dialog.Hide)
		}
	}
}

// settingsOverlap says what is out of place in the open settings dialog,
// "" when nothing is.
func settingsOverlap(w fyne.Window, f *settingsForm) string {
	d := fyne.CurrentApp().Driver()
	win := w.Canvas().Size()
	body, bodyAt := f.body.Size(), d.AbsolutePositionForObject(f.body)
	btnAt := d.AbsolutePositionForObject(f.saveBtn)
	switch {
	case btnAt.Y < bodyAt.Y+body.Height:
		return fmt.Sprintf("Save at y=%v, over the settings (down to y=%v)", btnAt.Y, bodyAt.Y+body.Height)
	case btnAt.Y+f.saveBtn.Size().Height > win.Height || bodyAt.Y < 0:
		return fmt.Sprintf("the dialog runs off the window (Save at y=%v of %v)", btnAt.Y, win.Height)
	case body.Height < 120:
		return fmt.Sprintf("the settings have %v points of height", body.Height)
	}
	form := f.body.Content.(*fyne.Container).Objects[0].(*widget.Form)
	if form.Items[0].Text != "Export folder" {
		return fmt.Sprintf("the first setting is %q", form.Items[0].Text)
	}
	return ""
}
