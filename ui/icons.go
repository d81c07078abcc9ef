package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// doNotCallIcon is a "no" sign (a circle crossed by a bar): the tab and the
// button of the do-not-call list. A bare "×" read as a close button that
// did nothing.
var doNotCallIcon = theme.NewThemedResource(fyne.NewStaticResource("do-not-call.svg", []byte(
	`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`+
		`<path fill="#000000" fill-rule="evenodd" d="M12 2a10 10 0 1 1 0 20a10 10 0 1 1 0-20zM12 4.5a7.5 7.5 0 1 0 0 15a7.5 7.5 0 1 0 0-15z"/>`+
		`<path fill="#000000" d="M5.46 7.22l1.76-1.76 11.32 11.32-1.76 1.76z"/>`+
		`</svg>`)))
