package wizard

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/ui/keys"
)

func findButton(root fyne.CanvasObject, text string) *widget.Button {
	if root == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(root) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
		if b, ok := o.(*keys.Button); ok && b.Text == text {
			return &b.Button
		}
	}
	return nil
}

func findLabel(root fyne.CanvasObject, contains string) *widget.Label {
	for _, o := range test.LaidOutObjects(root) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, contains) {
			return l
		}
	}
	return nil
}

// focusedButton is the focused button (a keys.Button as its button), nil
// when the focus is elsewhere.
func focusedButton(c fyne.Canvas) *widget.Button {
	switch b := c.Focused().(type) {
	case *widget.Button:
		return b
	case *keys.Button:
		return &b.Button
	}
	return nil
}
