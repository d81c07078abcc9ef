// Command exportgen writes the benchmark result of bench/export.sh: a trace
// result shaped like the provider's (26 columns; 400k rows ≈ 72 MB).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

func main() {
	rows := flag.Int("rows", 400_000, "data rows")
	out := flag.String("out", "trace-400k.csv", "file to write (kept when it exists and -xlsx is given)")
	xlsx := flag.String("xlsx", "", "also export the CSV to this .xlsx with jobs/export")
	flag.Parse()
	if _, err := os.Stat(*out); err != nil || *xlsx == "" {
		if err := libtest.WriteTraceFile(*out, *rows, 42); err != nil {
			fail(err)
		}
	}
	if *xlsx != "" {
		if _, err := export.Export(context.Background(), *out, *xlsx, export.Options{}); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "exportgen:", err)
	os.Exit(1)
}
