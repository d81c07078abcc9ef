package library

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// generated writes a generated trace result and returns its path and its
// rows as encoding/csv reads them (the reference).
func generated(t *testing.T, rows int) (string, []string, [][]string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "trace.csv")
	if err := libtest.WriteTraceFile(p, rows, 7); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(p)
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return p, all[0], all[1:]
}

func TestResultPaging(t *testing.T) {
	p, headers, want := generated(t, 3000)
	r := opened(t, p)
	if !slices.Equal(r.Headers(), headers) || r.Len() != len(want) || r.View() != len(want) {
		t.Fatalf("headers %v, len %d, view %d", r.Headers(), r.Len(), r.View())
	}
	for _, page := range []struct{ off, n int }{{0, 50}, {1234, 100}, {2990, 50}, {3000, 10}} {
		rows, err := r.page(page.off, page.n)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != min(page.n, max(len(want)-page.off, 0)) {
			t.Fatalf("page %+v: %d rows", page, len(rows))
		}
		for i, row := range rows {
			if !slices.Equal(row, want[page.off+i]) {
				t.Fatalf("row %d = %q, want %q", page.off+i, row, want[page.off+i])
			}
		}
	}
	// Cell through the block cache, walking as a table does, and jumping.
	for _, row := range []int{0, 1, 511, 512, 2999, 700, 5, 1500} {
		for col := range headers {
			if got := r.Cell(row, col); got != want[row][col] {
				t.Fatalf("Cell(%d,%d) = %q, want %q", row, col, got, want[row][col])
			}
		}
	}
	if r.Cell(3000, 0) != "" || r.Cell(0, 99) != "" || r.Cell(-1, 0) != "" || r.Err() != nil {
		t.Error("out-of-range cells are not blank")
	}
	if _, err := r.page(-1, 5); err == nil {
		t.Error("negative offset accepted")
	}
}

