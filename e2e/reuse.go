//go:build harness

package e2e

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// The sample list traced; then the trace wizard on a list that repeats some
// of its owners: the cost section offers to skip them and reuse their
// results (reuse-01), the choice lowers the total (reuse-02); the job's
// result holds every row (reuse-03). Then the library's search finds a
// phone of the first result and the hit opens the viewer at its row
// (reuse-04, reuse-05).
func init() {
	s := &reuse{}
	e2e.Suite("library-reuse",
		e2e.T("the sample list is traced", s.traceSample),
		e2e.T("a list repeating owners traced before offers to reuse them, on by default", s.offer),
		e2e.T("the reuse turned off prices the whole list, on again the lower total", s.toggle),
		e2e.T("the merged result holds every row and says where each came from", s.merged),
		e2e.T("the library finds a phone as a person types it", s.search),
		e2e.T("the library's hit opens the viewer at its row", s.openHit),
	)
}

type reuse struct {
	first  workflow.Job
	sample string
	rows   int
	w      e2e.TraceWizard
	before string
	id     string
	phone  string
	row    int
	hit    int
}

func (s *reuse) traceSample(h *e2e.Harness) error {
	var sandbox bool
	h.Do(func() { sandbox = h.D.App().Sandbox() })
	if !sandbox {
		return errors.New("not the app in the sandbox: run with no key stored (SKIPDESK_HOME empty)")
	}
	h.Resize(fyne.NewSize(1180, 760))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var err error
	if s.sample, err = h.D.App().SampleList(); err != nil {
		return err
	}
	id, err := h.D.App().Submit(ctx, s.sample, false)
	if err != nil {
		return err
	}
	s.first, err = waitJobResult(h, id, "", 90*time.Second)
	return err
}

// writeRepeats writes a list of 40 owners of the sample, written in
// capitals, and 10 new ones; it returns its data rows.
func writeRepeats(sample, path string) (int, error) {
	src, err := readAll(sample)
	if err != nil {
		return 0, err
	}
	list := [][]string{src[0]}
	for i := 1; i <= 40; i++ {
		r := append([]string(nil), src[i]...)
		r[0], r[1], r[2] = strings.ToUpper(r[0]), strings.ToUpper(r[1]), strings.ToUpper(r[2])
		list = append(list, r)
	}
	for i := range 10 {
		r := append([]string(nil), src[100+i]...)
		r[2] = "8" + r[2]
		list = append(list, r)
	}
	return len(list) - 1, writeAll(path, list)
}

// offer opens the wizard on the list and shows the offer (reuse-01).
func (s *reuse) offer(h *e2e.Harness) error {
	dir, err := tempDir(h, "reuse")
	if err != nil {
		return err
	}
	again := filepath.Join(dir, "county-export-december.csv")
	if s.rows, err = writeRepeats(s.sample, again); err != nil {
		return err
	}
	h.Do(func() { h.D.App().NewTrace(again) })
	if s.w, err = traceWizard(h, "the wizard counted the list against the library", 60*time.Second, func(w e2e.TraceWizard) bool {
		return w.Reuse() != nil
	}); err != nil {
		return err
	}
	w := s.w
	h.Do(w.ShowReview) // the savings are on the review before paying
	if err := h.Settle(); err != nil {
		return err
	}
	var offer string
	var on bool
	h.Do(func() { offer, s.before, on = w.Reuse().Text, w.Summary(), w.Reuse().Checked })
	h.Logf("offer: %s", offer)
	if !strings.Contains(offer, "traced before") || !strings.Contains(offer, "saves") {
		return fmt.Errorf("the offer reads %q", offer)
	}
	// Reusing earlier traces saves money and loses nothing: it is on by
	// default.
	if !on {
		return errors.New("the reuse of the rows traced before is not on by default")
	}
	return h.Shot("reuse-01-offer")
}

