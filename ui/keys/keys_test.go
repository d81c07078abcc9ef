package keys

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func typeKey(c fyne.Canvas, k fyne.KeyName) {
	if f := c.Focused(); f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: k})
		return
	}
	c.OnTypedKey()(&fyne.KeyEvent{Name: k})
}

// TestEscapeAndEnter: Escape closes the dialog on top (the one under it
// then), Enter runs its default; a focused Button or Entry passes them on.
func TestEscapeAndEnter(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, widget.NewLabel("window"))
	w.Resize(fyne.NewSize(600, 400))
	c := w.Canvas()
	var closed []string
	oks := 0
	under := dialog.NewCustom("under", "Close", widget.NewLabel("under"), w)
	under.SetOnClosed(func() { closed = append(closed, "under") })
	Track(w, under, nil, nil)
	under.Show()
	e := NewEntry()
	top := dialog.NewCustomWithoutButtons("top", e, w)
	top.SetOnClosed(func() { closed = append(closed, "top") })
	Track(w, top, func() { oks++ }, nil)
	top.Show()

	typeKey(c, fyne.KeyReturn)
	if oks != 1 {
		t.Fatalf("Enter ran the default %d times", oks)
	}
	c.Focus(e)
	typeKey(c, fyne.KeyEscape)
	if len(closed) != 1 || closed[0] != "top" {
		t.Fatalf("Escape in the entry closed %v", closed)
	}
	c.Unfocus()
	typeKey(c, fyne.KeyReturn) // "under" has no default
	typeKey(c, fyne.KeyEscape)
	if len(closed) != 2 || closed[1] != "under" || oks != 1 {
		t.Fatalf("then closed %v, defaults run %d", closed, oks)
	}

	pressed := 0
	b := NewButton("Pay", func() { pressed++ })
	d := dialog.NewCustomWithoutButtons("pay?", b, w)
	Track(w, d, nil, nil)
	d.Show()
	c.Focus(b)
	typeKey(c, fyne.KeyReturn)
	typeKey(c, fyne.KeySpace)
	if pressed != 2 {
		t.Fatalf("Enter and Space pressed the button %d times", pressed)
	}
	typeKey(c, fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Fatal("Escape on the focused button left its dialog open")
	}
}