func TestResultTrickyCSV(t *testing.T) {
	body := "\ufefffirst_name,notes,amount\r\n" +
		"A,\"two\r\nlines, and \"\"quotes\"\"\",10\r\n" +
		"\r\n" +
		",,\r\n" +
		"B,plain,9\n" + // LF only
		"\"\",\" \",\r\n" + // blank record written with quotes
		"C,\"\",100" // no final line break
	r := openBody(t, "r.csv", body)
	want := [][]string{{"A", "two\r\nlines, and \"quotes\"", "10"}, {"B", "plain", "9"}, {"C", "", "100"}}
	if r.Headers()[0] != "first_name" || r.Len() != 3 {
		t.Fatalf("headers %q, %d rows", r.Headers(), r.Len())
	}
	rows, _ := r.page(0, 10)
	for i := range want {
		if !slices.Equal(rows[i], want[i]) {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
	// Numeric sort: 9 < 10 < 100 (text order would give 10, 100, 9).
	if err := r.Sort(2, false); err != nil {
		t.Fatal(err)
	}
	if got := r.Cell(0, 0) + r.Cell(1, 0) + r.Cell(2, 0); got != "BAC" {
		t.Errorf("numeric sort: %s", got)
	}
}

func TestResultSortFilter(t *testing.T) {
	p, headers, want := generated(t, 2500)
	r := opened(t, p)
	col := func(name string) int { return slices.Index(headers, name) }

	checkNumericSortDescending(t, r, col("assessed_value"))
	checkTextSort(t, r, col("phone_2"))
	checkFilterWithSort(t, r, col, want)

	// Clearing.
	if err := r.Filter(Filter{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Sort(-1, false); err != nil {
		t.Fatal(err)
	}
	if r.View() != len(want) || r.Permutation() != nil || r.Cell(0, 0) != want[0][0] {
		t.Error("cleared view is not the file")
	}
	if err := r.Filter(Filter{Text: "no such text anywhere"}); err != nil || r.View() != 0 || r.Row(0) != nil {
		t.Errorf("empty filter: view %d, err %v", r.View(), err)
	}
	if q := fmt.Sprint(r.QuickFilters()); q != "[matched mobile]" {
		t.Errorf("quick filters = %+v", q)
	}
	if err := r.Filter(Filter{Quick: []jobs.QuickFilter{jobs.QuickNotDNC}}); err == nil || !strings.Contains(err.Error(), "dnc") {
		t.Errorf("NotDNC on a trace result: %v", err)
	}
	if err := r.Sort(99, false); err == nil {
		t.Error("sort on a missing column accepted")
	}
}

// checkNumericSortDescending sorts r by a numeric column, largest first.
func checkNumericSortDescending(t *testing.T, r *Result, value int) {
	t.Helper()
	if err := r.Sort(value, true); err != nil {
		t.Fatal(err)
	}
	prev := 1e18
	for i := 0; i < r.View(); i++ {
		v, _ := strconv.ParseFloat(r.Cell(i, value), 64)
		if v > prev {
			t.Fatalf("row %d: %v after %v in a descending numeric sort", i, v, prev)
		}
		prev = v
	}
	if _, c, d := r.Current(); c != value || !d {
		t.Errorf("Sorted = %d %v", c, d)
	}
}

// checkTextSort sorts r by a text column: ties in file order, blanks last.
func checkTextSort(t *testing.T, r *Result, phone2 int) {
	t.Helper()
	if err := r.Sort(phone2, false); err != nil {
		t.Fatal(err)
	}
	seenBlank := false
	for i := 1; i < r.View(); i++ {
		a, b := r.Cell(i-1, phone2), r.Cell(i, phone2)
		if a == "" {
			seenBlank = true
		}
		if seenBlank && b != "" {
			t.Fatalf("a value after blanks at %d", i)
		}
		if a != "" && b != "" && a > b {
			t.Fatalf("%q before %q", a, b)
		}
		if a == b && r.RowIndex(i-1) > r.RowIndex(i) {
			t.Fatalf("ties out of file order at %d", i)
		}
	}
}

// checkFilterWithSort filters r sorted by last name (text, matched only,
// mobile only) and compares the rows kept with those of want that pass the
// same tests.
func checkFilterWithSort(t *testing.T, r *Result, col func(string) int, want [][]string) {
	t.Helper()
	if err := r.Sort(col("last_name"), false); err != nil {
		t.Fatal(err)
	}
	f := Filter{Text: "smith", Quick: []jobs.QuickFilter{jobs.QuickMatched, jobs.QuickMobile}}
	if err := r.Filter(f); err != nil {
		t.Fatal(err)
	}
	status := col("match_status")
	var expect []int
	for i, row := range want {
		mobile := row[col("phone_1_type")] == "mobile" || row[col("phone_2_type")] == "mobile" || row[col("phone_3_type")] == "mobile"
		if row[status] == "matched" && mobile && strings.Contains(strings.ToLower(strings.Join(row, "\x00")), "smith") {
			expect = append(expect, i)
		}
	}
	got := r.Permutation()
	if len(expect) == 0 || r.View() != len(expect) {
		t.Fatalf("filter kept %d rows, want %d", r.View(), len(expect))
	}
	sortedGot := slices.Sorted(slices.Values(got))
	if !slices.Equal(sortedGot, expect) {
		t.Fatalf("filter kept the wrong rows")
	}
	for i := 0; i < r.View(); i++ {
		if !slices.Equal(r.Row(i), want[got[i]]) {
			t.Fatalf("view row %d is not file row %d", i, got[i])
		}
	}
	if cur, _, _ := r.Current(); !cur.Equal(f) {
		t.Error("CurrentFilter lost")
	}
}

func TestResultDNCFilters(t *testing.T) {
	body := "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
		"2125550101,2125550101,false,false,mobile,ok\r\n" +
		"2125550102,2125550102,true,false,mobile,ok\r\n" +
		"2125550103,2125550103,false,true,landline,ok\r\n" +
		"bad,,false,false,unknown,invalid\r\n"
	r := openBody(t, "d.csv", body)
	dateOwn(r)
	for _, tc := range []struct {
		f    Filter
		want []int
	}{
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickNotDNC}}, []int{0, 2, 3}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickNotLitigator}}, []int{0, 1, 3}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickNotDNC, jobs.QuickNotLitigator}}, []int{0, 3}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickNotDNC}, Text: "212"}, []int{0, 2}},
	} {
		if err := r.Filter(tc.f); err != nil {
			t.Fatal(err)
		}
		if got := r.Permutation(); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
	}
	if err := r.Filter(Filter{Quick: []jobs.QuickFilter{jobs.QuickMatched}}); err == nil {
		t.Error("MatchedOnly on a DNC result accepted")
	}
}

func TestOpenResultErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenResult(filepath.Join(dir, "missing.csv")); err == nil {
		t.Error("missing file opened")
	}
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, []byte("\r\n,,\r\n"), 0o644)
	if _, err := OpenResult(empty); err == nil || !strings.Contains(err.Error(), "empty.csv") {
		t.Errorf("empty file: %v", err)
	}
	p, _, _ := generated(t, 20000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := OpenResultContext(ctx, p, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled open: %v", err)
	}
	var last, total int64
	r, err := OpenResultContext(context.Background(), p, func(d, t int64) { last, total = d, t })
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if last != total || total == 0 {
		t.Errorf("progress ended at %d/%d", last, total)
	}
	if err := r.Query(ctx, Filter{}, 0, false, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled sort: %v", err)
	}
}

