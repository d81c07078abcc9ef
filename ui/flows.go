package ui

import (
	"fyne.io/fyne/v2"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// screenFlows opens the trace wizard, the DNC scrub and the single lookup
// over the main window.
type screenFlows struct {
	win  fyne.Window
	svc  Services
	opts *Options
	// submitted is told of each job a wizard submits.
	submitted func(id string)
}

func (f *screenFlows) NewTrace(path string) {
	wizard.NewTrace(f.win, f.svc.Trace, f.opts.Wizard, path, f.submitted)
}

func (f *screenFlows) NewDNC(path string) {
	wizard.NewDNC(f.win, f.svc.Trace, f.opts.Wizard, path, f.submitted)
}

func (f *screenFlows) SingleLookup() { lookup.Show(f.win, f.svc.Lookup, f.opts.Lookup) }

func (f *screenFlows) ScrubTrace(resultPath, traceID string, onDone func(string)) {
	wizard.NewDNCFromTrace(f.win, f.svc.Trace, f.opts.Wizard, resultPath, traceID, onDone)
}

func (f *screenFlows) RescrubTrace(phonesPath, traceID string, onDone func(string)) {
	wizard.NewDNCOfTracePhones(f.win, f.svc.Trace, f.opts.Wizard, phonesPath, traceID, onDone)
}
