// Package wcag measures how colours read against each other, as WCAG 2
// defines it: the theme's and the keyboard's tests hold the window's
// colours to its ratios.
package wcag

import (
	"image/color"
	"math"
)

// Luminance is the relative luminance of c, 0 (black) to 1 (white).
func Luminance(c color.Color) float64 {
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

// Contrast is the contrast ratio of a and b, 1 to 21.
func Contrast(a, b color.Color) float64 {
	x, y := Luminance(a), Luminance(b)
	return (math.Max(x, y) + 0.05) / (math.Min(x, y) + 0.05)
}
