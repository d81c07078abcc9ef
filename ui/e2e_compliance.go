//go:build harness

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

func init() { e2e.Register("compliance", runCompliance) }

// runCompliance: the sample list traced and its phones scrubbed in the
// sandbox; a number put on the company's own do-not-call list; the
// callable list exported with its proof of scrub (the PDF's first page
// rendered with pdftoppm when it is installed); then the scrub made stale
// (its record dated 40 days back): the export refuses, and a scrub of just
// those numbers is priced.
func runCompliance(h *e2e.Harness) error {
	a, err := shellApp(h)
	if err != nil {
		return err
	}
	h.Do(func() { a.win.Resize(fyne.NewSize(1180, 760)) })
	trace, scrub, err := traceAndScrub(h, a)
	if err != nil {
		return err
	}
	if err := complianceList(h, a, trace); err != nil {
		return err
	}
	proof, err := complianceExport(h, a, trace)
	if err != nil {
		return err
	}
	return complianceStale(h, a, trace, scrub, proof)
}

// complianceList: the trace's first number, and two more, go on the
// company's own list.
func complianceList(h *e2e.Harness, a *App, trace workflow.Job) error {
	r, err := a.svc.Results.OpenResult(context.Background(), trace.ResultPath, nil)
	if err != nil {
		return err
	}
	if err := r.Index(context.Background(), nil); err != nil { // its rows read through the layout
		r.Close()
		return err
	}
	var first string
	for i := 0; i < r.Len() && first == ""; i++ {
		for _, p := range r.Person(i).Phones {
			if p.Valid() {
				first = p.Digits()
				break
			}
		}
	}
	r.Close()
	if first == "" {
		return errors.New("the sample trace found no phone")
	}
	if _, err := a.svc.Compliance.AddInternal(context.Background(), []string{first}, "asked not to be called", "by hand"); err != nil {
		return err
	}
	if _, err := a.svc.Compliance.AddInternal(context.Background(), []string{"(512) 555-0199", "214-555-0142"}, "complaint", "pasted"); err != nil {
		return err
	}
	h.Do(func() { a.tabs.SelectIndex(2) })
	if err := h.Wait("the list shows three numbers", 10*time.Second, func() bool { return a.internal.count.Text == "3 numbers" }); err != nil {
		return err
	}
	return h.Shot("compliance-01-dnc-list")
}

// complianceExport: the callable list, with the person's choices, and its
// proof; it returns the proof's path.
func complianceExport(h *e2e.Harness, a *App, trace workflow.Job) (string, error) {
	h.Do(func() {
		a.tabs.SelectIndex(0)
		a.jobs.selectJob(trace.ID)
		a.jobs.export(trace, true)
	})
	if err := h.Wait("the callable list's choices", 20*time.Second, func() bool { return a.exports.callableAsk != nil }); err != nil {
		return "", err
	}
	if err := h.Shot("compliance-02-choices"); err != nil {
		return "", err
	}
	h.Do(func() { a.exports.callableAsk.Confirm() })
	if err := saveOffered(h, a); err != nil {
		return "", err
	}
	list := filepath.Join(a.exports.outputDir(), workflow.ExportName(trace.Name, "callable", ".xlsx"))
	proof := strings.TrimSuffix(list, ".xlsx") + " proof.pdf"
	if err := h.Wait("the callable list and its proof are saved", 30*time.Second, func() bool {
		_, e1 := os.Stat(list)
		_, e2 := os.Stat(proof)
		return e1 == nil && e2 == nil
	}); err != nil {
		return "", err
	}
	if err := h.Shot("compliance-03-saved"); err != nil {
		return "", err
	}
	if err := renderFirstPage(h, proof, "compliance-04-proof"); err != nil {
		return "", err
	}
	h.Do(closeOverlays(a))
	return proof, nil
}

