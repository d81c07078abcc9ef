package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/skipdesk/skipdesk/jobs/settings"
)

// variantTheme is the default theme held to one variant (light or dark).
type variantTheme struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.variant)
}

// applyTheme sets the app theme from the settings value.
func (a *App) applyTheme(name string) {
	var th fyne.Theme = theme.DefaultTheme()
	switch name {
	case settings.ThemeLight:
		th = variantTheme{theme.DefaultTheme(), theme.VariantLight}
	case settings.ThemeDark:
		th = variantTheme{theme.DefaultTheme(), theme.VariantDark}
	}
	a.fyne.Settings().SetTheme(th)
}
