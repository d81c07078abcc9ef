// Command exportgen writes the benchmark result of bench/export.sh: a trace
// result shaped like the provider's (26 columns; 400k rows ≈ 72 MB); with
// -callable, also its callable list as CSV, joined with the generated DNC
// result of its numbers.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

func main() {
	rows := flag.Int("rows", 400_000, "data rows")
	out := flag.String("out", "trace-400k.csv", "file to write (kept when it exists and -xlsx or -callable is given)")
	xlsx := flag.String("xlsx", "", "also export the CSV to this .xlsx with jobs/export")
	callable := flag.String("callable", "", "also write the CSV's callable list to this .csv, joined with the generated DNC result")
	flag.Parse()
	if _, err := os.Stat(*out); err != nil || *xlsx == "" && *callable == "" {
		if err := libtest.WriteTraceFile(*out, *rows, 42); err != nil {
			fail(err)
		}
	}
	if *xlsx != "" {
		if _, err := export.Export(context.Background(), *out, *xlsx, export.Options{}); err != nil {
			fail(err)
		}
	}
	if *callable != "" {
		if err := writeCallable(*out, *callable); err != nil {
			fail(err)
		}
	}
}

// writeCallable writes the trace's callable list (CSV) as the benchmark
// BenchmarkCallableXLSX400k makes it, the day after the scrub.
func writeCallable(trace, dst string) error {
	dnc := filepath.Join(filepath.Dir(dst), "scrub-80k.csv")
	if err := libtest.WriteScrubFile(dnc); err != nil {
		return err
	}
	meta, _ := json.Marshal(library.Meta{JobID: "dnc_bench", Kind: jobs.KindDNC, CompletedAt: libtest.ScrubDay})
	if err := os.WriteFile(library.RecordPath(dnc), meta, 0o600); err != nil {
		return err
	}
	_, err := export.ExportCallable(context.Background(), trace, dnc, dst,
		export.CallableOptions{OnlyCallable: true, Now: libtest.ScrubDay.AddDate(0, 0, 1)})
	return err
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "exportgen:", err)
	os.Exit(1)
}
