//go:build harness

package ui

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

func init() { e2e.Register("first-hour-2", runFirstHour2) }

// runFirstHour2: Settings at 1024×680 and the default size in both themes;
// a column of parcel numbers dropped on "Property city" warned; a trace
// opened before its phones are scrubbed; its callable list asked for — the
// scrub offered first, priced, then the list written by itself when the
// scrub completes — while the open result refreshes; the people view
// exported in words and read back.
func runFirstHour2(h *e2e.Harness) error {
	a, dir, done, err := shellAndDir(h)
	if err != nil {
		return err
	}
	defer done()
	if err := settingsAtSizes(h, a); err != nil {
		return err
	}
	if err := parcelsOnCity(h, a, dir); err != nil {
		return err
	}
	trace, err := traceForCallable(h, a, dir)
	if err != nil {
		return err
	}
	v, err := openTraceResult(h, a, trace)
	if err != nil {
		return err
	}
	if err := callableInOneGo(h, a, trace, v); err != nil {
		return err
	}
	return peopleExportReadBack(h, a, v)
}

// settingsAtSizes opens Settings at 1024×680 and the default size, in the
// light and the dark theme: nothing out of place, each shot.
func settingsAtSizes(h *e2e.Harness, a *App) error {
	defer h.Do(func() {
		a.applyTheme(a.settings().Theme)
		a.win.Resize(fyne.NewSize(1180, 760))
	})
	for _, size := range []fyne.Size{{Width: 1024, Height: 680}, {Width: 1180, Height: 760}} {
		for _, th := range []string{settings.ThemeLight, settings.ThemeDark} {
			h.Do(func() {
				a.applyTheme(th)
				a.win.Resize(size)
			})
			if err := h.Wait("the window's size", 10*time.Second, func() bool { return a.win.Canvas().Size() == size }); err != nil {
				h.Logf("the window is %v, not %v (no window manager to resize it)", a.win.Canvas().Size(), size)
			}
			var f *settingsForm
			h.Do(func() {
				f = a.newSettingsForm()
				f.dialog.Show()
			})
			var msg string
			if err := h.Wait("Settings laid out", 10*time.Second, func() bool { msg = f.outOfPlace(); return msg == "" }); err != nil {
				return fmt.Errorf("the settings at %v×%v, %s theme: %s", size.Width, size.Height, th, msg)
			}
			if err := h.Shot(fmt.Sprintf("firsthour2-01-settings-%vx%v-%s", size.Width, size.Height, th)); err != nil {
				return err
			}
			if err := h.Key("Escape"); err != nil {
				return err
			}
			if err := h.Wait("Escape closed Settings", 10*time.Second, func() bool { return a.win.Canvas().Overlays().Top() == nil }); err != nil {
				return err
			}
		}
	}
	return nil
}

// parcelsOnCity: a column of parcel numbers chosen for "Property city" is
// warned beside the field, with how many and examples.
func parcelsOnCity(h *e2e.Harness, a *App, dir string) error {
	path := filepath.Join(dir, "county parcels.csv")
	var b strings.Builder
	b.WriteString("Owner First,Owner Last,Site Address,APN,City,State,Zip\r\n")
	for i := range 30 {
		fmt.Fprintf(&b, "Owner%d,Lee%d,%d Oak St,%03d-%02d-%04d,Austin,TX,787%02d\r\n", i, i, 10+i, 800+i, 10+i, 4000+i, i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return err
	}
	h.Do(func() { a.onDropped(fyne.NewPos(300, 300), []fyne.URI{storage.NewFileURI(path)}) })
	var w *wizard.TraceProbe
	if err := h.Wait("the parcel list is read", 60*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && w.Ready() && !w.Closed()
	}); err != nil {
		return err
	}
	h.Do(func() {
		w.Tab(1) // the mapping, where the warning shows beside the field
		w.Choose(mapping.PropertyCity, "APN")
		w.Reveal(mapping.PropertyCity)
	})
	if err := h.Wait("the city warned", 20*time.Second, func() bool {
		return strings.Contains(w.Problems(), "865") || strings.Contains(w.Problems(), "Property city")
	}); err != nil {
		return fmt.Errorf("%w: the problems read %q", err, w.Problems())
	}
	h.Logf("problems: %s", w.Problems())
	if err := h.Shot("firsthour2-02-parcels-on-city-warned"); err != nil {
		return err
	}
	if err := h.Key("Escape"); err != nil {
		return err
	}
	return h.Wait("Escape closed the wizard", 10*time.Second, w.Closed)
}

