//go:build harness

package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

func init() { e2e.Register("trace-wizard", runTraceWizard) }

// runTraceWizard is a new user's first trace, driven with the real pointer
// (xdotool) wherever a person would click or drag: "Try the sample list" on
// the welcome panel, a column chip dragged onto a field, Submit, then Open
// result once the job completes. Each step leaves a screenshot (wizard-NN).
func runTraceWizard(h *e2e.Harness) error {
	var a *App
	h.Do(func() { a, _ = h.Shell.(*App) })
	if a == nil || a.sampleBtn == nil {
		return errors.New("the welcome panel with the sample list is not shown (run in the sandbox with an empty SKIPDESK_HOME)")
	}

	// The whole trace runs in a 1024×700 window (a small laptop screen): no
	// screen may make the window grow past it.
	h.Do(func() { a.win.Resize(fyne.NewSize(1024, 700)) })
	shot := func(name string) error {
		var size fyne.Size
		h.Do(func() { size = a.win.Canvas().Size() })
		if size.Width > 1024 || size.Height > 700 {
			return fmt.Errorf("%s: the window grew to %v past 1024×700", name, size)
		}
		return h.Shot(name)
	}

	// Pick: the welcome panel's button opens the wizard on the sample list.
	if err := h.Wait("the welcome panel is laid out", 20*time.Second, func() bool {
		return a.jobs.empty.Visible() && !fyne.CurrentApp().Driver().AbsolutePositionForObject(a.sampleBtn).IsZero()
	}); err != nil {
		return err
	}
	if err := h.Click(a.sampleBtn); err != nil {
		return err
	}
	var w *wizard.TraceProbe
	if err := h.Wait("the wizard read the file and the rates", 30*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && w.Ready()
	}); err != nil {
		return err
	}
	if err := shot("wizard-01-file"); err != nil {
		return err
	}

	// Map: the auto-mapping fills every field of the sample list.
	h.Do(func() { w.Tab(1) })
	var auto map[string]string
	h.Do(func() { auto = w.Mapping() })
	if len(auto) != 10 {
		return fmt.Errorf("auto-mapping filled %d fields, want 10: %v", len(auto), auto)
	}
	if err := shot("wizard-02-map-auto"); err != nil {
		return err
	}
	// Clear first_name from its dropdown: the missing-names problem shows and
	// Submit is disabled.
	first := auto[mapping.FirstName]
	h.Do(func() { w.Choose(mapping.FirstName, "") })
	if err := h.Wait("first_name reported missing, Submit disabled", 10*time.Second, func() bool {
		return strings.Contains(w.Problems(), "first_name") && w.Submit().Disabled()
	}); err != nil {
		return err
	}
	if err := shot("wizard-03-map-missing-name"); err != nil {
		return err
	}
	// Drag the column's chip back onto the first_name field.
	var chip, slot = w.Chip(first), w.Slot(mapping.FirstName)
	if chip == nil || slot == nil {
		return fmt.Errorf("no chip for %q or no first_name slot", first)
	}
	if err := h.Drag(chip, slot); err != nil {
		return err
	}
	if err := h.Wait("the drop mapped first_name again and the problem went", 10*time.Second, func() bool {
		return w.Mapping()[mapping.FirstName] == first && w.Problems() == "" && !w.Submit().Disabled()
	}); err != nil {
		var m map[string]string
		h.Do(func() { m = w.Mapping() })
		return fmt.Errorf("%w (mapping %v)", err, m)
	}
	if err := shot("wizard-04-map-dropped"); err != nil {
		return err
	}

	// Options and cost: include the company rows; the estimate grows.
	var before string
	h.Do(func() { w.Tab(2); before = w.Summary() })
	time.Sleep(300 * time.Millisecond) // the tab is laid out and drawn
	if err := h.Click(w.IncludeLLCs()); err != nil {
		return err
	}

	if err := h.Wait("the estimate counts the company rows", 10*time.Second, func() bool {
		return w.IncludeLLCs().Checked && w.Ready() && w.Summary() != before
	}); err != nil {
		return err
	}
	var after string
	h.Do(func() { after = w.Summary() })
	h.Logf("estimate %q → %q", before, after)
	if err := shot("wizard-05-options-cost"); err != nil {
		return err
	}

	// Submit: the wizard closes and the job is listed.
	known := map[string]bool{}
	h.Do(func() {
		for _, j := range h.Shell.JobsShown() {
			known[j.ID] = true
		}
	})
	if err := h.Click(w.Submit()); err != nil {
		return err
	}
	var job workflow.Job
	find := func() bool {
		for _, j := range h.Shell.JobsShown() {
			if !known[j.ID] && j.Kind == jobs.KindTrace {
				job = j
				return true
			}
		}
		return false
	}
	if err := h.Wait("the wizard closed and the new job is listed", 60*time.Second, func() bool { return w.Closed() && find() }); err != nil {
		return err
	}
	h.Logf("submitted %s (%s)", job.ID, job.Status)
	if err := shot("wizard-06-submitted"); err != nil {
		return err
	}

	// Completion: the tracker notices it and downloads the result.
	if err := h.Wait("the job completed and its result downloaded", 90*time.Second, func() bool {
		return find() && job.Status == "completed" && job.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, job.Status)
	}
	if job.Breakdown == nil {
		return errors.New("the include_llcs trace shows no individuals/LLC breakdown")
	}
	h.Do(func() { h.Shell.ShowJobs(job.ID) })
	if err := shot("wizard-07-completed"); err != nil {
		return err
	}

	// Open result, clicked: the viewer shows every row.
	if err := h.Wait("Open result is enabled", 10*time.Second, func() bool { return !a.jobs.openBtn.Disabled() }); err != nil {
		return err
	}
	if err := h.Click(a.jobs.openBtn); err != nil {
		return err
	}
	if err := h.Wait("the viewer shows the result's rows", 20*time.Second, func() bool { return h.Shell.ViewerRows() == job.Rows }); err != nil {
		return err
	}
	if err := shot("wizard-08-result"); err != nil {
		return err
	}
	return scrubAndCallable(h, a, job)
}

