package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The callable list of a trace never scrubbed: the scrub is offered, with
// its price, before any other question; then the list's options and where
// it goes; nothing is written until the scrub completes, and then the list
// is written by itself, with those options, where the person said.
func TestCallableOfUnscrubbedTraceAsksFirstThenFinishes(t *testing.T) {
	fb := signedIn(downloaded("trc_1", jobs.KindTrace, "owners.csv", 3))
	fb.scrubFirst = &workflow.ScrubOffer{Phones: 42, Credits: 42}
	h := start(t, fb)
	h.flows.scrubbed = func(traceID string) string { return "dnc_9" }
	h.do(func() { h.app.jobs.selectJob("trc_1") })
	h.tap(h.app.jobs.callableBtn)
	h.wait("scrub-first")
	asked := h.dialogText()
	var choices bool
	h.do(func() { choices = h.app.exports.callableAsk != nil })
	if !strings.Contains(asked, "42 phone numbers") || !strings.Contains(asked, "42 credits") || choices {
		t.Fatalf("asked first: %q (the choices open: %v)", asked, choices)
	}
	h.tap(h.button("Scrub first"))
	h.wait("callable-choices")
	h.tap(h.button("Export"))
	h.save("")
	if f := h.nextFlow(); f != "scrub:trc_1" {
		t.Fatalf("flow %q, want the trace's scrub", f)
	}
	fb.mu.Lock()
	early := len(fb.exported)
	fb.mu.Unlock()
	if early != 0 {
		t.Fatalf("%d files written before the scrub completed", early)
	}
	// Completed, the scrub's result is not here yet: nothing is written.
	dnc := workflow.Job{ID: "dnc_9", Key: "dnc_9", Kind: jobs.KindDNC, Name: "owners phones.csv", Status: "completed", Rows: 42,
		CreatedAt: time.Now()}
	fb.emit(workflow.Event{Kind: workflow.EventCompleted, Job: dnc})
	h.wait("events")
	fb.mu.Lock()
	early = len(fb.exported)
	fb.mu.Unlock()
	if early != 0 {
		t.Fatalf("%d files written before the scrub was downloaded", early)
	}
	dnc.ResultPath = "/results/owners phones.csv"
	fb.emit(workflow.Event{Kind: workflow.EventDownloaded, Job: dnc})
	h.wait("saved")
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.exported) != 1 || len(fb.choices) != 1 || !strings.HasSuffix(fb.exported[0], ".xlsx") {
		t.Fatalf("written %q with %+v", fb.exported, fb.choices)
	}
}
