package wizard

import "fyne.io/fyne/v2"

// do runs f on the UI thread. Tests replace it with a version that
// serialises callbacks, since the test driver runs fyne.Do inline.
var do = fyne.Do
