package library

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// fixture copies a file of the layout package's examples into dir.
func fixture(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "layout", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// dateOwn reads r with its own answers dated an hour ago (a result's own
// answers of no known date make no phone callable).
func dateOwn(r *Result) {
	x := layout.NewFlagIndex()
	x.SetDates(time.Now().Add(-time.Hour), time.Now())
	r.SetLayout(r.Layout(), x)
}

func openFixture(t *testing.T, name string) *Result {
	t.Helper()
	return opened(t, fixture(t, t.TempDir(), name))
}

// opened opens the result at p; it is closed when the test ends.
func opened(t testing.TB, p string) *Result {
	t.Helper()
	r, err := OpenResult(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// started opens the result at p as StartResult does (its store built
// in the background); it is closed when the test ends.
func started(t testing.TB, p string) *Result {
	t.Helper()
	r, err := StartResult(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// openBody writes body to a file called name in a folder of the test's own
// and opens it as a result.
func openBody(t testing.TB, name, body string) *Result {
	t.Helper()
	return opened(t, testlists.WriteFile(t, name, body))
}

// wantRowReader checks that the streaming RowReader reads body's records
// as want, in order, and returns it for what follows.
func wantRowReader(t testing.TB, body string, want [][]string) *RowReader {
	t.Helper()
	rr, err := NewRowReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		rec, err := rr.Next()
		if err != nil || !slices.Equal(rec, want[i]) {
			t.Fatalf("RowReader row %d = %q, %v; want %q", i+1, rec, err, want[i])
		}
	}
	return rr
}

// Quick filters read a foreign layout's own flags: PropStream's per-phone
// DNC and row-level Litigator.
func TestQuickFiltersForeignLayout(t *testing.T) {
	r := openFixture(t, "propstream.csv")
	dateOwn(r)
	if q := fmt.Sprint(r.QuickFilters()); q != "[mobile not-dnc not-litigator callable]" {
		t.Errorf("quick filters %+v", q)
	}
	for _, tt := range []struct {
		f    Filter
		want []int
	}{
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickCallable}}, []int{0, 2}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickNotLitigator}}, []int{0, 2}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickNotDNC}}, []int{0, 1, 2, 3}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickMobile, jobs.QuickCallable}}, []int{0, 2}},
		{Filter{Quick: []jobs.QuickFilter{jobs.QuickCallable}, Text: "linda"}, []int{2}},
	} {
		if err := r.Filter(tt.f); err != nil {
			t.Fatalf("%+v: %v", tt.f, err)
		}
		if got := r.Permutation(); !slices.Equal(got, tt.want) {
			t.Errorf("%+v: rows %v, want %v", tt.f, got, tt.want)
		}
	}
	err := r.Filter(Filter{Quick: []jobs.QuickFilter{jobs.QuickMatched}})
	if err == nil || !strings.Contains(err.Error(), "match status") {
		t.Errorf("matched on a file without match status: %v", err)
	}
}

// A trace without flags: DNC quick filters say why they cannot apply, until
// the flags of a DNC result (in another layout) are joined.
func TestQuickFiltersWithJoinedFlags(t *testing.T) {
	dir := t.TempDir()
	r := opened(t, fixture(t, dir, "tracerfy.csv"))
	err := r.Filter(Filter{Quick: []jobs.QuickFilter{jobs.QuickCallable}})
	if err == nil || !strings.Contains(err.Error(), "scrub its phones first") {
		t.Fatalf("callable without flags: %v", err)
	}
	if r.View() != r.Len() {
		t.Error("a refused filter changed the view")
	}
	scrub := fixture(t, dir, "dnc_vendor_yn.csv")
	// A scrub of ours, dated by its job: a scrub of no known date makes
	// no phone callable.
	lib, _ := Open(dir)
	if err := lib.Record(Meta{JobID: "dnc_1", Kind: jobs.KindDNC, CompletedAt: time.Now().Add(-time.Hour)}, scrub); err != nil {
		t.Fatal(err)
	}
	x, _, err := LoadFlags(context.Background(), layout.Options{}, scrub)
	if err != nil {
		t.Fatal(err)
	}
	r.SetLayout(r.Layout(), x)
	if q := r.QuickFilters(); !slices.Contains(q, jobs.QuickCallable) || !slices.Contains(q, jobs.QuickNotDNC) || slices.Contains(q, jobs.QuickMatched) {
		t.Errorf("quick filters with flags: %+v", q)
	}
	if err := r.Filter(Filter{Quick: []jobs.QuickFilter{jobs.QuickCallable}}); err != nil {
		t.Fatal(err)
	}
	// Row 1 has 0101 (clean in the DNC result); row 2's numbers are in no
	// DNC result: unknown, not callable.
	if got := r.Permutation(); !slices.Equal(got, []int{0}) {
		t.Errorf("callable rows %v, want [0]", got)
	}
	// A trace with no answers of its own is no DNC result; one whose
	// phones carry their scrub's answers (PropStream's DNC, a scrub
	// appended to an owner list) is read as one.
	if _, _, err := LoadFlags(context.Background(), layout.Options{}, fixture(t, dir, "skipdesk_trace.csv")); err == nil ||
		!strings.Contains(err.Error(), "not a DNC result") {
		t.Errorf("a trace without flags as DNC result: %v", err)
	}
	if x, _, err := LoadFlags(context.Background(), layout.Options{}, fixture(t, dir, "propstream.csv")); err != nil || x.Len() == 0 {
		t.Errorf("a trace with its own flags as DNC result: %v", err)
	}
}

