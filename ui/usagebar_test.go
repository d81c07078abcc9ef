package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestUsageBarReadsRight: at 0 used no part of the bar is in the primary
// colour (it read as full), half used fills about half; in the light
// and the dark theme, the figures are in the foreground colour.
func TestUsageBarReadsRight(t *testing.T) {
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		a := test.NewTempApp(t)
		a.Settings().SetTheme(variantTheme{theme.DefaultTheme(), variant})
		b := newUsageBar()
		w := test.NewTempWindow(t, b)
		w.SetPadded(false)
		w.Resize(fyne.NewSize(400, 40))
		primary := a.Settings().Theme().Color(theme.ColorNamePrimary, variant) // the app's
		share := func() float64 {
			img := w.Canvas().Capture()
			n, all := 0, 0
			r0, g0, b0, _ := primary.RGBA()
			bounds := img.Bounds()
			y := bounds.Dy() / 2
			for x := bounds.Min.X + 4; x < bounds.Max.X-4; x++ {
				r, g, bb, _ := img.At(x, y).RGBA()
				all++
				if r>>8 == r0>>8 && g>>8 == g0>>8 && bb>>8 == b0>>8 {
					n++
				}
			}
			return float64(n) / float64(all)
		}
		b.set(0, 25000, "0 of 25,000 credits used")
		if s := share(); s != 0 {
			t.Errorf("variant %v: %.0f%% of an unused bar is in the primary colour", variant, 100*s)
		}
		b.set(12500, 25000, "12,500 of 25,000 credits used")
		if s := share(); s < 0.35 || s > 0.55 {
			t.Errorf("variant %v: half used fills %.0f%%", variant, 100*s)
		}
		r := test.WidgetRenderer(b).(*usageBarRenderer)
		if fg := theme.DefaultTheme().Color(theme.ColorNameForeground, variant); !sameColor(r.label.Color, fg) {
			t.Errorf("variant %v: figures in %v, want the foreground %v", variant, r.label.Color, fg)
		}
	}
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
