package export

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The CRC-32 of two strings one after the other, from each one's.
func TestCRC32Combine(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 7, 64, 1000, 70000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.IntN(256))
		}
		for _, cut := range []int{0, n / 3, n / 2, n} {
			a, c := b[:cut], b[cut:]
			got := crc32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(c), int64(len(c)))
			if want := crc32.ChecksumIEEE(b); got != want {
				t.Errorf("%d bytes cut at %d: %08x, want %08x", n, cut, got, want)
			}
		}
	}
}

// manyCallable is a trace of n owners, each with a clean phone of its own
// and a second phone on the DNC list, and its DNC result.
func manyCallable(t *testing.T, n int) (trace, dnc string) {
	var tb, db strings.Builder
	tb.WriteString("owner,phone_1,phone_2,match_status\r\n")
	db.WriteString("phone,dnc,litigator\r\n")
	for i := range n {
		clean, flagged := fmt.Sprintf("21255%05d", i), fmt.Sprintf("31255%05d", i)
		fmt.Fprintf(&tb, "Owner %d,%s,%s,matched\r\n", i, clean, flagged)
		fmt.Fprintf(&db, "%s,false,false\r\n%s,true,false\r\n", clean, flagged)
	}
	return testlists.WriteFile(t, "trace.csv", tb.String()), dated(t, testlists.WriteFile(t, "scrub.csv", db.String()))
}

// A callable .xlsx is written in one reading of its rows, sheet after sheet
// past Excel's limit: every row on its sheet, every zip entry whole (its
// CRC checked as it is read), no file of the work left beside it.
func TestCallableXLSXAcrossSheets(t *testing.T) {
	old := maxSheetRows
	maxSheetRows = 4 // header + 3 rows per sheet
	defer func() { maxSheetRows = old }()
	trace, dnc := manyCallable(t, 10)
	dst := filepath.Join(t.TempDir(), "callable.xlsx")
	rep, err := ExportCallable(context.Background(), trace, dnc, dst, at(CallableOptions{OnlyCallable: true, Proof: &Proof{}}))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 10 || !slices.Equal(rep.Sheets, []string{"Results", "Results 2", "Results 3", "Results 4"}) {
		t.Fatalf("%d rows in %v", rep.Rows, rep.Sheets)
	}
	zr, err := zip.OpenReader(dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if err != nil {
			t.Errorf("entry %s: %v", f.Name, err)
		}
	}
	zr.Close()
	x := openXLSX(t, dst)
	n := 0
	for _, sheet := range rep.Sheets {
		rows, err := x.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if rows[0][0] != "owner" || rows[0][1] != "phone_1" {
			t.Fatalf("%s header %q", sheet, rows[0])
		}
		for _, r := range rows[1:] {
			if want := fmt.Sprintf("Owner %d", n); r[0] != want || r[1] != fmt.Sprintf("21255%05d", n) {
				t.Fatalf("%s: row %q, want %s with its clean phone", sheet, r, want)
			}
			if slices.ContainsFunc(r, func(c string) bool { return strings.HasPrefix(c, "31255") }) {
				t.Fatalf("%s: a number on the DNC list written: %q", sheet, r)
			}
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d rows read back, want 10", n)
	}
	checkNoWork(t, dst)
}

// checkNoWork fails when anything but the export and its proof is left in
// its folder (a temporary file, the rows' spool).
func checkNoWork(t *testing.T, dst string) {
	t.Helper()
	des, _ := os.ReadDir(filepath.Dir(dst))
	for _, de := range des {
		if name := de.Name(); name != filepath.Base(dst) && name != filepath.Base(ProofName(dst)) {
			t.Errorf("left beside the export: %s", name)
		}
	}
}

// A scrub over 31 days old is refused before anything is written, where
// the rows are judged as they are written (every answer is the number's).
func TestCallableXLSXStaleRefusedBeforeWriting(t *testing.T) {
	trace, dnc := manyCallable(t, 5)
	dst := filepath.Join(t.TempDir(), "callable.xlsx")
	_, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: testNow.AddDate(0, 2, 0)})
	var se *StaleError
	if !errors.As(err, &se) || len(se.Numbers) != 5 {
		t.Fatalf("err = %v, want a StaleError naming the 5 clean numbers", err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("the export exists after the refusal: %v", err)
	}
	checkNoWork(t, dst)
}

// A number the file itself flags in one row and clears in another is left
// out of both, by the export and by the viewer's quick filter alike: the
// filtered export writes exactly the rows the viewer shows.
func TestFlaggedInOneRowLeftOutEverywhere(t *testing.T) {
	trace := testlists.WriteFile(t, "own.csv", "owner,phone_1,phone_1_dnc,phone_1_litigator,phone_2,phone_2_dnc,phone_2_litigator\r\n"+
		"A,2125550101,N,N,2125550102,N,N\r\n"+ // 0101 clean here…
		"B,2125550103,N,N,2125550101,Y,N\r\n"+ // …and on the DNC list here
		"C,2125550101,N,N,,,\r\n"+ // only 0101: the row goes
		"D,2125550104,N,N,,,\r\n")
	for _, f := range []jobs.QuickFilter{jobs.QuickNotDNC, jobs.QuickCallable} {
		dst := filepath.Join(t.TempDir(), "out.csv")
		rep, err := ExportCallable(context.Background(), trace, "", dst, at(CallableOptions{Filters: []jobs.QuickFilter{f}}))
		if err != nil {
			t.Fatal(err)
		}
		got := exportedOwners(t, dst)
		if want := []string{"A", "B", "D"}; !slices.Equal(got, want) {
			t.Errorf("%s: the export wrote the rows of %v, want %v", f, got, want)
		}
		if body, _ := os.ReadFile(dst); strings.Contains(string(body), "2125550101") {
			t.Errorf("%s: 2125550101, flagged in one row, written:\n%s", f, body)
		}
		if rep.Phones.Left["flagged in another row"] != 2 {
			t.Errorf("%s: left out %v, want 2 phones flagged in another row", f, rep.Phones.Left)
		}
		if view := viewerOwners(t, trace, f); !slices.Equal(view, got) {
			t.Errorf("%s: the viewer shows the rows of %v, the export wrote %v", f, view, got)
		}
	}
}

