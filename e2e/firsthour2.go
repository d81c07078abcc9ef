//go:build harness

package e2e

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

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// The first hour, part 2: Settings at 1024×680 and the default size in
// both themes; a column of parcel numbers dropped on "Property city"
// warned; a trace opened before its phones are scrubbed; its callable list
// asked for — the scrub offered first, priced, then the list written by
// itself when the scrub completes — while the open result refreshes; the
// people view exported in words and read back.
func init() {
	s := &firstHour2{}
	e2e.Suite("first-hour-2",
		e2e.T("Settings are laid out at 1024×680 and the default size, in both themes", s.settingsAtSizes),
		e2e.T("parcel numbers chosen for the property city are warned beside the field", s.parcelsOnCity),
		e2e.T("a trace's result shows its phones not scrubbed", s.resultBeforeScrub),
		e2e.T("the callable list of an unscrubbed trace offers the scrub first", s.callableAsksScrub),
		e2e.T("once the scrub completes the callable list is written by itself", s.callableWritten),
		e2e.T("the open result shows the scrub's answers", s.resultRefreshed),
		e2e.T("the people view exports in its words and reads back", s.peopleExport),
	)
}

type firstHour2 struct {
	dir   string
	trace workflow.Job
}

// defaultSize is the window's size at start.
var defaultSize = fyne.NewSize(1180, 760)

func (s *firstHour2) settingsAtSizes(h *e2e.Harness) error {
	var err error
	if s.dir, err = tempDir(h, "firsthour2"); err != nil {
		return err
	}
	app := h.D.App()
	defer h.Do(func() {
		app.UseTheme("")
		h.Window.Resize(defaultSize)
	})
	for _, size := range []fyne.Size{{Width: 1024, Height: 680}, defaultSize} {
		for _, th := range []string{settings.ThemeLight, settings.ThemeDark} {
			if err := settingsAt(h, size, th); err != nil {
				return err
			}
		}
	}
	return nil
}

// settingsAt opens Settings in a window of size in theme th: nothing out
// of place; shot, then closed with Escape.
func settingsAt(h *e2e.Harness, size fyne.Size, th string) error {
	app := h.D.App()
	h.Do(func() {
		app.UseTheme(th)
		h.Window.Resize(size)
	})
	if err := h.Wait("the window's size", 10*time.Second, func() bool { return h.Window.Canvas().Size() == size }); err != nil {
		h.Logf("the window is %v, not %v (no window manager to resize it)", windowSize(h), size)
	}
	h.Do(app.OpenSettings)
	var msg string
	if err := h.Wait("Settings laid out", 10*time.Second, func() bool { msg = app.SettingsOutOfPlace(); return msg == "" }); err != nil {
		return fmt.Errorf("the settings at %v×%v, %s theme: %s", size.Width, size.Height, th, msg)
	}
	if err := h.Shot(fmt.Sprintf("firsthour2-01-settings-%vx%v-%s", size.Width, size.Height, th)); err != nil {
		return err
	}
	return escapeClosesDialog(h, "Settings")
}

