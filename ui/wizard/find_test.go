package wizard

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func findButton(root fyne.CanvasObject, text string) *widget.Button {
	if root == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(root) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
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
