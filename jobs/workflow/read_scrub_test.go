package workflow

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
)

// Read scans a scrub's phone column in the reading that inspects the list,
// as ScanColumn scans it in a reading of its own: the same counts, the same
// examples with their lines, on generated phone lists as people's lists
// come (numbers in every format, extensions, blanks, repeats, junk, quoted
// fields over several lines, blank lines, CRLF, a BOM, .xlsx), with samples
// shorter and longer than the list and lists longer than a batch of rows.
func TestReadScansAsScanColumn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// 300 generated lists; 60 with -short, and under the race detector
	// (make test runs the 300 again without it).
	cases := 300
	if testing.Short() || raceDetector {
		cases = 60
	}
	dir := t.TempDir()
	for seed := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed), 17))
		path, col := phoneList(t, dir, seed, rng)
		opts := input.Options{SampleRows: []int{0, 1, 7, 100, -1}[rng.IntN(5)]}
		settle := func(ins *input.Inspection) (Plan, error) {
			return Plan{Kind: jobs.KindDNC, Path: path, Mapping: mapping.Mapping{mapping.Phone: col}}, nil
		}
		ins, p, c, err := Read(ctx, path, opts, settle)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if c == nil || !c.Fits(p) || c.Phones == nil {
			t.Fatalf("seed %d: Read counted %+v", seed, c)
		}
		want, err := phone.ScanColumn(ctx, path, col, scanOptions(p, ins))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c.Phones, want) {
			t.Fatalf("seed %d (%s): Read scanned\n%+v\nScanColumn\n%+v", seed, filepath.Base(path), c.Phones, want)
		}
		if c.Rows != want.Rows || c.Duplicates != want.Duplicates || c.RowsWithout != want.Rows-want.Duplicates {
			t.Fatalf("seed %d: counts %+v for scan %+v", seed, c, want)
		}
	}
}

// A plan that reads the list otherwise than the inspection did (another
// header line) is not scanned in its pass: Count scans it.
func TestReadLeavesAnotherReadingToCount(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "phones.csv")
	if err := os.WriteFile(path, []byte("Report of phones\nName,Phone\nA,2125550147\nB,2125550148\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	settle := func(ins *input.Inspection) (Plan, error) {
		return Plan{Kind: jobs.KindDNC, Path: path, Input: input.Options{HeaderLine: 1}, Mapping: mapping.Mapping{mapping.Phone: "Report of phones"}}, nil
	}
	_, _, c, err := Read(context.Background(), path, input.Options{HeaderLine: 2}, settle)
	if err != nil || c != nil {
		t.Fatalf("a plan read from another header line: counts %+v, %v; want none", c, err)
	}
}

// phoneList writes a generated phone list (CSV or .xlsx) and returns it
// with its phone column's header.
func phoneList(t *testing.T, dir string, seed int, rng *rand.Rand) (string, string) {
	t.Helper()
	headers := []string{"Name", "Phone", "Notes"}
	if rng.IntN(4) == 0 {
		headers = []string{"Cell Phone"} // a bare list of numbers
	}
	col := headers[min(1, len(headers)-1)]
	n := 1 + rng.IntN(40)
	if rng.IntN(6) == 0 {
		n = 2048 + rng.IntN(3000) // past a batch of rows
	}
	var pool []string
	rows := make([][]string, n)
	for i := range rows {
		v := phoneValue(rng, &pool)
		if len(headers) == 1 {
			rows[i] = []string{v}
			continue
		}
		notes := []string{"", "call after 5", "said \"no\", twice", "line one\nline two", "a, b"}[rng.IntN(5)]
		rows[i] = []string{fmt.Sprintf("Owner %d", i), v, notes}
	}
	if rng.IntN(5) == 0 {
		path := filepath.Join(dir, fmt.Sprintf("list%d.xlsx", seed))
		writeXLSX(t, path, headers, rows)
		return path, col
	}
	var b strings.Builder
	if rng.IntN(5) == 0 {
		b.WriteString("\ufeff")
	}
	eol := []string{"\n", "\r\n"}[rng.IntN(2)]
	b.WriteString(strings.Join(headers, ",") + eol)
	for _, r := range rows {
		if rng.IntN(15) == 0 {
			b.WriteString(strings.Repeat(",", len(headers)-1) + eol) // a blank line
		}
		for j, f := range r {
			if j > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(f, ",\"\n") || rng.IntN(10) == 0 {
				f = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
			}
			b.WriteString(f)
		}
		b.WriteString(eol)
	}
	path := filepath.Join(dir, fmt.Sprintf("list%d.csv", seed))
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, col
}

