//go:build harness

package e2e

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/ui/keys"
)

// The window's widget tree, read as a person reads the screen: objects are
// found by the text they show, among those visible in the window and the
// dialogs over it (the top dialog first). These run on the UI thread
// (inside h.Do or a Wait condition) unless they say otherwise.

// roots are the dialogs shown, top first, then the window's content.
func (h *Harness) roots() []fyne.CanvasObject {
	c := h.Window.Canvas()
	ov := c.Overlays().List()
	out := make([]fyne.CanvasObject, 0, len(ov)+1)
	for i := len(ov) - 1; i >= 0; i-- {
		out = append(out, ov[i])
	}
	return append(out, c.Content())
}

// walk calls f on each visible object under root, depth first, until f
// returns true.
func walk(root fyne.CanvasObject, f func(fyne.CanvasObject) bool) bool {
	if root == nil || !root.Visible() {
		return false
	}
	if f(root) {
		return true
	}
	var kids []fyne.CanvasObject
	switch o := root.(type) {
	case *fyne.Container:
		kids = o.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(o).Objects()
	}
	for _, k := range kids {
		if walk(k, f) {
			return true
		}
	}
	return false
}

// labelOf is the text an object shows as its label: a button's or a check
// box's text.
func labelOf(o fyne.CanvasObject) (string, bool) {
	switch w := o.(type) {
	case *widget.Button:
		return w.Text, true
	case *keys.Button:
		return w.Text, true
	case *widget.Check:
		return w.Text, true
	case *keys.Check:
		return w.Text, true
	case *widget.Hyperlink:
		return w.Text, true
	}
	return "", false
}

// Find is the visible button, check box or link labelled label (its text,
// trimmed of a trailing "…"), in the top dialog first; nil when none shows.
// (UI)
func (h *Harness) Find(label string) fyne.CanvasObject {
	want := strings.TrimSuffix(label, "…")
	var found fyne.CanvasObject
	for _, r := range h.roots() {
		if walk(r, func(o fyne.CanvasObject) bool {
			if l, ok := labelOf(o); ok && strings.TrimSuffix(l, "…") == want {
				found = o
				return true
			}
			return false
		}) {
			break
		}
	}
	return found
}

// Press clicks the button (or check box) labelled label with the real
// pointer, once it shows and can be pressed (any goroutine).
func (h *Harness) Press(label string) error {
	var obj fyne.CanvasObject
	if err := h.Wait("\""+label+"\" can be pressed", waitShown, func() bool {
		obj = h.Find(label)
		d, ok := obj.(fyne.Disableable)
		return obj != nil && (!ok || !d.Disabled())
	}); err != nil {
		return err
	}
	return h.Click(obj)
}

// Texts are the texts the window and its dialogs show: labels, text
// objects, rich text, entries and buttons, top dialog first. (UI)
func (h *Harness) Texts() []string {
	var out []string
	for _, r := range h.roots() {
		walk(r, func(o fyne.CanvasObject) bool {
			if s := textOf(o); s != "" {
				out = append(out, s)
			}
			return false
		})
	}
	return out
}

func textOf(o fyne.CanvasObject) string {
	if l, ok := labelOf(o); ok {
		return l
	}
	switch w := o.(type) {
	case *widget.Label:
		return w.Text
	case *canvas.Text:
		return w.Text
	case *widget.RichText:
		return w.String()
	case *widget.Entry:
		return w.Text
	case *keys.Entry:
		return w.Text
	}
	return ""
}

// Menu runs the item labelled item of the window's menu labelled menu, as
// a click on it does (any goroutine).
func (h *Harness) Menu(menu, item string) error {
	var act func()
	h.Do(func() {
		mm := h.Window.MainMenu()
		if mm == nil {
			return
		}
		for _, m := range mm.Items {
			if m.Label != menu {
				continue
			}
			for _, it := range m.Items {
				if strings.TrimSuffix(it.Label, "…") == strings.TrimSuffix(item, "…") && !it.Disabled {
					act = it.Action
				}
			}
		}
	})
	if act == nil {
		return fmt.Errorf("e2e: no %q item in the %s menu", item, menu)
	}
	h.Logf("menu %s > %s", menu, item)
	h.Do(act)
	return nil
}

// ShowTab selects the window's tab labelled label (any goroutine).
func (h *Harness) ShowTab(label string) error {
	var ok bool
	h.Do(func() {
		walk(h.Window.Canvas().Content(), func(o fyne.CanvasObject) bool {
			tabs, is := o.(*container.AppTabs)
			if !is {
				return false
			}
			for _, it := range tabs.Items {
				if it.Text == label {
					tabs.Select(it)
					ok = true
					return true
				}
			}
			return false
		})
	})
	if !ok {
		return fmt.Errorf("e2e: no tab %q", label)
	}
	return nil
}

// entryOf is the entry o is, with its placeholder.
func entryOf(o fyne.CanvasObject) (*widget.Entry, bool) {
	switch w := o.(type) {
	case *widget.Entry:
		return w, true
	case *keys.Entry:
		return &w.Entry, true
	}
	return nil, false
}

// Fill types text into the visible field whose placeholder starts with
// label (the top dialog's first), replacing what it held, as a paste does
// (any goroutine).
func (h *Harness) Fill(label, text string) error {
	var ok bool
	h.Do(func() {
		for _, r := range h.roots() {
			if walk(r, func(o fyne.CanvasObject) bool {
				e, is := entryOf(o)
				if is && strings.HasPrefix(e.PlaceHolder, label) {
					e.SetText(text)
					ok = true
				}
				return ok
			}) {
				return
			}
		}
	})
	if !ok {
		return fmt.Errorf("e2e: no field %q shows", label)
	}
	h.Logf("fill %q with %q", label, text)
	return nil
}

// DialogShown reports whether a dialog (or a wizard) shows over the
// window. (UI)
func (h *Harness) DialogShown() bool { return h.Window.Canvas().Overlays().Top() != nil }

// Dialogs is how many dialogs show over the window, one over the other.
// (UI)
func (h *Harness) Dialogs() int { return len(h.Window.Canvas().Overlays().List()) }

// CloseDialogs hides every dialog shown (any goroutine).
func (h *Harness) CloseDialogs() {
	h.Do(func() {
		for _, o := range h.Window.Canvas().Overlays().List() {
			o.Hide()
		}
	})
}

// Focused is the object with the keyboard focus (nil none). (UI)
func (h *Harness) Focused() fyne.Focusable { return h.Window.Canvas().Focused() }

// Resize resizes the window (any goroutine).
func (h *Harness) Resize(s fyne.Size) { h.Do(func() { h.Window.Resize(s) }) }

// waitShown is how long Press waits for its button.
const waitShown = 20 * time.Second
