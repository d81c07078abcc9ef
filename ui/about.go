package ui

import (
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// Files that ship with every package (see shippedFile).
const (
	licenceFile = "LICENSE.txt"
	noticesFile = "THIRD_PARTY_NOTICES.txt"
)

// helpMenu is the window's Help menu.
func (a *App) helpMenu() *fyne.Menu {
	items := []*fyne.MenuItem{fyne.NewMenuItem("Getting started", a.showGuide)}
	if _, ok := a.svc.Compliance.(RulesBackend); ok {
		items = append(items, fyne.NewMenuItem("Calling rules", a.showRules))
	}
	return fyne.NewMenu("Help", append(items, fyne.NewMenuItem("About SkipDesk", a.showAbout))...)
}

// RulesBackend gives the calling rules table as Help shows it.
type RulesBackend interface {
	RulesHelpMarkdown() (string, error)
}

// showRules shows the calling rules table SkipDesk applies: its version,
// each rule with its days, hours and source, and where the numbering data
// comes from.
func (a *App) showRules() {
	rb, ok := a.svc.Compliance.(RulesBackend)
	if !ok {
		return
	}
	text, err := rb.RulesHelpMarkdown()
	if err != nil {
		a.showError(err)
		return
	}
	// A heading per kind, each rule an item whose long source or note
	// wraps under it.
	l := widget.NewRichTextFromMarkdown(text)
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("Calling rules", "Close", container.NewVScroll(l), a.win)
	sz := a.win.Canvas().Size()
	d.Resize(fyne.NewSize(sz.Width*0.92, sz.Height*0.9))
	keys.Track(a.win, d, d.Hide, nil) // Enter and Escape close it
	d.Show()
}

// showAbout shows the version and build, the licence, where the notices of
// the open-source components are, and the data folder with a button that
// opens it.
func (a *App) showAbout() {
	icon := canvas.NewImageFromResource(fyne.NewStaticResource("icon.png", assets.Icon))
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(64))
	title := container.NewVBox(
		widget.NewLabelWithStyle("SkipDesk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		widget.NewLabel("Version "+assets.VersionString()),
	)

	lines := []string{
		"Copyright (c) 2026 SkipDesk. All rights reserved. SkipDesk is proprietary software; its licence is " + where(licenceFile),
		"SkipDesk is built with open-source components; their licences are " + where(noticesFile),
	}
	body := container.NewVBox()
	for _, l := range lines {
		body.Add(wrapped(l))
	}

	home := a.svc.Sessions.Home()
	if home != "" {
		body.Add(widget.NewSeparator())
		body.Add(wrapped("Your jobs, results and settings are kept in the data folder:\n" + home))
		body.Add(container.NewHBox(widget.NewButtonWithIcon("Open data folder", theme.FolderOpenIcon(), func() {
			if err := a.fyne.OpenURL(fileURL(home)); err != nil {
				a.showError(err)
			}
		})))
	}

	content := container.NewBorder(container.NewHBox(icon, title), nil, nil, nil, body)
	d := dialog.NewCustom("About SkipDesk", "Close", content, a.win)
	d.Resize(fyne.NewSize(560, 380))
	keys.Track(a.win, d, d.Hide, nil) // Enter and Escape close it
	d.Show()
}

// where says where a shipped file is: its path when it is beside the
// program, else where the packages put it (a build from source has none).
func where(file string) string {
	if p := shippedFile(file); p != "" {
		return "in\n" + p
	}
	return "in " + file + ", which comes with every SkipDesk package (beside SkipDesk.exe on Windows)."
}

// shippedFile is the path of a file the packages put with the program, or
// "" when it is not there: beside SkipDesk.exe (Windows installer and zip),
// in the bundle's Contents/Resources (macOS). The Linux tar.xz has it beside
// its Makefile; a build from source has none.
func shippedFile(name string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	dir := filepath.Dir(exe)
	for _, p := range []string{filepath.Join(dir, name), filepath.Join(dir, "..", "Resources", name)} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return filepath.Clean(p)
		}
	}
	return ""
}

func wrapped(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}
