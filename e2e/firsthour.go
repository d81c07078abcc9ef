//go:build harness

package e2e

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// A person's first hour: a list damaged by Excel (ZIP codes without their
// zero, rows without an address) dropped on the window; a phone list with
// many invalid numbers; the server away and back; the trace exported from
// the keyboard; a result opened with Ctrl+O; the light theme's dialogs;
// the guide.
func init() {
	s := &firstHour{}
	e2e.Suite("first-hour",
		e2e.T("with nothing used the plan's bar reads empty", s.nothingUsed),
		e2e.T("a list damaged by Excel is offered its repairs, on by default", s.repairs),
		e2e.T("the repaired list is priced and asks once before paying", s.repairedPaid),
		e2e.T("a phone list's invalid numbers are listed, or counted as \"and N more\"", s.invalidListed),
		e2e.T("the invalid numbers are left out before paying, and Enter pays", s.invalidLeftOut),
		e2e.T("the header says when the server is away", s.serverAway),
		e2e.T("a wizard opened while the server is away says its cost waits", s.wizardWaits),
		e2e.T("when the server is back the wizard and the header recover", s.serverBack),
		e2e.T("Escape closes the wizard", s.escapeWizard),
		e2e.T("Export to Excel saves in the export folder from the keyboard", s.export),
		e2e.T("an export over an earlier file asks before replacing it", s.exportReplace),
		e2e.T("Ctrl+O opens a result typed into its path field", s.keyboardOpen),
		e2e.T("a sorted result keeps its rows' numbers, and Close closes it", s.sortedClose),
		e2e.T("in the light theme the callable list's choices and the focus read", s.lightChoices),
		e2e.T("in the light theme the single lookup reads", s.lightLookup),
		e2e.T("Help's guide shows and Escape closes it", s.guide),
	)
}

type firstHour struct {
	dir   string
	trace e2e.TraceWizard
	// exported is the file the first export went to.
	exported string
	job      workflow.Job
}

func (s *firstHour) nothingUsed(h *e2e.Harness) error {
	var err error
	if s.dir, err = tempDir(h, "firsthour"); err != nil {
		return err
	}
	app := h.D.App()
	h.Do(func() { app.UseTheme(settings.ThemeLight) })
	if err := h.Wait("the plan's bar is shown", 20*time.Second, func() bool { return app.PlanBar() != "" }); err != nil {
		return err
	}
	if err := h.Shot("firsthour-00-light-nothing-used"); err != nil {
		return err
	}
	h.Do(func() { app.UseTheme("") })
	return nil
}

func (s *firstHour) repairs(h *e2e.Harness) error {
	path := filepath.Join(s.dir, "owners from excel.csv")
	towns := []struct{ city, st, zip string }{{"Hoboken", "NJ", "7030"}, {"Boston", "MA", "2108"}, {"Austin", "TX", "78701"}, {"Newark", "NJ", "7102"}}
	if err := writeCSV(path, "First Name,Last Name,Property Address,Property City,Property State,Property Zip", 40, func(i int) string {
		street := fmt.Sprintf("%d Elm St", 10+i)
		if i%9 == 4 {
			street = ""
		}
		tw := towns[i%len(towns)]
		return fmt.Sprintf("Owner%d,Smith%d,%s,%s,%s,%s", i, i, street, tw.city, tw.st, tw.zip)
	}); err != nil {
		return err
	}
	w, err := dropTrace(h, path, "the dropped list is read and priced", nil)
	if err != nil {
		return err
	}
	s.trace = w
	// Submit leads to the review first: the repairs that lose nothing are
	// on already, each saying what it changes.
	h.Do(w.ShowReview)
	var zips, addr *keys.Check
	h.Do(func() { zips, addr = w.PadZips(), w.LeaveOutNoAddress() })
	if zips == nil || addr == nil {
		return errors.New("the repairs are not offered")
	}
	if err := h.Wait("priced with the repairs on by default", 20*time.Second, func() bool {
		rv := w.Review()
		return w.Ready() && zips.Checked && addr.Checked && rv.Sent > 0 && len(rv.Applied()) >= 2
	}); err != nil {
		return err
	}
	return h.Shot("firsthour-01-review-repairs-on")
}

