//go:build harness

package ui

import (
	"errors"

	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// The App is the shell the end-to-end scripts drive.
var _ e2e.Shell = (*App)(nil)

// SampleList writes the bundled sample owner list and returns its path.
func (a *App) SampleList() (string, error) { return a.svc.Samples.SampleList(a.ctx) }

// NewTrace opens the trace wizard on path (UI thread).
func (a *App) NewTrace(path string) { a.Flows.NewTrace(path) }

// NewDNC opens the DNC scrub on path (UI thread).
func (a *App) NewDNC(path string) { a.Flows.NewDNC(path) }

// SingleLookup opens the single lookup (UI thread).
func (a *App) SingleLookup() { a.Flows.SingleLookup() }

// JobsShown are the rows of the jobs list (UI thread).
func (a *App) JobsShown() []workflow.Job {
	if a.jobs == nil {
		return nil
	}
	return append([]workflow.Job(nil), a.jobs.shown...)
}

// ShowJobs selects the Jobs tab and the job id when given (UI thread).
func (a *App) ShowJobs(id string) {
	if a.tabs == nil {
		return
	}
	a.tabs.SelectIndex(0)
	if id != "" {
		a.jobs.selectJob(id)
	}
}

// OpenJobResult downloads the job's result when needed and opens it in a
// viewer tab; done is called on the UI thread (UI thread).
func (a *App) OpenJobResult(id string, done func(error)) {
	if a.jobs == nil {
		done(errors.New("not connected"))
		return
	}
	for _, j := range a.jobs.all {
		if j.ID == id || j.Key == id {
			if !j.HasResult() {
				done(errors.New("job " + id + " has no result (status " + string(j.Status) + ")"))
				return
			}
			a.jobs.ensureDownloaded(j, func(j workflow.Job) {
				a.openViewer(j.ResultPath, j.Name)
				done(nil)
			})
			return
		}
	}
	done(errors.New("job " + id + " is not in the list"))
}

// ViewerRows is the row count of the selected viewer tab, -1 when the
// selected tab is not a viewer or its file is still being read (UI
// thread).
func (a *App) ViewerRows() int { return a.viewerRows() }