// phoneValue is one phone cell as lists hold them; a number seen before
// comes back now and then (pool).
func phoneValue(rng *rand.Rand, pool *[]string) string {
	if len(*pool) > 0 && rng.IntN(6) == 0 {
		return (*pool)[rng.IntN(len(*pool))]
	}
	d := fmt.Sprintf("%d%02d%d%06d", 2+rng.IntN(8), rng.IntN(100), 2+rng.IntN(8), rng.IntN(1000000))
	var v string
	switch rng.IntN(12) {
	case 0:
		v = fmt.Sprintf("(%s) %s-%s", d[:3], d[3:6], d[6:])
	case 1:
		v = fmt.Sprintf("%s.%s.%s", d[:3], d[3:6], d[6:])
	case 2:
		v = "+1 " + d
	case 3:
		v = "1-" + d[:3] + "-" + d[3:6] + "-" + d[6:]
	case 4:
		v = d + " x" + fmt.Sprint(rng.IntN(999))
	case 5:
		v = ""
	case 6:
		v = d[:7] // too short
	case 7:
		v = []string{"n/a", "none", "555-CALL-NOW", "  ", "2.12555E+09"}[rng.IntN(5)]
	case 8:
		v = " " + d + " "
	default:
		v = d
	}
	*pool = append(*pool, v)
	return v
}

