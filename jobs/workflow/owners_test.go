package workflow

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index/indextest"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/reuse"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The quote's look-up by owner hash, merged with the index's owner runs
// read while the list is counted, finds the rows traced before that the
// look-up by owner key (Traced, the look-up a team's index and the
// submission use) finds: the same rows and dates, with the
// duplicates and without, on a generated library and a list of its owners
// rewritten, repeated, never traced and without an address; Read and
// Count find the same.
func TestQuoteOwnersAsTraced(t *testing.T) {
	t.Parallel()
	d := offline(t)
	ctx := context.Background()
	results, err := indextest.WriteLibrary(libDir(d), 3, 1500)
	if err != nil {
		t.Fatal(err)
	}
	path := ownersList(t, testlists.ReadCSV(t, results[1]))
	ins, err := input.Inspect(ctx, path, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := mapping.Mapping{mapping.FirstName: "first", mapping.LastName: "last", mapping.PropertyStreet: "street",
		mapping.PropertyCity: "city", mapping.PropertyState: "state", mapping.PropertyZip: "zip"}
	p := Plan{Kind: jobs.KindTrace, Path: path, Mapping: m, Mode: jobs.ModeNormal, PadZips: true}
	byHash := d.lookFor(ctx, p, true)
	defer byHash.close()
	if byHash.runs == nil {
		t.Fatal("the look-up does not read the owner runs")
	}
	if _, err := count(ctx, p, ins, byHash); err != nil {
		t.Fatal(err)
	}
	got := byHash.finish(ctx, d.core, p, ins, nil)
	byKey := &reuseLook{x: byHash.x, rc: &reuseCounts{at: got.at}, rows: &reuse.Gather{}}
	c, err := count(ctx, p, ins, byKey)
	if err != nil {
		t.Fatal(err)
	}
	want := byKey.finish(ctx, d.core, p, ins, c)
	if got.err != nil || want.err != nil {
		t.Fatal(got.err, want.err)
	}
	if !reflect.DeepEqual(got.all, want.all) || !reflect.DeepEqual(got.noDup, want.noDup) {
		t.Errorf("by hash %d rows traced before, %d without duplicates; by key %d, %d", len(got.all), len(got.noDup), len(want.all), len(want.noDup))
	}
	if len(want.all) < 300 || len(want.noDup) == len(want.all) || len(want.all) > 1200 {
		t.Errorf("%d rows traced before, %d without duplicates: the list does not test it", len(want.all), len(want.noDup))
	}
	_, _, read, err := d.Quotes().Read(ctx, path, input.Options{}, func(*input.Inspection) (Plan, error) { return p, nil })
	if err != nil {
		t.Fatal(err)
	}
	if r := read.reuse; r == nil || !reflect.DeepEqual(r.all, want.all) || !reflect.DeepEqual(r.noDup, want.noDup) {
		t.Errorf("Read found %d rows traced before, %d without duplicates; by key %d, %d", len(r.all), len(r.noDup), len(want.all), len(want.noDup))
	}
}

// ownersList writes a list of a generated trace result's owners: every
// other row's, some in another case and spacing, some twice, some at
// another house or without a street, and its companies.
func ownersList(t *testing.T, result [][]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("first,last,street,city,state,zip,note\n")
	h := result[0]
	at := func(r []string, name string) string { return r[col(t, h, name)] }
	for i, r := range result[1:] {
		if i%2 == 1 {
			continue
		}
		first, last, street := at(r, "first_name"), at(r, "last_name"), at(r, "property_address")
		switch i % 20 {
		case 2:
			first, street = strings.ToLower(first), " "+street+"."
		case 4:
			street = "77" + street // never traced
		case 6:
			street = ""
		case 8:
			last += " LLC"
		}
		line := fmt.Sprintf("%s,%s,%s,%s,%s,%s,%d\n", first, last, street, at(r, "property_city"), at(r, "property_state"),
			strings.TrimLeft(at(r, "property_zip"), "0"), i)
		b.WriteString(line)
		if i%10 == 0 {
			b.WriteString(line) // twice
		}
	}
	return testlists.WriteFile(t, filepath.Base(t.Name())+".csv", b.String())
}
