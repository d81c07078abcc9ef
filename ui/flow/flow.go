// Package flow is a layout that wraps its objects onto more rows when the
// width runs out.
package flow

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// New lays objects out left to right and wraps them onto more rows when
// the width runs out. A row of buttons in an HBox asks for its whole width
// and makes the window grow past a small screen; a flow asks only for its
// widest object and takes as many rows as the width needs.
func New(objects ...fyne.CanvasObject) *fyne.Container {
	l := &flowLayout{}
	c := &fyne.Container{Layout: l, Objects: objects}
	l.box = c
	return c
}

type flowLayout struct {
	box *fyne.Container
	// width is the width of the last layout (0 before the first): the
	// number of rows, and so the height asked for, depends on it.
	width float32
	rows  int
}

func (l *flowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		w, h = max(w, m.Width), max(h, m.Height)
	}
	if w == 0 {
		return fyne.Size{}
	}
	rows := 1
	if l.width > 0 {
		rows = l.place(objects, l.width, h, false)
	}
	return fyne.NewSize(w, float32(rows)*h+float32(rows-1)*theme.Padding())
}

func (l *flowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	var h float32
	for _, o := range objects {
		if o.Visible() {
			h = max(h, o.MinSize().Height)
		}
	}
	l.width = size.Width
	rows := l.place(objects, size.Width, h, true)
	if rows != l.rows {
		l.rows = rows
		// The height asked for changed: the canvas lays the parents out
		// again on its next frame.
		if l.box != nil {
			canvas.Refresh(l.box)
		}
	}
}

// place counts the rows objects take in width (and moves them there when
// move is set).
func (l *flowLayout) place(objects []fyne.CanvasObject, width, rowH float32, move bool) int {
	pad := theme.Padding()
	x, y := float32(0), float32(0)
	rows, first := 1, true
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if !first && x+m.Width > width {
			x, y = 0, y+rowH+pad
			rows++
		}
		first = false
		if move {
			o.Move(fyne.NewPos(x, y+(rowH-m.Height)/2))
			o.Resize(m)
		}
		x += m.Width + pad
	}
	return rows
}
