package libtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// BenchRows is the size of the benchmarks' trace result: 400,000 rows of
// 26 columns (about 72 MB), or $SKIPDESK_BENCH_ROWS for a quick run.
func BenchRows() int {
	if n, err := strconv.Atoi(os.Getenv("SKIPDESK_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 400_000
}

var (
	benchOnce sync.Once
	benchPath string
	benchErr  error
)

// BenchTrace is the trace result the library's and the export's
// benchmarks read (BenchRows rows, seed 42), generated once a machine in
// the temporary folder and kept there; $SKIPDESK_BENCH_CSV names a file
// to use instead.
func BenchTrace() (string, error) {
	benchOnce.Do(func() {
		if p := os.Getenv("SKIPDESK_BENCH_CSV"); p != "" {
			benchPath = p
			return
		}
		n := BenchRows()
		benchPath = filepath.Join(os.TempDir(), "skipdesk-bench-trace-"+strconv.Itoa(n)+".csv")
		if _, err := os.Stat(benchPath); err == nil {
			return
		}
		tmp := benchPath + ".tmp"
		if benchErr = WriteTraceFile(tmp, n, 42); benchErr == nil {
			benchErr = os.Rename(tmp, benchPath)
		}
	})
	return benchPath, benchErr
}

// BenchTraceFile is BenchTrace's path for a benchmark, which stops where
// the file cannot be made.
func BenchTraceFile(tb testing.TB) string {
	tb.Helper()
	p, err := BenchTrace()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// HeapBytes is the heap in use after a garbage collection: taken before
// and after an open, what the open thing holds.
func HeapBytes() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// PeakRSS is the process's peak resident memory (VmHWM in
// /proc/self/status, Linux) in MB; 0 elsewhere. A benchmark run alone in
// its process reports it as its own peak.
func PeakRSS() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1e3
		}
	}
	return 0
}
