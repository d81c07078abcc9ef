package library

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

// writeFlaggedTrace writes a PropStream-style result of rows rows: five
// phones with a type and a Yes/No/blank DNC flag each, a row-level
// Litigator, two owners, two e-mails.
func writeFlaggedTrace(path string, rows int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rnd := rand.New(rand.NewPCG(7, 7))
	fmt.Fprint(w, "Address,City,State,Zip,Owner 1 First Name,Owner 1 Last Name,Owner 2 First Name,Owner 2 Last Name,"+
		"Mailing Address,Mailing City,Mailing State,Mailing Zip")
	for p := 1; p <= 5; p++ {
		fmt.Fprintf(w, ",Phone %d,Phone %d Type,Phone %d DNC", p, p, p)
	}
	fmt.Fprint(w, ",Email 1,Email 2,Litigator\r\n")
	yn := []string{"No", "No", "No", "Yes", ""}
	types := []string{"Mobile", "Landline", "VoIP", "Wireless"}
	for i := range rows {
		fmt.Fprintf(w, "%d Oak Ave,Austin,TX,787%02d,John,Smith,Ann,Smith,PO Box %d,Austin,TX,787%02d", i%9999, i%100, i%999, i%100)
		n := 1 + rnd.IntN(5)
		for p := 0; p < 5; p++ {
			if p < n {
				fmt.Fprintf(w, ",(%s) 555-01%02d,%s,%s", strconv.Itoa(200+rnd.IntN(800)), rnd.IntN(100), types[rnd.IntN(4)], yn[rnd.IntN(5)])
			} else {
				w.WriteString(",,,")
			}
		}
		fmt.Fprintf(w, ",j%d@example.com,,%s\r\n", i, yn[rnd.IntN(5)])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func flaggedCSV(b *testing.B) string {
	p := filepath.Join(os.TempDir(), "skipdesk-bench-flagged-"+strconv.Itoa(libtest.BenchRows())+".csv")
	if _, err := os.Stat(p); err != nil {
		if err := writeFlaggedTrace(p+".tmp", libtest.BenchRows()); err != nil {
			b.Fatal(err)
		}
		os.Rename(p+".tmp", p)
	}
	return p
}

// Parts of the reading a benchmark does.
const (
	readRows  = iota // the row reader alone
	readRead         // and each row through the layout
	readTally        // and each row into a tally
)

func benchRead(b *testing.B, path string, part int) {
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ReportAllocs()
	var rows int
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := NewRowReader(f)
		if err != nil {
			b.Fatal(err)
		}
		var rd *layout.Reader
		var t *layout.Tally
		if part != readRows {
			sample, _ := readSample(rr)
			l := layout.Detect(rr.Headers(), sample, layout.Options{})
			f.Seek(0, io.SeekStart)
			rr, _ = NewRowReader(f)
			rd, t = l.NewReader(nil), l.NewTally()
		}
		var row layout.Row
		rows = 0
		for {
			rec, err := rr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			switch part {
			case readRead:
				rd.Read(rec, &row)
			case readTally:
				t.Add(rec)
			}
			rows++
		}
		f.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkRowReader400k reads the generated 400k-row trace result with the
// viewer's row reader: the baseline of the layout benchmarks.
func BenchmarkRowReader400k(b *testing.B) { benchRead(b, libtest.BenchTraceFile(b), readRows) }

// BenchmarkLayoutRead400k reads it through its layout: every row to people,
// addresses, and phones with types, flags and callability.
func BenchmarkLayoutRead400k(b *testing.B) { benchRead(b, libtest.BenchTraceFile(b), readRead) }

// BenchmarkLayoutTally400k counts how its flag, status and type values read.
func BenchmarkLayoutTally400k(b *testing.B) { benchRead(b, libtest.BenchTraceFile(b), readTally) }

// The same on a PropStream-style result with five flagged phones a row.
func BenchmarkRowReaderFlagged400k(b *testing.B)  { benchRead(b, flaggedCSV(b), readRows) }
func BenchmarkLayoutReadFlagged400k(b *testing.B) { benchRead(b, flaggedCSV(b), readRead) }
func BenchmarkLayoutTallyFlagged400k(b *testing.B) {
	benchRead(b, flaggedCSV(b), readTally)
}

// BenchmarkDetectLayout400k finds the layout of the generated 400k-row trace
// result as every reader does: roles from the first rows, then the values
// of the columns that bear on callability over the whole file.
func BenchmarkDetectLayout400k(b *testing.B) { benchDetect(b, libtest.BenchTraceFile(b)) }

// BenchmarkDetectLayoutFlagged400k is the same on the PropStream-style
// result (sixteen columns profiled).
func BenchmarkDetectLayoutFlagged400k(b *testing.B) { benchDetect(b, flaggedCSV(b)) }

func benchDetect(b *testing.B, path string) {
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DetectLayout(path, layout.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
