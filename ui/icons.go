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
		`<path fill="#000000" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 0 1 6.32 12.9L7.1 5.68A7.96 7.96 0 0 1 12 4zM4 12c0-1.85.63-3.55 1.68-4.9L16.9 18.32A8 8 0 0 1 4 12z"/>`+
		`</svg>`)))
