// Command skipdesk is the SkipDesk desktop app.
package main

import (
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.NewWithID("com.skipdesk.app")
	w := a.NewWindow("SkipDesk")
	w.SetContent(widget.NewLabel("SkipDesk"))
	w.ShowAndRun()
}