// exportedOwners are the first cells of an exported CSV's rows.
func exportedOwners(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs[1:] {
		out = append(out, r[0])
	}
	return out
}

// viewerOwners are the first cells of the rows the viewer shows under
// quick filter f, the file's own answers dated testScrub.
func viewerOwners(t *testing.T, path string, f jobs.QuickFilter) []string {
	t.Helper()
	r, err := library.OpenResult(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lopts := layout.Options{Now: testNow}
	l, err := library.DetectLayout(path, lopts)
	if err != nil {
		t.Fatal(err)
	}
	join := layout.NewFlagIndex()
	join.SetDates(testScrub, testNow)
	r.SetLayout(l, join)
	if err := r.Filter(library.Filter{Quick: []jobs.QuickFilter{f}}); err != nil {
		t.Fatal(err)
	}
	recs, err := r.ReadRows(viewRows(r))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rec := range recs {
		out = append(out, rec[0])
	}
	return out
}

// viewRows are the file rows of a result's view, in order.
func viewRows(r *library.Result) []int {
	if p := r.Permutation(); p != nil {
		return p
	}
	rows := make([]int, r.Len())
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// countedSource yields rows "0", "1", … up to n, then io.EOF, counting the
// calls of Next.
type countedSource struct {
	n, calls int
	rec      []string
}

func (s *countedSource) Headers() []string  { return []string{"n", "twice"} }
func (s *countedSource) Total() int         { return -1 }
func (s *countedSource) Warnings() []string { return nil }
func (s *countedSource) Close() error       { return nil }
func (s *countedSource) Next() ([]string, int, error) {
	if s.calls == s.n {
		return nil, 0, io.EOF
	}
	s.calls++
	v := strconv.Itoa(s.calls - 1)
	s.rec = append(s.rec[:0], v, v+v) // reused, as the sources reuse it
	return s.rec, s.calls, nil
}

// The rows read ahead reach the spool whole and in order across batches,
// and a stopped export leaves the source alone once it returns.
func TestReadAheadKeepsOrderAndStops(t *testing.T) {
	for _, n := range []int{0, 1, aheadRows, 3*aheadRows + 7} {
		s := &countedSource{n: n}
		ra := readAhead(s)
		got := 0
		for {
			b := ra.next()
			for i, end := range b.ends {
				row := b.cells[b.start(i):end]
				v := strconv.Itoa(got)
				if !slices.Equal(row, []string{v, v + v}) || b.src[i] != got+1 {
					t.Fatalf("n=%d: row %d read ahead as %q (source row %d)", n, got, row, b.src[i])
				}
				got++
			}
			err := b.err
			ra.done(b)
			if err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				break
			}
		}
		ra.stop()
		if got != n {
			t.Fatalf("%d rows read ahead of %d", got, n)
		}
	}
	// Cancelled after the first rows: spoolRows returns, and the source is
	// not read after that.
	s := &countedSource{n: 100 * aheadRows}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sp, err := newSheetSpool(filepath.Join(t.TempDir(), "x.xlsx"), newRowWriter("x.xlsx", s.Headers(), false, &Report{}))
	if err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	if err := spoolRows(ctx, s, sp, -1, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("spoolRows after cancel: %v", err)
	}
	calls := s.calls
	if calls >= s.n {
		t.Fatalf("the whole source was read (%d rows) though the export was cancelled", calls)
	}
	runtime.Gosched()
	if s.calls != calls {
		t.Fatalf("the source was read after spoolRows returned (%d, then %d calls)", calls, s.calls)
	}
}

// A note in a later row's phone cell ("614 841 9508 (Litigator)")
// restricts that number in every row, though every other answer is the
// number's own (a DNC result's): an export whose rows say more of a phone
// than its number's answers is made again with the result read first.
// (Before, the number was written from the earlier row.)
func TestNoteInALaterRowLeavesTheNumberOutEverywhere(t *testing.T) {
	trace := testlists.WriteFile(t, "trace.csv", "Owner,Phone Number 1,Owner2 Phone Number 1\r\n"+
		"A,704 725 6680,614 841 9508\r\n"+
		"B,614 841 9508 (Litigator),\r\n")
	dnc := testlists.WriteFile(t, "scrub.csv", "Phone,ScrubDate,ResultCode,Litigator\r\n"+
		"6148419508,2026-06-09,W,0\r\n7047256680,2026-06-09,W,0\r\n")
	for _, name := range []string{"out.csv", "out.xlsx"} {
		dst := filepath.Join(t.TempDir(), name)
		rep, err := ExportCallable(context.Background(), trace, dnc, dst, at(CallableOptions{OnlyCallable: true}))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Phones.Kept != 1 || rep.Phones.Left["flagged in another row"] != 1 {
			t.Errorf("%s: kept %d, left out %v", name, rep.Phones.Kept, rep.Phones.Left)
		}
		if name == "out.csv" {
			if body, _ := os.ReadFile(dst); strings.Contains(string(body), "614 841 9508") || !strings.Contains(string(body), "704 725 6680") {
				t.Errorf("written:\n%s", body)
			}
		}
	}
}
