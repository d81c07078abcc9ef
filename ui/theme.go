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
//   - success, warning and error are the colours of status words ("OK to
//     call", "The mapping is complete.") and of the buttons of those
//     importances; primary is the default button's; hyperlink a link's.
//     Each text reads at 4.5:1 on the window, a field, a dialog, a menu
//     and a table's header, and each button's text on its colour: Fyne's
//     light green is 1.5:1 on white.
//
// theme_test.go measures them.
var readable = map[fyne.ThemeVariant]map[fyne.ThemeColorName]color.Color{
	theme.VariantDark: {
		theme.ColorNameFocus:       color.NRGBA{R: 0x7a, G: 0x1f, B: 0x96, A: 0xff},
		theme.ColorNameDisabled:    color.NRGBA{R: 150, G: 150, B: 150, A: 0xff},
		theme.ColorNameInputBorder: color.NRGBA{R: 108, G: 108, B: 108, A: 0xff},
		theme.ColorNamePrimary:     primary,
		theme.ColorNameHyperlink:   color.NRGBA{R: 0x82, G: 0xb1, B: 0xff, A: 0xff},
		theme.ColorNameError:       color.NRGBA{R: 0xff, G: 0x80, B: 0x74, A: 0xff},
	},
	theme.VariantLight: {
		theme.ColorNameFocus:       color.NRGBA{A: 0x2c},
		theme.ColorNameDisabled:    color.NRGBA{R: 108, G: 108, B: 108, A: 0xff},
		theme.ColorNamePlaceHolder: color.NRGBA{R: 108, G: 108, B: 108, A: 0xff},
		theme.ColorNameInputBorder: color.NRGBA{R: 140, G: 140, B: 140, A: 0xff},
		theme.ColorNamePrimary:     primary,
		theme.ColorNameHyperlink:   primary,
		theme.ColorNameSuccess:     color.NRGBA{R: 0x1b, G: 0x6e, B: 0x20, A: 0xff},
		theme.ColorNameWarning:     color.NRGBA{R: 0x9a, G: 0x48, B: 0x00, A: 0xff},
		theme.ColorNameError:       color.NRGBA{R: 0xb7, G: 0x1c, B: 0x1c, A: 0xff},
	},
}

// primary is the default button's blue, a shade darker than Fyne's so that
// its white text reads at 4.5:1.
var primary = color.NRGBA{R: 0x1f, G: 0x5f, B: 0xd6, A: 0xff}

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
