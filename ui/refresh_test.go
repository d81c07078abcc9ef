package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// putInLibrary copies the fixture name into the real service's library
// with the record m.
func putInLibrary(t *testing.T, h *harness, name string, m library.Meta) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "jobs", "layout", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := h.fb.real(t).Library().ResultsDir("")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	b, _ := json.Marshal(m)
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(library.RecordPath(path), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// An open trace result refreshes when a scrub of its phones is downloaded:
// its phones read "not scrubbed" and "Callable" cannot apply; once the
// scrub is in the library, without closing the tab, they read the scrub's
// answers and the filter applies.
func TestOpenResultRefreshesAfterItsScrub(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	now := time.Now()
	trace := putInLibrary(t, h, "skipdesk_trace.csv", library.Meta{JobID: "trc_1", Kind: jobs.KindTrace, Name: "owners.csv", CreatedAt: now.Add(-time.Hour)})
	r := h.fb.openIndexed(t, trace)
	var v *viewer
	h.do(func() { v = h.app.showViewer(r, "owners.csv") })
	h.wait("indexed")
	status := func() string {
		var s string
		h.do(func() {
			row := v.res.Person(0)
			s, _ = row.Phones[0].StateWords()
		})
		return s
	}
	var callableOff bool
	h.do(func() { callableOff = v.quick[jobs.QuickCallable].Disabled() })
	if s := status(); s != "not scrubbed" || !callableOff {
		t.Fatalf("before the scrub: %q, Callable off %v", s, callableOff)
	}
	putInLibrary(t, h, "skipdesk_dnc.csv", library.Meta{JobID: "dnc_1", Kind: jobs.KindDNC, Name: "owners phones.csv", CreatedAt: now,
		ParentTraceID: "trc_1", Scrubbed: &library.GivenDate{Date: now, By: "test", At: now}})
	fb.emit(workflow.Event{Kind: workflow.EventDownloaded, Job: workflow.Job{ID: "dnc_1", Key: "dnc_1", Kind: jobs.KindDNC,
		Name: "owners phones.csv", Status: "completed", CreatedAt: now}})
	h.wait("rechecked")
	h.do(func() { callableOff = v.quick[jobs.QuickCallable].Disabled() })
	if s := status(); !strings.HasPrefix(s, "OK to call") || callableOff {
		t.Fatalf("after the scrub: %q, Callable off %v", s, callableOff)
	}
}
