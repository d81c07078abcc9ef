//go:build harness

package ui

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

func init() { e2e.Register("library-reuse", runLibraryReuse) }

// runLibraryReuse traces the sample list, then opens the trace wizard on a
// list that repeats some of its owners: the cost section offers to skip
// them and reuse their results (reuse-01), the choice lowers the total
// (reuse-02); the job's result holds every row (reuse-03). Then the
// library's search finds a phone of the first result and the hit opens the
// viewer at its row (reuse-04, reuse-05).
func runLibraryReuse(h *e2e.Harness) error {
	a, err := shellApp(h)
	if err != nil {
		return err
	}
	if !a.Session().Sandbox {
		return errors.New("not the app in the sandbox: run with no key stored (SKIPDESK_HOME empty)")
	}
	h.Do(func() { a.win.Resize(fyne.NewSize(1180, 760)) })
	first, sample, err := traceSample(h, a)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "skipdesk-e2e-reuse-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	again, rows, err := writeRepeats(sample, filepath.Join(dir, "county-export-december.csv"))
	if err != nil {
		return err
	}
	id, err := offerAndSubmit(h, a, again, first.ID)
	if err != nil {
		return err
	}
	if err := showMerged(h, a, id, rows); err != nil {
		return err
	}
	return searchAndOpen(h, a, first)
}

// traceSample traces the bundled sample list and waits for its result.
func traceSample(h *e2e.Harness, a *App) (workflow.Job, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sample, err := h.Shell.SampleList()
	if err != nil {
		return workflow.Job{}, "", err
	}
	ins, err := a.svc.Trace.Inspect(ctx, sample, input.Options{})
	if err != nil {
		return workflow.Job{}, "", err
	}
	auto := workflow.Suggest(ins, jobs.KindTrace).Mapping()
	res, err := a.svc.Trace.Submit(ctx, workflow.Plan{Kind: jobs.KindTrace, Path: sample, Mapping: auto, Mode: jobs.ModeNormal},
		ins, workflow.SubmitOptions{Again: true})
	if err != nil {
		return workflow.Job{}, "", fmt.Errorf("submit: %w", err)
	}
	first, err := waitJobResult(h, a, res.JobID, "")
	return first, sample, err
}

// writeRepeats writes a list of 40 owners of the sample, written in
// capitals, and 10 new ones; it returns its data rows.
func writeRepeats(sample, path string) (string, int, error) {
	src, err := readAll(sample)
	if err != nil {
		return "", 0, err
	}
	list := [][]string{src[0]}
	for i := 1; i <= 40; i++ {
		r := append([]string(nil), src[i]...)
		r[0], r[1], r[2] = strings.ToUpper(r[0]), strings.ToUpper(r[1]), strings.ToUpper(r[2])
		list = append(list, r)
	}
	for i := 0; i < 10; i++ {
		r := append([]string(nil), src[100+i]...)
		r[2] = "8" + r[2]
		list = append(list, r)
	}
	return path, len(list) - 1, writeAll(path, list)
}

// offerAndSubmit opens the wizard on the list, shows the offer (reuse-01),
// takes it (reuse-02) and submits; it returns the new job's id.
func offerAndSubmit(h *e2e.Harness, a *App, path, firstID string) (string, error) {
	h.Do(func() { a.NewTrace(path) })
	var w *wizard.TraceProbe
	if err := h.Wait("the wizard counted the list against the library", 60*time.Second, func() bool {
		w = wizard.LastTrace()
		return w != nil && w.Ready() && w.Reuse() != nil
	}); err != nil {
		return "", err
	}
	h.Do(w.ShowReview) // the savings are on the review before paying
	if err := h.Settle(); err != nil {
		return "", err
	}
	var offer, before string
	h.Do(func() { offer, before = w.Reuse().Text, w.Summary() })
	h.Logf("offer: %s", offer)
	if !strings.Contains(offer, "traced before") || !strings.Contains(offer, "saves") {
		return "", fmt.Errorf("the offer reads %q", offer)
	}
	if err := toggleReuse(h, w, before); err != nil {
		return "", err
	}
	if err := submitAndPay(h, w.Submit(), w.Pay, w.Closed, ""); err != nil {
		return "", err
	}
	if err := h.Wait("the wizard closed", 30*time.Second, w.Closed); err != nil {
		return "", err
	}
	var id string
	err := h.Wait("the new job in the list", 20*time.Second, func() bool {
		for _, j := range h.Shell.JobsShown() {
			if j.ID != firstID && j.ID != "" {
				id = j.ID
				return true
			}
		}
		return false
	})
	return id, err
}

