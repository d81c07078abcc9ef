//go:build harness

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// The sample list traced and its phones scrubbed in the sandbox; a number
// put on the company's own do-not-call list; the callable list exported
// with its proof of scrub (the PDF's first page rendered with pdftoppm
// when it is installed); then the scrub made stale (its record dated 40
// days back): the export refuses, and a scrub of just those numbers is
// priced, made, and the callable list made on it.
func init() {
	s := &compliance{}
	e2e.Suite("compliance",
		e2e.T("a trace and the scrub of its phones complete", s.traceAndScrub),
		e2e.T("numbers put on the company's own list show in its tab", s.companyList),
		e2e.T("the callable list is saved with its proof of scrub", s.export),
		e2e.T("a scrub 40 days old is refused for the callable list", s.stale),
		e2e.T("the refusal prices a scrub of just those numbers", s.rescrubPriced),
		e2e.T("after the new scrub the callable list is made on it", s.afterRescrub),
	)
}

type compliance struct {
	trace, scrub workflow.Job
	proof        string
}

func (s *compliance) traceAndScrub(h *e2e.Harness) error {
	h.Resize(fyne.NewSize(1180, 760))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	app := h.D.App()
	path, err := app.SampleList()
	if err != nil {
		return err
	}
	id, err := app.Submit(ctx, path, true)
	if err != nil {
		return err
	}
	if s.trace, err = waitJobResult(h, id, "", 120*time.Second); err != nil {
		return err
	}
	if id, err = app.SubmitScrubOf(ctx, s.trace); err != nil {
		return err
	}
	s.scrub, err = waitJobResult(h, id, "", 120*time.Second)
	return err
}

// companyList: the trace's first number, and two more, go on the
// company's own list.
func (s *compliance) companyList(h *e2e.Harness) error {
	ctx := context.Background()
	app := h.D.App()
	first, err := app.FirstPhone(ctx, s.trace.ResultPath)
	if err != nil {
		return fmt.Errorf("the sample trace found no phone: %w", err)
	}
	if err := app.AddToCompanyList(ctx, []string{first}, "asked not to be called", "by hand"); err != nil {
		return err
	}
	if err := app.AddToCompanyList(ctx, []string{"(512) 555-0199", "214-555-0142"}, "complaint", "pasted"); err != nil {
		return err
	}
	if err := h.ShowTab("Do not call"); err != nil {
		return err
	}
	if err := h.Wait("the list shows three numbers", 10*time.Second, func() bool { return app.CompanyListCount() == "3 numbers" }); err != nil {
		return err
	}
	return h.Shot("compliance-01-dnc-list")
}

// askCallable asks for the trace's callable list and takes the choices.
func (s *compliance) askCallable(h *e2e.Harness, shot string) error {
	if err := exportCallable(h, s.trace.ID); err != nil {
		return err
	}
	if err := waitCallableChoices(h, 20*time.Second); err != nil {
		return err
	}
	if shot != "" {
		if err := h.Shot(shot); err != nil {
			return err
		}
	}
	h.Do(h.D.Exports().ConfirmCallable)
	return saveOffered(h)
}

func (s *compliance) export(h *e2e.Harness) error {
	if err := s.askCallable(h, "compliance-02-choices"); err != nil {
		return err
	}
	var folder string
	h.Do(func() { folder = h.D.Exports().Folder() })
	list := filepath.Join(folder, workflow.ExportName(s.trace.Name, "callable", ".xlsx"))
	s.proof = strings.TrimSuffix(list, ".xlsx") + " proof.pdf"
	if err := h.Wait("the callable list and its proof are saved", 30*time.Second, func() bool {
		_, e1 := os.Stat(list)
		_, e2 := os.Stat(s.proof)
		return e1 == nil && e2 == nil
	}); err != nil {
		return err
	}
	if err := h.Shot("compliance-03-saved"); err != nil {
		return err
	}
	if err := renderFirstPage(h, s.proof, "compliance-04-proof"); err != nil {
		return err
	}
	h.CloseDialogs()
	return nil
}

// stale: forty days later the scrub is stale: the export refuses.
func (s *compliance) stale(h *e2e.Harness) error {
	rec := library.RecordPath(s.scrub.ResultPath)
	m, err := library.ReadRecord(rec)
	if err != nil {
		return err
	}
	m.CompletedAt = time.Now().AddDate(0, 0, -40)
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := library.WriteFileAtomic(rec, b); err != nil {
		return err
	}
	if err := s.askCallable(h, ""); err != nil {
		return err
	}
	if err := h.Wait("the stale scrub's refusal", 30*time.Second, h.D.Exports().StaleRefused); err != nil {
		return err
	}
	return h.Shot("compliance-05-stale")
}

func (s *compliance) rescrubPriced(h *e2e.Harness) error {
	h.Do(h.D.Exports().Rescrub)
	if _, err := dncWizard(h, "a scrub of just those numbers, priced", 30*time.Second, nil); err != nil {
		return err
	}
	return h.Shot("compliance-06-rescrub-priced")
}

// afterRescrub: the new scrub is one of the trace's: once it completes,
// the callable list is offered again, and made on the fresh answers.
func (s *compliance) afterRescrub(h *e2e.Harness) error {
	d := h.D.DNCWizard()
	h.Do(func() { d.Submit().OnTapped() }) // to the review
	h.Do(func() { d.Submit().OnTapped() }) // the question before paying
	h.Do(func() {
		if p := d.Pay(); p != nil {
			p.OnTapped()
		}
	})
	if err := h.Wait("the callable list is offered after the new scrub", 120*time.Second, func() bool {
		return h.Find("Export now") != nil
	}); err != nil {
		return err
	}
	if err := h.Press("Export now"); err != nil {
		return err
	}
	if err := waitCallableChoices(h, 20*time.Second); err != nil {
		return err
	}
	// The list made again goes where the first was (the save dialog offers
	// a free name: make room).
	os.Remove(s.proof)
	os.Remove(strings.TrimSuffix(s.proof, " proof.pdf") + ".xlsx")
	h.Do(h.D.Exports().ConfirmCallable)
	if err := saveOffered(h); err != nil {
		return err
	}
	if err := h.Wait("the callable list is saved on the fresh scrub", 30*time.Second, func() bool {
		_, err := os.Stat(s.proof)
		return err == nil && !h.D.Exports().StaleRefused()
	}); err != nil {
		return err
	}
	return h.Shot("compliance-07-saved-after-rescrub")
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
