//go:build harness

package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

func init() { e2e.Register("messy-drop", runMessyDrop) }

// runMessyDrop drops a county export of the ugly kind on the window (a
// title line above the header, semicolons, 200 columns, blank and repeated
// rows): the drop handler opens the trace wizard; the column is found with
// the pool's search box and dragged onto its field with the real pointer
// while the UI thread's latency is measured; then submit, completion and
// the result in the viewer.
func runMessyDrop(h *e2e.Harness) error {
	a, dir, done, err := shellAndDir(h)
	if err != nil {
		return err
	}
	defer done()
	path := filepath.Join(dir, "county export.csv")
	if err := writeMessyList(path, 1500); err != nil {
		return err
	}

	base := idleLatency()
	h.Logf("UI thread latency, jobs list idle (the baseline on this machine): %s", base)
	h.Do(func() { a.onDropped(fyne.NewPos(300, 300), []fyne.URI{storage.NewFileURI(path)}) })
	var w *wizard.TraceProbe
	if err := h.Wait("the dropped file is read", 60*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && w.Ready()
	}); err != nil {
		return err
	}
	var cols int
	h.Do(func() { cols = w.Columns() })
	if cols != 200 {
		return fmt.Errorf("the wizard found %d columns, want 200", cols)
	}
	if err := h.Shot("messy-01-file"); err != nil {
		return err
	}

	// Map: clear mailing_zip, find its column with the search box, drag it
	// back with the real pointer.
	h.Do(func() { w.Tab(1); w.Choose(mapping.MailingZip, "") })
	var found bool
	h.Do(func() { found = w.Find("mail z") })
	if !found {
		return errors.New("no search box for 200 columns")
	}
	if err := h.Shot("messy-02-find"); err != nil {
		return err
	}
	h.Do(func() { w.Reveal(mapping.MailingZip) })
	chip, slot := w.Chip("MAIL ZIP"), w.Slot(mapping.MailingZip)
	if chip == nil || slot == nil {
		return errors.New("no MAIL ZIP chip or mailing_zip slot")
	}
	if err := h.Settle(); err != nil { // the recount and the preview redraw after the change
		return err
	}
	idle := idleLatency()
	var err2 error
	busy := uiLatency(func() { err2 = h.Drag(chip, slot) })
	if err2 != nil {
		return err2
	}
	h.Logf("200-column board, UI thread latency idle: %s; while dragging: %s", idle, busy)
	if err := h.Wait("the drop mapped mailing_zip", 10*time.Second, func() bool {
		return w.Mapping()[mapping.MailingZip] == "MAIL ZIP" && !w.Submit().Disabled()
	}); err != nil {
		return err
	}
	h.Do(func() { w.Find("") })
	if err := h.Shot("messy-03-dropped"); err != nil {
		return err
	}
	h.Do(func() { w.Tab(2) })
	if err := h.Shot("messy-04-options"); err != nil {
		return err
	}

	return submitMessyAndView(h, w)
}

// submitMessyAndView submits the mapped file, pays, waits for the new
// trace to complete and download, and opens its result in the viewer.
func submitMessyAndView(h *e2e.Harness, w *wizard.TraceProbe) error {
	known := map[string]bool{}
	h.Do(func() {
		for _, j := range h.Shell.JobsShown() {
			known[j.ID] = true
		}
	})
	if err := submitAndPay(h, w.Submit(), w.Pay, w.Closed, ""); err != nil {
		return err
	}
	var job workflow.Job
	if err := h.Wait("the job completed and its result downloaded", 120*time.Second, func() bool {
		for _, j := range h.Shell.JobsShown() {
			if !known[j.ID] && j.Kind == jobs.KindTrace {
				job = j
			}
		}
		return w.Closed() && job.Status == "completed" && job.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, job.Status)
	}
	opened := make(chan error, 1)
	h.Do(func() { h.Shell.OpenJobResult(job.ID, func(err error) { opened <- err }) })
	if err := <-opened; err != nil {
		return err
	}
	if err := h.Wait("the viewer shows the result's rows", 30*time.Second, func() bool { return h.Shell.ViewerRows() == job.Rows }); err != nil {
		return err
	}
	return h.Shot("messy-05-result")
}

// writeMessyList writes an owner list as county exports come: a title line
// above the header, semicolons, 200 columns with the ten needed ones
// scattered among long-named others, a blank row every 50 and a repeated
// last row.
func writeMessyList(path string, rows int) error {
	headers := make([]string, 200)
	for i := range headers {
		if i%3 == 0 {
			headers[i] = fmt.Sprintf("Extra Column Number %03d With A Rather Long Name", i)
		} else {
			headers[i] = fmt.Sprintf("Col%d", i)
		}
	}
	core := map[int]string{5: "OWNER 1 FIRST", 17: "OWNER 1 LAST", 40: "SITUS ADDR", 41: "SITUS CITY", 42: "SITUS ST", 43: "SITUS ZIP5",
		120: "MAIL ADDR", 121: "MAIL CITY", 150: "MAIL STATE", 199: "MAIL ZIP"}
	for i, h := range core {
		headers[i] = h
	}
	firsts := []string{"JOHN", "MARY", "ACME HOLDINGS LLC", "Peter", "JOSÉ", "ANNA", "BLUE SKY TRUST", "Li"}
	lasts := []string{"SMITH", "JONES", "", "Parker", "GARCÍA", "Müller", "", "Wei"}
	var b strings.Builder
	b.WriteString("County Tax Roll Export;;;Generated 2024-05-01\n")
	b.WriteString(strings.Join(headers, ";") + "\n")
	var row []string
	for r := 0; r < rows; r++ {
		row = make([]string, len(headers))
		if r%50 != 0 {
			for i := range row {
				row[i] = fmt.Sprintf("v%d_%d", r, i)
			}
			k := r % len(firsts)
			row[5], row[17] = firsts[k], lasts[k]
			row[40], row[41], row[42], row[43] = fmt.Sprintf("%d MAIN ST", r+1), "AUSTIN", "TX", fmt.Sprintf("7870%d", r%10)
			row[120], row[121], row[150], row[199] = fmt.Sprintf("PO BOX %d", r), "AUSTIN", "TX", "78701"
		}
		b.WriteString(strings.Join(row, ";") + "\n")
	}
	b.WriteString(strings.Join(row, ";") + "\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// latency is how long the UI thread took to answer, sampled every 20 ms.
type latency []time.Duration

func (l latency) String() string {
	if len(l) == 0 {
		return "no samples"
	}
	s := append(latency(nil), l...)
	slices.Sort(s)
	q := func(p float64) time.Duration { return s[int(p*float64(len(s)-1))].Round(100 * time.Microsecond) }
	return fmt.Sprintf("median %s, 95th percentile %s, worst %s (%d samples)", q(0.5), q(0.95), q(1), len(s))
}

// uiLatency runs f while it measures the UI thread's answers.
// idleLatency is the UI thread's latency over a second in which the
// script does nothing: the sleep is the measurement's window.
func idleLatency() latency { return uiLatency(func() { time.Sleep(time.Second) }) }

func uiLatency(f func()) latency {
	stop := make(chan struct{})
	var got latency
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			t0 := time.Now()
			fyne.DoAndWait(func() {})
			got = append(got, time.Since(t0))
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return got
}
