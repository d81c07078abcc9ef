//go:build harness

package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

func init() { e2e.Register("foreign-results", runForeignResults) }

// e2eNow is the window's clock in the screenshots of calling times: a
// Tuesday, 8:30 p.m. in Texas (its phones may be called until 9).
var e2eNow = time.Date(2026, 12, 1, 20, 30, 0, 0, time.FixedZone("CST", -6*3600))

// callableNow shows the phones of the result in v that may be called at
// e2eNow ("Callable now"), then the same at 9:30 p.m., when none may.
func callableNow(h *e2e.Harness, v *viewer) error {
	now := e2eNow
	h.Do(func() {
		v.sh.opts.Now = func() time.Time { return now }
		v.quick[jobs.QuickCallable].SetChecked(false)
		v.quick[jobs.QuickCallableNow].SetChecked(true)
	})
	if err := h.Wait("callable now", 10*time.Second, func() bool { return v.count.Text == "2 of 4 rows callable now" }); err != nil {
		return fmt.Errorf("%w (%s)", err, v.count.Text)
	}
	if err := h.Shot("layouts-02b-propstream-callable-now"); err != nil {
		return err
	}
	if err := callableChoices(h, v); err != nil {
		return err
	}
	h.Do(func() {
		now = e2eNow.Add(time.Hour)
		v.onMinute()
	})
	if err := h.Wait("callable at 9:30 p.m.", 10*time.Second, func() bool { return v.count.Text == "0 of 4 rows callable now" }); err != nil {
		return fmt.Errorf("%w (%s)", err, v.count.Text)
	}
	if err := h.Shot("layouts-02c-propstream-not-callable-now"); err != nil {
		return err
	}
	h.Do(func() {
		v.quick[jobs.QuickCallableNow].SetChecked(false)
		v.sh.opts.Now = nil
	})
	return nil
}

// callableChoices opens the choices of the callable list of the view
// shown (Export .xlsx with "Callable now"), picks a dialer's columns and
// "right now", takes its screenshot and closes it without exporting.
func callableChoices(h *e2e.Harness, v *viewer) error {
	h.Do(func() { v.onExport(".xlsx") })
	ex := v.exports
	if err := h.Wait("the callable list's choices and its dialers", 20*time.Second, func() bool {
		return ex.callableAsk != nil && len(ex.callableLayouts.presets) > 0
	}); err != nil {
		return err
	}
	h.Do(func() {
		ex.callableLayouts.sel.SetSelected("REISift")
		ex.callableWhen.sel.SetSelected(rightNow)
	})
	if err := h.Shot("layouts-02d-propstream-callable-choices"); err != nil {
		return err
	}
	h.Do(func() { ex.callableAsk.Hide() })
	return nil
}

// runForeignResults imports results written by other services (the files
// of jobs/layout/testdata, named by SKIPDESK_E2E_FIXTURES) into the
// library as a person would, with screenshots of the people-and-phones
// view of two of them, of the callable phones of one, and of a layout the
// person corrects.
func runForeignResults(h *e2e.Harness) error {
	dir := os.Getenv("SKIPDESK_E2E_FIXTURES")
	if dir == "" {
		return errors.New("SKIPDESK_E2E_FIXTURES is not set: it names the folder jobs/layout/testdata")
	}
	a, err := shellApp(h)
	if err != nil {
		return err
	}
	h.Do(func() { a.win.Resize(fyne.NewSize(1280, 760)) })
	v, err := importShown(h, a, filepath.Join(dir, "propstream.csv"), 4)
	if err != nil {
		return err
	}
	if err := h.Shot("layouts-01-propstream"); err != nil {
		return err
	}
	h.Do(func() { v.quick[jobs.QuickCallable].SetChecked(true) })
	if err := h.Wait("callable only", 10*time.Second, func() bool { return v.count.Text == "2 of 4 rows" }); err != nil {
		return fmt.Errorf("%w (%s)", err, v.count.Text)
	}
	if err := h.Shot("layouts-02-propstream-callable"); err != nil {
		return err
	}
	if err := callableNow(h, v); err != nil {
		return err
	}
	if _, err := importShown(h, a, filepath.Join(dir, "dealmachine.csv"), 3); err != nil {
		return err
	}
	if err := h.Shot("layouts-03-dealmachine"); err != nil {
		return err
	}

	// A scrub SkipDesk is not sure how to read: the person says.
	v, err = importShown(h, a, filepath.Join(dir, "invented_scrub.csv"), 5)
	if err != nil {
		return err
	}
	if err := h.Shot("layouts-04-unsure"); err != nil {
		return err
	}
	h.Do(v.onCheckColumns)
	if err := h.Wait("the correction dialog", 20*time.Second, func() bool { return v.fixing != nil }); err != nil {
		return err
	}
	var blank *valueFix
	h.Do(func() {
		for _, f := range v.fixing.values {
			if f.column == "Known Litigator" && f.value == "" {
				blank = f
			}
		}
	})
	if blank == nil {
		return errors.New(`the dialog offers no reading of a blank "Known Litigator"`)
	}
	h.Do(func() { blank.choice.SetSelected("Not on the list") })
	if err := h.Shot("layouts-05-correction"); err != nil {
		return err
	}
	h.Do(func() { v.fixing.dialog.Confirm() })
	if err := h.Wait("read again", 20*time.Second, func() bool {
		return v.fixing == nil && v.res.Layout().Sure() && strings.HasSuffix(v.count.Text, "rows")
	}); err != nil {
		return err
	}
	return h.Shot("layouts-06-corrected")
}

// importShown imports path into the library and waits for its viewer with
// rows rows.
func importShown(h *e2e.Harness, a *App, path string, rows int) (*viewer, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	h.Do(func() { a.library.importResult(path) })
	// The file's answers were scrubbed yesterday, as the person says.
	if err := h.Wait("the scrub date question", 20*time.Second, func() bool { return a.library.scrubAsk != nil }); err != nil {
		return nil, err
	}
	h.Do(func() {
		a.library.scrubAsk.entry.SetText(time.Now().AddDate(0, 0, -1).Format(time.DateOnly))
		a.library.scrubAsk.dialog.Confirm()
	})
	var v *viewer
	err := h.Wait("the viewer of "+name, 20*time.Second, func() bool {
		v = a.viewers[a.tabs.Selected()]
		return v != nil && strings.Contains(v.name, name) && v.indexed && v.res.Len() == rows
	})
	if err == nil {
		// The table lays its rows out once it has a size.
		h.Do(func() { v.table.Refresh() })
		time.Sleep(300 * time.Millisecond)
	}
	return v, err
}
