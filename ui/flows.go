package ui

import (
	"fmt"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// screenFlows opens the trace wizard, the DNC scrub and the single lookup
// over the main window.
type screenFlows struct{}

func (screenFlows) NewTrace(a *App, path string) {
	wizard.NewTrace(a.win, a.be, a.opts.Wizard, path, a.JobSubmitted)
}

func (screenFlows) NewDNC(a *App, path string) {
	wizard.NewDNC(a.win, a.be, a.opts.Wizard, path, a.JobSubmitted)
}

func (screenFlows) SingleLookup(a *App) { lookup.Show(a.win, a.be, a.opts.Lookup) }

func (screenFlows) ScrubTrace(a *App, resultPath, traceID string, onDone func(string)) {
	wizard.NewDNCFromTrace(a.win, a.be, a.opts.Wizard, resultPath, traceID, onDone)
}

func (screenFlows) RescrubTrace(a *App, phonesPath, traceID string, onDone func(string)) {
	wizard.NewDNCOfTracePhones(a.win, a.be, a.opts.Wizard, phonesPath, traceID, onDone)
}

// scrubTrace opens the DNC scrub on a completed trace's phones. When that
// scrub completes, the callable-list export of the trace is offered.
func (a *App) scrubTrace(resultPath, traceID string) {
	a.Flows.ScrubTrace(a, resultPath, traceID, a.scrubbedFor(traceID))
}

// rescrubTrace opens the DNC scrub on some of a trace's phones (those a
// stale scrub answered); its completion offers the callable list again.
func (a *App) rescrubTrace(phonesPath, traceID string) {
	a.Flows.RescrubTrace(a, phonesPath, traceID, a.scrubbedFor(traceID))
}

// scrubbedFor notes a submitted scrub of the trace's phones, so that its
// completion offers the trace's callable list.
func (a *App) scrubbedFor(traceID string) func(string) {
	return func(dncID string) {
		if a.scrubParents == nil {
			a.scrubParents = map[string]string{}
		}
		a.scrubParents[dncID] = traceID
		a.JobSubmitted(dncID)
	}
}

// offerCallable asks, once a scrub of a trace's phones has completed,
// whether to export the trace's callable list now (UI thread).
func (a *App) offerCallable(dnc workflow.Job) {
	traceID, ok := a.scrubParents[dnc.ID]
	if !ok || a.jobs == nil {
		return
	}
	delete(a.scrubParents, dnc.ID)
	trace, found := a.jobs.byID(traceID)
	if !found {
		return
	}
	msg := widget.NewLabel(fmt.Sprintf("The DNC scrub of %s's phones is done.\n"+
		"Export the callable list now? It holds the trace's rows with each phone's DNC and litigator flags.", trace.Name))
	var d *dialog.CustomDialog
	later := widget.NewButton("Later", func() { d.Hide() })
	a.callableYes = &widget.Button{Text: "Export now", Importance: widget.HighImportance, OnTapped: func() {
		d.Hide()
		a.jobs.export(trace, true)
	}}
	d = dialog.NewCustomWithoutButtons("Scrub completed", container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), later, a.callableYes)), a.win)
	d.SetOnClosed(func() { a.callableYes = nil })
	d.Show()
}
