//go:build harness

package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

func init() { e2e.Register("jobs-trace", runJobsTrace) }

// runJobsTrace runs the sample list through a trace in the sandbox (submitted
// through the backend, as the wizard does), follows it in the jobs list to
// completion and opens the result in the viewer, with screenshots of the
// jobs list and the viewer.
func runJobsTrace(h *e2e.Harness) error {
	a, err := shellApp(h)
	if err != nil {
		return err
	}
	if !a.Session().Sandbox {
		return errors.New("not in the sandbox: run with no key stored (SKIPDESK_HOME empty)")
	}
	if err := h.Shot("jobs-01-welcome"); err != nil {
		return err
	}
	path, err := h.Shell.SampleList()
	if err != nil {
		return err
	}
	ins, err := a.svc.Trace.Inspect(context.Background(), path, input.Options{})
	if err != nil {
		return err
	}
	auto := workflow.Suggest(ins, jobs.KindTrace).Mapping()
	h.Logf("sample list: %d rows, mapping %v", ins.Rows, auto)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := a.svc.Trace.Submit(ctx, workflow.Plan{Kind: jobs.KindTrace, Path: path, Mapping: auto, Mode: jobs.ModeNormal, IncludeLLCs: true},
		ins, workflow.SubmitOptions{Again: true})
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	id := res.JobID
	h.Logf("submitted %s", id)
	h.Do(func() { a.JobSubmitted(id) })

	var job workflow.Job
	find := func() bool {
		for _, j := range h.Shell.JobsShown() {
			if j.ID == id {
				job = j
				return true
			}
		}
		return false
	}
	if err := h.Wait("the job in the list", 20*time.Second, find); err != nil {
		return err
	}
	h.Do(func() { h.Shell.ShowJobs(id) })
	if err := h.Shot("jobs-02-processing"); err != nil {
		return err
	}
	if err := h.Wait("the job completed and downloaded", 90*time.Second, func() bool {
		return find() && job.Status == "completed" && job.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, job.Status)
	}
	h.Do(func() { h.Shell.ShowJobs(id) })
	if err := h.Shot("jobs-03-completed"); err != nil {
		return err
	}

	opened := make(chan error, 1)
	h.Do(func() { h.Shell.OpenJobResult(id, func(err error) { opened <- err }) })
	if err := <-opened; err != nil {
		return err
	}
	if err := h.Wait("the viewer shows the result's rows", 20*time.Second, func() bool { return h.Shell.ViewerRows() == job.Rows }); err != nil {
		return err
	}
	if err := h.Shot("jobs-04-viewer"); err != nil {
		return err
	}
	// Matched only, sorted by last name.
	var v *viewer
	h.Do(func() {
		v = a.viewers[a.tabs.Selected()]
		if c := v.quick[jobs.QuickMatched]; c != nil {
			c.SetChecked(true)
		}
	})
	if err := h.Wait("matched only", 20*time.Second, func() bool { return v.view.Len() == job.Matches }); err != nil {
		return err
	}
	// Sorted by a column in view, so that the screenshot shows its arrow.
	h.Do(func() { v.onHeaderTapped(indexOf(v.headers, "Owner Last Name")) })
	if err := h.Wait("sorted", 20*time.Second, func() bool { return v.q.SortCol >= 0 && v.count.Text != "Filtering…" }); err != nil {
		return err
	}
	if err := h.Shot("jobs-05-viewer-matched-sorted"); err != nil {
		return err
	}
	// The library finds the result offline.
	h.Do(func() {
		a.tabs.SelectIndex(1)
		a.library.search_.SetText("Adams")
	})
	if err := h.Wait("library search", 20*time.Second, func() bool { return len(a.library.items) == 1 }); err != nil {
		return err
	}
	if err := h.Shot("jobs-06-library"); err != nil {
		return err
	}
	var f *settingsForm
	h.Do(func() {
		f = a.newSettingsForm()
		f.dialog.Show()
	})
	if err := h.Shot("jobs-07-settings"); err != nil {
		return err
	}
	h.Do(func() {
		f.dialog.Hide()
		a.showConnect()
	})
	return h.Shot("jobs-08-first-run")
}

func indexOf(h []string, s string) int {
	for i, x := range h {
		if x == s {
			return i
		}
	}
	return 0
}
