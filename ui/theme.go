package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/skipdesk/skipdesk/jobs/settings"
)

// variantTheme is the app's theme held to one variant (light or dark).
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return themeColor(t.Theme, n, t.variant)
}

// systemTheme is the app's theme following the system's variant.
type systemTheme struct{ fyne.Theme }

func (t systemTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return themeColor(t.Theme, n, v)
}

// readable are the colours the app changes in Fyne's default theme, so
// that they can be seen:
//   - focus: a button is focused by blending this colour over it; the
//     default blue does not show on the blue primary button. These change a
//     focused button, primary or not, while its text stays readable
//     (4.5:1).
//   - disabled is also the colour of hints (low-importance labels) and
//     placeholder the colour of an empty field's hint: 4.5:1 on the
//     window and in a field.
//   - input border is the box of an unticked checkbox and the edge of a
//     field: 3:1 on the window.
//
// theme_test.go measures them.
var readable = map[fyne.ThemeVariant]map[fyne.ThemeColorName]color.Color{
	theme.VariantDark: {
		theme.ColorNameFocus:       color.NRGBA{R: 0x8e, G: 0x24, B: 0xaa, A: 0xff},
		theme.ColorNameDisabled:    color.NRGBA{R: 140, G: 140, B: 140, A: 0xff},
		theme.ColorNameInputBorder: color.NRGBA{R: 108, G: 108, B: 108, A: 0xff},
	},
	theme.VariantLight: {
		theme.ColorNameFocus:       color.NRGBA{A: 0x2c},
		theme.ColorNameDisabled:    color.NRGBA{R: 108, G: 108, B: 108, A: 0xff},
		theme.ColorNamePlaceHolder: color.NRGBA{R: 108, G: 108, B: 108, A: 0xff},
		theme.ColorNameInputBorder: color.NRGBA{R: 140, G: 140, B: 140, A: 0xff},
	},
}

func themeColor(th fyne.Theme, n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if c, ok := readable[v][n]; ok {
		return c
	}
	return th.Color(n, v)
}

// applyTheme sets the app theme from the settings value.
func (a *App) applyTheme(name string) {
	var th fyne.Theme = systemTheme{theme.DefaultTheme()}
	switch name {
	case settings.ThemeLight:
		th = variantTheme{theme.DefaultTheme(), theme.VariantLight}
	case settings.ThemeDark:
		th = variantTheme{theme.DefaultTheme(), theme.VariantDark}
	}
	a.fyne.Settings().SetTheme(th)
}
