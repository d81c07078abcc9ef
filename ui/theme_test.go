package ui

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

// over is c drawn over an opaque bg.
func over(c, bg color.Color) color.Color {
	n, b := color.NRGBAModel.Convert(c).(color.NRGBA), color.NRGBAModel.Convert(bg).(color.NRGBA)
	a := float64(n.A) / 255
	m := func(x, y uint8) uint8 { return uint8(float64(x)*a + float64(y)*(1-a) + 0.5) }
	return color.NRGBA{R: m(n.R, b.R), G: m(n.G, b.G), B: m(n.B, b.B), A: 0xff}
}

var variants = map[string]fyne.ThemeVariant{"light": theme.VariantLight, "dark": theme.VariantDark}

// A focused button looks different from the same button unfocused, the
// primary (blue) one included, in both themes: the pixels of its
// background, beside its text, are measured.
func TestFocusShowsOnEveryButton(t *testing.T) {
	for name, v := range variants {
		for _, imp := range []widget.Importance{widget.HighImportance, widget.MediumImportance} {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(variantTheme{theme.DefaultTheme(), v})
			b := &widget.Button{Text: "Export", Importance: imp}
			other := widget.NewButton("Other", nil)
			w := test.NewTempWindow(t, container.NewVBox(container.NewHBox(b), other))
			w.Resize(fyne.NewSize(300, 120))
			at := func() color.Color {
				img := w.Canvas().Capture()
				pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
				s := w.Canvas().Scale()
				return img.At(int((pos.X+4)*s), int((pos.Y+b.Size().Height/2)*s))
			}
			w.Canvas().Focus(other)
			before := at()
			w.Canvas().Focus(b)
			after := at()
			if r := wcag.Contrast(before, after); r < 1.3 {
				t.Errorf("%s theme, importance %d: focused %v, unfocused %v: %.2f:1, want at least 1.3:1", name, imp, after, before, r)
			}
			fg := theme.ColorNameForeground
			if imp == widget.HighImportance {
				fg = theme.ColorNameForegroundOnPrimary
			}
			if r := wcag.Contrast(a.Settings().Theme().Color(fg, v), after); r < 4.5 {
				t.Errorf("%s theme, importance %d: the focused button's text is %.2f:1 on it", name, imp, r)
			}
		}
	}
}

// Hints (low-importance labels, a field's placeholder) read at 4.5:1, and
// an unticked checkbox's box shows at 3:1, in both themes.
func TestHintsAndCheckboxesAreReadable(t *testing.T) {
	for name, v := range variants {
		th := variantTheme{theme.DefaultTheme(), v}
		bg := th.Color(theme.ColorNameBackground, v)
		field := over(th.Color(theme.ColorNameInputBackground, v), bg)
		for _, c := range []struct {
			what   string
			fg, bg color.Color
			min    float64
		}{
			{"a hint", th.Color(theme.ColorNameDisabled, v), bg, 4.5},
			{"a field's placeholder", th.Color(theme.ColorNamePlaceHolder, v), field, 4.5},
			{"a checkbox's box", th.Color(theme.ColorNameInputBorder, v), bg, 3},
		} {
			if r := wcag.Contrast(c.fg, c.bg); r < c.min {
				t.Errorf("%s theme: %s is %.2f:1, want %.1f:1", name, c.what, r, c.min)
			}
		}
	}
}

// Every text colour the window draws reads at 4.5:1 against every
// background it is drawn on, in both themes, computed from the app's
// theme: the status words (success, warning, error), hints, placeholders
// and links on the window, a field, a dialog, a menu and a table's header;
// each button's text on its own colour; the sandbox banner.
func TestEveryTextIsReadable(t *testing.T) {
	texts := []fyne.ThemeColorName{theme.ColorNameForeground, theme.ColorNameDisabled, theme.ColorNamePlaceHolder,
		theme.ColorNameHyperlink, theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError}
	grounds := []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground,
		theme.ColorNameMenuBackground, theme.ColorNameHeaderBackground}
	onFill := map[fyne.ThemeColorName]fyne.ThemeColorName{
		theme.ColorNameForeground: theme.ColorNameButton, theme.ColorNameForegroundOnPrimary: theme.ColorNamePrimary,
		theme.ColorNameForegroundOnSuccess: theme.ColorNameSuccess, theme.ColorNameForegroundOnWarning: theme.ColorNameWarning,
		theme.ColorNameForegroundOnError: theme.ColorNameError,
	}
	for name, v := range variants {
		th := variantTheme{theme.DefaultTheme(), v}
		bg := th.Color(theme.ColorNameBackground, v)
		check := func(what string, fg, ground color.Color) {
			t.Helper()
			if r := wcag.Contrast(over(fg, ground), ground); r < 4.5 {
				t.Errorf("%s theme: %s is %.2f:1, want 4.5:1", name, what, r)
			}
		}
		for _, g := range grounds {
			ground := over(th.Color(g, v), bg)
			for _, fg := range texts {
				check(string(fg)+" text on "+string(g), th.Color(fg, v), ground)
			}
		}
		for fg, fill := range onFill {
			check(string(fg)+" on "+string(fill), th.Color(fg, v), over(th.Color(fill, v), bg))
		}
	}
	if r := wcag.Contrast(sandboxText, sandboxFill); r < 4.5 {
		t.Errorf("the sandbox banner is %.2f:1, want 4.5:1", r)
	}
}
