//go:build harness

package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/keys"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// submitAndPay clicks a wizard's Submit — the first click leads to the
// review, the second asks before paying — and, when it asks, shoots the
// question as shot (when not "") and clicks Pay. closed reports the wizard
// gone (nothing charged: no question).
func submitAndPay(h *e2e.Harness, submit *widget.Button, pay func() *keys.Button, closed func() bool, shot string) error {
	asked := func() bool {
		p := pay()
		return (p != nil && p.Visible()) || closed()
	}
	for try := 0; try < 2; try++ {
		if err := h.Wait("Submit can be pressed", 20*time.Second, func() bool { return asked() || !submit.Disabled() }); err != nil {
			return err
		}
		var done bool
		h.Do(func() { done = asked() })
		if done {
			break
		}
		if err := h.Click(submit); err != nil {
			return err
		}
	}
	if err := h.Wait("Submit asks before paying", 20*time.Second, asked); err != nil {
		return err
	}
	var p *keys.Button
	h.Do(func() { p = pay() })
	if p == nil {
		return nil
	}
	if shot != "" {
		if err := h.Shot(shot); err != nil {
			return err
		}
	}
	return h.Click(p)
}

func init() { e2e.Register("first-hour", runFirstHour) }

// runFirstHour: a list damaged by Excel (ZIP codes without their zero,
// rows without an address) is dropped on the window; the wizard offers the
// repairs, prices without the rows left out, and asks once before paying;
// then a phone list with many invalid numbers: all listed or "and N more",
// left out before paying.
func runFirstHour(h *e2e.Harness) error {
	a, dir, done, err := shellAndDir(h)
	if err != nil {
		return err
	}
	defer done()
	// Nothing used yet, in the light theme: the credits bar reads empty.
	h.Do(func() { a.applyTheme(settings.ThemeLight) })
	if err := h.Wait("the plan's bar is shown", 20*time.Second, func() bool { return a.header.subBar.Visible() && a.header.subBar.text != "" }); err != nil {
		return err
	}
	if err := h.Shot("firsthour-00-light-nothing-used"); err != nil {
		return err
	}
	h.Do(func() { a.applyTheme(a.settings().Theme) })
	if err := firstHourRepairs(h, a, dir); err != nil {
		return err
	}
	if err := firstHourInvalidPhones(h, a, dir); err != nil {
		return err
	}
	if err := firstHourServerAway(h, a, dir); err != nil {
		return err
	}
	if err := firstHourExport(h, a); err != nil {
		return err
	}
	if err := firstHourKeyboardOpen(h, a); err != nil {
		return err
	}
	if err := firstHourLight(h, a); err != nil {
		return err
	}
	// Help > Getting started, closed with Escape.
	h.Do(a.showGuide)
	if err := h.Shot("firsthour-20-guide"); err != nil {
		return err
	}
	if err := h.Key("Escape"); err != nil {
		return err
	}
	return h.Wait("Escape closed the guide", 10*time.Second, func() bool { return a.win.Canvas().Overlays().Top() == nil })
}

