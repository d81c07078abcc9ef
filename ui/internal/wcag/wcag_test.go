package wcag

import (
	"image/color"
	"math"
	"testing"
)

// The ratios WCAG 2 gives for known pairs: black on white is 21:1, a
// colour on itself 1:1, and #767676 on white just above 4.5:1.
func TestContrast(t *testing.T) {
	black, white := color.Black, color.White
	grey := color.NRGBA{R: 0x76, G: 0x76, B: 0x76, A: 0xff}
	for _, c := range []struct {
		a, b color.Color
		want float64
	}{
		{black, white, 21},
		{white, black, 21},
		{grey, grey, 1},
		{grey, white, 4.54},
	} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}