// scrubAndCallable clicks "Scrub phones" on the completed trace, submits the
// DNC scrub of its phones and, once it completes, accepts the offered
// callable-list export.
func scrubAndCallable(h *e2e.Harness, a *App, trace workflow.Job) error {
	h.Do(func() { h.Shell.ShowJobs(trace.ID) })
	time.Sleep(300 * time.Millisecond)
	if err := h.Click(a.jobs.scrubBtn); err != nil {
		return err
	}
	var d *wizard.DNCProbe
	if err := h.Wait("the scrub read the trace's phones", 30*time.Second, func() bool {
		d = wizard.LastDNC()
		return d != nil && d.Ready()
	}); err != nil {
		return err
	}
	if err := h.Shot("wizard-09-scrub"); err != nil {
		return err
	}
	if err := h.Click(d.Submit()); err != nil {
		return err
	}
	var scrub workflow.Job
	if err := h.Wait("the scrub is submitted and listed", 60*time.Second, func() bool {
		for _, j := range h.Shell.JobsShown() {
			if j.Kind == jobs.KindDNC {
				scrub = j
			}
		}
		return d.Closed() && scrub.ID != ""
	}); err != nil {
		return err
	}
	var yes *widget.Button
	if err := h.Wait("the callable list is offered when the scrub completes", 90*time.Second, func() bool {
		yes = a.callableYes
		return yes != nil && yes.Visible()
	}); err != nil {
		return err
	}
	if err := h.Shot("wizard-10-scrub-done"); err != nil {
		return err
	}
	if err := h.Click(yes); err != nil {
		return err
	}
	var saved string
	if err := h.Wait("the callable list is saved", 30*time.Second, func() bool {
		m, _ := filepath.Glob(filepath.Join(a.outputDir(), "* callable.xlsx"))
		if len(m) > 0 {
			saved = m[0]
		}
		return saved != ""
	}); err != nil {
		return err
	}
	h.Logf("callable list: %s", saved)
	return h.Shot("wizard-11-callable-saved")
}
