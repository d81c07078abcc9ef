//go:build harness

package e2e

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/ui/keys"
)

// window is a window of two tabs: Jobs, with a shown and a hidden button
// and a label, and Library with a check box; a File menu with Open….
func window(t *testing.T) (*Harness, *container.AppTabs, *widget.Button) {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow("SkipDesk")
	open := widget.NewButton("Open result", nil)
	hidden := widget.NewButton("Hidden", nil)
	hidden.Hide()
	search := widget.NewEntry()
	search.SetPlaceHolder("Search every result…")
	tabs := container.NewAppTabs(
		container.NewTabItem("Jobs", container.NewVBox(widget.NewLabel("3 jobs"), open, hidden)),
		container.NewTabItem("Library", container.NewVBox(keys.NewButton("Search", nil), search)),
	)
	w.SetContent(tabs)
	w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu("File", fyne.NewMenuItem("Open…", func() { tabs.SelectIndex(1) }))))
	w.Resize(fyne.NewSize(600, 400))
	return &Harness{Name: "test", App: a, Window: w}, tabs, open
}

// shows reports whether some text the screen shows is s.
func shows(h *Harness, s string) bool { return slices.Contains(h.Texts(), s) }

func TestFindByLabel(t *testing.T) {
	h, _, open := window(t)
	if got := h.Find("Open result"); got != open {
		t.Fatalf("Find(Open result) = %v, want the button", got)
	}
	if got := h.Find("Open result…"); got != open {
		t.Fatal("a trailing … is not part of the label")
	}
	if got := h.Find("Hidden"); got != nil {
		t.Fatalf("a hidden button was found: %v", got)
	}
	if got := h.Find("Search"); got != nil {
		t.Fatalf("a button of a tab not shown was found: %v", got)
	}
	if !shows(h, "3 jobs") || shows(h, "4 jobs") {
		t.Fatalf("the texts shown are %q", h.Texts())
	}
}

func TestFindTopDialogFirst(t *testing.T) {
	h, _, open := window(t)
	d := dialog.NewCustom("Saved", "Open result", widget.NewLabel("saved in Downloads"), h.Window)
	d.Show()
	if !h.DialogShown() || h.Dialogs() != 1 {
		t.Fatal("the dialog is not counted as shown")
	}
	got := h.Find("Open result")
	if got == nil || got == open {
		t.Fatalf("Find took %v, not the dialog's button", got)
	}
	if !shows(h, "saved in Downloads") {
		t.Fatalf("the dialog's text is not read: %q", h.Texts())
	}
	h.CloseDialogs()
	if h.DialogShown() || h.Find("Open result") != open {
		t.Fatal("with the dialog closed the window's button is not found again")
	}
}

func TestMenuAndTabs(t *testing.T) {
	h, tabs, _ := window(t)
	if err := h.Menu("File", "Open"); err != nil {
		t.Fatal(err)
	}
	if tabs.SelectedIndex() != 1 {
		t.Fatal("the menu item's action did not run")
	}
	if err := h.Menu("File", "Close"); err == nil {
		t.Fatal("a missing item gives no error")
	}
	if err := h.ShowTab("Jobs"); err != nil || tabs.SelectedIndex() != 0 {
		t.Fatalf("ShowTab(Jobs): %v, tab %d", err, tabs.SelectedIndex())
	}
	if err := h.ShowTab("Spend"); err == nil {
		t.Fatal("a missing tab gives no error")
	}
}

func TestFill(t *testing.T) {
	h, tabs, _ := window(t)
	if err := h.Fill("Search every", "Adams"); err == nil {
		t.Fatal("a field of a tab not shown was filled")
	}
	tabs.SelectIndex(1)
	if err := h.Fill("Search every", "Adams"); err != nil {
		t.Fatal(err)
	}
	if !shows(h, "Adams") {
		t.Fatalf("the field reads %q", h.Texts())
	}
}
