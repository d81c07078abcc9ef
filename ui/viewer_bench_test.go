package ui

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/library/libtest"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

var (
	benchOnce sync.Once
	benchPath string
	benchErr  error
)

// result400k is a 400,000-row trace result (26 columns, ~72 MB), made once
// per run in a temporary folder.
func result400k(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "skipdesk-viewer-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchPath = filepath.Join(dir, "owners 400k result.csv")
		benchErr = libtest.WriteTraceFile(benchPath, 400_000, 1)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath
}

// BenchmarkViewerFirstPage400k opens a 400k-row result the way the window
// does (workflow.OpenResult, then the viewer tab) and draws the first page of the
// table (every visible cell's UpdateCell, rendered by the test driver), then
// waits for the whole file to be read into the viewer's store. It reports
// both times and the heap the open viewer holds against the file's size.
func BenchmarkViewerFirstPage400k(b *testing.B) {
	path := result400k(b)
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	a := test.NewTempApp(b)
	w := test.NewTempWindow(b, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1180, 760))
	fb := signedIn()
	app := New(a, w, fb.services(), testOptions())
	app.session = workflow.Session{Sandbox: true}
	app.buildMain()
	w.SetContent(app.main)
	d, err := workflow.Open(workflow.Config{Home: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { app.Close(); d.Close() })

	var held float64
	var first, indexed time.Duration
	b.ReportAllocs()
	for b.Loop() {
		before := libtest.HeapBytes()
		start := time.Now()
		res, err := d.Results().OpenResult(b.Context(), path, nil)
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan error, 1)
		var v *viewer
		onUI(func() {
			v = app.showViewer(res, "owners 400k")
			v.onIndexed = func(err error) { done <- err }
			_ = w.Canvas().Capture() // lays out and draws the visible cells
		})
		first = time.Since(start)
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		indexed = time.Since(start)
		onUI(func() {
			if v.view.Len() != 400_000 || v.view.Cell(0, 0) == "" {
				b.Fatalf("viewer shows %d rows", v.view.Len())
			}
		})
		held = float64(libtest.HeapBytes() - before)
		onUI(func() {
			app.tabs.Remove(v.item)
			delete(app.viewers, v.item)
			v.close()
		})
	}
	b.ReportMetric(first.Seconds()*1000, "ms-first-page")
	b.ReportMetric(indexed.Seconds()*1000, "ms-indexed")
	b.ReportMetric(held/1e6, "MB-held")
	b.ReportMetric(float64(info.Size())/1e6, "MB-file")
	b.ReportMetric(held/float64(info.Size()), "x-file")
}
