package export

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

var (
	benchDNCOnce sync.Once
	benchDNCPath string
	benchDNCErr  error
)

// benchDNC is a DNC result of every number the benchmark trace can hold
// (libtest.Phone: 800 area codes × 100 lines), one in ten on the registry,
// scrubbed the day before benchNow.
func benchDNC(b *testing.B) string {
	b.Helper()
	benchDNCOnce.Do(func() {
		benchDNCPath = filepath.Join(os.TempDir(), "skipdesk-bench-dnc-80k.csv")
		if benchDNCErr = libtest.WriteScrubFile(benchDNCPath); benchDNCErr != nil {
			return
		}
		meta, _ := json.Marshal(library.Meta{JobID: "dnc_bench", Kind: jobs.KindDNC, CompletedAt: libtest.ScrubDay})
		benchDNCErr = os.WriteFile(library.RecordPath(benchDNCPath), meta, 0o600)
	})
	if benchDNCErr != nil {
		b.Fatal(benchDNCErr)
	}
	return benchDNCPath
}

var benchNow = libtest.ScrubDay.AddDate(0, 0, 1)

// benchCallable exports the benchmark trace's callable phones with the
// scrub above, through a preset or not, to a file of the extension.
func benchCallable(b *testing.B, preset string, ext string) {
	src, dnc := libtest.BenchTraceFile(b), benchDNC(b)
	opts := CallableOptions{OnlyCallable: true, Now: benchNow}
	if preset != "" {
		ps, err := dialer.Builtin()
		if err != nil {
			b.Fatal(err)
		}
		p, _ := dialer.Find(ps, preset)
		opts.Preset = p
	}
	dst := filepath.Join(b.TempDir(), "callable"+ext)
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		rep, err := ExportCallable(context.Background(), src, dnc, dst, opts)
		if err != nil {
			b.Fatal(err)
		}
		rows = rep.Rows
	}
	b.ReportMetric(float64(rows), "rows-out")
	if n, err := strconv.Atoi(os.Getenv("SKIPDESK_BENCH_ROWS")); err == nil && n > 0 {
		b.ReportMetric(float64(n), "rows-in")
	}
}

// BenchmarkCallable400k is the plain callable export (the result's own
// layout, with each phone's flags and window): the baseline of the presets.
func BenchmarkCallable400k(b *testing.B) { benchCallable(b, "", ".csv") }

// BenchmarkCallablePreset400k is the same list through a preset (REISift:
// one row per owner, ten phone slots with type and tag).
func BenchmarkCallablePreset400k(b *testing.B) { benchCallable(b, "reisift", ".csv") }

// BenchmarkCallablePresetLong400k: through a one-row-per-phone preset whose
// limit (300,000 rows) splits the list in two files.
func BenchmarkCallablePresetLong400k(b *testing.B) { benchCallable(b, "calltools", ".csv") }

// BenchmarkCallableXLSX400k is the callable list joined with its DNC result
// written as .xlsx: beside BenchmarkExport400k, what the join, the judging
// and the proof add to a plain export of the same rows.
func BenchmarkCallableXLSX400k(b *testing.B) { benchCallable(b, "", ".xlsx") }