func (s *firstHour) repairedPaid(h *e2e.Harness) error {
	w := s.trace
	h.Do(w.ShowCost)
	if err := h.Shot("firsthour-02-review-cost"); err != nil {
		return err
	}
	if err := payTrace(h, w, "firsthour-03-confirm-pay"); err != nil {
		return err
	}
	if err := h.Wait("the wizard closed and the trace is listed", 60*time.Second, func() bool {
		return w.Closed() && slices.ContainsFunc(h.D.Jobs().Shown(), func(j workflow.Job) bool { return j.Kind == jobs.KindTrace })
	}); err != nil {
		return err
	}
	return h.Shot("firsthour-04-submitted")
}

func (s *firstHour) invalidListed(h *e2e.Harness) error {
	path := filepath.Join(s.dir, "call list.csv")
	if err := writeCSV(path, "Name,Phone", 60, func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("Lead %d,555-01%02d", i, i) // seven digits: invalid
		}
		return fmt.Sprintf("Lead %d,(212) 555-%04d", i, 1000+i)
	}); err != nil {
		return err
	}
	h.Do(func() { h.D.App().NewDNC(path) }) // as "DNC scrub" does once the file is picked
	d, err := dncWizard(h, "the phone list is read", 60*time.Second, func(d e2e.DNCWizard) bool { return d.LeaveOutInvalid() != nil })
	if err != nil {
		return err
	}
	if err := h.Shot("firsthour-05-invalid-listed"); err != nil {
		return err
	}
	h.Do(d.ShowInvalid)
	if err := h.Shot("firsthour-05b-invalid-and-more"); err != nil {
		return err
	}
	h.Do(d.ScrollTop)
	return nil
}

func (s *firstHour) invalidLeftOut(h *e2e.Harness) error {
	d := h.D.DNCWizard()
	// The invalid numbers are left out by default: the review says so.
	var inv *keys.Check
	h.Do(func() { inv = d.LeaveOutInvalid(); d.ShowReview() })
	if err := h.Wait("priced without the invalid numbers", 10*time.Second, func() bool {
		return inv.Checked && strings.Contains(d.Cost(), "Left out: 30 invalid numbers")
	}); err != nil {
		return err
	}
	if err := h.Shot("firsthour-06-invalid-left-out"); err != nil {
		return err
	}
	// The question before paying answered with the keyboard: Enter pays.
	if err := h.Click(d.Submit()); err != nil {
		return err
	}
	if err := h.Wait("Submit asks before paying", 20*time.Second, func() bool { p := d.Pay(); return p != nil && p.Visible() }); err != nil {
		return err
	}
	if err := h.Shot("firsthour-07-scrub-confirm-pay"); err != nil {
		return err
	}
	if err := h.Key("Return"); err != nil {
		return err
	}
	return h.Wait("Enter paid: the scrub is submitted", 60*time.Second, d.Closed)
}

func (s *firstHour) serverAway(h *e2e.Harness) error {
	app := h.D.App()
	if err := app.Unplug(); err != nil {
		return err
	}
	h.Do(app.Refresh)
	if err := h.Wait("the header says the server is away", 60*time.Second, func() bool { return app.Offline() != "" }); err != nil {
		return err
	}
	return h.Shot("firsthour-08-offline-header")
}

func (s *firstHour) wizardWaits(h *e2e.Harness) error {
	path := filepath.Join(s.dir, "owners from excel.csv")
	h.Do(func() { h.D.App().NewTrace(path) })
	var w e2e.TraceWizard
	if err := h.Wait("the wizard says the cost waits for the server", 60*time.Second, func() bool {
		w = h.D.TraceWizard()
		return w != nil && !w.Closed() && strings.Contains(w.CostNote(), "can't be reached")
	}); err != nil {
		return err
	}
	s.trace = w
	h.Do(w.ShowCost)
	return h.Shot("firsthour-09-wizard-server-away")
}

