// Package keys gives the window's dialogs the keys people expect: Escape
// closes the dialog on top, Enter presses its default button. Fyne's
// dialogs know neither; a dialog handed to Track does, whether the key
// reaches the window (nothing focused) or a Button or Entry of this
// package that has the focus.
package keys

import (
	"image/color"
	"slices"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tracked is an open dialog and what its keys do.
type tracked struct {
	ok, cancel func()
}

var (
	mu        sync.Mutex
	stacks    = map[fyne.Canvas][]*tracked{}
	installed = map[fyne.Canvas]bool{}
)

// Track gives d, shown over win, the keys: Enter runs ok (nil: Enter does
// nothing), Escape runs cancel (nil: the dialog is hidden). The dialog
// stops being tracked when it closes.
func Track(win fyne.Window, d dialog.Dialog, ok, cancel func()) {
	c := win.Canvas()
	if cancel == nil {
		cancel = d.Hide
	}
	t := &tracked{ok: ok, cancel: cancel}
	mu.Lock()
	stacks[c] = append(stacks[c], t)
	first := !installed[c]
	installed[c] = true
	mu.Unlock()
	d.SetOnClosed(func() {
		mu.Lock()
		defer mu.Unlock()
		stacks[c] = slices.DeleteFunc(stacks[c], func(x *tracked) bool { return x == t })
	})
	if first {
		prev := c.OnTypedKey()
		c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
			if !Press(c, ev.Name) && prev != nil {
				prev(ev)
			}
		})
	}
}

// Press runs what key does in the dialog on top of c; false when no
// tracked dialog is open or the key means nothing to it.
func Press(c fyne.Canvas, key fyne.KeyName) bool {
	mu.Lock()
	s := stacks[c]
	var top *tracked
	if len(s) > 0 {
		top = s[len(s)-1]
	}
	mu.Unlock()
	if top == nil {
		return false
	}
	switch key {
	case fyne.KeyEscape:
		top.cancel()
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		if top.ok == nil {
			return false
		}
		top.ok()
		return true
	}
	return false
}

// canvasOf is the canvas obj is drawn on, nil when none.
func canvasOf(obj fyne.CanvasObject) fyne.Canvas {
	if a := fyne.CurrentApp(); a != nil {
		return a.Driver().CanvasForObject(obj)
	}
	return nil
}

// Button is a widget.Button that Enter presses as Space does, that passes
// Escape to its dialog, and that shows a ring while it has the focus.
type Button struct {
	widget.Button
	focused bool
}

// NewButton is widget.NewButton's.
func NewButton(text string, tapped func()) *Button {
	b := &Button{}
	b.Text, b.OnTapped = text, tapped
	b.ExtendBaseWidget(b)
	return b
}

// NewPrimary is a high-importance Button: the default action of its screen.
func NewPrimary(text string, icon fyne.Resource, tapped func()) *Button {
	b := NewButton(text, tapped)
	b.Icon, b.Importance = icon, widget.HighImportance
	return b
}

// NewButtonWithIcon is widget.NewButtonWithIcon's.
func NewButtonWithIcon(text string, icon fyne.Resource, tapped func()) *Button {
	b := NewButton(text, tapped)
	b.Icon = icon
	return b
}

// TypedKey presses the button on Enter and closes its dialog on Escape.
func (b *Button) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !b.Disabled() && b.OnTapped != nil {
			b.OnTapped()
		}
	case fyne.KeyEscape:
		if c := canvasOf(b); c != nil {
			Press(c, fyne.KeyEscape)
		}
	default:
		b.Button.TypedKey(ev)
	}
}

// Entry is a widget.Entry that passes Escape to its dialog.
type Entry struct{ widget.Entry }

// NewEntry is widget.NewEntry's.
func NewEntry() *Entry {
	e := &Entry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey closes the entry's dialog on Escape.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		if c := canvasOf(e); c != nil && Press(c, fyne.KeyEscape) {
			return
		}
	}
	e.Entry.TypedKey(ev)
}

// A Button draws a ring in the foreground colour while it has the focus:
// Fyne marks a focused button only by tinting it, which shows little on a
// primary (blue) button.

// FocusGained shows the ring.
func (b *Button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
}

// FocusLost hides the ring.
func (b *Button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

// CreateRenderer is the button's with the ring over it.
func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	r := b.Button.CreateRenderer()
	ring := canvas.NewRectangle(color.Transparent)
	ring.StrokeWidth = 2
	ring.CornerRadius = theme.InputRadiusSize()
	objs := append(slices.Clone(r.Objects()), ring)
	return &ringRenderer{WidgetRenderer: r, b: b, ring: ring, objs: objs}
}

type ringRenderer struct {
	fyne.WidgetRenderer
	b    *Button
	ring *canvas.Rectangle
	objs []fyne.CanvasObject
}

func (r *ringRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *ringRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	r.ring.Move(fyne.NewPos(0, 0))
	r.ring.Resize(s)
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	var c color.Color = color.Transparent
	if r.b.focused && !r.b.Disabled() {
		c = theme.Color(theme.ColorNameForeground)
	}
	r.ring.StrokeColor = c
	r.ring.Refresh()
}
