package keys

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/ui/internal/wcag"
)

type heldTheme struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t heldTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// A focused button's edge is ringed at 3:1 against the same edge
// unfocused, the primary (blue) button included, in both themes.
func TestFocusedButtonIsRinged(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, imp := range []widget.Importance{widget.HighImportance, widget.MediumImportance} {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(heldTheme{theme.DefaultTheme(), v})
			b := NewButton("Export", nil)
			b.Importance = imp
			other := NewButton("Other", nil)
			w := test.NewTempWindow(t, container.NewVBox(container.NewHBox(b), other))
			w.Resize(fyne.NewSize(300, 120))
			edge := func() color.Color {
				pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
				s := w.Canvas().Scale()
				return w.Canvas().Capture().At(int((pos.X+1)*s), int((pos.Y+b.Size().Height/2)*s))
			}
			w.Canvas().Focus(other)
			before := edge()
			w.Canvas().Focus(b)
			after := edge()
			if r := wcag.Contrast(before, after); r < 3 {
				t.Errorf("variant %d, importance %d: the focused edge %v against %v unfocused: %.2f:1, want 3:1", v, imp, after, before, r)
			}
			w.Canvas().Focus(other)
			if r := wcag.Contrast(before, edge()); r > 1.01 {
				t.Errorf("variant %d, importance %d: the ring stays after the focus left", v, imp)
			}
		}
	}
}