// traceForCallable traces a small list and waits for its result.
func traceForCallable(h *e2e.Harness, a *App, dir string) (workflow.Job, error) {
	path := filepath.Join(dir, "owners to call.csv")
	var b strings.Builder
	b.WriteString("First Name,Last Name,Property Address,Property City,Property State,Property Zip\r\n")
	towns := []struct{ city, st, zip string }{{"Austin", "TX", "78701"}, {"Tampa", "FL", "33602"}, {"Denver", "CO", "80202"}}
	for i := range 24 {
		tw := towns[i%len(towns)]
		fmt.Fprintf(&b, "Owner%d,Garcia%d,%d Pine St,%s,%s,%s\r\n", i, i, 100+i, tw.city, tw.st, tw.zip)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return workflow.Job{}, err
	}
	h.Do(func() { a.onDropped(fyne.NewPos(300, 300), []fyne.URI{storage.NewFileURI(path)}) })
	var w *wizard.TraceProbe
	if err := h.Wait("the list is read and priced", 60*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && w.Ready() && !w.Closed()
	}); err != nil {
		return workflow.Job{}, err
	}
	if err := submitAndPay(h, w.Submit(), w.Pay, w.Closed, ""); err != nil {
		return workflow.Job{}, err
	}
	var trace workflow.Job
	err := h.Wait("the trace's result is downloaded", 90*time.Second, func() bool {
		i := slices.IndexFunc(h.Shell.JobsShown(), func(j workflow.Job) bool {
			return j.Kind == jobs.KindTrace && j.ResultPath != "" && strings.HasPrefix(j.Name, "owners to call")
		})
		if i >= 0 {
			trace = h.Shell.JobsShown()[i]
		}
		return i >= 0
	})
	return trace, err
}

// openTraceResult opens the trace's result in the people view: its
// phones are "not scrubbed", unmatched owners named as the list names them.
func openTraceResult(h *e2e.Harness, a *App, trace workflow.Job) (*viewer, error) {
	h.Do(func() { a.openViewer(trace.ResultPath, trace.Name) })
	var v *viewer
	if err := h.Wait("the result is open and read", 30*time.Second, func() bool {
		for _, x := range a.viewers {
			if x.res.Path() == trace.ResultPath && x.indexed && x.people {
				v = x
			}
		}
		return v != nil
	}); err != nil {
		return nil, err
	}
	if err := h.Shot("firsthour2-03-result-before-scrub"); err != nil {
		return nil, err
	}
	return v, nil
}

