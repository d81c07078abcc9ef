//go:build harness

package e2e

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// Steps several tests take.

// submitAndPay clicks a wizard's Submit — the first click leads to the
// review, the second asks before paying — and, when it asks, shoots the
// question as shot (when not "") and clicks Pay. closed reports the wizard
// gone (nothing charged: no question).
func submitAndPay(h *e2e.Harness, submit *widget.Button, pay func() *keys.Button, closed func() bool, shot string) error {
	asked := func() bool {
		p := pay()
		return (p != nil && p.Visible()) || closed()
	}
	for range 2 {
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

// payTrace submits and pays the trace wizard shown.
func payTrace(h *e2e.Harness, w e2e.TraceWizard, shot string) error {
	return submitAndPay(h, w.Submit(), w.Pay, w.Closed, shot)
}

// payDNC submits and pays the DNC scrub shown.
func payDNC(h *e2e.Harness, d e2e.DNCWizard, shot string) error {
	return submitAndPay(h, d.Submit(), d.Pay, d.Closed, shot)
}

// traceWizard waits for the trace wizard to be open and ready (what names
// the wait); more, when not nil, must hold too.
func traceWizard(h *e2e.Harness, what string, timeout time.Duration, more func(e2e.TraceWizard) bool) (e2e.TraceWizard, error) {
	return readyWizard(h, what, timeout, h.D.TraceWizard, more)
}

// dncWizard is traceWizard's for the DNC scrub.
func dncWizard(h *e2e.Harness, what string, timeout time.Duration, more func(e2e.DNCWizard) bool) (e2e.DNCWizard, error) {
	return readyWizard(h, what, timeout, h.D.DNCWizard, more)
}

// readyWizard waits until open returns a wizard that is ready and for which
// more, when not nil, holds; it returns that wizard.
func readyWizard[W interface{ Ready() bool }](h *e2e.Harness, what string, timeout time.Duration, open func() W, more func(W) bool) (W, error) {
	var w W
	err := h.Wait(what, timeout, func() bool {
		w = open()
		return any(w) != nil && w.Ready() && (more == nil || more(w))
	})
	return w, err
}

// dropTrace drops the list at path on the window and waits for the trace
// wizard it opens, as traceWizard does.
func dropTrace(h *e2e.Harness, path, what string, more func(e2e.TraceWizard) bool) (e2e.TraceWizard, error) {
	h.Do(func() { h.D.App().Drop(path) })
	return traceWizard(h, what, 60*time.Second, more)
}

// exportCallable selects the job in the jobs list and presses "Export
// callable list".
func exportCallable(h *e2e.Harness, id string) error {
	h.Do(func() { h.D.Jobs().Select(id) })
	return h.Press("Export callable list")
}

// searchLibrary types q into the Library tab's search box.
func searchLibrary(h *e2e.Harness, q string) error {
	if err := h.ShowTab("Library"); err != nil {
		return err
	}
	return h.Fill("Search every downloaded result", q)
}

// windowSize is the window's canvas size.
func windowSize(h *e2e.Harness) fyne.Size {
	var s fyne.Size
	h.Do(func() { s = h.Window.Canvas().Size() })
	return s
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

// saveOffered waits for the save dialog and presses Enter: the name it
// offers, in the export folder.
func saveOffered(h *e2e.Harness) error {
	if err := h.Wait("the save dialog asks where", 20*time.Second, h.D.Exports().SaveAsking); err != nil {
		return err
	}
	return h.Key("Return")
}

// waitSaved waits for the "Saved" message and returns the file it names.
func waitSaved(h *e2e.Harness, what string, timeout time.Duration) (string, error) {
	var saved string
	err := h.Wait(what, timeout, func() bool { saved = h.D.Exports().Saved(); return saved != "" })
	return saved, err
}

// closeSaved closes the "Saved" message with Escape.
func closeSaved(h *e2e.Harness) error {
	if err := h.Key("Escape"); err != nil {
		return err
	}
	return h.Wait("Escape closed the message", 10*time.Second, func() bool { return h.D.Exports().Saved() == "" })
}

// waitCallableChoices waits for the callable list's choices.
func waitCallableChoices(h *e2e.Harness, timeout time.Duration) error {
	return h.Wait("the callable list's choices", timeout, func() bool { shown, _ := h.D.Exports().CallableChoices(); return shown })
}

// escapeClosesDialog presses Escape and waits for no dialog to show.
func escapeClosesDialog(h *e2e.Harness, what string) error {
	if err := h.Key("Escape"); err != nil {
		return err
	}
	return h.Wait("Escape closed "+what, 10*time.Second, func() bool { return !h.DialogShown() })
}

// job is the job id as the list shows it ("" none).
func job(h *e2e.Harness, match func(workflow.Job) bool) workflow.Job {
	for _, j := range h.D.Jobs().Shown() {
		if match(j) {
			return j
		}
	}
	return workflow.Job{}
}

// waitJobResult waits until the job is completed and its result (whose
// file name holds named) downloaded.
func waitJobResult(h *e2e.Harness, id, named string, timeout time.Duration) (workflow.Job, error) {
	var j workflow.Job
	err := h.Wait("job "+id+" completed and downloaded", timeout, func() bool {
		j = job(h, func(j workflow.Job) bool { return j.ID == id })
		return j.Status == jobs.StatusCompleted && j.ResultPath != "" && strings.Contains(filepath.Base(j.ResultPath), named)
	})
	return j, err
}

// openJobResult opens the job's result from the jobs list and waits for
// the viewer to show its rows rows.
func openJobResult(h *e2e.Harness, id string, rows int, timeout time.Duration) error {
	opened := make(chan error, 1)
	h.Do(func() { h.D.Jobs().OpenResult(id, func(err error) { opened <- err }) })
	if err := <-opened; err != nil {
		return err
	}
	return h.Wait("the viewer shows the result's rows", timeout, func() bool { return h.D.Viewer().Rows() == rows })
}

// tempDir is a temporary folder for a suite's files, removed when the
// suite ends.
func tempDir(h *e2e.Harness, name string) (string, error) {
	dir, err := os.MkdirTemp("", "skipdesk-e2e-"+name+"-")
	if err == nil {
		h.Cleanup(func() { os.RemoveAll(dir) })
	}
	return dir, err
}

// writeCSV writes a CSV of header and rows made by row(i), CRLF ended.
func writeCSV(path, header string, n int, row func(i int) string) error {
	var b strings.Builder
	b.WriteString(header + "\r\n")
	for i := range n {
		b.WriteString(row(i) + "\r\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

func readAll(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

func writeAll(path string, recs [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.WriteAll(recs)
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