func (s *firstHour) serverBack(h *e2e.Harness) error {
	w, app := s.trace, h.D.App()
	if err := app.Replug(); err != nil {
		return err
	}
	if err := h.Wait("priced by itself once the server is back", 60*time.Second, func() bool {
		return strings.HasPrefix(w.CostTotal(), "Total:")
	}); err != nil {
		return err
	}
	if err := h.Wait("the header's banner gone", 60*time.Second, func() bool { return app.Offline() == "" }); err != nil {
		return err
	}
	h.Do(w.ShowCost)
	return h.Shot("firsthour-10-server-back")
}

func (s *firstHour) escapeWizard(h *e2e.Harness) error {
	if err := h.Key("Escape"); err != nil {
		return err
	}
	if err := h.Wait("Escape closed the wizard", 10*time.Second, s.trace.Closed); err != nil {
		return err
	}
	return h.Shot("firsthour-11-escape-closed")
}

// downloadedTrace waits for a trace with its result downloaded.
func downloadedTrace(h *e2e.Harness, timeout time.Duration) (workflow.Job, error) {
	var trace workflow.Job
	err := h.Wait("the trace's result is downloaded", timeout, func() bool {
		trace = job(h, func(j workflow.Job) bool { return j.Kind == jobs.KindTrace && j.ResultPath != "" })
		return trace.ID != ""
	})
	return trace, err
}

func (s *firstHour) export(h *e2e.Harness) error {
	var err error
	if s.job, err = downloadedTrace(h, 90*time.Second); err != nil {
		return err
	}
	h.Do(func() { h.D.Jobs().Select(s.job.ID) })
	s.exported, err = exportOnce(h, func() error { return h.Shot("firsthour-12-save-dialog") }, nil, "")
	return err
}

// exportReplace: the person types the name of the file saved first over
// the one offered, and is asked before it is replaced; the question over
// the save dialog: its Yes is reached with Tab (No, then Yes) and pressed
// with Space.
func (s *firstHour) exportReplace(h *e2e.Harness) error {
	typeFirst := func() error {
		if err := h.Key("ctrl+a"); err != nil {
			return err
		}
		return h.Type(filepath.Base(s.exported))
	}
	replace := func() error {
		if err := h.Wait("asked before replacing the file", 10*time.Second, func() bool {
			return h.D.Exports().SaveAsking() && h.Dialogs() >= 2
		}); err != nil {
			return err
		}
		if err := pressKeys(h, "Tab", "Tab"); err != nil {
			return err
		}
		if err := h.Shot("firsthour-13-replace-question"); err != nil {
			return err
		}
		return h.Key("space")
	}
	again, err := exportOnce(h, typeFirst, replace, "firsthour-14-export-saved")
	if err == nil && again != s.exported {
		err = fmt.Errorf("the second export went to %s, not over the first, %s", again, s.exported)
	}
	return err
}

// exportOnce exports the selected job to Excel: before runs in the save
// dialog, Enter saves, then confirm (when not nil) answers a question. The
// Saved message is shot as shot (when not "") with its OK focused from the
// keyboard, and closed with Escape. It returns where the export went.
func exportOnce(h *e2e.Harness, before, confirm func() error, shot string) (string, error) {
	ex := h.D.Exports()
	if err := h.Press("Export to Excel"); err != nil {
		return "", err
	}
	if err := h.Wait("the save dialog asks where", 20*time.Second, ex.SaveAsking); err != nil {
		return "", err
	}
	if err := before(); err != nil {
		return "", err
	}
	if err := h.Key("Return"); err != nil {
		return "", err
	}
	if confirm != nil {
		if err := confirm(); err != nil {
			return "", err
		}
	}
	saved, err := waitSaved(h, "the export is saved", 60*time.Second)
	if err != nil {
		return "", err
	}
	h.Logf("saved %s", saved)
	var folder string
	h.Do(func() { folder = ex.Folder() })
	if strings.Contains(filepath.Base(saved), ".csv") || filepath.Dir(saved) != folder {
		return "", fmt.Errorf("the export went to %s", saved)
	}
	if shot != "" {
		// Tab to OK (after Show in folder): its focus ring shows.
		if err := pressKeys(h, "Tab", "Tab"); err != nil {
			return "", err
		}
		if err := h.Shot(shot); err != nil {
			return "", err
		}
	}
	return saved, closeSaved(h)
}

