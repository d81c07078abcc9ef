package wizard

import (
	"image/color"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// chipState is how a header chip looks.
type chipState int

const (
	chipFree    chipState = iota // a header not mapped yet
	chipMapped                   // a header mapped to some field (still draggable)
	chipInSlot                   // the chip a slot shows for its mapped header
	chipMissing                  // a slot's header that the file does not have
)

// maxChipRunes keeps chips of very long headers to a sane width.
const maxChipRunes = 24

// minShrunkRunes is about what a shrunk chip shows at the least.
const minShrunkRunes = 8

// chip is a draggable header. It knows nothing of slots: the board hears its
// drags through onDrag/onDragEnd and decides where it was dropped.
type chip struct {
	widget.BaseWidget

	header string
	key    string // the slot it sits in ("" for chips of the header pool)
	state  chipState
	// shrink lets the chip be narrower than its header: a slot's chip cuts
	// a long header to the room the slot has, so that long headers never
	// widen the board past a small window.
	shrink bool

	onDrag    func(c *chip, ev *fyne.DragEvent)
	onDragEnd func(c *chip)
}

func newChip(header, key string, state chipState) *chip {
	c := &chip{header: header, key: key, state: state}
	c.ExtendBaseWidget(c)
	return c
}

// set changes what the chip shows and refreshes it only when something
// changed; it reports whether it did.
func (c *chip) set(header string, state chipState) bool {
	if c.header == header && c.state == state {
		return false
	}
	c.header, c.state = header, state
	c.Refresh()
	return true
}

// Dragged implements fyne.Draggable.
func (c *chip) Dragged(ev *fyne.DragEvent) {
	if c.onDrag != nil && c.header != "" {
		c.onDrag(c, ev)
	}
}

// DragEnd implements fyne.Draggable.
func (c *chip) DragEnd() {
	if c.onDragEnd != nil {
		c.onDragEnd(c)
	}
}

// Cursor shows a hand over a chip, the usual hint that it can be moved.
func (c *chip) Cursor() desktop.Cursor { return desktop.PointerCursor }

func (c *chip) CreateRenderer() fyne.WidgetRenderer {
	r := &chipRenderer{c: c, bg: canvas.NewRectangle(color.Transparent), text: canvas.NewText("", color.Black)}
	r.text.TextSize = theme.TextSize()
	r.objs = []fyne.CanvasObject{r.bg, r.text}
	r.Refresh()
	return r
}

func chipText(header string) string {
	if header == "" {
		return " "
	}
	if utf8.RuneCountInString(header) <= maxChipRunes {
		return header
	}
	rs := []rune(header)
	return string(rs[:maxChipRunes-1]) + "…"
}

type chipRenderer struct {
	c    *chip
	bg   *canvas.Rectangle
	text *canvas.Text
	objs []fyne.CanvasObject
}

func chipPad() (h, v float32) { return theme.InnerPadding(), theme.InnerPadding() / 2 }

func (r *chipRenderer) Layout(size fyne.Size) {
	h, _ := chipPad()
	full := chipText(r.c.header)
	if r.c.shrink {
		// Cut the text to the room there is; the chip is only as wide as
		// its text (the rest of the slot stays a drop area).
		r.text.Text = fitWidth(full, size.Width-2*h, r.text.TextSize, r.text.TextStyle)
	}
	ts := r.text.MinSize()
	bg := size
	if r.c.shrink {
		bg.Width = min(size.Width, ts.Width+2*h)
	}
	r.bg.Resize(bg)
	r.text.Move(fyne.NewPos(h, (size.Height-ts.Height)/2))
	r.text.Resize(ts)
}

func (r *chipRenderer) MinSize() fyne.Size {
	h, v := chipPad()
	ts := fyne.MeasureText(chipText(r.c.header), r.text.TextSize, r.text.TextStyle)
	w := ts.Width
	if r.c.shrink {
		w = min(w, fyne.MeasureText(strings.Repeat("m", minShrunkRunes), r.text.TextSize, r.text.TextStyle).Width)
	}
	return fyne.NewSize(w+2*h, ts.Height+2*v)
}

// fitWidth cuts s (marking the cut with an ellipsis) until it measures at
// most width.
func fitWidth(s string, width, size float32, style fyne.TextStyle) string {
	if fyne.MeasureText(s, size, style).Width <= width {
		return s
	}
	rs := []rune(s)
	lo, hi := 0, len(rs) // the longest prefix that fits is in [lo, hi)
	for lo < hi-1 {
		mid := (lo + hi) / 2
		if fyne.MeasureText(string(rs[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return "…"
	}
	return string(rs[:lo]) + "…"
}

func (r *chipRenderer) Refresh() {
	th := r.c.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.text.Text = chipText(r.c.header)
	r.text.TextSize = th.Size(theme.SizeNameText)
	r.text.Color = th.Color(theme.ColorNameForeground, v)
	r.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	r.bg.StrokeWidth = 1
	r.text.TextStyle = fyne.TextStyle{}
	switch r.c.state {
	case chipFree:
		r.bg.FillColor = th.Color(theme.ColorNameButton, v)
		r.bg.StrokeColor = th.Color(theme.ColorNamePrimary, v)
	case chipMapped:
		// Used already: filled, no frame, the text as readable as any
		// (the placeholder colour was too faint on the light theme).
		r.bg.FillColor = th.Color(theme.ColorNameSelection, v)
		r.bg.StrokeColor = th.Color(theme.ColorNameSelection, v)
		r.text.TextStyle = fyne.TextStyle{Italic: true}
	case chipInSlot:
		r.bg.FillColor = th.Color(theme.ColorNamePrimary, v)
		r.bg.StrokeColor = th.Color(theme.ColorNamePrimary, v)
		r.text.Color = th.Color(theme.ColorNameForegroundOnPrimary, v)
		r.text.TextStyle = fyne.TextStyle{Bold: true}
	case chipMissing:
		r.bg.FillColor = th.Color(theme.ColorNameInputBackground, v)
		r.bg.StrokeColor = th.Color(theme.ColorNameError, v)
		r.text.Color = th.Color(theme.ColorNameError, v)
		r.text.TextStyle = fyne.TextStyle{Italic: true}
	}
	if r.c.header == "" {
		r.bg.FillColor, r.bg.StrokeColor = color.Transparent, color.Transparent
	}
	if r.c.shrink {
		r.Layout(r.c.Size())
	}
	r.text.Refresh()
	r.bg.Refresh()
}

func (r *chipRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *chipRenderer) Destroy()                     {}

// ghost is the chip that follows the pointer during a drag. It is a plain
// canvas object, not a widget, so that it never catches events.
type ghost struct {
	box  *fyne.Container
	bg   *canvas.Rectangle
	text *canvas.Text
}

func newGhost() *ghost {
	g := &ghost{bg: canvas.NewRectangle(color.Transparent), text: canvas.NewText("", color.White)}
	g.text.TextStyle = fyne.TextStyle{Bold: true}
	g.box = &fyne.Container{Objects: []fyne.CanvasObject{g.bg, g.text}}
	g.box.Hide()
	return g
}

func (g *ghost) show(header string, at fyne.Position) {
	th := fyne.CurrentApp().Settings().Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	g.text.Text = chipText(header)
	g.text.TextSize = th.Size(theme.SizeNameText)
	g.text.Color = th.Color(theme.ColorNameForegroundOnPrimary, v)
	pc := th.Color(theme.ColorNamePrimary, v)
	r, gg, b, _ := pc.RGBA()
	g.bg.FillColor = color.NRGBA{R: uint8(r >> 8), G: uint8(gg >> 8), B: uint8(b >> 8), A: 0xd8}
	g.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	h, v2 := chipPad()
	ts := g.text.MinSize()
	size := fyne.NewSize(ts.Width+2*h, ts.Height+2*v2)
	g.bg.Resize(size)
	g.text.Move(fyne.NewPos(h, v2))
	g.text.Resize(ts)
	g.box.Resize(size)
	g.box.Move(at)
	g.box.Show()
	g.box.Refresh()
}

func (g *ghost) moveTo(at fyne.Position) { g.box.Move(at) }

func (g *ghost) hide() { g.box.Hide() }
