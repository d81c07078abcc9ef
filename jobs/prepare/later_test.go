package prepare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// laterList writes an owner list of n rows: owners (some companies, some
// one-word names a split fails on) repeated at random distances, in
// another case and spacing, with blank streets, short ZIP codes and
// phones invalid or outside the US.
func laterList(t *testing.T, n int, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("Owner,Address,City,State,Zip,Phone,Note\n")
	owners := []string{"Ann Lee", "ACME HOLDINGS LLC", "Prince", "Bo Ray", "Lee Family Trust", "Cher", "Dana Cruz", "Smith Properties Inc"}
	type row struct{ owner, street, city, zip, phone string }
	var rows []row
	for i := range n {
		var x row
		if len(rows) > 0 && r.IntN(4) == 0 { // a duplicate, near or far
			x = rows[r.IntN(len(rows))]
			if r.IntN(2) == 0 {
				x.owner, x.street = strings.ToUpper(x.owner), "  "+x.street+"."
			}
		} else {
			x = row{owner: owners[r.IntN(len(owners))], street: fmt.Sprintf("%d Elm St", r.IntN(n/3+1)),
				city: []string{"Austin", "Waco", ""}[r.IntN(3)], zip: fmt.Sprintf("%d", 1000+r.IntN(99000)),
				phone: fmt.Sprintf("(512) 555-%04d", r.IntN(3000))}
			if r.IntN(15) == 0 {
				x.street = "" // a blank mapped value: left out, or a key of its own
			}
			if r.IntN(30) == 0 {
				x.phone = "555"
			}
			if r.IntN(20) == 0 {
				x.phone = fmt.Sprintf("(416) 555-%04d", r.IntN(300)) // Toronto: outside the US
			}
		}
		rows = append(rows, x)
		fmt.Fprintf(&b, "%s,%s,%s,TX,%s,%s,%d\n", x.owner, x.street, x.city, x.zip, x.phone, i)
	}
	return testlists.WriteFile(t, fmt.Sprintf("owners-%d.csv", seed), b.String())
}

// TestCountLaterIsRowByRow: the count that finds duplicate rows after the
// pass (CountBoth without a row function) gives the tally the row-by-row
// count gives (with one), on generated lists whose duplicates fall in
// every part of the split set: rows, company rows, duplicates, split
// failures and repairs, with and without the duplicates, for traces with
// splits, repairs and a Keep, and for a phone list.
func TestCountLaterIsRowByRow(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		p := laterList(t, 20000, seed)
		ins := inspect(t, p, input.Options{})
		for name, plan := range laterPlans(t, ins) {
			later, err := CountBoth(context.Background(), p, ins, plan, nil)
			if err != nil {
				t.Fatal(err)
			}
			rowByRow, err := CountBoth(context.Background(), p, ins, plan, func([]string, bool, bool) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(later, rowByRow) {
				t.Errorf("seed %d, %s: counted after the pass %+v, row by row %+v", seed, name, *later, *rowByRow)
			}
			if later.Without.DroppedDuplicates < 3000 || later.With.Rows == later.Without.Rows {
				t.Errorf("seed %d, %s: %d duplicates: the list does not test them", seed, name, later.Without.DroppedDuplicates)
			}
		}
	}
}

// laterPlans are plans of a laterList's rows: traces with splits,
// repairs, a Keep, a key of their own, and a phone list.
func laterPlans(t *testing.T, ins *input.Inspection) map[string]Plan {
	m, splits := ownerSplit(t, ins)
	return map[string]Plan{
		"mapped":  {Kind: jobs.KindTrace, Mapping: m, Splits: splits},
		"repairs": {Kind: jobs.KindTrace, Mapping: m, Splits: splits, Repairs: Repairs{PadZips: []string{"Zip"}, LeaveOutBlank: []string{"Address"}}},
		"keep": {Kind: jobs.KindTrace, Mapping: m, Splits: splits, Repairs: Repairs{PadZips: []string{"Zip"}},
			Keep: func(rec []string) bool { return rec[2] != "" }},
		"key":    {Kind: jobs.KindTrace, Mapping: m, Splits: splits, KeyColumns: []string{"Owner", "Zip"}},
		"phones": {Kind: jobs.KindDNC, Mapping: mapping.Mapping{mapping.Phone: "Phone"}, Repairs: Repairs{LeaveOutInvalid: true}},
		"abroad": {Kind: jobs.KindDNC, Mapping: mapping.Mapping{mapping.Phone: "Phone"}, Repairs: Repairs{LeaveOutAbroad: true}},
	}
}

// handed is what a count handed on: the header, the rows, and the places
// of the rows told repeating an earlier one (sorted).
type handed struct {
	header []string
	rows   []string
	dups   []int
}

