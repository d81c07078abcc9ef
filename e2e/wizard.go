//go:build harness

package e2e

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// A new user's first trace, driven with the real pointer (xdotool) wherever
// a person would click or drag, in a 1024×700 window (a small laptop
// screen) that no screen may make grow: "Try the sample list" on the
// welcome panel, a column chip dragged onto a field, Submit, Open result
// once the job completes; then its phones scrubbed and the callable list
// exported. Each step leaves a screenshot (wizard-NN).
func init() {
	s := &traceWizardRun{}
	e2e.Suite("trace-wizard",
		e2e.T("Try the sample list opens the wizard on it, read and priced", s.pick),
		e2e.T("the sample list is mapped by itself", s.autoMapped),
		e2e.T("a field left empty is a problem, and Submit waits", s.missingName),
		e2e.T("a column's chip dragged onto a field maps it", s.dragChip),
		e2e.T("including the company rows makes the estimate grow", s.includeLLCs),
		e2e.T("a new trace asks before paying and is listed", s.submit),
		e2e.T("the trace completes with its individuals/LLC breakdown", s.completed),
		e2e.T("Open result shows every row", s.openResult),
		e2e.T("Scrub phones prices the scrub of the trace's phones", s.scrub),
		e2e.T("the callable list is offered when the scrub completes", s.callableOffered),
		e2e.T("the callable list is saved with the default choices", s.callableSaved),
	)
}

// traceWizardRun is what the trace-wizard tests share: the wizard once it
// is open, its first mapping, the job once it is submitted.
type traceWizardRun struct {
	w     e2e.TraceWizard
	first string
	known map[string]bool
	job   workflow.Job
}

// wizardMax is the window the whole trace runs in.
var wizardMax = fyne.NewSize(1024, 700)

// shot saves a screenshot, failing when the window grew past 1024×700.
func (r *traceWizardRun) shot(h *e2e.Harness, name string) error {
	if size := windowSize(h); size.Width > wizardMax.Width || size.Height > wizardMax.Height {
		return fmt.Errorf("%s: the window grew to %v past 1024×700", name, size)
	}
	return h.Shot(name)
}

func (r *traceWizardRun) pick(h *e2e.Harness) error {
	h.Resize(wizardMax)
	if err := h.Wait("the welcome panel with the sample list is laid out", 20*time.Second, h.D.Jobs().WelcomeShown); err != nil {
		return fmt.Errorf("%w (run in the sandbox with an empty SKIPDESK_HOME)", err)
	}
	if err := h.Press("Try the sample list"); err != nil {
		return err
	}
	var err error
	if r.w, err = traceWizard(h, "the wizard read the file and the rates", 30*time.Second, nil); err != nil {
		return err
	}
	return r.shot(h, "wizard-01-file")
}

func (r *traceWizardRun) autoMapped(h *e2e.Harness) error {
	w := r.w
	h.Do(func() { w.Tab(1) })
	var auto map[string]string
	h.Do(func() { auto = w.Mapping() })
	if len(auto) != 10 {
		return fmt.Errorf("auto-mapping filled %d fields, want 10: %v", len(auto), auto)
	}
	r.first = auto[mapping.FirstName]
	return r.shot(h, "wizard-02-map-auto")
}

func (r *traceWizardRun) missingName(h *e2e.Harness) error {
	w := r.w
	h.Do(func() { w.Choose(mapping.FirstName, "") })
	if err := h.Wait("first_name reported missing, Submit disabled", 10*time.Second, func() bool {
		return strings.Contains(w.Problems(), "Owner first name") && w.Submit().Disabled()
	}); err != nil {
		return err
	}
	return r.shot(h, "wizard-03-map-missing-name")
}

func (r *traceWizardRun) dragChip(h *e2e.Harness) error {
	w := r.w
	chip, slot := w.Chip(r.first), w.Slot(mapping.FirstName)
	if chip == nil || slot == nil {
		return fmt.Errorf("no chip for %q or no first_name slot", r.first)
	}
	if err := h.Drag(chip, slot); err != nil {
		return err
	}
	if err := h.Wait("the drop mapped first_name again and the problem went", 10*time.Second, func() bool {
		return w.Mapping()[mapping.FirstName] == r.first && w.Problems() == "" && !w.Submit().Disabled()
	}); err != nil {
		var m map[string]string
		h.Do(func() { m = w.Mapping() })
		return fmt.Errorf("%w (mapping %v)", err, m)
	}
	return r.shot(h, "wizard-04-map-dropped")
}

