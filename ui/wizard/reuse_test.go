package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// earlierDone is when the library's earlier trace completed: 60 days ago.
var earlierDone = time.Now().Add(-60 * 24 * time.Hour).UTC().Truncate(time.Second)

// libraryWithTrace is an application layer whose library holds a trace of
// JOHN SMITH at 1 Main Street (matched) and of MARY JONES (not found).
func libraryWithTrace(t *testing.T) *workflow.Service {
	t.Helper()
	home := t.TempDir()
	svc, err := workflow.Open(workflow.Config{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	lib, err := library.Open(filepath.Join(home, "results"))
	if err != nil {
		t.Fatal(err)
	}
	done := earlierDone
	meta := library.Meta{JobID: "trc_earlier1", Kind: jobs.KindTrace, Name: "october.csv", Mode: jobs.ModeNormal,
		CreatedAt: done.Add(-time.Hour), CompletedAt: done}
	p := lib.PathFor(meta)
	body := "First Name,Last Name,Property Address,Property City,Property State,Property Zip,owner_first_name,owner_last_name,phone_1,phone_1_type,match_status\r\n" +
		"John,Smith,1 Main Street,Austin,TX,78701,John,Smith,5125550101,mobile,matched\r\n" +
		"Mary,Jones,3 Elm Road,Houston,TX,77002,,,,,no_match\r\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lib.Record(meta, p); err != nil {
		t.Fatal(err)
	}
	return svc
}

// The review offers to skip the rows traced before, with what it saves,
// on by default (results of the last 90 days); turned off, the total
// rises; the submission carries the choice and the price shown.
func TestTraceOffersToSkipRowsTracedBefore(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.svc = libraryWithTrace(t)
	h := openTrace(t, f)
	tr := h.tr
	act(func() { tr.tabs.SelectIndex(reviewStep) })
	rc := tr.reuseCtl
	if !rc.box.Visible() || !rc.check.Checked || rc.age.Selected != "the last 90 days" {
		t.Fatalf("offer shown %v, ticked %v, age %q", rc.box.Visible(), rc.check.Checked, rc.age.Selected)
	}
	want := "1 row was traced before (newest " + earlierDone.Local().Format("Jan 2, 2006") + "): skip it and reuse its result — saves 1 credit"
	if rc.check.Text != want {
		t.Fatalf("offer %q, want %q", rc.check.Text, want)
	}
	if tr.costTotal.Text != "Total: 1 credit" {
		t.Fatalf("by default: %q", tr.costTotal.Text)
	}
	act(func() { test.Tap(rc.check) })
	h.settle(t)
	if tr.costTotal.Text != "Total: 2 credits" {
		t.Fatalf("turned off: %q", tr.costTotal.Text)
	}
	h.w.Resize(fyne.NewSize(1280, 900))
	saveShot(t, h.w, "trace-reuse-offer")
	act(func() { test.Tap(rc.check) })
	h.settle(t)
	if tr.costTotal.Text != "Total: 1 credit" {
		t.Fatalf("with the choice: %q", tr.costTotal.Text)
	}
	found := false
	for _, l := range tr.costLines {
		found = found || l.Text == "Traced before, reused: 1 row (saves 1 credit)"
	}
	if !found {
		var lines []string
		for _, l := range tr.costLines {
			lines = append(lines, l.Text)
		}
		t.Errorf("no reuse line among %q", lines)
	}
	saveShot(t, h.w, "trace-reuse-chosen")
	// An age the earlier result is past: offered no more, traced again.
	act(func() { rc.age.SetSelected("the last 30 days") })
	h.settle(t)
	if tr.costTotal.Text != "Total: 2 credits" || !rc.check.Disabled() || !strings.Contains(rc.note.Text, "1 row was traced before, longer ago than you allow") {
		t.Fatalf("past the age: %q, %q", tr.costTotal.Text, rc.note.Text)
	}
	act(func() { rc.age.SetSelected("any age") })
	h.settle(t)
	act(func() { tapSubmit(tr.submitBtn, &tr.payBtn) })
	recv(t, h.done, "onDone")
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.submits[0]
	if !s.plan.Reuse || s.plan.ReuseWithin != 0 || s.opts.Quote == nil || s.opts.Quote.Credits != 1 || s.opts.Quote.Reuse.Rows != 1 {
		t.Fatalf("submitted %+v, quote %+v", s.plan, s.opts.Quote)
	}
}