// complianceStale: forty days later the scrub is stale: the export
// refuses; a scrub of just those numbers is priced, made, and the callable
// list made on it.
func complianceStale(h *e2e.Harness, a *App, trace, scrub workflow.Job, proof string) error {
	rec := library.RecordPath(scrub.ResultPath)
	m, err := library.ReadRecord(rec)
	if err != nil {
		return err
	}
	m.CompletedAt = time.Now().AddDate(0, 0, -40)
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := library.WriteFileAtomic(rec, b); err != nil {
		return err
	}
	h.Do(func() { a.jobs.export(trace, true) })
	if err := h.Wait("the callable list's choices", 20*time.Second, func() bool { return a.exports.callableAsk != nil }); err != nil {
		return err
	}
	h.Do(func() { a.exports.callableAsk.Confirm() })
	if err := saveOffered(h, a); err != nil {
		return err
	}
	if err := h.Wait("the stale scrub's refusal", 30*time.Second, func() bool { return a.exports.rescrubBtn != nil }); err != nil {
		return err
	}
	if err := h.Shot("compliance-05-stale"); err != nil {
		return err
	}
	h.Do(func() { a.exports.rescrubBtn.OnTapped() })
	var d *wizard.DNCProbe
	if err := h.Wait("a scrub of just those numbers, priced", 30*time.Second, func() bool {
		d = wizard.LastDNC()
		return d != nil && d.Ready()
	}); err != nil {
		return err
	}
	if err := h.Shot("compliance-06-rescrub-priced"); err != nil {
		return err
	}
	// The new scrub is one of the trace's: once it completes, the callable
	// list is offered again, and made on the fresh answers.
	h.Do(func() { d.Submit().OnTapped() }) // to the review
	h.Do(func() { d.Submit().OnTapped() }) // the question before paying
	h.Do(func() {
		if p := d.Pay(); p != nil {
			p.OnTapped()
		}
	})
	if err := h.Wait("the callable list is offered after the new scrub", 120*time.Second, func() bool {
		return a.jobs.callableYes != nil && a.jobs.callableYes.Visible()
	}); err != nil {
		return err
	}
	h.Do(func() { a.jobs.callableYes.OnTapped() })
	if err := h.Wait("the callable list's choices", 20*time.Second, func() bool { return a.exports.callableAsk != nil }); err != nil {
		return err
	}
	// The list made again goes where the first was (the save dialog offers
	// a free name: make room).
	os.Remove(proof)
	os.Remove(strings.TrimSuffix(proof, " proof.pdf") + ".xlsx")
	h.Do(func() { a.exports.callableAsk.Confirm() })
	if err := saveOffered(h, a); err != nil {
		return err
	}
	if err := h.Wait("the callable list is saved on the fresh scrub", 30*time.Second, func() bool {
		_, err := os.Stat(proof)
		return err == nil && a.exports.rescrubBtn == nil
	}); err != nil {
		return err
	}
	return h.Shot("compliance-07-saved-after-rescrub")
}

// traceAndScrub traces the sample list and scrubs its phones through the
// backend, as the wizards do, and waits for both results.
func traceAndScrub(h *e2e.Harness, a *App) (trace, scrub workflow.Job, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	path, err := h.Shell.SampleList()
	if err != nil {
		return trace, scrub, err
	}
	ins, err := a.svc.Trace.Inspect(ctx, path, input.Options{})
	if err != nil {
		return trace, scrub, err
	}
	plan := workflow.Plan{Kind: jobs.KindTrace, Path: path, Mapping: workflow.Suggest(ins, jobs.KindTrace).Mapping(), Mode: jobs.ModeNormal,
		IncludeLLCs: true}
	res, err := a.svc.Trace.Submit(ctx, plan, ins, workflow.SubmitOptions{Again: true})
	if err != nil {
		return trace, scrub, fmt.Errorf("trace: %w", err)
	}
	h.Do(func() { a.JobSubmitted(res.JobID) })
	if trace, err = waitResult(h, res.JobID); err != nil {
		return trace, scrub, err
	}
	dplan, err := a.svc.Trace.TracePhones(ctx, trace.ResultPath, trace.ID)
	if err != nil {
		return trace, scrub, err
	}
	dins, err := a.svc.Trace.Inspect(ctx, dplan.Path, input.Options{})
	if err != nil {
		return trace, scrub, err
	}
	dres, err := a.svc.Trace.Submit(ctx, dplan, dins, workflow.SubmitOptions{Again: true})
	if err != nil {
		return trace, scrub, fmt.Errorf("scrub: %w", err)
	}
	h.Do(func() { a.JobSubmitted(dres.JobID) })
	scrub, err = waitResult(h, dres.JobID)
	return trace, scrub, err
}

// waitResult waits until the job is listed completed with its result.
func waitResult(h *e2e.Harness, id string) (workflow.Job, error) {
	var job workflow.Job
	err := h.Wait("job "+id+" completed and downloaded", 120*time.Second, func() bool {
		for _, j := range h.Shell.JobsShown() {
			if j.ID == id {
				job = j
			}
		}
		return job.Status == jobs.StatusCompleted && job.ResultPath != ""
	})
	return job, err
}

// renderFirstPage saves a PDF's first page as <out>/<name>.png with
// pdftoppm, when it is installed (the log says so when not).
func renderFirstPage(h *e2e.Harness, pdf, name string) error {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		h.Logf("pdftoppm (poppler-utils) is not installed: %s not rendered", filepath.Base(pdf))
		return nil
	}
	base := filepath.Join(h.Out, name)
	if out, err := exec.Command("pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", pdf, base).CombinedOutput(); err != nil {
		return fmt.Errorf("pdftoppm: %v: %s", err, out)
	}
	h.Logf("proof of scrub, first page: %s.png", base)
	return nil
}

// saveOffered waits for the save dialog and presses Enter: the name it
// offers, in the export folder.
func saveOffered(h *e2e.Harness, a *App) error {
	if err := h.Wait("the save dialog asks where", 20*time.Second, func() bool { return a.exports.saving }); err != nil {
		return err
	}
	return h.Key("Return")
}

// closeOverlays hides the dialogs shown.
func closeOverlays(a *App) func() {
	return func() {
		for _, o := range a.win.Canvas().Overlays().List() {
			o.Hide()
		}
	}
}