func (s *firstHour2) parcelsOnCity(h *e2e.Harness) error {
	path := filepath.Join(s.dir, "county parcels.csv")
	if err := writeCSV(path, "Owner First,Owner Last,Site Address,APN,City,State,Zip", 30, func(i int) string {
		return fmt.Sprintf("Owner%d,Lee%d,%d Oak St,%03d-%02d-%04d,Austin,TX,787%02d", i, i, 10+i, 800+i, 10+i, 4000+i, i)
	}); err != nil {
		return err
	}
	w, err := dropTrace(h, path, "the parcel list is read", func(w e2e.TraceWizard) bool { return !w.Closed() })
	if err != nil {
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

// resultBeforeScrub traces a small list, waits for its result and opens it
// in the people view: its phones are "not scrubbed", unmatched owners
// named as the list names them.
func (s *firstHour2) resultBeforeScrub(h *e2e.Harness) error {
	path := filepath.Join(s.dir, "owners to call.csv")
	towns := []struct{ city, st, zip string }{{"Austin", "TX", "78701"}, {"Tampa", "FL", "33602"}, {"Denver", "CO", "80202"}}
	if err := writeCSV(path, "First Name,Last Name,Property Address,Property City,Property State,Property Zip", 24, func(i int) string {
		tw := towns[i%len(towns)]
		return fmt.Sprintf("Owner%d,Garcia%d,%d Pine St,%s,%s,%s", i, i, 100+i, tw.city, tw.st, tw.zip)
	}); err != nil {
		return err
	}
	w, err := dropTrace(h, path, "the list is read and priced", func(w e2e.TraceWizard) bool { return !w.Closed() })
	if err != nil {
		return err
	}
	if err := payTrace(h, w, ""); err != nil {
		return err
	}
	if err := h.Wait("the trace's result is downloaded", 90*time.Second, func() bool {
		s.trace = job(h, func(j workflow.Job) bool {
			return j.Kind == jobs.KindTrace && j.ResultPath != "" && strings.HasPrefix(j.Name, "owners to call")
		})
		return s.trace.ID != ""
	}); err != nil {
		return err
	}
	h.Do(func() { h.D.Viewer().Open(s.trace.ResultPath, s.trace.Name) })
	if err := h.Wait("the result is open and read", 30*time.Second, func() bool {
		return slices.ContainsFunc(h.D.Viewer().All(), func(v e2e.ViewerState) bool {
			return v.Path == s.trace.ResultPath && v.Indexed && v.People
		})
	}); err != nil {
		return err
	}
	return h.Shot("firsthour2-03-result-before-scrub")
}

func (s *firstHour2) callableAsksScrub(h *e2e.Harness) error {
	jl, ex := h.D.Jobs(), h.D.Exports()
	if err := exportCallable(h, s.trace.ID); err != nil {
		return err
	}
	if err := h.Wait("the scrub is offered first", 30*time.Second, jl.ScrubOffered); err != nil {
		return err
	}
	if err := h.Shot("firsthour2-04-callable-asks-scrub-first"); err != nil {
		return err
	}
	h.Do(jl.AcceptScrub)
	if err := waitCallableChoices(h, 20*time.Second); err != nil {
		return err
	}
	h.Do(ex.ConfirmCallable)
	if err := saveOffered(h); err != nil {
		return err
	}
	d, err := dncWizard(h, "the scrub's wizard is priced", 60*time.Second, func(d e2e.DNCWizard) bool { return !d.Closed() })
	if err != nil {
		return err
	}
	return payDNC(h, d, "firsthour2-05-scrub-pay")
}

func (s *firstHour2) callableWritten(h *e2e.Harness) error {
	saved, err := waitSaved(h, "the callable list is written by itself", 120*time.Second)
	if err != nil {
		h.Do(func() { h.Logf("waiting: %s", h.D.Jobs().Pending()) })
		_ = h.Shot("firsthour2-06-callable-not-written")
		return err
	}
	h.Logf("callable list %s", saved)
	if err := h.Shot("firsthour2-06-callable-written"); err != nil {
		return err
	}
	return closeSaved(h)
}

func (s *firstHour2) resultRefreshed(h *e2e.Harness) error {
	v := h.D.Viewer()
	h.Do(func() { v.Select(s.trace.ResultPath) })
	if err := h.Wait("the open result shows the scrub's answers", 30*time.Second, func() bool {
		st, _ := v.Selected()
		return st.CallableFilter && st.Rows > 0 && slices.ContainsFunc(st.PhoneStates, func(w string) bool {
			return w != "not scrubbed" && w != "invalid number"
		})
	}); err != nil {
		return err
	}
	return h.Shot("firsthour2-07-result-refreshed-after-scrub")
}

// peopleExport exports the people view to CSV and reads it back: its
// header is the view's words; the file opens in a tab of its own.
func (s *firstHour2) peopleExport(h *e2e.Harness) error {
	h.Do(func() { h.D.Viewer().Export(".csv") })
	if err := saveOffered(h); err != nil {
		return err
	}
	saved, err := waitSaved(h, "the people view is exported", 60*time.Second)
	if err != nil {
		return err
	}
	if err := h.Key("Escape"); err != nil {
		return err
	}
	head, err := csvHeader(saved)
	if err != nil {
		return err
	}
	h.Logf("people export header: %s", strings.Join(head, " | "))
	if len(head) < 5 || !slices.Equal(head[:5], []string{"Owner", "Property address", "Phone 1", "Phone 1 type", "Phone 1 status"}) {
		return errors.New("the people view's export has the header " + strings.Join(head, ","))
	}
	h.Do(func() { h.D.Viewer().Open(saved, "") })
	if err := h.Wait("the export opens", 30*time.Second, func() bool {
		return slices.ContainsFunc(h.D.Viewer().All(), func(v e2e.ViewerState) bool { return v.Path == saved && v.Indexed })
	}); err != nil {
		return err
	}
	h.Do(func() { h.D.Viewer().Select(saved); h.D.Viewer().Columns() })
	return h.Shot("firsthour2-08-people-export-read-back")
}

// csvHeader is a CSV file's first record, without its byte order mark.
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head, err := csv.NewReader(f).Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head[0] = strings.TrimPrefix(head[0], "\ufeff")
	return head, nil
}