// The viewer's text filter finds a phone typed in any format.
func TestFilterFindsPhoneInAnyFormat(t *testing.T) {
	r := openFixture(t, "skipdesk_trace.csv")
	for _, q := range []string{"(512) 555-0104", "512-555-0104", "1 512 555 0104", "5125550104"} {
		if err := r.Filter(Filter{Text: q}); err != nil {
			t.Fatal(err)
		}
		if got := r.Permutation(); !slices.Equal(got, []int{4}) {
			t.Errorf("%q: rows %v, want [4]", q, got)
		}
	}
}

func TestReadLayoutSummary(t *testing.T) {
	p := fixture(t, t.TempDir(), "dnc_vendor_yn.csv")
	s, err := ReadLayout(context.Background(), p, layout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Layout.Kind != layout.KindDNC || s.Rows != 8 || len(s.Readings) != 4 ||
		s.Readings[3].String() != "LITIGATOR (litigator, for Phone): Y -> flagged 1, N -> clean 6, ? -> unknown 1" {
		t.Errorf("summary %+v", s)
	}
}

// Of two DNC results with the same number, the newest (by its job record)
// wins.
func TestLoadFlagsNewestWins(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string, done time.Time) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		lib, _ := Open(dir)
		if err := lib.Record(Meta{JobID: name, Kind: jobs.KindDNC, CompletedAt: done}, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jan := write("a.csv", "phone,dnc,litigator\n5125550101,true,false\n", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	mar := write("b.csv", "PHONE,DNC,LITIGATOR\n5125550101,N,N\n", time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))
	for _, order := range [][]string{{jan, mar}, {mar, jan}} {
		x, _, err := LoadFlags(context.Background(), layout.Options{}, order...)
		if err != nil {
			t.Fatal(err)
		}
		f, src, ok := x.Lookup(5125550101)
		if !ok || src.Name != mar || layout.Callability(true, f) != 0 {
			t.Errorf("order %v: %s from %s", order, layout.Callability(true, f), src.Name)
		}
	}
}

// Another vendor's DNC column that names no list ("DNC Status": Flagged)
// does not say on which list it found the phone, which may be its state's:
// a newer file from elsewhere that answers the registry but not the state
// lists leaves it blocked. The provider's own results (and a newer scrub
// that answers the state lists) clear it, as the newest answer does.
func TestForeignDNCFlaggedLeavesTheStateListsUnknown(t *testing.T) {
	now := time.Date(2026, 11, 26, 17, 0, 0, 0, time.UTC)
	older := "TELEPHONE,Last Scrubbed,DNC Status\n617.597.4420,10/31/26,Flagged\n"
	for _, c := range []struct {
		name, newer string
		record      bool // both files are the provider's own jobs
		callable    bool
	}{
		{"a newer file of the registry alone", "Phone 1,Phone 1 Federal DNC,Phone 1 DNC,Phone 1 TCPA Litigator,Last Scrubbed\n" +
			"617.597.4420,FALSE,NO,Clear,11/20/2026 5:11 PM\n", false, false},
		{"a newer file of the state lists too", "Phone,Federal DNC,State DNC,DNC,Litigator,Last Scrubbed\n" +
			"617.597.4420,N,N,N,N,11/20/2026\n", false, true},
		{"the provider's own results", "Phone 1,Phone 1 Federal DNC,Phone 1 DNC,Phone 1 TCPA Litigator,Last Scrubbed\n" +
			"617.597.4420,FALSE,NO,Clear,11/20/2026 5:11 PM\n", true, true},
	} {
		dir := t.TempDir()
		var paths []string
		for i, body := range []string{older, c.newer} {
			p := filepath.Join(dir, fmt.Sprintf("scrub%d.csv", i+1))
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			if c.record {
				lib, _ := Open(dir)
				if err := lib.Record(Meta{JobID: fmt.Sprintf("dnc_%d", i+1), Kind: jobs.KindDNC, CompletedAt: now.AddDate(0, 0, -30+20*i)}, p); err != nil {
					t.Fatal(err)
				}
			}
			paths = append(paths, p)
		}
		x, _, err := LoadFlags(context.Background(), layout.Options{Now: now}, paths...)
		if err != nil {
			t.Fatal(err)
		}
		x.SetDates(time.Time{}, now)
		f, _, ok := x.Lookup(6175974420)
		if got := layout.Callability(true, f); !ok || (got == 0) != c.callable {
			t.Errorf("%s: %s, want callable %v", c.name, got, c.callable)
		}
	}
}

// Results from elsewhere are listed with their kind read from their layout.
func TestListKindsOfForeignResults(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"propstream.csv", "dnc_vendor_codes.csv", "input_list.csv"} {
		fixture(t, dir, f)
	}
	lib, _ := Open(dir)
	es, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]jobs.Kind{}
	for _, e := range es {
		kinds[filepath.Base(e.Path)] = e.Meta.Kind
	}
	want := map[string]jobs.Kind{"propstream.csv": jobs.KindTrace, "dnc_vendor_codes.csv": jobs.KindDNC, "input_list.csv": ""}
	for f, k := range want {
		if kinds[f] != k {
			t.Errorf("%s: kind %q, want %q", f, kinds[f], k)
		}
	}
	hits, err := lib.Search(context.Background(), "(214) 555-0107", 10)
	if err != nil || len(hits) != 1 || !slices.ContainsFunc(hits[0].Fields, func(f Field) bool { return f.Name == "Owner 1 First Name" }) {
		t.Errorf("search: %+v, %v", hits, err)
	}
}
