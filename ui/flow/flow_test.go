package flow

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

func box(w, h float32) *canvas.Rectangle {
	r := canvas.NewRectangle(nil)
	r.SetMinSize(fyne.NewSize(w, h))
	return r
}

func TestFlowWrapsAndAsksOnlyForItsWidestObject(t *testing.T) {
	test.NewTempApp(t)
	a, b, c := box(100, 20), box(150, 30), box(80, 20)
	f := New(a, b, c)
	p := theme.Padding()

	// Before any layout: one row, as wide as the widest object.
	if got := f.MinSize(); got != fyne.NewSize(150, 30) {
		t.Fatalf("min before layout %v", got)
	}

	// Wide enough for all three: one row.
	f.Resize(fyne.NewSize(400, 30))
	mid := func(r *canvas.Rectangle) float32 { return r.Position().Y + r.Size().Height/2 }
	if mid(a) != mid(b) || mid(c) != mid(b) || c.Position().X != 250+2*p {
		t.Fatalf("one row: %v %v %v", a.Position(), b.Position(), c.Position())
	}
	if got := f.MinSize(); got.Width != 150 || got.Height != 30 {
		t.Fatalf("min of one row %v", got)
	}

	// Narrower: the third wraps; the height asked for is two rows.
	f.Resize(fyne.NewSize(260, 30))
	if c.Position().X != 0 || c.Position().Y <= b.Position().Y {
		t.Fatalf("third object not on a second row: %v", c.Position())
	}
	if got := f.MinSize(); got.Width != 150 || got.Height != 2*30+p {
		t.Fatalf("min of two rows %v", got)
	}

	// Narrower than any two: one object a row. Hidden objects take no room.
	c.Hide()
	f.Resize(fyne.NewSize(150, 30))
	if got := f.MinSize(); got.Height != 2*30+p {
		t.Fatalf("min with one object hidden %v", got)
	}
}
