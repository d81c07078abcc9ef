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
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tracked is an open dialog and what its keys do.
type tracked struct {
	ok, cancel func()
}

// mu guards the stacks of every canvas.
var mu sync.Mutex

// stack is what the dialogs open over each canvas hold, the last opened on
// top.
type stack[T any] struct {
	open      map[fyne.Canvas][]*T
	installed map[fyne.Canvas]bool // the canvas's keys lead to the stack
}

func newStack[T any]() *stack[T] {
	return &stack[T]{open: map[fyne.Canvas][]*T{}, installed: map[fyne.Canvas]bool{}}
}

// push puts x on c's stack until d closes. It reports whether c had no
// stack before: the caller then leads c's keys to it.
func (s *stack[T]) push(c fyne.Canvas, d dialog.Dialog, x *T) (first bool) {
	mu.Lock()
	s.open[c] = append(s.open[c], x)
	first = !s.installed[c]
	s.installed[c] = true
	mu.Unlock()
	d.SetOnClosed(func() {
		mu.Lock()
		defer mu.Unlock()
		s.open[c] = slices.DeleteFunc(s.open[c], func(y *T) bool { return y == x })
	})
	return first
}

// top is what the dialog on top of c holds; nil when none is open.
func (s *stack[T]) top(c fyne.Canvas) *T {
	mu.Lock()
	defer mu.Unlock()
	if o := s.open[c]; len(o) > 0 {
		return o[len(o)-1]
	}
	return nil
}

// dialogs are the tracked dialogs (Track).
var dialogs = newStack[tracked]()

// Track gives d, shown over win, the keys: Enter runs ok (nil: Enter does
// nothing), Escape runs cancel (nil: the dialog is hidden). The dialog
// stops being tracked when it closes.
func Track(win fyne.Window, d dialog.Dialog, ok, cancel func()) {
	c := win.Canvas()
	if cancel == nil {
		cancel = d.Hide
	}
	if dialogs.push(c, d, &tracked{ok: ok, cancel: cancel}) {
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
	top := dialogs.top(c)
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

// A wizard's steps: Ctrl+Tab moves to the next step, Ctrl+Shift+Tab to
// the one before, as between a browser's tabs.

var wizards = newStack[steps]()

type steps struct{ next, prev func() }

// Steps gives d, shown over win, Ctrl+Tab (next) and Ctrl+Shift+Tab (prev)
// until it closes.
func Steps(win fyne.Window, d dialog.Dialog, next, prev func()) {
	c := win.Canvas()
	if wizards.push(c, d, &steps{next: next, prev: prev}) {
		c.AddShortcut(NextStep, func(fyne.Shortcut) { Step(c, true) })
		c.AddShortcut(PrevStep, func(fyne.Shortcut) { Step(c, false) })
	}
}

// The shortcuts of a wizard's steps.
var (
	NextStep = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}
	PrevStep = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
)

// Step moves the wizard on top of c to its next (or previous) step; false
// when no wizard is open.
func Step(c fyne.Canvas, next bool) bool {
	top := wizards.top(c)
	if top == nil {
		return false
	}
	if next {
		top.next()
	} else {
		top.prev()
	}
	return true
}

// stepShortcut passes a step shortcut typed in a focused Button or Entry
// to its wizard; false when sc is not one.
func stepShortcut(obj fyne.CanvasObject, sc fyne.Shortcut) bool {
	cs, ok := sc.(*desktop.CustomShortcut)
	if !ok || cs.KeyName != fyne.KeyTab || cs.Modifier&fyne.KeyModifierControl == 0 {
		return false
	}
	c := canvasOf(obj)
	return c != nil && Step(c, cs.Modifier&fyne.KeyModifierShift == 0)
}

// canvasOf is the canvas obj is drawn on, nil when none.
func canvasOf(obj fyne.CanvasObject) fyne.Canvas {
	if a := fyne.CurrentApp(); a != nil {
		return a.Driver().CanvasForObject(obj)
	}
	return nil
}

// escapeToDialog passes Escape typed in obj to the dialog obj is in: true
// when the dialog took it, false for any other key or when none did.
func escapeToDialog(obj fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape {
		return false
	}
	c := canvasOf(obj)
	return c != nil && Press(c, fyne.KeyEscape)
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

// TypedShortcut passes a wizard's step keys on (a text box would keep
// them), and the rest to the text box.
func (e *Entry) TypedShortcut(sc fyne.Shortcut) {
	if !stepShortcut(e, sc) {
		e.Entry.TypedShortcut(sc)
	}
}

// TypedKey closes the entry's dialog on Escape.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToDialog(e, ev) {
		e.Entry.TypedKey(ev)
	}
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

// Select is a widget.Select that passes Escape to its dialog (a Select
// with the focus would keep it).
type Select struct{ widget.Select }

// NewSelect is widget.NewSelect's.
func NewSelect(options []string, changed func(string)) *Select {
	s := &Select{}
	s.Options, s.OnChanged = options, changed
	s.PlaceHolder = "(Select one)"
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey closes the select's dialog on Escape.
func (s *Select) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToDialog(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// Check is a widget.Check that passes Escape to its dialog.
type Check struct{ widget.Check }

// NewCheck is widget.NewCheck's.
func NewCheck(label string, changed func(bool)) *Check {
	c := &Check{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey closes the check box's dialog on Escape.
func (c *Check) TypedKey(ev *fyne.KeyEvent) {
	if !escapeToDialog(c, ev) {
		c.Check.TypedKey(ev)
	}
}
