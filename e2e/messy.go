//go:build harness

package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// A county export of the ugly kind (a title line above the header,
// semicolons, 200 columns, blank and repeated rows) dropped on the window:
// the trace wizard opens on it; its column is found with the pool's search
// box and dragged onto its field with the real pointer while the UI
// thread's latency is measured; then submit, completion and the result in
// the viewer.
func init() {
	s := &messy{}
	e2e.Suite("messy-drop",
		e2e.T("a messy county export dropped opens the wizard with its 200 columns", s.drop),
		e2e.T("the search box finds a column among 200", s.find),
		e2e.T("a chip dragged among 200 columns maps its field, the window answering", s.drag),
		e2e.T("the mapped export is traced and its result opens", s.submitAndView),
	)
}

type messy struct {
	w e2e.TraceWizard
}

func (s *messy) drop(h *e2e.Harness) error {
	dir, err := tempDir(h, "messy")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "county export.csv")
	if err := writeMessyList(path, 1500); err != nil {
		return err
	}
	h.Logf("UI thread latency, jobs list idle (the baseline on this machine): %s", idleLatency(h))
	if s.w, err = dropTrace(h, path, "the dropped file is read", nil); err != nil {
		return err
	}
	var cols int
	h.Do(func() { cols = s.w.Columns() })
	if cols != 200 {
		return fmt.Errorf("the wizard found %d columns, want 200", cols)
	}
	return h.Shot("messy-01-file")
}

// find clears mailing_zip and finds its column with the search box.
func (s *messy) find(h *e2e.Harness) error {
	w := s.w
	h.Do(func() { w.Tab(1); w.Choose(mapping.MailingZip, "") })
	var found bool
	h.Do(func() { found = w.Find("mail z") })
	if !found {
		return errors.New("no search box for 200 columns")
	}
	return h.Shot("messy-02-find")
}

// drag drags the column back with the real pointer.
func (s *messy) drag(h *e2e.Harness) error {
	w := s.w
	h.Do(func() { w.Reveal(mapping.MailingZip) })
	chip, slot := w.Chip("MAIL ZIP"), w.Slot(mapping.MailingZip)
	if chip == nil || slot == nil {
		return errors.New("no MAIL ZIP chip or mailing_zip slot")
	}
	if err := h.Settle(); err != nil { // the recount and the preview redraw after the change
		return err
	}
	idle := idleLatency(h)
	var err error
	busy := uiLatency(h, func() { err = h.Drag(chip, slot) })
	if err != nil {
		return err
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
	return h.Shot("messy-04-options")
}

// submitAndView submits the mapped file, pays, waits for the new trace to
// complete and download, and opens its result in the viewer.
func (s *messy) submitAndView(h *e2e.Harness) error {
	w := s.w
	known := map[string]bool{}
	h.Do(func() {
		for _, j := range h.D.Jobs().Shown() {
			known[j.ID] = true
		}
	})
	if err := payTrace(h, w, ""); err != nil {
		return err
	}
	var j workflow.Job
	if err := h.Wait("the job completed and its result downloaded", 120*time.Second, func() bool {
		j = job(h, func(j workflow.Job) bool { return !known[j.ID] && j.Kind == jobs.KindTrace })
		return w.Closed() && j.Status == "completed" && j.ResultPath != ""
	}); err != nil {
		return fmt.Errorf("%w (last status %q)", err, j.Status)
	}
	if err := openJobResult(h, j.ID, j.Rows, 30*time.Second); err != nil {
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
	var b strings.Builder
	b.WriteString("County Tax Roll Export;;;Generated 2024-05-01\n")
	b.WriteString(strings.Join(headers, ";") + "\n")
	var row []string
	for r := 0; r < rows; r++ {
		row = messyRow(r, len(headers))
		b.WriteString(strings.Join(row, ";") + "\n")
	}
	b.WriteString(strings.Join(row, ";") + "\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// messyRow is row r of the messy list: blank every 50.
func messyRow(r, cols int) []string {
	firsts := []string{"JOHN", "MARY", "ACME HOLDINGS LLC", "Peter", "JOSÉ", "ANNA", "BLUE SKY TRUST", "Li"}
	lasts := []string{"SMITH", "JONES", "", "Parker", "GARCÍA", "Müller", "", "Wei"}
	row := make([]string, cols)
	if r%50 == 0 {
		return row
	}
	for i := range row {
		row[i] = fmt.Sprintf("v%d_%d", r, i)
	}
	k := r % len(firsts)
	row[5], row[17] = firsts[k], lasts[k]
	row[40], row[41], row[42], row[43] = fmt.Sprintf("%d MAIN ST", r+1), "AUSTIN", "TX", fmt.Sprintf("7870%d", r%10)
	row[120], row[121], row[150], row[199] = fmt.Sprintf("PO BOX %d", r), "AUSTIN", "TX", "78701"
	return row
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

// idleLatency is the UI thread's latency over a second in which the test
// does nothing. The sleep is the measurement's window, not a wait for
// something to happen.
func idleLatency(h *e2e.Harness) latency { return uiLatency(h, func() { time.Sleep(time.Second) }) }

// uiLatency runs f while it measures the UI thread's answers.
func uiLatency(h *e2e.Harness, f func()) latency {
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
			h.Do(func() {})
			got = append(got, time.Since(t0))
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return got
}
