package input

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/input/internal/corpus"
)

// benchFileSize is the size of the generated benchmark list: 50 MB, about
// 485,000 rows of 12 columns.
const benchFileSize = 50_000_000

var benchOnce struct {
	sync.Once
	path string
	err  error
}

// benchFile returns the generated 50 MB owner list and its size, written once per
// machine into the temporary folder (SKIPDESK_BENCH_FILE names another).
func benchFile(b *testing.B) (string, int64) {
	benchOnce.Do(func() {
		if p := os.Getenv("SKIPDESK_BENCH_FILE"); p != "" {
			benchOnce.path = p
			return
		}
		p := filepath.Join(os.TempDir(), "skipdesk-bench-owners-v1.csv")
		benchOnce.path = p
		if st, err := os.Stat(p); err == nil && st.Size() >= benchFileSize {
			return
		}
		tmp := p + ".tmp"
		f, err := os.Create(tmp)
		if err != nil {
			benchOnce.err = err
			return
		}
		bw := bufio.NewWriterSize(f, 1<<20)
		_, err = corpus.WriteUntil(bw, corpus.New(1), -1, benchFileSize, corpus.Format{})
		if err == nil {
			err = bw.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, p)
		}
		benchOnce.err = err
	})
	if benchOnce.err != nil {
		b.Fatal(benchOnce.err)
	}
	st, err := os.Stat(benchOnce.path)
	if err != nil {
		b.Fatal(err)
	}
	return benchOnce.path, st.Size()
}

// measure runs the benchmark loop body and reports MB/s (of the file) and
// bytes allocated per MB of input.
func measure(b *testing.B, size int64, body func()) {
	b.ReportAllocs()
	b.SetBytes(size)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		body()
		n++
	}
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	mb := float64(size) / 1e6
	b.ReportMetric(mb*float64(n)/b.Elapsed().Seconds(), "MB/s")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/mb, "B/MB")
	// CPU time (all threads, user+system) per run: steadier than wall time
	// on a shared machine.
	b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/op")
}

// BenchmarkInspect50MB is the whole inspection of the generated list.
func BenchmarkInspect50MB(b *testing.B) {
	path, size := benchFile(b)
	var rows int
	measure(b, size, func() {
		ins, err := Inspect(context.Background(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		rows = ins.Rows
	})
	b.ReportMetric(float64(rows), "rows")
}

// BenchmarkEncodingCSVCount is the baseline: encoding/csv alone counting
// the rows of the same file (ReuseRecord, FieldsPerRecord -1).
func BenchmarkEncodingCSVCount(b *testing.B) {
	path, size := benchFile(b)
	var rows int
	measure(b, size, func() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r := csv.NewReader(bufio.NewReaderSize(f, 64<<10))
		r.ReuseRecord = true
		r.FieldsPerRecord = -1
		rows = 0
		for {
			_, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rows++
		}
		f.Close()
	})
	b.ReportMetric(float64(rows-1), "rows")
}

// BenchmarkReaderNext streams the rows as strings (what ConvertToCSV and
// other callers of Open do).
func BenchmarkReaderNext50MB(b *testing.B) {
	readToEnd(b, func(r *Reader) error { _, err := r.Next(); return err })
}

// BenchmarkReaderScan50MB is the reading part of Inspect alone: decoding
// and splitting records, no statistics.
func BenchmarkReaderScan50MB(b *testing.B) {
	readToEnd(b, func(r *Reader) error { _, err := r.nextBytes(); return err })
}

// readToEnd measures reading the benchmark's list to its end with next.
func readToEnd(b *testing.B, next func(r *Reader) error) {
	path, size := benchFile(b)
	measure(b, size, func() {
		r, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := next(r); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
		r.Close()
	})
}

// BenchmarkInspectQuoted10MB inspects a list whose every field is quoted
// (as some CRMs export): every record takes the scanner's quoted path.
func BenchmarkInspectQuoted10MB(b *testing.B) {
	var buf bytes.Buffer
	if _, err := corpus.WriteUntil(&buf, corpus.New(2), -1, 10_000_000, corpus.Format{QuoteAll: true, LineEnd: "\r\n"}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "quoted.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	measure(b, int64(buf.Len()), func() {
		if _, err := Inspect(context.Background(), path, Options{}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkInspect50MBNameAddressKey is Inspect as a trace submission uses
// it: duplicates by owner name and property address only.
func BenchmarkInspect50MBNameAddressKey(b *testing.B) {
	path, size := benchFile(b)
	opts := Options{KeyColumns: []string{"Owner 1 First Name", "Owner 1 Last Name", "Situs Address", "Site City", "Site State", "Site Zip"}}
	measure(b, size, func() {
		if _, err := Inspect(context.Background(), path, opts); err != nil {
			b.Fatal(err)
		}
	})
}
