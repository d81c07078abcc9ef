package export

import (
	"bufio"
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

func reportSize(b *testing.B, path string, rows int) {
	if info, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(info.Size())/1e6, "MB-out")
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/1e6, "MB-sys")
	if hwm := libtest.PeakRSS(); hwm > 0 {
		// The process's high-water mark: run one benchmark per process
		// (bench/export.sh does) for it to mean that benchmark's peak.
		b.ReportMetric(hwm, "MB-peakRSS")
	}
}

func BenchmarkExport400k(b *testing.B) { benchExport(b, "out.xlsx") }

func BenchmarkExportCSV400k(b *testing.B) { benchExport(b, "out.csv") }

// benchExport exports the benchmarks' result to a file of that name.
func benchExport(b *testing.B, name string) {
	src := libtest.BenchTraceFile(b)
	dst := filepath.Join(b.TempDir(), name)
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		rep, err := Export(context.Background(), src, dst, Options{})
		if err != nil {
			b.Fatal(err)
		}
		rows = rep.Rows
	}
	reportSize(b, dst, rows)
}

// naiveExport is the baseline: excelize's StreamWriter used the plain way,
// a fresh []interface{} of strings per row, default settings.
func naiveExport(src, dst string) (int, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	cr := csv.NewReader(bufio.NewReader(in))
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return 0, err
	}
	row := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		vals := make([]interface{}, len(rec))
		for i, v := range rec {
			vals[i] = v
		}
		row++
		cell, _ := excelize.CoordinatesToCellName(1, row)
		if err := sw.SetRow(cell, vals); err != nil {
			return 0, err
		}
	}
	if err := sw.Flush(); err != nil {
		return 0, err
	}
	return row - 1, f.SaveAs(dst)
}

func BenchmarkNaiveExcelize400k(b *testing.B) {
	src := libtest.BenchTraceFile(b)
	dst := filepath.Join(b.TempDir(), "naive.xlsx")
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		n, err := naiveExport(src, dst)
		if err != nil {
			b.Fatal(err)
		}
		rows = n
	}
	reportSize(b, dst, rows)
}

// BenchmarkExportSortedView400k exports the viewer's view sorted by last
// name: rows are read back one by one in that order.
func BenchmarkExportSortedView400k(b *testing.B) {
	src := libtest.BenchTraceFile(b)
	r, err := library.OpenResult(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Sort(slices.Index(r.Headers(), "last_name"), false); err != nil {
		b.Fatal(err)
	}
	perm := r.Permutation()
	r.Close()
	dst := filepath.Join(b.TempDir(), "sorted.xlsx")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Export(context.Background(), src, dst, Options{Rows: perm}); err != nil {
			b.Fatal(err)
		}
	}
	reportSize(b, dst, len(perm))
}