// callableInOneGo: "Export callable list" of the unscrubbed trace asks
// first to scrub, with the price; then the list's options and where it
// goes; the scrub is paid; when it completes the list is written by
// itself, and the open result shows the scrub's answers.
func callableInOneGo(h *e2e.Harness, a *App, trace workflow.Job, v *viewer) error {
	h.Do(func() {
		h.Shell.ShowJobs(trace.ID)
		a.jobs.export(trace, true)
	})
	if err := h.Wait("the scrub is offered first", 30*time.Second, func() bool { return a.jobs.scrubAsk != nil }); err != nil {
		return err
	}
	if err := h.Shot("firsthour2-04-callable-asks-scrub-first"); err != nil {
		return err
	}
	h.Do(func() { a.jobs.scrubAsk.Confirm() })
	if err := h.Wait("the callable list's options", 20*time.Second, func() bool { return a.exports.callableAsk != nil }); err != nil {
		return err
	}
	h.Do(func() { a.exports.callableAsk.Confirm() })
	if err := h.Wait("the save dialog asks where", 20*time.Second, func() bool { return a.exports.saving }); err != nil {
		return err
	}
	if err := h.Key("Return"); err != nil {
		return err
	}
	var d *wizard.DNCProbe
	if err := h.Wait("the scrub's wizard is priced", 60*time.Second, func() bool {
		d = wizard.LastDNC()
		return d != nil && d.Ready() && !d.Closed()
	}); err != nil {
		return err
	}
	if err := submitAndPay(h, d.Submit(), d.Pay, d.Closed, "firsthour2-05-scrub-pay"); err != nil {
		return err
	}
	var saved string
	if err := h.Wait("the callable list is written by itself", 120*time.Second, func() bool { saved = a.exports.saved; return saved != "" }); err != nil {
		h.Do(func() {
			h.Logf("waiting: scrubs %v, lists %v, jobs %+v", a.jobs.scrubParents, a.jobs.finish, h.Shell.JobsShown())
		})
		_ = h.Shot("firsthour2-06-callable-not-written")
		return err
	}
	h.Logf("callable list %s", saved)
	if err := h.Shot("firsthour2-06-callable-written"); err != nil {
		return err
	}
	if err := h.Key("Escape"); err != nil {
		return err
	}
	if err := h.Wait("Escape closed the message", 10*time.Second, func() bool { return a.exports.saved == "" }); err != nil {
		return err
	}
	h.Do(func() { a.tabs.Select(v.item) })
	if err := h.Wait("the open result shows the scrub's answers", 30*time.Second, func() bool {
		return !v.quick[jobs.QuickCallable].Disabled() && v.res.Len() > 0 && scrubbedRow(v)
	}); err != nil {
		return err
	}
	return h.Shot("firsthour2-07-result-refreshed-after-scrub")
}

// scrubbedRow: some phone of the result reads a scrub's answer.
func scrubbedRow(v *viewer) bool {
	for i := 0; i < min(v.res.Len(), 50); i++ {
		row := v.res.Person(i)
		for _, p := range row.Phones {
			if s, _ := p.StateWords(); s != "not scrubbed" && s != "invalid number" {
				return true
			}
		}
	}
	return false
}

// peopleExportReadBack exports the people view to CSV and reads it back:
// its header is the view's words; the file opens in a tab of its own.
func peopleExportReadBack(h *e2e.Harness, a *App, v *viewer) error {
	h.Do(func() { v.onExport(".csv") })
	if err := h.Wait("the save dialog asks where", 20*time.Second, func() bool { return a.exports.saving }); err != nil {
		return err
	}
	if err := h.Key("Return"); err != nil {
		return err
	}
	var saved string
	if err := h.Wait("the people view is exported", 60*time.Second, func() bool { saved = a.exports.saved; return saved != "" }); err != nil {
		return err
	}
	if err := h.Key("Escape"); err != nil {
		return err
	}
	f, err := os.Open(saved)
	if err != nil {
		return err
	}
	defer f.Close()
	head, err := csv.NewReader(f).Read()
	if err != nil {
		return fmt.Errorf("%s: %w", saved, err)
	}
	head[0] = strings.TrimPrefix(head[0], "\ufeff")
	h.Logf("people export header: %s", strings.Join(head, " | "))
	if len(head) < 5 || !slices.Equal(head[:5], []string{"Owner", "Property address", "Phone 1", "Phone 1 type", "Phone 1 status"}) {
		return errors.New("the people view's export has the header " + strings.Join(head, ","))
	}
	h.Do(func() { a.openViewer(saved, "") })
	var back *viewer
	if err := h.Wait("the export opens", 30*time.Second, func() bool {
		for _, x := range a.viewers {
			if x.res.Path() == saved && x.indexed {
				back = x
			}
		}
		return back != nil
	}); err != nil {
		return err
	}
	h.Do(func() { back.mode.SetSelected(modeColumns) })
	return h.Shot("firsthour2-08-people-export-read-back")
}
