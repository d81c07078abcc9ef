package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// bigResult is a result of 400 rows: the row a hit names is far below the
// first page.
func bigResult() *memResult {
	r := &memResult{path: "/results/big result.csv", headers: []string{"first_name", "last_name", "phone_1", "match_status"}}
	for i := 1; i <= 400; i++ {
		r.rows = append(r.rows, []string{fmt.Sprintf("Owner%d", i), "Smith", fmt.Sprintf("21255%05d", i), "matched"})
	}
	return r
}

// withBigResult is a signed-in fake whose library holds bigResult, open
// in the viewer as the file written (the file a hit names).
func withBigResult(t *testing.T) (*fakeBackend, *memResult) {
	fb := signedIn()
	res := bigResult()
	fb.addResult(t, res)
	fb.results[res.file] = res
	return fb, res
}

// A search lists the rows found; selecting one opens its result in the
// viewer, scrolled to that row and selected — also when the result is
// already open, filtered and sorted.
func TestLibrarySearchHitOpensTheViewerAtItsRow(t *testing.T) {
	fb, res := withBigResult(t)
	fb.found = map[string][]workflow.LibraryItem{"(212) 550-0150": {{Path: res.file, Name: "big.csv", Kind: jobs.KindTrace,
		Row: 150, Column: "phone_1", Hits: []string{"row 150: Owner150, Smith, 2125500150"}}}}
	h := start(t, fb)
	lib := searchLibrary(h, "(212) 550-0150", 1)
	h.do(func() {
		if !strings.Contains(lib.status.Text, "1 row in 1 result holds") {
			t.Errorf("status %q", lib.status.Text)
		}
	})
	h.do(func() { lib.list.Select(0) })
	h.wait("row 150 shown")
	h.settle() // the result read whole: its table rebuilt for its layout, still at the row
	var v *viewer
	h.do(func() { v = h.app.viewers[h.app.tabs.Selected()] })
	if v == nil {
		t.Fatal("no viewer tab selected")
	}
	h.do(func() {
		if !rowHeaderShown(h, "150") {
			t.Error("row 150 is not on screen")
		}
	})
	// The other view of the rows keeps the row selected in sight.
	h.do(func() {
		if v.mode.Selected == modePeople {
			v.mode.SetSelected(modeColumns)
		} else {
			v.mode.SetSelected(modePeople)
		}
	})
	h.settle()
	h.do(func() {
		if !rowHeaderShown(h, "150") || v.selRow != 149 {
			t.Errorf("after the view changed to %q row 150 is not on screen (selected %d)", v.mode.Selected, v.selRow+1)
		}
	})
	// Filtered and sorted: a hit in it puts it back in the file's order.
	queried := make(chan error, 10)
	h.do(func() { v.onQueried = func(err error) { queried <- err } })
	h.do(func() { v.filter.SetText("Owner3") })
	<-queried
	h.do(func() {
		if v.view.Len() == 400 {
			t.Fatal("the filter did nothing")
		}
		h.app.openViewerAt(res.file, "big.csv", 250)
	})
	h.wait("row 250 shown")
	h.settle()
	h.do(func() {
		if v.view.Len() != 400 || v.filter.Text != "" || !rowHeaderShown(h, "250") {
			t.Errorf("view %d rows, filter %q", v.view.Len(), v.filter.Text)
		}
	})
}

// rowHeaderShown reports whether a row number is among the viewer's row
// headers on screen (UI thread).
func rowHeaderShown(h *harness, n string) bool {
	for _, o := range test.LaidOutObjects(h.win.Canvas().Content()) {
		if c, ok := o.(*headerCell); ok && c.Visible() && c.Text == n {
			return true
		}
	}
	return false
}

// A row found in a teammate's result says whose library it is in; selecting
// it downloads the result here and opens it at the row.
func TestLibraryTeammateHitIsDownloadedThenOpened(t *testing.T) {
	fb, res := withBigResult(t)
	fb.fetchable = map[string]string{"trc_t1": res.file}
	fb.found = map[string][]workflow.LibraryItem{"smith": {{JobID: "trc_t1", Name: "Austin owners.csv", Kind: jobs.KindTrace, Rows: 400,
		Row: 150, Teammate: "front-desk", Hits: []string{"row 150, in front-desk's library"}}}}
	h := start(t, fb)
	lib := searchLibrary(h, "smith", 1)
	if !h.hasText("row 150, in front-desk's library · select to download it here") {
		t.Fatalf("the hit's line: %q", libraryLine(fb.found["smith"][0]))
	}
	screenshot(t, h, "library-teammate-hit.png")
	h.do(func() { lib.list.Select(0) })
	h.wait("row 150 shown")
	fb.mu.Lock()
	fetched := fb.fetched
	fb.mu.Unlock()
	if len(fetched) != 1 || fetched[0] != "trc_t1" {
		t.Fatalf("downloaded %v, want trc_t1 once", fetched)
	}
	h.do(func() {
		if h.app.viewers[h.app.tabs.Selected()] == nil || !rowHeaderShown(h, "150") {
			t.Error("the result is not open at row 150")
		}
	})
}

// searchLibrary types q in the Library tab's search and waits until n
// items are listed.
func searchLibrary(h *harness, q string, n int) *libraryView {
	h.t.Helper()
	lib := h.app.library
	searched := make(chan struct{}, 10)
	h.do(func() {
		lib.onSearched = func() { searched <- struct{}{} }
		h.app.tabs.SelectIndex(1)
		test.Type(lib.search_, q)
	})
	for {
		<-searched
		// The answer to q is shown and no other search is on its way (the
		// tab's own search of the empty box answers too).
		var done bool
		h.do(func() { done = lib.answered == lib.gen && lib.shownQuery == q && len(lib.items) == n })
		if done {
			return lib
		}
	}
}

// An index rebuilt says why in the Library tab, without calling one that
// another version made damaged; the next index event without a rebuild
// takes the bar down.
func TestLibrarySaysWhyTheIndexWasRebuilt(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	why := "made by another version of SkipDesk: schema version 7, this one writes 8"
	fb.emit(workflow.Event{Kind: workflow.EventIndex, Index: &workflow.IndexProgress{Done: true, Rebuilt: why}})
	h.wait("events")
	h.do(func() {
		bar := h.app.library.indexBar
		if !bar.Visible() || !strings.Contains(bar.Text, why) || strings.Contains(bar.Text, "damaged") {
			t.Errorf("the index bar: shown %v, %q", bar.Visible(), bar.Text)
		}
	})
	fb.emit(workflow.Event{Kind: workflow.EventIndex, Index: &workflow.IndexProgress{Done: true}})
	h.wait("events")
	h.do(func() {
		if h.app.library.indexBar.Visible() {
			t.Error("the bar stays after an index event without a rebuild")
		}
	})
}