// toggle turns the reuse off (the whole list is priced) and on again (the
// total of before), then submits; reuse-02.
func (s *reuse) toggle(h *e2e.Harness) error {
	w := s.w
	if err := h.Click(w.Reuse()); err != nil {
		return err
	}
	if err := h.Wait("the total with the rows traced before", 10*time.Second, func() bool {
		return !w.Reuse().Checked && w.Ready() && w.Summary() != s.before
	}); err != nil {
		return err
	}
	if err := h.Click(w.Reuse()); err != nil {
		return err
	}
	if err := h.Wait("the total without the rows traced before", 10*time.Second, func() bool {
		return w.Reuse().Checked && w.Ready() && w.Summary() == s.before
	}); err != nil {
		return err
	}
	if err := h.Shot("reuse-02-chosen"); err != nil {
		return err
	}
	if err := payTrace(h, w, ""); err != nil {
		return err
	}
	if err := h.Wait("the wizard closed", 30*time.Second, w.Closed); err != nil {
		return err
	}
	return h.Wait("the new job in the list", 20*time.Second, func() bool {
		s.id = job(h, func(j workflow.Job) bool { return j.ID != s.first.ID && j.ID != "" }).ID
		return s.id != ""
	})
}

// merged waits for the job's merged result and shows its source columns
// in the viewer (reuse-03).
func (s *reuse) merged(h *e2e.Harness) error {
	merged, err := waitJobResult(h, s.id, "(merged)", 90*time.Second)
	if err != nil {
		return err
	}
	rows, err := readAll(merged.ResultPath)
	if err != nil {
		return err
	}
	if len(rows)-1 != s.rows || rows[0][len(rows[0])-3] != "source" {
		return fmt.Errorf("the merged result %s has %d rows (want %d) and columns %v", merged.ResultPath, len(rows)-1, s.rows, rows[0])
	}
	h.Do(func() { h.D.Jobs().OpenResult(s.id, func(error) {}) })
	if err := h.Wait("the merged result in the viewer", 20*time.Second, func() bool { return h.D.Viewer().Rows() == s.rows }); err != nil {
		return err
	}
	// The file's last columns say where each row's data came from.
	h.Do(h.D.Viewer().ShowLastColumn)
	return h.Shot("reuse-03-merged")
}

// search searches the library for a phone of the first result, written as
// a person types it (reuse-04).
func (s *reuse) search(h *e2e.Harness) error {
	old, err := readAll(s.first.ResultPath)
	if err != nil {
		return err
	}
	col := slices.Index(old[0], "phone_1")
	for i := len(old) - 1; i > 150 && s.phone == "" && col >= 0; i-- {
		if len(old[i][col]) == 10 {
			s.phone, s.row = old[i][col], i
		}
	}
	if s.phone == "" {
		return errors.New("no phone in the first result")
	}
	q := "(" + s.phone[:3] + ") " + s.phone[3:6] + "-" + s.phone[6:]
	lib := h.D.Library()
	if err := searchLibrary(h, q); err != nil {
		return err
	}
	if err := h.Wait("the search hits", 20*time.Second, func() bool {
		s.hit = slices.IndexFunc(lib.Hits(), func(it e2e.LibraryHit) bool { return it.Row == s.row && it.Path == s.first.ResultPath })
		return s.hit >= 0
	}); err != nil {
		return err
	}
	h.Logf("phone %s searched", q)
	return h.Shot("reuse-04-search")
}

// openHit opens the hit: the viewer at its row (reuse-05).
func (s *reuse) openHit(h *e2e.Harness) error {
	h.Do(func() { h.D.Library().Open(s.hit) })
	if err := h.Wait("the viewer at the hit's row", 20*time.Second, func() bool {
		st, ok := h.D.Viewer().Selected()
		return ok && st.Path == s.first.ResultPath && st.Indexed && st.TableHeight > 0
	}); err != nil {
		return err
	}
	h.Logf("phone %s found at row %d of %s", s.phone, s.row, filepath.Base(s.first.ResultPath))
	return h.Shot("reuse-05-viewer-at-row")
}
