package library

import (
	"context"
	"database/sql"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
)

// benchHeld opens the benchmarks' trace result with open at each turn and
// reports the heap the open result holds and the file's size, in MB.
func benchHeld(b *testing.B, open func(src string) (*Result, error)) (held, file float64) {
	src := libtest.BenchTraceFile(b)
	info, _ := os.Stat(src)
	b.ReportAllocs()
	for b.Loop() {
		before := libtest.HeapBytes()
		r, err := open(src)
		if err != nil {
			b.Fatal(err)
		}
		held = (float64(libtest.HeapBytes()) - float64(before)) / 1e6
		runtime.KeepAlive(r)
		r.Close()
	}
	file = float64(info.Size()) / 1e6
	b.ReportMetric(held, "MB-held")
	b.ReportMetric(file, "MB-file")
	return held, file
}

// readFirstPage reads every cell of the first page the viewer shows.
func readFirstPage(r *Result) {
	for row := 0; row < 40; row++ {
		for col := 0; col < 26; col++ {
			_ = r.Cell(row, col)
		}
	}
}

// BenchmarkOpenResult400k: open (index every row) and read the first page,
// which is the time until the first page can show; reports the heap the
// open result holds, the file's size and the process's peak RSS (run it
// alone in its process, as bench/export.sh does, for that to be its own).
func BenchmarkOpenResult400k(b *testing.B) {
	benchHeld(b, func(src string) (*Result, error) {
		r, err := OpenResult(src)
		if err == nil {
			readFirstPage(r)
		}
		return r, err
	})
	if hwm := libtest.PeakRSS(); hwm > 0 {
		b.ReportMetric(hwm, "MB-peakRSS")
	}
}

