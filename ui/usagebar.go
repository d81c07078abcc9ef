package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// usageBar shows how much of a plan's credits are used: a neutral track,
// filled in the primary colour as far as used goes, with the figures in the
// foreground colour over it. Fyne's progress bar draws its empty part in a
// blend of the primary colour, so that at 0 used it read as full, and its
// white text was lost on the light theme's pale track.
type usageBar struct {
	widget.BaseWidget
	used, limit int64
	text        string
}

func newUsageBar() *usageBar {
	b := &usageBar{}
	b.ExtendBaseWidget(b)
	return b
}

// set shows used of limit with text.
func (b *usageBar) set(used, limit int64, text string) {
	b.used, b.limit, b.text = used, limit, text
	b.Refresh()
}

// fraction is how much of the track is filled, 0 to 1.
func (b *usageBar) fraction() float32 {
	if b.limit <= 0 || b.used <= 0 {
		return 0
	}
	return float32(min(b.used, b.limit)) / float32(b.limit)
}

func (b *usageBar) CreateRenderer() fyne.WidgetRenderer {
	r := &usageBarRenderer{b: b, track: canvas.NewRectangle(nil), fill: canvas.NewRectangle(nil), label: canvas.NewText("", nil)}
	r.label.Alignment = fyne.TextAlignCenter
	r.Refresh()
	return r
}

type usageBarRenderer struct {
	b           *usageBar
	track, fill *canvas.Rectangle
	label       *canvas.Text
}

func (r *usageBarRenderer) Layout(size fyne.Size) {
	r.track.Resize(size)
	r.fill.Resize(fyne.NewSize(size.Width*r.b.fraction(), size.Height))
	r.label.Resize(size)
}

func (r *usageBarRenderer) MinSize() fyne.Size {
	t := fyne.MeasureText(r.label.Text, r.label.TextSize, r.label.TextStyle)
	p := theme.InnerPadding()
	return fyne.NewSize(t.Width+2*p, t.Height+p)
}

func (r *usageBarRenderer) Refresh() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.track.FillColor = th.Color(theme.ColorNameInputBackground, v)
	r.track.StrokeColor = th.Color(theme.ColorNameInputBorder, v)
	r.track.StrokeWidth = 1
	r.track.CornerRadius = th.Size(theme.SizeNameInputRadius)
	r.fill.FillColor = th.Color(theme.ColorNamePrimary, v)
	r.fill.CornerRadius = r.track.CornerRadius
	r.label.Text = r.b.text
	r.label.Color = th.Color(theme.ColorNameForeground, v)
	r.label.TextSize = th.Size(theme.SizeNameText)
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

func (r *usageBarRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.track, r.fill, r.label}
}

func (r *usageBarRenderer) Destroy() {}