// TestCounterHandingIsRowByRow: a counter that hands its rows on and
// finds their duplicates after the pass (NewCounterHanding) hands the
// rows, and tells the duplicates, that the row-by-row count (CountBoth
// with a row function) does, and counts the same tally, its company rows
// the ones it hands as such, on generated lists and every plan of
// TestCountLaterIsRowByRow.
func TestCounterHandingIsRowByRow(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{4} {
		p := laterList(t, 8000, seed)
		ins := inspect(t, p, input.Options{})
		for name, plan := range laterPlans(t, ins) {
			var want, got handed
			rowByRow, err := CountBoth(context.Background(), p, ins, plan, func(rec []string, header, dup bool) error {
				want.add(rec, header, dup)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var companies int
			c, err := NewCounterHanding(p, ins, plan, func(rec []string, header, company bool) error {
				got.add(rec, header, false)
				if company {
					companies++
				}
				return nil
			}, func(row int) { got.dups = append(got.dups, row) })
			if err != nil {
				t.Fatal(err)
			}
			if c.later == nil {
				t.Fatalf("%s: the rows are counted row by row", name)
			}
			if err := eachRow(context.Background(), p, ins, plan, c.rs.headers, c.Row); err != nil {
				t.Fatal(err)
			}
			tally := c.Tally()
			slices.Sort(got.dups)
			if !reflect.DeepEqual(got, want) || len(want.dups) == 0 {
				t.Errorf("seed %d, %s: handed %d rows, %d repeated; row by row %d, %d", seed, name, len(got.rows), len(got.dups), len(want.rows), len(want.dups))
			}
			if !reflect.DeepEqual(tally, rowByRow) {
				t.Errorf("seed %d, %s: counted %+v, row by row %+v", seed, name, *tally, *rowByRow)
			}
			if companies != tally.With.EntityRows || (companies == 0 && plan.Kind == jobs.KindTrace) {
				t.Errorf("seed %d, %s: %d company rows handed, %d counted", seed, name, companies, tally.With.EntityRows)
			}
		}
	}
}

func (h *handed) add(rec []string, header, dup bool) {
	if header {
		h.header = slices.Clone(rec)
		return
	}
	if dup {
		h.dups = append(h.dups, len(h.rows))
	}
	h.rows = append(h.rows, strings.Join(rec, "\x00"))
}

// TestLaterSetIsKeySet: the split set finds the keys a whole set finds,
// in every part and in file order, whatever the queue's length when the
// pass ends.
func TestLaterSetIsKeySet(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	var want, got []rowEffect
	whole := newKeySet(0)
	later := newLaterSet(1000, func(e rowEffect, row uint32) {
		if e != rowEffect(row) {
			t.Errorf("row %d found with the effect of row %d", row, e)
		}
		got = append(got, e)
	})
	for i := range 300000 {
		k := [2]uint64{r.Uint64(), r.Uint64()}
		if i > 0 && r.IntN(3) == 0 {
			k = [2]uint64{uint64(r.IntN(i)) << 56, 0} // repeated keys in every part, the zero key too
		}
		if whole.seenBefore(k) {
			want = append(want, rowEffect(i))
		}
		later.add(k, rowEffect(i), uint32(i))
	}
	later.flush()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d repeated keys found after the pass, %d row by row", len(got), len(want))
	}
	seen := map[rowEffect]bool{}
	for _, e := range got {
		seen[e] = true
	}
	for _, e := range want {
		if !seen[e] {
			t.Fatalf("row %d repeats an earlier key: not found after the pass", e)
		}
	}
}

// TestAppendNormalized: the table-driven key form is the rule's, byte by
// byte (ASCII letters uppercased, digits and non-ASCII bytes kept, the
// rest dropped, then a separator), appended to what is there.
func TestAppendNormalized(t *testing.T) {
	t.Parallel()
	plain := func(dst []byte, f string) []byte {
		for _, c := range []byte(f) {
			switch {
			case c >= 'a' && c <= 'z':
				dst = append(dst, c-'a'+'A')
			case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80:
				dst = append(dst, c)
			}
		}
		return append(dst, 0x1f)
	}
	r := rand.New(rand.NewPCG(3, 3))
	for range 5000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		f := string(b)
		head := []byte("ANN\x1f")[:r.IntN(5)]
		if got, want := appendNormalized(slices.Clone(head), f), plain(slices.Clone(head), f); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, want %q", f, got, want)
		}
	}
	if got := string(appendNormalized(nil, "  Peña, St. 12-b ")); got != "PEñAST12B\x1f" {
		t.Errorf("got %q", got)
	}
}

// ownerSplit maps an owner list's address columns and splits its Owner
// column into first and last names, as the automatic mapping suggests.
func ownerSplit(t *testing.T, ins *input.Inspection) (mapping.Mapping, []mapping.Split) {
	t.Helper()
	sug := mapping.AutoMap(ins.Headers, ins.Sample, jobs.KindTrace)
	if len(sug.Splits) != 1 {
		t.Fatalf("splits %+v", sug.Splits)
	}
	m := mapping.Mapping{mapping.PropertyStreet: "Address", mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	for i, c := range sug.Splits[0].Columns(ins.Headers) {
		m[sug.Splits[0].Keys[i]] = c
	}
	return m, sug.Splits
}