func openBench(b *testing.B) *Result {
	r, err := OpenResult(libtest.BenchTraceFile(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	// As the viewer opens a result: the layout first, so that the phones
	// and quick filters are read in the same pass as the store.
	r.SetLayout(r.Layout(), nil)
	if err := r.Index(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	return r
}

// forget drops what earlier queries left (the answers to filter texts, the
// sorted orders), so that an operation measured computes its answer.
func (r *Result) forget() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.found = answers{}
	clear(r.orders)
	r.orderUse = nil
	r.asc, r.ascCol = nil, -1
}

// BenchmarkOpenFirstPage400k: open and read the first page, the time until
// the viewer can show it (StartResult; the rest is read by Index).
func BenchmarkOpenFirstPage400k(b *testing.B) {
	src := libtest.BenchTraceFile(b)
	b.ReportAllocs()
	for b.Loop() {
		r, err := StartResult(context.Background(), src)
		if err != nil {
			b.Fatal(err)
		}
		readFirstPage(r)
		r.Close()
	}
}

// BenchmarkOpenIndexed400k: open and build the column store with the
// phones read through the layout, the time until every filter and sort can
// run; reports the heap the indexed result
// holds against the file's size.
func BenchmarkOpenIndexed400k(b *testing.B) {
	held, file := benchHeld(b, func(src string) (*Result, error) {
		r, err := StartResult(context.Background(), src)
		if err != nil {
			return nil, err
		}
		r.SetLayout(r.Layout(), nil)
		return r, r.Index(context.Background(), nil)
	})
	b.ReportMetric(held/file, "x-file")
}

// BenchmarkSort400k: a click on a numeric column's header (every row,
// ascending then descending in turn, each sorted anew).
func BenchmarkSort400k(b *testing.B) { benchSort(b, "assessed_value", true) }

// BenchmarkSortText400k: a click on a text column's header.
func BenchmarkSortText400k(b *testing.B) { benchSort(b, "last_name", true) }

// BenchmarkSortReverse400k: a second click on a sorted header: the order
// reversed, not sorted again.
func BenchmarkSortReverse400k(b *testing.B) { benchSort(b, "last_name", false) }

// benchSort clicks a column's header, ascending and descending in turn;
// anew: each time sorted anew (else the order known is reversed).
func benchSort(b *testing.B, column string, anew bool) {
	r := openBench(b)
	col := r.column(column)
	if err := r.Sort(col, true); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	desc := true
	for b.Loop() {
		if anew {
			r.forget()
		}
		desc = !desc // the same sort twice would cost nothing
		if err := r.Sort(col, desc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFilter400k: a filter typed at once with a quick filter on
// (every row looked at: no earlier answer helps).
func BenchmarkFilter400k(b *testing.B) {
	mobile := []jobs.QuickFilter{jobs.QuickMobile}
	benchFilters(b, true, Filter{Text: "smith", Quick: mobile}, Filter{Text: "jones", Quick: mobile})
}

// benchFilters applies the filters in turn (the same filter twice would
// cost nothing); anew: each time computed anew (else earlier answers
// help).
func benchFilters(b *testing.B, anew bool, fs ...Filter) {
	r := openBench(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if anew {
			r.forget()
		}
		i++
		if err := r.Filter(fs[i%len(fs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// benchWord is the word BenchmarkFilterWord400k looks for
// (SKIPDESK_BENCH_WORD; bench/viewer.sh counts it with ripgrep too).
func benchWord() string {
	if w := os.Getenv("SKIPDESK_BENCH_WORD"); w != "" {
		return w
	}
	return "smith"
}

// BenchmarkFilterWord400k: one word typed (or pasted) at once: every row
// looked at, as ripgrep counting the word in the file looks at every line.
func BenchmarkFilterWord400k(b *testing.B) {
	r := openBench(b)
	w := benchWord()
	b.ReportAllocs()
	rows := 0
	for b.Loop() {
		r.forget()
		if err := r.Filter(Filter{Text: w}); err != nil {
			b.Fatal(err)
		}
		rows = r.View()
		// The next loop's filter must differ from this one.
		if err := r.Filter(Filter{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows), "rows")
}

// BenchmarkFilterFirstKey400k: the first key typed into the filter.
func BenchmarkFilterFirstKey400k(b *testing.B) {
	benchFilters(b, true, Filter{Text: "s"}, Filter{Text: "j"})
}

// BenchmarkFilterKeystrokes400k: each further key of "smith" typed into
// the filter: the query narrows the answer to the one before.
func BenchmarkFilterKeystrokes400k(b *testing.B) {
	word := "smith"
	for k := 2; k <= len(word); k++ {
		b.Run(word[:k], func(b *testing.B) {
			r := openBench(b)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				r.forget()
				if err := r.Filter(Filter{Text: word[:k-1]}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := r.Filter(Filter{Text: word[:k]}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkQuickFilter400k: a quick filter clicked on (its bitset, made
// once per result, turned into the rows shown).
func BenchmarkQuickFilter400k(b *testing.B) {
	benchFilters(b, false, Filter{Quick: []jobs.QuickFilter{jobs.QuickMobile}}, Filter{Quick: []jobs.QuickFilter{jobs.QuickMatched}})
}

func BenchmarkScrollCells400k(b *testing.B) {
	r := openBench(b)
	_ = r.Sort(r.column("last_name"), false)
	b.ReportAllocs()
	row := 0
	for b.Loop() {
		_ = r.Cell(row%r.View(), row%26)
		row++
	}
}

func BenchmarkSearch400k(b *testing.B) {
	src := libtest.BenchTraceFile(b)
	lib, _ := Open(b.TempDir())
	if err := os.Symlink(src, filepath.Join(lib.Dir(), "bench 2026-01-01 000001.csv")); err != nil {
		b.Skip("no symlink: ", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lib.Search(context.Background(), "(999) 555-0199", 100); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSQLiteImport400k is the alternative to the offset index:
// importing the result into SQLite (one transaction, prepared insert) before
// the first page can show.
func BenchmarkSQLiteImport400k(b *testing.B) {
	src := libtest.BenchTraceFile(b)
	for b.Loop() {
		db, err := sql.Open("sqlite", filepath.Join(b.TempDir(), "r.db"))
		if err != nil {
			b.Fatal(err)
		}
		f, _ := os.Open(src)
		cr := csv.NewReader(f)
		cr.ReuseRecord = true
		hdr, _ := cr.Read()
		cols := make([]string, len(hdr))
		marks := make([]string, len(hdr))
		for i := range hdr {
			cols[i] = "c" + strconv.Itoa(i) + " TEXT"
			marks[i] = "?"
		}
		if _, err := db.Exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; CREATE TABLE r (" + strings.Join(cols, ",") + ")"); err != nil {
			b.Fatal(err)
		}
		tx, _ := db.Begin()
		st, err := tx.Prepare("INSERT INTO r VALUES (" + strings.Join(marks, ",") + ")")
		if err != nil {
			b.Fatal(err)
		}
		args := make([]any, len(hdr))
		for {
			rec, err := cr.Read()
			if err == io.EOF {
				break
			}
			for i := range args {
				args[i] = rec[i]
			}
			if _, err := st.Exec(args...); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		rows, err := db.Query("SELECT * FROM r LIMIT 40")
		if err != nil {
			b.Fatal(err)
		}
		rows.Close()
		f.Close()
		if info, err := os.Stat(filepath.Join(b.TempDir(), "r.db")); err == nil {
			b.ReportMetric(float64(info.Size())/1e6, "MB-db")
		}
		db.Close()
	}
}
