package ui

import (
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// screenFlows opens the trace wizard, the DNC scrub and the single lookup
// over the main window.
type screenFlows struct{}

func (screenFlows) NewTrace(a *App, path string) {
	wizard.NewTrace(a.win, a.be, path, a.JobSubmitted)
}

func (screenFlows) NewDNC(a *App, path string) {
	wizard.NewDNC(a.win, a.be, path, a.JobSubmitted)
}

func (screenFlows) SingleLookup(a *App) { lookup.Show(a.win, a.be) }

// scrubTrace opens the DNC scrub on a completed trace's phones.
func (a *App) scrubTrace(resultPath, jobID string) {
	wizard.NewDNCFromTrace(a.win, a.be, resultPath, jobID, a.JobSubmitted)
}
