// Package indextest writes libraries of generated results for the index's
// tests and benchmarks (and bench/library.sh).
package indextest

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

// WriteLibrary writes a library into dir (created): results generated trace
// results of rows rows each, with their job records, completed a day apart.
// Results already there are kept. It returns their paths.
func WriteLibrary(dir string, results, rows int) ([]string, error) {
	lib, err := library.Open(dir)
	if err != nil {
		return nil, err
	}
	start := time.Date(2026, 10, 1, 15, 0, 0, 0, time.UTC)
	var paths []string
	for i := 1; i <= results; i++ {
		done := start.Add(time.Duration(i) * 24 * time.Hour)
		m := library.Meta{JobID: fmt.Sprintf("trc_bench%06d%02d", rows, i), Kind: jobs.KindTrace, Status: jobs.StatusCompleted,
			Name: fmt.Sprintf("county-%02d.csv", i), Mode: jobs.ModeNormal, TotalRows: rows,
			CreatedAt: done.Add(-time.Hour), CompletedAt: done}
		p := lib.PathFor(m)
		paths = append(paths, p)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		tmp := filepath.Join(dir, ".gen-"+filepath.Base(p))
		if err := libtest.WriteTraceFile(tmp, rows, uint64(i)); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, p); err != nil {
			return nil, err
		}
		if err := lib.Record(m, p); err != nil {
			return nil, err
		}
	}
	return paths, nil
}