// firstHourExport: the trace exported twice, from the keyboard: the save
// dialog offers a name in the export folder and Enter saves there; the
// second time the person types the first file's name, and is asked before
// it is replaced. Escape closes the message.
func firstHourExport(h *e2e.Harness, a *App) error {
	var trace workflow.Job
	if err := h.Wait("the trace's result is downloaded", 90*time.Second, func() bool {
		for _, j := range h.Shell.JobsShown() {
			if j.Kind == jobs.KindTrace && j.ResultPath != "" {
				trace = j
				return true
			}
		}
		return false
	}); err != nil {
		return err
	}
	h.Do(func() { h.Shell.ShowJobs(trace.ID) })
	first, err := exportOnce(h, a, func() error { return h.Shot("firsthour-12-save-dialog") }, nil, "")
	if err != nil {
		return err
	}
	// The name of the file saved first, typed over the one offered; the
	// question over the save dialog: its Yes is reached with Tab (No, then
	// Yes) and pressed with Space.
	typeFirst := func() error {
		if err := h.Key("ctrl+a"); err != nil {
			return err
		}
		return h.Type(filepath.Base(first))
	}
	replace := func() error {
		if err := h.Wait("asked before replacing the file", 10*time.Second, func() bool {
			return a.exports.saving && len(a.win.Canvas().Overlays().List()) >= 2
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
	again, err := exportOnce(h, a, typeFirst, replace, "firsthour-14-export-saved")
	if err == nil && again != first {
		err = fmt.Errorf("the second export went to %s, not over the first, %s", again, first)
	}
	return err
}

// exportOnce exports the selected job to Excel: before runs in the save
// dialog, Enter saves, then confirm (when not nil) answers a question. The
// Saved message is shot as shot (when not "") with its OK focused from the
// keyboard, and closed with Escape. It returns where the export went.
func exportOnce(h *e2e.Harness, a *App, before, confirm func() error, shot string) (string, error) {
	if err := h.Click(a.jobs.xlsxBtn); err != nil {
		return "", err
	}
	if err := h.Wait("the save dialog asks where", 20*time.Second, func() bool { return a.exports.saving }); err != nil {
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
	var saved string
	if err := h.Wait("the export is saved", 60*time.Second, func() bool { saved = a.exports.saved; return saved != "" }); err != nil {
		return "", err
	}
	h.Logf("saved %s", saved)
	if strings.Contains(filepath.Base(saved), ".csv") || filepath.Dir(saved) != a.exports.outputDir() {
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
	if err := h.Key("Escape"); err != nil {
		return "", err
	}
	return saved, h.Wait("Escape closed the message", 10*time.Second, func() bool { return a.exports.saved == "" })
}

// pressKeys presses each key in turn.
func pressKeys(h *e2e.Harness, names ...string) error {
	for _, k := range names {
		if err := h.Key(k); err != nil {
			return err
		}
	}
	return nil
}

// firstHourKeyboardOpen: Ctrl+O asks for a result with the focus in its
// path field; the trace's result is typed and opened with Enter; sorted,
// its rows keep their numbers in the file; its Close button closes it.
func firstHourKeyboardOpen(h *e2e.Harness, a *App) error {
	var trace workflow.Job
	for _, j := range h.Shell.JobsShown() {
		if j.Kind == jobs.KindTrace && j.ResultPath != "" {
			trace = j
		}
	}
	if err := h.Key("ctrl+o"); err != nil {
		return err
	}
	var path *keys.Entry
	if err := h.Wait("the path field has the focus", 10*time.Second, func() bool {
		path, _ = a.win.Canvas().Focused().(*keys.Entry)
		return path != nil
	}); err != nil {
		return err
	}
	if err := h.Type(trace.ResultPath); err != nil {
		return err
	}
	if err := h.Shot("firsthour-15-open-typed"); err != nil {
		return err
	}
	if err := h.Key("Return"); err != nil {
		return err
	}
	var v *viewer
	if err := h.Wait("the result opens", 30*time.Second, func() bool {
		v = a.viewers[a.tabs.Selected()]
		return v != nil && v.table != nil && v.indexed
	}); err != nil {
		return err
	}
	h.Do(func() { v.mode.SetSelected(modeColumns) })
	// Sorted by the last column, descending.
	col := len(v.headers) - 1
	h.Do(func() { v.onHeaderTapped(col); v.onHeaderTapped(col) })
	if err := h.Wait("sorted: the first row is not the file's first", 20*time.Second, func() bool {
		return v.q.Desc && v.view.Len() > 0 && v.view.RowIndex(0) != 0
	}); err != nil {
		return err
	}
	if err := h.Shot("firsthour-16-sorted-row-numbers"); err != nil {
		return err
	}
	h.Do(func() { a.closeViewer(v.item) })
	return h.Wait("Close closed the result", 10*time.Second, func() bool { return len(a.viewers) == 0 })
}

// firstHourLight: in the light theme, the callable list's choices (boxes
// and hints readable), the focus on the primary button, and the single
// lookup's form.
func firstHourLight(h *e2e.Harness, a *App) error {
	h.Do(func() { a.applyTheme(settings.ThemeLight) })
	defer h.Do(func() { a.applyTheme(a.settings().Theme) })
	var trace workflow.Job
	for _, j := range h.Shell.JobsShown() {
		if j.Kind == jobs.KindTrace && j.ResultPath != "" {
			trace = j
		}
	}
	h.Do(func() {
		a.jobs.selectJob(trace.ID)
		a.jobs.export(trace, true)
	})
	// Its phones not scrubbed yet, the scrub is offered first.
	if err := h.Wait("the scrub offered first", 20*time.Second, func() bool { return a.jobs.scrubAsk != nil }); err != nil {
		return err
	}
	h.Do(func() { a.jobs.scrubAsk.Confirm() })
	if err := h.Wait("the callable list's choices", 20*time.Second, func() bool { return a.exports.callableAsk != nil }); err != nil {
		return err
	}
	if err := h.Shot("firsthour-17-light-choices"); err != nil {
		return err
	}
	// Tab onto the primary button: its focus shows.
	var focused fyne.Focusable
	for range 8 {
		if err := h.Key("Tab"); err != nil {
			return err
		}
		h.Do(func() { focused = a.win.Canvas().Focused() })
		if b, ok := focused.(*widget.Button); ok && b.Importance == widget.HighImportance {
			break
		}
	}
	if err := h.Shot("firsthour-18-light-focus-on-primary"); err != nil {
		return err
	}
	h.Do(func() { a.exports.callableAsk.Hide() })
	if err := h.Wait("the choices closed", 10*time.Second, func() bool { return a.exports.callableAsk == nil }); err != nil {
		return err
	}
	h.Do(func() { a.Flows.SingleLookup() })
	if err := h.Shot("firsthour-19-light-lookup"); err != nil {
		return err
	}
	if err := h.Key("Escape"); err != nil {
		return err
	}
	return h.Wait("Escape closed the lookup", 10*time.Second, func() bool { return a.win.Canvas().Overlays().Top() == nil })
}

// firstHourRepairs: the trace wizard's repairs and the question before
// paying.
func firstHourRepairs(h *e2e.Harness, a *App, dir string) error {
	path := filepath.Join(dir, "owners from excel.csv")
	var b strings.Builder
	b.WriteString("First Name,Last Name,Property Address,Property City,Property State,Property Zip\r\n")
	towns := []struct{ city, st, zip string }{{"Hoboken", "NJ", "7030"}, {"Boston", "MA", "2108"}, {"Austin", "TX", "78701"}, {"Newark", "NJ", "7102"}}
	for i := range 40 {
		street := fmt.Sprintf("%d Elm St", 10+i)
		if i%9 == 4 {
			street = ""
		}
		tw := towns[i%len(towns)]
		fmt.Fprintf(&b, "Owner%d,Smith%d,%s,%s,%s,%s\r\n", i, i, street, tw.city, tw.st, tw.zip)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return err
	}
	h.Do(func() { a.onDropped(fyne.NewPos(300, 300), []fyne.URI{storage.NewFileURI(path)}) })
	var w *wizard.TraceProbe
	if err := h.Wait("the dropped list is read and priced", 60*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && w.Ready()
	}); err != nil {
		return err
	}
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
	if err := h.Shot("firsthour-01-review-repairs-on"); err != nil {
		return err
	}
	h.Do(w.ShowCost)
	if err := h.Shot("firsthour-02-review-cost"); err != nil {
		return err
	}
	if err := submitAndPay(h, w.Submit(), w.Pay, w.Closed, "firsthour-03-confirm-pay"); err != nil {
		return err
	}
	if err := h.Wait("the wizard closed and the trace is listed", 60*time.Second, func() bool {
		return w.Closed() && slices.ContainsFunc(h.Shell.JobsShown(), func(j workflow.Job) bool { return j.Kind == jobs.KindTrace })
	}); err != nil {
		return err
	}
	return h.Shot("firsthour-04-submitted")
}

// firstHourInvalidPhones: a scrub's invalid numbers listed and left out.
func firstHourInvalidPhones(h *e2e.Harness, a *App, dir string) error {
	path := filepath.Join(dir, "call list.csv")
	var b strings.Builder
	b.WriteString("Name,Phone\r\n")
	for i := range 60 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "Lead %d,555-01%02d\r\n", i, i) // seven digits: invalid
		} else {
			fmt.Fprintf(&b, "Lead %d,(212) 555-%04d\r\n", i, 1000+i)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return err
	}
	h.Do(func() { a.Flows.NewDNC(path) }) // as "DNC scrub" does once the file is picked
	var d *wizard.DNCProbe
	if err := h.Wait("the phone list is read", 60*time.Second, func() bool {
		d = wizard.LastDNC()
		return d != nil && d.Ready() && d.LeaveOutInvalid() != nil
	}); err != nil {
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

// firstHourServerAway: the sandbox goes away; the header says so with the
// time of the last good refresh, a wizard opened meanwhile says the cost
// waits for the server; when it is back both recover by themselves.
func firstHourServerAway(h *e2e.Harness, a *App, dir string) error {
	sb, ok := a.svc.Sessions.(interface{ SandboxServer() *sandbox.Server })
	if !ok || sb.SandboxServer() == nil {
		return errors.New("no embedded sandbox to unplug")
	}
	srv := sb.SandboxServer()
	if err := srv.Unplug(); err != nil {
		return err
	}
	h.Do(func() { a.refreshNow() })
	if err := h.Wait("the header says the server is away", 60*time.Second, func() bool { return a.header.Offline() != "" }); err != nil {
		return err
	}
	if err := h.Shot("firsthour-08-offline-header"); err != nil {
		return err
	}
	path := filepath.Join(dir, "owners from excel.csv")
	h.Do(func() { a.Flows.NewTrace(path) })
	var w *wizard.TraceProbe
	if err := h.Wait("the wizard says the cost waits for the server", 60*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && !w.Closed() && strings.Contains(w.CostNote(), "can't be reached")
	}); err != nil {
		return err
	}
	h.Do(func() { w.ShowCost() })
	if err := h.Shot("firsthour-09-wizard-server-away"); err != nil {
		return err
	}
	if err := srv.Replug(); err != nil {
		return err
	}
	if err := h.Wait("priced by itself once the server is back", 60*time.Second, func() bool {
		return strings.HasPrefix(w.CostTotal(), "Total:")
	}); err != nil {
		return err
	}
	if err := h.Wait("the header's banner gone", 60*time.Second, func() bool { return a.header.Offline() == "" }); err != nil {
		return err
	}
	h.Do(func() { w.ShowCost() })
	if err := h.Shot("firsthour-10-server-back"); err != nil {
		return err
	}
	// Escape closes the wizard.
	if err := h.Key("Escape"); err != nil {
		return err
	}
	if err := h.Wait("Escape closed the wizard", 10*time.Second, w.Closed); err != nil {
		return err
	}
	return h.Shot("firsthour-11-escape-closed")
}
