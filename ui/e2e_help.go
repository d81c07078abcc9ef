//go:build harness

package ui

import (
	"errors"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/ui/e2e"
)

func init() { e2e.Register("help-rules", runHelpRules) }

// runHelpRules opens Help's calling rules from the window's menu and takes
// its screenshot.
func runHelpRules(h *e2e.Harness) error {
	a, err := shellApp(h)
	if err != nil {
		return err
	}
	var item *fyne.MenuItem
	h.Do(func() {
		for _, it := range a.helpMenu().Items {
			if it.Label == "Calling rules" {
				item = it
			}
		}
	})
	if item == nil {
		return errors.New("no \"Calling rules\" item in the Help menu")
	}
	h.Do(item.Action)
	return h.Shot("help-01-calling-rules")
}
