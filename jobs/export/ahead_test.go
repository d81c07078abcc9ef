package export

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

// generatedCallable writes a generated trace of rows rows and the DNC
// result of its numbers (scrubbed at libtest.ScrubDay, its job record
// beside it).
func generatedCallable(t *testing.T, rows int) (trace, dnc string) {
	t.Helper()
	dir := t.TempDir()
	trace, dnc = filepath.Join(dir, "trace.csv"), filepath.Join(dir, "dnc.csv")
	if err := libtest.WriteTraceFile(trace, rows, 7); err != nil {
		t.Fatal(err)
	}
	if err := libtest.WriteScrubFile(dnc); err != nil {
		t.Fatal(err)
	}
	meta, _ := json.Marshal(library.Meta{JobID: "dnc_gen", Kind: jobs.KindDNC, CompletedAt: libtest.ScrubDay})
	if err := os.WriteFile(library.RecordPath(dnc), meta, 0o600); err != nil {
		t.Fatal(err)
	}
	return trace, dnc
}

// sheetsOf reads every sheet of a workbook, cell by cell.
func sheetsOf(t *testing.T, path string) map[string][][]string {
	t.Helper()
	f := openXLSX(t, path)
	out := map[string][][]string{}
	for _, name := range f.GetSheetList() {
		rows, err := f.GetRows(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = rows
	}
	return out
}

// The rows read through the layout on other cores, in batches, and the
// added columns' values written as shared strings give the very file the
// serial reading with every value in its cell gives: every cell of every
// sheet of the .xlsx, every byte of the .csv, through a preset too, for the whole file,
// a viewer's chosen rows and with filters, the counts and the proof's.
func TestReadAheadAndSharedWordsWriteWhatSerialReadingWrites(t *testing.T) {
	trace, dnc := generatedCallable(t, 12*aheadBatch+17)
	presets, err := dialer.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	reisift, _ := dialer.Find(presets, "reisift")
	rows := make([]int, 0, 2000)
	for i := 2999; i >= 0; i -= 3 {
		rows = append(rows, i)
	}
	cases := map[string]CallableOptions{
		"callable":          {OnlyCallable: true},
		"chosen rows":       {OnlyCallable: true, Rows: rows},
		"not dnc, unknowns": {Filters: []jobs.QuickFilter{jobs.QuickNotDNC, jobs.QuickMobile}, KeepUnknown: true},
		"preset":            {OnlyCallable: true, Preset: reisift},
		"proof":             {OnlyCallable: true, Proof: &Proof{}},
		"callable at":       {OnlyCallable: true, CallableAt: benchNow.Add(2 * time.Hour), Calls: map[string]int{}},
	}
	for name, opts := range cases {
		for _, ext := range []string{".csv", ".xlsx"} {
			t.Run(name+ext, func(t *testing.T) {
				opts.Now = benchNow
				dir := t.TempDir()
				got, want := filepath.Join(dir, "ahead"+ext), filepath.Join(dir, "serial"+ext)
				var reps [2]*Report
				for i, dst := range []string{got, want} {
					o := opts
					o.serialRead, o.inlineWords = i == 1, i == 1
					if o.Proof != nil {
						o.Proof = &Proof{}
					}
					rep, err := ExportCallable(context.Background(), trace, dnc, dst, o)
					if err != nil {
						t.Fatal(err)
					}
					reps[i] = rep
				}
				if reps[0].Rows != reps[1].Rows || reps[0].Rows == 0 {
					t.Fatalf("rows: read ahead %d, serial %d", reps[0].Rows, reps[1].Rows)
				}
				a, b := reps[0].Phones, reps[1].Phones
				if a.Kept != b.Kept || !maps.Equal(a.Left, b.Left) {
					t.Fatalf("phones: read ahead %+v, serial %+v", *a, *b)
				}
				sameExport(t, got, want, ext)
				if ext == ".xlsx" && opts.Preset == nil {
					if n, m := sharedCells(t, got), sharedCells(t, want); n == 0 || m != 0 {
						t.Fatalf("cells referring to shared strings: %d with them, %d without", n, m)
					}
				}
			})
		}
	}
}

// sameExport fails unless two exports hold the same cells (.xlsx, every
// sheet) or bytes (.csv).
func sameExport(t *testing.T, got, want, ext string) {
	t.Helper()
	if ext == ".csv" {
		g, _ := os.ReadFile(got)
		w, _ := os.ReadFile(want)
		if len(g) == 0 || !bytes.Equal(g, w) {
			t.Fatalf("%s differs from %s (%d bytes against %d)", got, want, len(g), len(w))
		}
		return
	}
	g, w := sheetsOf(t, got), sheetsOf(t, want)
	if len(g) != len(w) {
		t.Fatalf("sheets: %d against %d", len(g), len(w))
	}
	for name, rows := range w {
		if !slices.EqualFunc(g[name], rows, slices.Equal) {
			t.Fatalf("sheet %s differs", name)
		}
	}
}

// Closing an export's source before its end stops the reading goroutines
// (nothing is left reading a closed file).
func TestReadAheadStopsWhenClosedEarly(t *testing.T) {
	trace, dnc := generatedCallable(t, 4000)
	ms, err := newMergeSource(context.Background(), trace, []string{dnc}, CallableOptions{OnlyCallable: true, Now: benchNow})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, _, err := ms.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if err := ms.Close(); err != nil {
		t.Fatal(err)
	}
	if !ms.ahead.stopped {
		t.Fatal("the read-ahead was not stopped")
	}
}

// sharedCells counts the cells of the results sheet (the largest sheet)
// that refer to a shared string.
func sharedCells(t *testing.T, path string) int {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var largest *zip.File
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/worksheets/") && (largest == nil || f.UncompressedSize64 > largest.UncompressedSize64) {
			largest = f
		}
	}
	rc, err := largest.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte(` t="s">`))
}
