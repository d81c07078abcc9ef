//go:build harness

package e2e

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// The sample list traced in the sandbox (submitted as the wizard does),
// followed in the jobs list to completion, its result opened in the
// viewer, found in the library; then Settings and the first-run screen.
func init() {
	s := &jobsTrace{}
	e2e.Suite("jobs-trace",
		e2e.T("a new user lands in the sandbox", s.welcome),
		e2e.T("a submitted trace shows in the jobs list while it processes", s.listed),
		e2e.T("the trace completes and its result downloads", s.completed),
		e2e.T("the result opens in the viewer with every row", s.viewer),
		e2e.T("the viewer shows the matched rows sorted by last name", s.matchedSorted),
		e2e.T("the library finds the result offline", s.library),
		e2e.T("Settings and the first-run screen show", s.settingsAndConnect),
	)
}

type jobsTrace struct {
	id  string
	job workflow.Job
}

func (s *jobsTrace) welcome(h *e2e.Harness) error {
	var sandbox bool
	h.Do(func() { sandbox = h.D.App().Sandbox() })
	if !sandbox {
		return errors.New("not in the sandbox: run with no key stored (SKIPDESK_HOME empty)")
	}
	return h.Shot("jobs-01-welcome")
}

func (s *jobsTrace) listed(h *e2e.Harness) error {
	path, err := h.D.App().SampleList()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if s.id, err = h.D.App().Submit(ctx, path, true); err != nil {
		return err
	}
	h.Logf("submitted %s", s.id)
	if err := h.Wait("the job in the list", 20*time.Second, func() bool {
		return job(h, func(j workflow.Job) bool { return j.ID == s.id }).ID != ""
	}); err != nil {
		return err
	}
	h.Do(func() { h.D.Jobs().Select(s.id) })
	return h.Shot("jobs-02-processing")
}

func (s *jobsTrace) completed(h *e2e.Harness) error {
	if err := h.Wait("the job completed and downloaded", 90*time.Second, func() bool {
		s.job = job(h, func(j workflow.Job) bool { return j.ID == s.id })
		return s.job.Status == "completed" && s.job.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, s.job.Status)
	}
	h.Do(func() { h.D.Jobs().Select(s.id) })
	return h.Shot("jobs-03-completed")
}

func (s *jobsTrace) viewer(h *e2e.Harness) error {
	if err := openJobResult(h, s.job.ID, s.job.Rows, 20*time.Second); err != nil {
		return err
	}
	return h.Shot("jobs-04-viewer")
}

func (s *jobsTrace) matchedSorted(h *e2e.Harness) error {
	v := h.D.Viewer()
	h.Do(func() { v.Quick(jobs.QuickMatched, true) })
	if err := h.Wait("matched only", 20*time.Second, func() bool { st, _ := v.Selected(); return st.Shown == s.job.Matches }); err != nil {
		return err
	}
	// Sorted by a column in view, so that the screenshot shows its arrow.
	var tapped bool
	h.Do(func() { tapped = v.TapHeader("Owner Last Name") })
	if !tapped {
		return errors.New("the result has no column \"Owner Last Name\"")
	}
	if err := h.Wait("sorted", 20*time.Second, func() bool {
		st, _ := v.Selected()
		return st.SortCol >= 0 && st.Count != "Filtering…"
	}); err != nil {
		return err
	}
	return h.Shot("jobs-05-viewer-matched-sorted")
}

func (s *jobsTrace) library(h *e2e.Harness) error {
	if err := searchLibrary(h, "Adams"); err != nil {
		return err
	}
	if err := h.Wait("library search", 20*time.Second, func() bool { return len(h.D.Library().Hits()) == 1 }); err != nil {
		return err
	}
	return h.Shot("jobs-06-library")
}

func (s *jobsTrace) settingsAndConnect(h *e2e.Harness) error {
	h.Do(h.D.App().OpenSettings)
	if err := h.Shot("jobs-07-settings"); err != nil {
		return err
	}
	h.CloseDialogs()
	h.Do(h.D.App().ShowConnect)
	return h.Shot("jobs-08-first-run")
}
