package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// guideText is Help > Getting started: what a person new to skip tracing
// and scrubbing needs to know to use the window, in their words. %s are
// the rates and the folders, filled in when known.
const guideText = `## Skip trace: find owners' phones

Drop a CSV or Excel list of owners on the window, or press **New trace**. SkipDesk maps your columns to the service's fields and shows what it will cost before anything is charged.

* **Normal** searches by the owner's name and the property address. It needs a first and last name column (a single full-name column can be split).
* **Enhanced** searches by the address alone, deeper, at a higher rate. Use it when your list has no names or Normal finds too little.
* **LLCs and companies** are skipped unless you include them (a separate rate).
* Rows that find nothing are refunded when the job completes.

%s

## DNC scrub: who you may call

A scrub checks each phone against the federal and state Do-Not-Call registries and the **litigator** list (people who sue over calls). Press **DNC scrub**, or **Scrub phones** on a finished trace. Invalid numbers are refunded, or left out before paying if you choose.

A scrub answer is good for **31 days**; after that the numbers must be scrubbed again before you call them.

## Callable list

**Export callable list** keeps only the phones you may call: not on any DNC list, not litigators, not on your own **Do not call** list, valid, scrubbed within 31 days. A proof of scrub (PDF) is saved beside it: keep both.

## Where files go

%s

## With the keyboard

**Tab** moves between the buttons and fields; the one with the focus is marked. **Enter** presses it, or opens a file whose path you typed. **Escape** closes a message or a wizard. **Ctrl+O** opens a result. A result opened in its own tab closes with its **Close** button.`

// showGuide shows the short guide, with buttons that open the folders it
// names.
func (a *App) showGuide() {
	rates := "The rates are shown in the window's header once the account is loaded."
	if h := a.header; h != nil && h.pricing != nil {
		r := h.pricing.Rates
		rates = fmt.Sprintf("Credits per row now: normal %s, enhanced %s, LLC %s, DNC scrub %s.",
			jobs.Thousands(r.Normal), jobs.Thousands(r.Enhanced), jobs.Thousands(r.LLC), jobs.Thousands(r.DNC))
	}
	var where []string
	buttons := container.NewHBox(layout.NewSpacer())
	if home := a.svc.Sessions.Home(); home != "" {
		where = append(where, "* Your jobs, downloaded results and settings are kept in the **data folder**: "+mdPath(home))
		buttons.Add(widget.NewButtonWithIcon("Open data folder", theme.FolderOpenIcon(), func() { a.openFolder(home) }))
	}
	out := a.exports.outputDir()
	where = append(where, "* Exports (Excel, callable lists and their proofs) are offered to be saved in "+mdPath(out)+" (change the folder in **Settings**); "+
		"you choose the name, and a file already there is replaced only when you say so.",
		"* The **Library** tab searches every result you downloaded, also offline.")
	buttons.Add(widget.NewButtonWithIcon("Open export folder", theme.FolderOpenIcon(), func() { a.openFolder(out) }))

	text := widget.NewRichTextFromMarkdown(fmt.Sprintf(guideText, rates, strings.Join(where, "\n")))
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("Getting started", "Close", container.NewBorder(nil, buttons, nil, nil, container.NewVScroll(text)), a.win)
	keys.Track(a.win, d, d.Hide, nil)
	sz := a.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(sz.Width*0.9, 760), sz.Height*0.9))
	d.Show()
	a.fire("guide")
}

// mdPath is a path in markdown text (its characters kept as they are).
func mdPath(p string) string { return "`" + strings.ReplaceAll(p, "`", "'") + "`" }