func writeXLSX(t *testing.T, path string, headers []string, rows [][]string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	put := func(r int, vals []string) {
		cells := make([]any, len(vals))
		for i, v := range vals {
			cells[i] = v
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		if err := sw.SetRow(cell, cells); err != nil {
			t.Fatal(err)
		}
	}
	put(1, headers)
	for i, r := range rows {
		put(i+2, r)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// A scrub's price counts what its upload holds: on generated phone lists
// (invalid, repeated and foreign numbers among them), for every choice of
// leaving out invalid numbers, numbers outside the US and repeats, the rows
// priced, the repeats and the numbers abroad left out are those of the
// prepared copy, and none of its numbers is abroad once they are left out.
func TestScrubPriceIsItsUpload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rates := Rates{Pricing: &client.Pricing{Rates: client.Rates{DNC: 2}}}
	for seed := range 10 {
		rng := rand.New(rand.NewPCG(uint64(seed), 31))
		rows := [][]string{{"Phone"}}
		var pool []string
		for range 40 + rng.IntN(80) {
			v := phoneValue(rng, &pool)
			if rng.IntN(5) == 0 {
				v = fmt.Sprintf("(%d) 555-01%02d", []int{416, 604, 876, 809}[rng.IntN(4)], rng.IntN(8))
				pool = append(pool, v)
			}
			rows = append(rows, []string{v})
		}
		path := filepath.Join(dir, fmt.Sprintf("list%d.csv", seed))
		writeCSV(t, path, rows)
		ins, err := input.Inspect(t.Context(), path, input.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for choice := range 8 {
			p := Plan{Kind: jobs.KindDNC, Path: path, Mapping: mapping.Mapping{mapping.Phone: "Phone"},
				LeaveOutInvalid: choice&1 != 0, LeaveOutAbroad: choice&2 != 0, DropDuplicates: choice&4 != 0}
			c, err := Count(t.Context(), p, ins)
			if err != nil {
				t.Fatal(err)
			}
			q := Price(c, p, rates)
			pp := p.prepare(ins, p.DropDuplicates)
			pp.Dir = t.TempDir()
			up, err := prepare.Prepare(t.Context(), path, ins, pp)
			if err != nil {
				t.Fatal(err)
			}
			if q.Rows != up.Rows || q.Credits != int64(2*up.Rows) || q.DroppedDuplicates != up.DroppedDuplicates || q.Upload.LeftOutAbroad != up.LeftOutAbroad {
				t.Errorf("seed %d, choice %03b: priced %d rows (%d credits), %d repeats and %d abroad left out; the upload holds %d, left out %d and %d",
					seed, choice, q.Rows, q.Credits, q.DroppedDuplicates, q.Upload.LeftOutAbroad, up.Rows, up.DroppedDuplicates, up.LeftOutAbroad)
			}
			if p.LeaveOutAbroad && c.Phones.Abroad == 0 {
				t.Errorf("seed %d: no number abroad in the list", seed)
			}
			b, err := os.ReadFile(up.Path)
			if err != nil {
				t.Fatal(err)
			}
			sent, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range sent[1:] {
				if p.LeaveOutAbroad && phone.Abroad(phone.Key(r[0])) != "" {
					t.Errorf("seed %d, choice %03b: %q sent", seed, choice, r[0])
				}
			}
		}
	}
}

// With scrubs in the library, Read finds the numbers it could reuse in the
// reading that inspects the list, as Count finds them reading it again: the
// same rows held, with the repeats and without, whatever the plan leaves
// out, on generated phone lists holding numbers scrubbed before.
func TestReadFindsReusableScrubsAsCount(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	dir := t.TempDir()
	first, _ := scrubbedBefore(t, ctx, d, dir, "21255501", 40)

	for seed := range 12 {
		rng := rand.New(rand.NewPCG(uint64(seed), 29))
		rows := [][]string{{"Name", "Phone"}}
		var pool []string
		for i := range 30 + rng.IntN(60) {
			v := phoneValue(rng, &pool)
			if rng.IntN(3) == 0 { // a number scrubbed before, written otherwise
				n := first[rng.IntN(40)]
				v = "(" + n[:3] + ") " + n[3:6] + "-" + n[6:]
			}
			rows = append(rows, []string{fmt.Sprintf("Owner %d", i), v})
		}
		path := filepath.Join(dir, fmt.Sprintf("list%d.csv", seed))
		writeCSV(t, path, rows)
		plan := Plan{Kind: jobs.KindDNC, Path: path, Mapping: mapping.Mapping{mapping.Phone: "Phone"},
			DropDuplicates: seed%2 == 0, LeaveOutInvalid: seed%3 != 0, LeaveOutAbroad: seed%4 < 2, Reuse: true}
		ins, p, c, err := d.Quotes().Read(ctx, path, input.Options{}, func(*input.Inspection) (Plan, error) { return plan, nil })
		if err != nil {
			t.Fatal(err)
		}
		want, err := d.Quotes().Count(ctx, p, ins)
		if err != nil {
			t.Fatal(err)
		}
		if c.reuse == nil || want.reuse == nil || c.reuse.err != nil || want.reuse.err != nil {
			t.Fatalf("seed %d: reuse read %+v, counted %+v", seed, c.reuse, want.reuse)
		}
		if len(want.reuse.all) == 0 {
			t.Fatalf("seed %d: the list holds no number scrubbed before", seed)
		}
		if !reflect.DeepEqual(c.reuse.all, want.reuse.all) || !reflect.DeepEqual(c.reuse.noDup, want.reuse.noDup) {
			t.Fatalf("seed %d: read found %d and %d rows held, Count %d and %d", seed,
				len(c.reuse.all), len(c.reuse.noDup), len(want.reuse.all), len(want.reuse.noDup))
		}
	}
}

// While the library's index has a result to read, the reading shows the
// list without waiting for it: the inspection comes with no counts (so no
// price, and no saving, that the library could change), the index is
// brought up to date in the background, and Count then finds the numbers
// the new result holds.
func TestReadLeavesTheLookUpToCountWhileTheIndexIsBehind(t *testing.T) {
	t.Parallel()
	other, ctx := sandboxDesk(t)
	dir := t.TempDir()
	_, o := scrubbedBefore(t, ctx, other, dir, "21255502", 20)
	// A result the index has not read: a desk whose folder holds the
	// other's result, with its job record, as a download leaves them (and
	// no download of its own that would index them in the background).
	d, _ := sandboxDesk(t)
	again := filepath.Join(libDir(d), filepath.Base(o.ResultPath))
	if err := os.MkdirAll(libDir(d), 0o700); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{o.ResultPath: again, library.RecordPath(o.ResultPath): library.RecordPath(again)} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "list.csv")
	writeCSV(t, path, [][]string{{"Phone"}, {"(212) 555-0201"}, {"2125550299"}, {"212 555 0203"}})
	plan := Plan{Kind: jobs.KindDNC, Path: path, Mapping: mapping.Mapping{mapping.Phone: "Phone"}, Reuse: true}
	ins, p, c, err := d.Quotes().Read(ctx, path, input.Options{}, func(*input.Inspection) (Plan, error) { return plan, nil })
	if err != nil {
		t.Fatal(err)
	}
	if ins == nil || ins.Rows != 3 {
		t.Fatalf("inspection %+v", ins)
	}
	if c != nil {
		t.Fatalf("counted while the index was behind: %+v", c)
	}
	want, err := d.Quotes().Count(ctx, p, ins)
	if err != nil {
		t.Fatal(err)
	}
	if want.reuse == nil || want.reuse.err != nil || len(want.reuse.all) != 2 {
		t.Fatalf("Count's look-up: %+v", want.reuse)
	}
	// Once current, the reading counts in its pass again, as Count does.
	_, _, c, err = d.Quotes().Read(ctx, path, input.Options{}, func(*input.Inspection) (Plan, error) { return plan, nil })
	if err != nil {
		t.Fatal(err)
	}
	if c == nil || c.reuse == nil || !reflect.DeepEqual(c.reuse.all, want.reuse.all) {
		t.Fatalf("read once the index was current: %+v", c)
	}
}

// scrubbedBefore scrubs, in d, a list of n numbers: prefix and two digits
// from 00 on; it returns them and the job's outcome, its result indexed.
func scrubbedBefore(t *testing.T, ctx context.Context, d *Service, dir, prefix string, n int) ([]string, *Outcome) {
	t.Helper()
	rows := [][]string{{"phone"}}
	var nums []string
	for i := range n {
		nums = append(nums, fmt.Sprintf("%s%02d", prefix, i))
		rows = append(rows, []string{nums[i]})
	}
	path := filepath.Join(dir, "first.csv")
	writeCSV(t, path, rows)
	_, o := traceAndWait(t, ctx, d, Plan{Kind: jobs.KindDNC, Path: path, Mapping: mapping.Mapping{mapping.Phone: "phone"}}, nil)
	if o == nil || o.ResultPath == "" {
		t.Fatalf("no result: %+v", o)
	}
	return nums, o
}
