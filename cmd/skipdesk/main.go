// Command skipdesk is the SkipDesk desktop app.
package main

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/jobs/desk"
	"github.com/skipdesk/skipdesk/ui"
)

func main() {
	a := app.NewWithID("com.skipdesk.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	d, err := desk.Open(desk.Options{})
	if d == nil {
		os.Exit(ui.Run(a, nil, err))
	}
	code := ui.Run(a, d, nil) // a damaged settings file was replaced by the defaults
	d.Close()
	os.Exit(code)
}