func (s *firstHour) keyboardOpen(h *e2e.Harness) error {
	if err := h.Key("ctrl+o"); err != nil {
		return err
	}
	if err := h.Wait("the path field has the focus", 10*time.Second, func() bool {
		_, ok := h.Focused().(*keys.Entry)
		return ok
	}); err != nil {
		return err
	}
	if err := h.Type(s.job.ResultPath); err != nil {
		return err
	}
	if err := h.Shot("firsthour-15-open-typed"); err != nil {
		return err
	}
	if err := h.Key("Return"); err != nil {
		return err
	}
	return h.Wait("the result opens", 30*time.Second, func() bool {
		st, ok := h.D.Viewer().Selected()
		return ok && st.Indexed
	})
}

func (s *firstHour) sortedClose(h *e2e.Harness) error {
	v := h.D.Viewer()
	// Sorted by the last column, descending.
	h.Do(func() {
		v.Columns()
		st, _ := v.Selected()
		last := st.Headers[len(st.Headers)-1]
		v.TapHeader(last)
		v.TapHeader(last)
	})
	if err := h.Wait("sorted: the first row is not the file's first", 20*time.Second, func() bool {
		st, _ := v.Selected()
		return st.Desc && st.Shown > 0 && st.FirstRow != 0
	}); err != nil {
		return err
	}
	if err := h.Shot("firsthour-16-sorted-row-numbers"); err != nil {
		return err
	}
	h.Do(v.Close)
	return h.Wait("Close closed the result", 10*time.Second, func() bool { return len(v.All()) == 0 })
}

// lightChoices: in the light theme, the callable list's choices (boxes
// and hints readable) and the focus on the primary button.
func (s *firstHour) lightChoices(h *e2e.Harness) error {
	app, ex := h.D.App(), h.D.Exports()
	h.Do(func() { app.UseTheme(settings.ThemeLight) })
	if err := exportCallable(h, s.job.ID); err != nil {
		return err
	}
	// Its phones not scrubbed yet, the scrub is offered first.
	if err := h.Wait("the scrub offered first", 20*time.Second, h.D.Jobs().ScrubOffered); err != nil {
		return err
	}
	h.Do(h.D.Jobs().AcceptScrub)
	if err := waitCallableChoices(h, 20*time.Second); err != nil {
		return err
	}
	if err := h.Shot("firsthour-17-light-choices"); err != nil {
		return err
	}
	// Tab onto the primary button: its focus shows.
	for range 8 {
		if err := h.Key("Tab"); err != nil {
			return err
		}
		var primary bool
		h.Do(func() { b, ok := h.Focused().(*widget.Button); primary = ok && b.Importance == widget.HighImportance })
		if primary {
			break
		}
	}
	if err := h.Shot("firsthour-18-light-focus-on-primary"); err != nil {
		return err
	}
	h.Do(ex.CloseCallable)
	return h.Wait("the choices closed", 10*time.Second, func() bool { shown, _ := ex.CallableChoices(); return !shown })
}

func (s *firstHour) lightLookup(h *e2e.Harness) error {
	defer h.Do(func() { h.D.App().UseTheme("") })
	h.Do(h.D.App().SingleLookup)
	if err := h.Shot("firsthour-19-light-lookup"); err != nil {
		return err
	}
	return escapeClosesDialog(h, "the lookup")
}

func (s *firstHour) guide(h *e2e.Harness) error {
	if err := h.Menu("Help", "Getting started"); err != nil {
		return err
	}
	if err := h.Shot("firsthour-20-guide"); err != nil {
		return err
	}
	return escapeClosesDialog(h, "the guide")
}
