package keys

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

type heldTheme struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t heldTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

func contrast(a, b color.Color) float64 {
	l := func(c color.Color) float64 {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		f := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*f(n.R) + 0.7152*f(n.G) + 0.0722*f(n.B)
	}
	x, y := l(a), l(b)
	return (math.Max(x, y) + 0.05) / (math.Min(x, y) + 0.05)
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
			if r := contrast(before, after); r < 3 {
				t.Errorf("variant %d, importance %d: the focused edge %v against %v unfocused: %.2f:1, want 3:1", v, imp, after, before, r)
			}
			w.Canvas().Focus(other)
			if r := contrast(before, edge()); r > 1.01 {
				t.Errorf("variant %d, importance %d: the ring stays after the focus left", v, imp)
			}
		}
	}
}
