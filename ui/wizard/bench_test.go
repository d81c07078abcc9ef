package wizard

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// wideFile is a 200-column file: the ten trace columns among 190 others.
func wideFile() ([]string, [][]string) {
	headers := append([]string(nil), traceHeaders...)
	for i := len(headers); i < 200; i++ {
		headers = append(headers, fmt.Sprintf("Vendor Field %03d", i))
	}
	rows := make([][]string, 20)
	for r := range rows {
		row := make([]string, len(headers))
		for c := range row {
			row[c] = fmt.Sprintf("value %d/%d", r, c)
		}
		copy(row, traceRows[r%len(traceRows)])
		rows[r] = row
	}
	return headers, rows
}

// BenchmarkBoardMappingChange: one mapping change on a 200-column board
// (validation, the slots, the group problems and the 200 chips' states).
func BenchmarkBoardMappingChange(b *testing.B) {
	headers, rows := wideFile()
	bd, _ := boardWindow(b, headers, rows, fyne.NewSize(1280, 900))
	bd.setMapping(fullMapping(), nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			bd.assign(mapping.LastName, headers[100+i%100])
		} else {
			bd.assign(mapping.LastName, "Last Name")
		}
	}
}

// BenchmarkTraceMappingChange: the same change in the whole wizard (the
// board, both previews, the estimate, the recount scheduling).
func BenchmarkTraceMappingChange(b *testing.B) {
	headers, rows := wideFile()
	f := newFake(headers, rows)
	w := newWindow(b, fyne.NewSize(1280, 900))
	tr := newTrace(w, f, testEnv, nil)
	path := fakeFile(b, f, "wide.csv")
	act(func() {
		w.SetContent(tr.root)
		tr.open(path)
	})
	tr.bg.Wait(context.Background())
	act(func() {
		tr.tabs.SelectIndex(1)
		// Measure the change as the user feels it: not the re-reading of the
		// file nor the preview redraw, both deferred until changes pause.
		tr.env.RecountDelay, tr.env.PreviewDelay = time.Hour, time.Hour
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		act(func() {
			if i%2 == 0 {
				tr.board.assign(mapping.LastName, headers[100+i%100])
			} else {
				tr.board.assign(mapping.LastName, "Last Name")
			}
		})
	}
	b.StopTimer()
	act(tr.cancel)
}

// BenchmarkBoardDrop: a whole drag and drop of a chip onto a slot with the
// test driver (drag events, the ghost, the hit-test, the change).
func BenchmarkBoardDrop(b *testing.B) {
	headers, rows := wideFile()
	bd, w := boardWindow(b, headers, rows, fyne.NewSize(1280, 900))
	bd.setMapping(fullMapping(), nil)
	target := bd.slotByK[mapping.LastName].card
	chips := []*chip{bd.pool[1], bd.pool[12]}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dragTo(w.Canvas(), chips[i%2], target)
	}
	b.StopTimer()
	if bd.m[mapping.LastName] != chips[(b.N-1)%2].header {
		b.Fatalf("last_name = %q after the drops", bd.m[mapping.LastName])
	}
}

// BenchmarkPreviewRefresh: a redraw of the preview grid of a 200-column
// file (done once mapping changes pause).
func BenchmarkPreviewRefresh(b *testing.B) {
	test.NewTempApp(b)
	headers, rows := wideFile()
	ins := &input.Inspection{Headers: headers, Sample: rows, Rows: len(rows)}
	n := 0
	tbl := previewTable(ins, func(h string) string { return fmt.Sprintf("%s -> key%d", h, n%2) })
	w := test.NewTempWindow(b, tbl)
	w.Resize(fyne.NewSize(1280, 400))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n++
		tbl.Refresh()
	}
}

// BenchmarkTraceOpenToPrice: a list dropped on the window until its price
// is shown (read, mapped, counted; the rates already in), with the app's
// own delays. The list is $SKIPDESK_BENCH_LIST (bench/quote.sh makes a
// 50 MB one: bench/out/inspect-owners-50mb.csv).
func BenchmarkTraceOpenToPrice(b *testing.B) {
	path := os.Getenv("SKIPDESK_BENCH_LIST")
	if path == "" {
		b.Skip("SKIPDESK_BENCH_LIST names no list (bench/quote.sh makes one)")
	}
	f := newFake(traceHeaders, traceRows)
	w := newWindow(b, fyne.NewSize(1280, 900))
	env := DefaultEnv()
	env.Do, env.PreviewDelay = testEnv.Do, 0 // the previews' redraw is not the price
	for i := 0; i < b.N; i++ {
		tr := newTrace(w, f, env, nil)
		act(func() {
			w.SetContent(tr.root)
			tr.open(path)
		})
		if err := tr.bg.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		var priced bool
		act(func() { priced = tr.counts.Fits(tr.plan()) && strings.HasPrefix(tr.costTotal.Text, "Total: ") })
		if !priced {
			b.Fatalf("not priced: %q", tr.costTotal.Text)
		}
		act(tr.cancel)
	}
}
