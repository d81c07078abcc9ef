package wizard

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// stage is a wizard dialog's one content slot, swapped between reading the
// file, an error and the wizard itself.
type stage struct {
	root *fyne.Container
	// loadingBar is the endless bar while the file is read.
	loadingBar *widget.ProgressBarInfinite
}

func newStage() stage { return stage{root: container.NewStack()} }

// showLoading shows msg over an endless bar, with a Cancel button.
func (s *stage) showLoading(msg string, cancel func()) {
	bar := widget.NewProgressBarInfinite()
	s.setRoot(container.NewCenter(container.NewVBox(widget.NewLabel(msg), bar, widget.NewButton("Cancel", cancel))))
	s.loadingBar = bar
}

// setRoot shows obj in the dialog. The loading bar it replaces is stopped:
// an endless bar out of sight still animates, and every frame of it redrew
// the whole window (the 200-column board included) for a minute or so.
func (s *stage) setRoot(obj fyne.CanvasObject) {
	if s.loadingBar != nil {
		s.loadingBar.Stop()
		s.loadingBar = nil
	}
	s.root.Objects = []fyne.CanvasObject{obj}
	s.root.Refresh()
}