func (r *traceWizardRun) includeLLCs(h *e2e.Harness) error {
	w := r.w
	var before string
	h.Do(func() { w.Tab(2); before = w.Summary() })
	if err := h.Settle(); err != nil { // the tab is laid out and drawn
		return err
	}
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
	return r.shot(h, "wizard-05-options-cost")
}

// newTrace is the trace listed that was not before the submit.
func (r *traceWizardRun) newTrace(h *e2e.Harness) bool {
	r.job = job(h, func(j workflow.Job) bool { return !r.known[j.ID] && j.Kind == jobs.KindTrace })
	return r.job.ID != ""
}

func (r *traceWizardRun) submit(h *e2e.Harness) error {
	w := r.w
	r.known = map[string]bool{}
	h.Do(func() {
		for _, j := range h.D.Jobs().Shown() {
			r.known[j.ID] = true
		}
	})
	if err := payTrace(h, w, "wizard-06-confirm-pay"); err != nil {
		return err
	}
	if err := h.Wait("the wizard closed and the new job is listed", 60*time.Second, func() bool { return w.Closed() && r.newTrace(h) }); err != nil {
		return err
	}
	h.Logf("submitted %s (%s)", r.job.ID, r.job.Status)
	return r.shot(h, "wizard-06-submitted")
}

func (r *traceWizardRun) completed(h *e2e.Harness) error {
	if err := h.Wait("the job completed and its result downloaded", 90*time.Second, func() bool {
		return r.newTrace(h) && r.job.Status == "completed" && r.job.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, r.job.Status)
	}
	if r.job.Breakdown == nil {
		return errors.New("the include_llcs trace shows no individuals/LLC breakdown")
	}
	h.Do(func() { h.D.Jobs().Select(r.job.ID) })
	return r.shot(h, "wizard-07-completed")
}

func (r *traceWizardRun) openResult(h *e2e.Harness) error {
	if err := h.Press("Open result"); err != nil {
		return err
	}
	if err := h.Wait("the viewer shows the result's rows", 20*time.Second, func() bool { return h.D.Viewer().Rows() == r.job.Rows }); err != nil {
		return err
	}
	return r.shot(h, "wizard-08-result")
}

func (r *traceWizardRun) scrub(h *e2e.Harness) error {
	h.Do(func() { h.D.Jobs().Select(r.job.ID) })
	if err := h.Settle(); err != nil {
		return err
	}
	if err := h.Press("Scrub phones"); err != nil {
		return err
	}
	d, err := dncWizard(h, "the scrub read the trace's phones", 30*time.Second, nil)
	if err != nil {
		return err
	}
	if err := h.Shot("wizard-09-scrub"); err != nil {
		return err
	}
	if err := payDNC(h, d, ""); err != nil {
		return err
	}
	return h.Wait("the scrub is submitted and listed", 60*time.Second, func() bool {
		return d.Closed() && job(h, func(j workflow.Job) bool { return j.Kind == jobs.KindDNC }).ID != ""
	})
}

func (r *traceWizardRun) callableOffered(h *e2e.Harness) error {
	if err := h.Wait("the callable list is offered when the scrub completes", 90*time.Second, func() bool {
		return h.Find("Export now") != nil
	}); err != nil {
		return err
	}
	if err := h.Shot("wizard-10-scrub-done"); err != nil {
		return err
	}
	if err := h.Press("Export now"); err != nil {
		return err
	}
	// The callable list's choices: the defaults.
	if err := waitCallableChoices(h, 10*time.Second); err != nil {
		return err
	}
	return h.Shot("wizard-11-callable-choices")
}

func (r *traceWizardRun) callableSaved(h *e2e.Harness) error {
	ex := h.D.Exports()
	h.Do(ex.ConfirmCallable)
	if err := saveOffered(h); err != nil {
		return err
	}
	var folder, saved string
	h.Do(func() { folder = ex.Folder() })
	if err := h.Wait("the callable list is saved", 30*time.Second, func() bool {
		m, _ := filepath.Glob(filepath.Join(folder, "* callable.xlsx"))
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
