package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs/settings"
)

// Settings at 1024×680, the default size and a full-screen size, in both
// themes: the person's settings come first and the webhooks sit under
// Advanced; Cancel and Save lie inside the window, below the settings
// (which scroll when they do not fit), never on top of them.
func TestSettingsFitAtEverySize(t *testing.T) {
	fb := signedIn()
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
			h.do(func() { msg = f.outOfPlace() })
			if msg != "" {
				t.Errorf("%v×%v, %s theme: %s", size.Width, size.Height, th, msg)
			}
			screenshot(t, h, fmt.Sprintf("settings-%vx%v-%s.png", size.Width, size.Height, th))
			h.do(func() { h.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) }) // Escape closes it
			h.do(func() {
				if h.win.Canvas().Overlays().Top() != nil {
					t.Error("Escape left Settings open")
					f.dialog.Hide()
				}
			})
		}
	}
}
