package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/index/indextest"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkIndex400k indexes one generated trace result of
// $SKIPDESK_BENCH_ROWS rows (400,000; or the file $SKIPDESK_BENCH_CSV) into
// a new index: the time, the process's peak RSS (run it alone in its
// process, as bench/library.sh does) and the index's size against the
// file's.
func BenchmarkIndex400k(b *testing.B) {
	src := os.Getenv("SKIPDESK_BENCH_CSV")
	if src == "" {
		rows := envInt("SKIPDESK_BENCH_ROWS", 400_000)
		src = filepath.Join(os.TempDir(), "skipdesk-bench-trace-"+strconv.Itoa(rows)+".csv")
		if _, err := os.Stat(src); err != nil {
			if err := libtest.WriteTraceFile(src+".tmp", rows, 42); err != nil {
				b.Fatal(err)
			}
			os.Rename(src+".tmp", src)
		}
	}
	info, err := os.Stat(src)
	if err != nil {
		b.Fatal(err)
	}
	var st Stats
	for b.Loop() {
		b.StopTimer()
		root := b.TempDir()
		dir := filepath.Join(root, "results")
		os.MkdirAll(dir, 0o755)
		if err := os.Link(src, filepath.Join(dir, "result.csv")); err != nil {
			b.Fatal(err)
		}
		x, err := Open(filepath.Join(root, "index.db"), dir)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := x.Sync(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st, _ = x.Stats(context.Background())
		x.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(st.Rows), "rows")
	b.ReportMetric(float64(info.Size())/1e6, "MB-file")
	b.ReportMetric(float64(st.IndexBytes)/float64(info.Size()), "index/file")
	if hwm := libtest.PeakRSS(); hwm > 0 {
		b.ReportMetric(hwm, "MB-peakRSS")
	}
}

var (
	libOnce sync.Once
	libX    *Index
	libErr  error
)

// benchLibrary is the library the search benchmarks read, indexed:
// $SKIPDESK_BENCH_LIBRARY (a folder holding results/, where the index is
// kept as index.db), else a library of $SKIPDESK_BENCH_RESULTS (20) results
// of $SKIPDESK_BENCH_LIBRARY_ROWS (20,000) rows in the temp folder.
func benchLibrary(b *testing.B) *Index {
	b.Helper()
	libOnce.Do(func() {
		root := os.Getenv("SKIPDESK_BENCH_LIBRARY")
		if root == "" {
			n, rows := envInt("SKIPDESK_BENCH_RESULTS", 20), envInt("SKIPDESK_BENCH_LIBRARY_ROWS", 20_000)
			root = filepath.Join(os.TempDir(), "skipdesk-bench-library-"+strconv.Itoa(n)+"x"+strconv.Itoa(rows))
			if _, libErr = indextest.WriteLibrary(filepath.Join(root, "results"), n, rows); libErr != nil {
				return
			}
		}
		if libX, libErr = Open(filepath.Join(root, "index.db"), filepath.Join(root, "results")); libErr != nil {
			return
		}
		if _, libErr = libX.Sync(context.Background(), nil); libErr == nil {
			_, libErr = libX.Stats(context.Background()) // checkpoints: the index is one file
		}
	})
	if libErr != nil {
		b.Fatal(libErr)
	}
	return libX
}

// benchQueries are searches of the generated library, each with what
// ripgrep is given for the same rows (bench/library.sh, rg -F -i).
var benchQueries = []struct{ name, q, rg string }{
	{"phone", "(540) 555-0158", "5405550158"},
	{"email", "E.Smith66@example.com", "E.SMITH66@example.com"},
	{"address", "5562 Lakeview Boulevard", "5562 LAKEVIEW BLVD"},
	{"name", "Mary O'Neil", "MARY,O'NEIL"},
}

// BenchmarkSearchLibrary searches the library from its index: "first" is
// the first hit with its fields read from its file (what a screen shows
// first), "all" every row found (what ripgrep's full scan answers).
func BenchmarkSearchLibrary(b *testing.B) { searchLibrary(b, benchLibrary(b)) }

var (
	pgOnce sync.Once
	pgX    *Index
	pgErr  error
)

// benchLibraryPostgres is the library of benchLibrary indexed in a team's
// PostgreSQL database: $SKIPDESK_BENCH_POSTGRES (a connection string; an
// index kept there is brought up to date, not made anew), else a new
// database on a throwaway server (jobs/sqldb/pgtest).
func benchLibraryPostgres(b *testing.B) *Index {
	b.Helper()
	lite := benchLibrary(b)
	pgOnce.Do(func() {
		url := os.Getenv("SKIPDESK_BENCH_POSTGRES")
		if url == "" {
			url = pgtest.URL(b)
		}
		ctx := context.Background()
		var db *sqldb.DB
		if db, pgErr = sqldb.OpenPostgres(ctx, url, sqldb.PostgresOptions{AppName: "bench"}); pgErr != nil {
			return
		}
		if pgX, pgErr = OpenShared(ctx, db, "bench", lite.Dir()); pgErr != nil {
			return
		}
		start := time.Now()
		var rep Report
		if rep, pgErr = pgX.Sync(ctx, nil); pgErr != nil {
			return
		}
		if rep.Indexed > 0 {
			fmt.Fprintf(os.Stderr, "indexed %d results into PostgreSQL in %.1f s\n", rep.Indexed, time.Since(start).Seconds())
		}
		// What autovacuum does after a load, done now: the planner's
		// figures for the tables.
		_, pgErr = db.ExecContext(ctx, "ANALYZE")
	})
	if pgErr != nil {
		b.Fatal(pgErr)
	}
	return pgX
}

// BenchmarkSearchLibraryPostgres is BenchmarkSearchLibrary with the index
// in a team's PostgreSQL database (bench/library-pg.sh compares the two).
func BenchmarkSearchLibraryPostgres(b *testing.B) { searchLibrary(b, benchLibraryPostgres(b)) }

func searchLibrary(b *testing.B, x *Index) {
	ctx := context.Background()
	for _, q := range benchQueries {
		b.Run(q.name+"/first", func(b *testing.B) {
			var n int
			for b.Loop() {
				hits, err := x.Search(ctx, q.q, 1)
				if err != nil {
					b.Fatal(err)
				}
				n = len(hits)
			}
			b.ReportMetric(float64(n), "hits")
		})
		b.Run(q.name+"/all", func(b *testing.B) {
			var n int
			for b.Loop() {
				refs, err := x.Find(ctx, q.q, 0)
				if err != nil {
					b.Fatal(err)
				}
				n = len(refs)
			}
			b.ReportMetric(float64(n), "hits")
		})
	}
	runtime.KeepAlive(x)
}

// TestBenchQueriesFindRows keeps the benchmark's queries meaningful: each
// finds rows of the generated library (in its first 5,000 rows of the
// first two results: a result's rows do not depend on how many there are,
// so the benchmark's larger library holds them too).
func TestBenchQueriesFindRows(t *testing.T) {
	root := t.TempDir()
	if _, err := indextest.WriteLibrary(filepath.Join(root, "results"), 2, 5_000); err != nil {
		t.Fatal(err)
	}
	x, err := Open(filepath.Join(root, "index.db"), filepath.Join(root, "results"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.Sync(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range benchQueries {
		refs, err := x.Find(context.Background(), q.q, 0)
		if err != nil || len(refs) == 0 {
			t.Errorf("%s %q: %d rows, %v", q.name, q.q, len(refs), err)
		}
	}
}