// toggleReuse checks that the reuse of the rows traced before is on by
// default (it saves money and loses nothing), then turns it off (the
// whole list is priced) and on again (the total of before).
func toggleReuse(h *e2e.Harness, w *wizard.TraceProbe, before string) error {
	// Reusing earlier traces saves money and loses nothing: it is on by
	// default; turned off, the whole list is priced; on again, not.
	var on bool
	h.Do(func() { on = w.Reuse().Checked })
	if !on {
		return errors.New("the reuse of the rows traced before is not on by default")
	}
	if err := h.Shot("reuse-01-offer"); err != nil {
		return err
	}
	if err := h.Click(w.Reuse()); err != nil {
		return err
	}
	if err := h.Wait("the total with the rows traced before", 10*time.Second, func() bool {
		return !w.Reuse().Checked && w.Ready() && w.Summary() != before
	}); err != nil {
		return err
	}
	if err := h.Click(w.Reuse()); err != nil {
		return err
	}
	if err := h.Wait("the total without the rows traced before", 10*time.Second, func() bool {
		return w.Reuse().Checked && w.Ready() && w.Summary() == before
	}); err != nil {
		return err
	}
	if err := h.Shot("reuse-02-chosen"); err != nil {
		return err
	}
	return nil
}

// showMerged waits for the job's merged result and shows its source
// columns in the viewer (reuse-03).
func showMerged(h *e2e.Harness, a *App, id string, want int) error {
	merged, err := waitJobResult(h, a, id, "(merged)")
	if err != nil {
		return err
	}
	rows, err := readAll(merged.ResultPath)
	if err != nil {
		return err
	}
	if len(rows)-1 != want || rows[0][len(rows[0])-3] != "source" {
		return fmt.Errorf("the merged result %s has %d rows (want %d) and columns %v", merged.ResultPath, len(rows)-1, want, rows[0])
	}
	h.Do(func() { h.Shell.OpenJobResult(id, func(error) {}) })
	if err := h.Wait("the merged result in the viewer", 20*time.Second, func() bool { return h.Shell.ViewerRows() == want }); err != nil {
		return err
	}
	// The file's last columns say where each row's data came from.
	h.Do(func() {
		if v, ok := a.viewers[a.tabs.Selected()]; ok {
			v.mode.SetSelected(modeColumns)
			v.table.ScrollTo(widget.TableCellID{Row: 0, Col: len(v.headers) - 1})
			v.table.Refresh()
		}
	})
	return h.Shot("reuse-03-merged")
}

// searchAndOpen searches the library for a phone of the first result,
// written as a person types it (reuse-04), and opens the hit: the viewer
// at its row (reuse-05).
func searchAndOpen(h *e2e.Harness, a *App, first workflow.Job) error {
	old, err := readAll(first.ResultPath)
	if err != nil {
		return err
	}
	phone, row := "", 0
	col := slices.Index(old[0], "phone_1")
	for i := len(old) - 1; i > 150 && phone == "" && col >= 0; i-- {
		if len(old[i][col]) == 10 {
			phone, row = old[i][col], i
		}
	}
	if phone == "" {
		return errors.New("no phone in the first result")
	}
	q := "(" + phone[:3] + ") " + phone[3:6] + "-" + phone[6:]
	lib := a.library
	h.Do(func() {
		a.tabs.SelectIndex(1)
		lib.search_.SetText(q)
	})
	hit := -1
	if err := h.Wait("the search hits", 20*time.Second, func() bool {
		for i, it := range lib.items {
			if it.Row == row && it.Path == first.ResultPath {
				hit = i
				return true
			}
		}
		return false
	}); err != nil {
		return err
	}
	if err := h.Shot("reuse-04-search"); err != nil {
		return err
	}
	h.Do(func() { lib.list.Select(hit) })
	if err := h.Wait("the viewer at the hit's row", 20*time.Second, func() bool {
		v, ok := a.viewers[a.tabs.Selected()]
		return ok && v.res.Path() == first.ResultPath && v.indexed && v.table.Size().Height > 0
	}); err != nil {
		return err
	}
	h.Logf("phone %s found at row %d of %s", q, row, filepath.Base(first.ResultPath))
	return h.Shot("reuse-05-viewer-at-row")
}

// waitJobResult waits until the job is completed and its result (whose file
// name holds named) downloaded.
func waitJobResult(h *e2e.Harness, a *App, id, named string) (workflow.Job, error) {
	var job workflow.Job
	err := h.Wait("job "+id+" completed and downloaded", 90*time.Second, func() bool {
		for _, j := range h.Shell.JobsShown() {
			if j.ID == id {
				job = j
			}
		}
		return job.Status == jobs.StatusCompleted && job.ResultPath != "" && strings.Contains(filepath.Base(job.ResultPath), named)
	})
	return job, err
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