func TestResultRepeatedQueryIsFree(t *testing.T) {
	p, headers, _ := generated(t, 1000)
	r := opened(t, p)
	col := slices.Index(headers, "last_name")
	if err := r.Sort(col, false); err != nil {
		t.Fatal(err)
	}
	if err := r.Filter(Filter{Text: "smith"}); err != nil {
		t.Fatal(err)
	}
	first := r.Permutation()
	// A cancelled context shows whether work was redone: the same sort
	// and filter again return at once without error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Query(ctx, Filter{Text: "smith"}, col, false, nil); err != nil {
		t.Errorf("same sort and filter redone: %v", err)
	}
	if !slices.Equal(r.Permutation(), first) {
		t.Error("view changed")
	}
	if err := r.Query(ctx, Filter{Text: "smith"}, col, true, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a new direction was not computed: %v", err)
	}
}

// The viewer reads cells on the UI goroutine while a sort or filter runs
// on another: no race, and every cell read is a cell of the file.
func TestResultConcurrentViewChanges(t *testing.T) {
	p, headers, want := generated(t, 3000)
	r := opened(t, p)
	valid := map[string]bool{"": true}
	for _, row := range want {
		valid[row[0]] = true
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 6; i++ {
			_ = r.Sort(i%len(headers), i%2 == 0)
			_ = r.Filter(Filter{Text: []string{"a", "smith", ""}[i%3]})
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		for row := 0; row < 1200; row += 7 {
			if v := r.Cell(row, 0); !valid[v] {
				t.Fatalf("Cell(%d,0) = %q: not a record id", row, v)
			}
		}
	}
}

// A quote inside an unquoted value (a nickname written without quoting the
// field) is a character: the row after it stays a row of its own, in the
// viewer, the search, the streaming reader and the row count alike.
func TestStrayQuotesKeepRows(t *testing.T) {
	body := "first_name,last_name,phone_1\r\n" +
		"JOHN \"JACK\",SMITH,2125550101\r\n" +
		"ANN,O\"BRIEN,2125550102\r\n" +
		"BOB,RAY,2125550103\r\n" +
		"\"CAL \"\"C\"\"\",\"POE\r\nJR\",2125550104\r\n" +
		"DEE,LEE,2125550105\r\n"
	want := [][]string{
		{"JOHN \"JACK\"", "SMITH", "2125550101"},
		{"ANN", "O\"BRIEN", "2125550102"},
		{"BOB", "RAY", "2125550103"},
		{"CAL \"C\"", "POE\r\nJR", "2125550104"},
		{"DEE", "LEE", "2125550105"},
	}
	p := testlists.WriteFile(t, "stray.csv", body)
	r := opened(t, p)
	rows, err := r.page(0, 10)
	if err != nil || len(rows) != len(want) {
		t.Fatalf("%d rows (%v), want %d: %q", len(rows), err, len(want), rows)
	}
	for i := range want {
		if !slices.Equal(rows[i], want[i]) {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
	if w := r.Warnings(); w != nil {
		t.Errorf("warnings on a readable file: %q", w)
	}
	wantRowReader(t, body, want)
	if n, err := CountRows(strings.NewReader(body)); n != len(want) || err != nil {
		t.Errorf("CountRows = %d, %v", n, err)
	}
	lib, _ := Open(filepath.Dir(p))
	hits, err := lib.Search(context.Background(), "(212) 555-0103", 10)
	if err != nil || len(hits) != 1 || hits[0].Row != 3 || hits[0].Line != 4 {
		t.Errorf("search for the row after the stray quotes: %+v, %v", hits, err)
	}
	hits, _ = lib.Search(context.Background(), "DEE", 10)
	if len(hits) != 1 || hits[0].Row != 5 || hits[0].Line != 7 {
		t.Errorf("search after a quoted line break: %+v", hits)
	}
}

// A quoted value never closed swallows the rest of the file into one last
// row: CSV has no way to tell, but the reader says so instead of showing
// fewer rows in silence.
func TestUnclosedQuoteIsReported(t *testing.T) {
	body := "first_name,phone_1\r\nANN,2125550101\r\n\"BOB,2125550102\r\nCAL,2125550103\r\n"
	r := openBody(t, "unclosed.csv", body)
	if r.Len() != 2 {
		t.Fatalf("%d rows, want 2 (the second holding the rest of the file)", r.Len())
	}
	w := r.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "line 3") || !strings.Contains(w[0], "never closed") {
		t.Fatalf("warnings = %q", w)
	}
	rr, _ := NewRowReader(strings.NewReader(body))
	for {
		if _, err := rr.Next(); err != nil {
			break
		}
	}
	if !slices.Equal(rr.Warnings(), w) {
		t.Errorf("RowReader warnings %q, Result %q", rr.Warnings(), w)
	}
}
