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
	a, err := shellApp(h)
	if err != nil {
		return err
	}
	if a.sampleBtn == nil {
		return errors.New("the welcome panel with the sample list is not shown (run in the sandbox with an empty SKIPDESK_HOME)")
	}
	// The whole trace runs in a 1024×700 window (a small laptop screen): no
	// screen may make the window grow past it.
	h.Do(func() { a.win.Resize(fyne.NewSize(1024, 700)) })
	run := &traceWizardRun{h: h, a: a}
	for _, step := range []func() error{run.pick, run.remap, run.includeLLCs, run.submit, run.openResult} {
		if err := step(); err != nil {
			return err
		}
	}
	return scrubAndCallable(h, a, run.job)
}

// traceWizardRun is the state runTraceWizard's steps share: the wizard once
// it is open, the job once it is submitted.
type traceWizardRun struct {
	h   *e2e.Harness
	a   *App
	w   *wizard.TraceProbe
	job workflow.Job
}

// shot saves a screenshot, failing when the window grew past 1024×700.
func (r *traceWizardRun) shot(name string) error {
	var size fyne.Size
	r.h.Do(func() { size = r.a.win.Canvas().Size() })
	if size.Width > 1024 || size.Height > 700 {
		return fmt.Errorf("%s: the window grew to %v past 1024×700", name, size)
	}
	return r.h.Shot(name)
}

// pick: the welcome panel's button opens the wizard on the sample list.
func (r *traceWizardRun) pick() error {
	h, a := r.h, r.a
	if err := h.Wait("the welcome panel is laid out", 20*time.Second, func() bool {
		return a.jobs.empty.Visible() && !fyne.CurrentApp().Driver().AbsolutePositionForObject(a.sampleBtn).IsZero()
	}); err != nil {
		return err
	}
	if err := h.Click(a.sampleBtn); err != nil {
		return err
	}
	if err := h.Wait("the wizard read the file and the rates", 30*time.Second, func() bool {
		r.w = wizard.LastTrace()
		return r.w != nil && r.w.Ready()
	}); err != nil {
		return err
	}
	return r.shot("wizard-01-file")
}

// remap: the auto-mapping fills every field of the sample list; clearing
// first_name from its dropdown shows the missing-names problem and disables
// Submit; dragging the column's chip back onto the field mends it.
func (r *traceWizardRun) remap() error {
	h, w := r.h, r.w
	h.Do(func() { w.Tab(1) })
	var auto map[string]string
	h.Do(func() { auto = w.Mapping() })
	if len(auto) != 10 {
		return fmt.Errorf("auto-mapping filled %d fields, want 10: %v", len(auto), auto)
	}
	if err := r.shot("wizard-02-map-auto"); err != nil {
		return err
	}
	first := auto[mapping.FirstName]
	h.Do(func() { w.Choose(mapping.FirstName, "") })
	if err := h.Wait("first_name reported missing, Submit disabled", 10*time.Second, func() bool {
		return strings.Contains(w.Problems(), "Owner first name") && w.Submit().Disabled()
	}); err != nil {
		return err
	}
	if err := r.shot("wizard-03-map-missing-name"); err != nil {
		return err
	}
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
	return r.shot("wizard-04-map-dropped")
}

// includeLLCs: on the options and cost tab, including the company rows
// makes the estimate grow.
func (r *traceWizardRun) includeLLCs() error {
	h, w := r.h, r.w
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
	h.Logf("estimate %q -> %q", before, after)
	return r.shot("wizard-05-options-cost")
}

// submit: the wizard closes and the new job is listed; the tracker notices
// its completion and downloads the result.
func (r *traceWizardRun) submit() error {
	h, w := r.h, r.w
	known := map[string]bool{}
	h.Do(func() {
		for _, j := range h.Shell.JobsShown() {
			known[j.ID] = true
		}
	})
	if err := submitAndPay(h, w.Submit(), w.Pay, w.Closed, "wizard-06-confirm-pay"); err != nil {
		return err
	}
	find := func() bool {
		for _, j := range h.Shell.JobsShown() {
			if !known[j.ID] && j.Kind == jobs.KindTrace {
				r.job = j
				return true
			}
		}
		return false
	}
	if err := h.Wait("the wizard closed and the new job is listed", 60*time.Second, func() bool { return w.Closed() && find() }); err != nil {
		return err
	}
	h.Logf("submitted %s (%s)", r.job.ID, r.job.Status)
	if err := r.shot("wizard-06-submitted"); err != nil {
		return err
	}

	if err := h.Wait("the job completed and its result downloaded", 90*time.Second, func() bool {
		return find() && r.job.Status == "completed" && r.job.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, r.job.Status)
	}
	if r.job.Breakdown == nil {
		return errors.New("the include_llcs trace shows no individuals/LLC breakdown")
	}
	h.Do(func() { h.Shell.ShowJobs(r.job.ID) })
	return r.shot("wizard-07-completed")
}

// openResult: Open result, clicked, shows every row in the viewer.
func (r *traceWizardRun) openResult() error {
	h, a := r.h, r.a
	if err := h.Wait("Open result is enabled", 10*time.Second, func() bool { return !a.jobs.openBtn.Disabled() }); err != nil {
		return err
	}
	if err := h.Click(a.jobs.openBtn); err != nil {
		return err
	}
	if err := h.Wait("the viewer shows the result's rows", 20*time.Second, func() bool { return h.Shell.ViewerRows() == r.job.Rows }); err != nil {
		return err
	}
	return r.shot("wizard-08-result")
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
	if err := submitAndPay(h, d.Submit(), d.Pay, d.Closed, ""); err != nil {
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
		yes = a.jobs.callableYes
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
	// The callable list's choices: the defaults.
	if err := h.Wait("the callable list's choices", 10*time.Second, func() bool { return a.exports.callableAsk != nil }); err != nil {
		return err
	}
	if err := h.Shot("wizard-11-callable-choices"); err != nil {
		return err
	}
	h.Do(func() { a.exports.callableAsk.Confirm() })
	if err := saveOffered(h, a); err != nil {
		return err
	}
	var saved string
	if err := h.Wait("the callable list is saved", 30*time.Second, func() bool {
		m, _ := filepath.Glob(filepath.Join(a.exports.outputDir(), "* callable.xlsx"))
		if len(m) > 0 {
			saved = m[0]
		}
		return saved != ""
	}); err != nil {
		return err
	}
	h.Logf("callable list: %s", saved)
	return h.Shot("wizard-12-callable-saved")
}
