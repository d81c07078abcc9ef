package workflow

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// rawWords are the API's column names and raw values that a file exported
// from the people view must not carry.
var rawWords = []string{"phone_1", "phone_1_type", "is_entity", "match_status", "owner_first_name", "voip", "false", "true", "no_match", "matched"}

// readExport reads an exported CSV, its BOM dropped.
func readExport(t *testing.T, path string) [][]string {
	t.Helper()
	recs := testlists.ReadCSV(t, path)
	if len(recs) > 0 && len(recs[0]) > 0 {
		recs[0][0] = strings.TrimPrefix(recs[0][0], "\ufeff")
	}
	return recs
}

// checkPlain fails on a cell that is one of the API's raw words.
func checkPlain(t *testing.T, what string, recs [][]string) {
	t.Helper()
	for i, r := range recs {
		for _, c := range r {
			if slices.Contains(rawWords, strings.TrimSpace(c)) {
				t.Errorf("%s, line %d: %q", what, i+1, c)
			}
		}
	}
}

// TestExportPeopleInWords: an export of the people view writes its
// columns with its words (Owner, Property address, Phone 1, Phone 1 type,
// Phone 1 status…), yes and no in words and dates as dates, every row
// named (an owner the service did not find, as the list names them); with
// the callable filter, only the phones the viewer shows, each OK to call;
// the callable list with its choices and proof, in the same words.
func TestExportPeopleInWords(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	events := eventsOf(t, d)
	done := traceSample(ctx, t, d, events)
	scrubTracePhones(ctx, t, d, events, done)
	r, err := d.Results().OpenResult(ctx, done.ResultPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	peopleExportAll(ctx, t, d, r)
	callable, err := r.Query(ctx, Query{Quick: []jobs.QuickFilter{jobs.QuickCallable}, SortCol: -1})
	if err != nil {
		t.Fatal(err)
	}
	peopleExportCallable(ctx, t, d, r, callable)
	peopleCallableList(ctx, t, d, r, callable)
}

// traceSample traces the sample list and waits for its result.
func traceSample(ctx context.Context, t *testing.T, d *Service, events <-chan Event) Job {
	t.Helper()
	id := submitted(ctx, t, d, samplePlan(ctx, t, d))
	return waitDownloaded(ctx, t, events, id, "the trace")
}

// peopleExportAll: every row, its columns in words, every row named,
// dates as dates, the match in words.
func peopleExportAll(ctx context.Context, t *testing.T, d *Service, r Result) {
	t.Helper()
	all, err := r.Query(ctx, Query{SortCol: -1})
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "people.csv")
	if _, err := d.Results().ExportPeople(ctx, r, all, dest, nil); err != nil {
		t.Fatal(err)
	}
	recs := readExport(t, dest)
	head := recs[0]
	if len(head) < 6 || !slices.Equal(head[:6], []string{"Owner", "Property address", "Phone 1", "Phone 1 type", "Phone 1 status", "Phone 1 scrubbed"}) ||
		head[len(head)-1] != "Match" {
		t.Fatalf("header %q", head)
	}
	if len(recs)-1 != r.Len() {
		t.Fatalf("%d rows exported of %d", len(recs)-1, r.Len())
	}
	checkPlain(t, "the people view", recs)
	found := map[string]int{}
	for i, rec := range recs[1:] {
		found[rec[len(rec)-1]]++
		if rec[0] == "" {
			t.Errorf("row %d names no owner: %q", i+1, rec)
		}
		if _, err := time.Parse(time.DateOnly, rec[5]); rec[5] != "" && err != nil {
			t.Errorf("row %d: scrubbed %q is not a date", i+1, rec[5])
		}
	}
	if found["Found"] == 0 || found["Not found"] == 0 {
		t.Errorf("match in words: %v", found)
	}
}

// peopleExportCallable: with the callable filter, only the phones the
// viewer shows, each OK to call.
func peopleExportCallable(ctx context.Context, t *testing.T, d *Service, r Result, callable View) {
	t.Helper()
	shown := 0
	for i := 0; i < callable.Len(); i++ {
		row := callable.Person(i)
		shown += len(row.DistinctPhones())
	}
	dest := filepath.Join(t.TempDir(), "people callable.csv")
	if _, err := d.Results().ExportPeople(ctx, r, callable, dest, nil); err != nil {
		t.Fatal(err)
	}
	recs := readExport(t, dest)
	written := 0
	for i, h := range recs[0] {
		if strings.HasSuffix(h, " status") {
			written += okToCall(t, h, recs[1:], i)
		}
	}
	if shown == 0 || written != shown {
		t.Errorf("%d phones written, the view shows %d", written, shown)
	}
}

// okToCall counts the phones of column i of recs, each "OK to call".
func okToCall(t *testing.T, h string, recs [][]string, i int) int {
	t.Helper()
	n := 0
	for _, rec := range recs {
		switch rec[i] {
		case "":
		case "OK to call":
			n++
		default:
			t.Errorf("%s: %q in a callable view", h, rec[i])
		}
	}
	return n
}

// peopleCallableList: the callable list, with its choices and proof, in
// the same words.
func peopleCallableList(ctx context.Context, t *testing.T, d *Service, r Result, callable View) {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "people callable.xlsx")
	rep, err := d.Results().ExportView(ctx, r, callable, dest, &CallableChoices{Preset: PeoplePreset}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Proof == "" {
		t.Error("the callable list has no proof")
	}
	f, err := excelize.OpenFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(f.GetSheetName(0))
	if err != nil || len(rows) < 2 {
		t.Fatalf("callable list %v %v", rows, err)
	}
	if !slices.Equal(rows[0][:5], []string{"Owner", "Property address", "Phone 1", "Phone 1 type", "Phone 1 status"}) {
		t.Errorf("callable header %q", rows[0])
	}
	checkPlain(t, "the callable list", rows)
	for _, row := range rows[1:] {
		if len(row) > 4 && row[4] != "" && row[4] != "OK to call" {
			t.Errorf("callable list: %q", row)
		}
	}
}

// TestLibraryHitsInWords: a search of the library reads each hit in words
// — the owner's name (the list's own, for a row the service found no one
// for), the property, "Not found" — never the file's raw values ("false,
// false", no_match).
func TestLibraryHitsInWords(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	events := eventsOf(t, d)
	traceSample(ctx, t, d, events)
	items, err := d.Library().SearchLibrary(ctx, "nomatch")
	if err != nil || len(items) == 0 {
		t.Fatalf("search %+v %v", items, err)
	}
	for _, it := range items {
		for _, h := range it.Hits {
			parts := strings.Split(strings.SplitN(h, ": ", 2)[1], " · ")
			if len(parts) < 2 || parts[0] == "" || !strings.HasSuffix(h, "Not found") {
				t.Errorf("hit %q: want the owner, the property and Not found", h)
			}
			for _, p := range parts {
				for _, w := range strings.Split(p, ", ") {
					if slices.Contains(rawWords, strings.ToLower(strings.TrimSpace(w))) {
						t.Errorf("hit %q carries %q", h, w)
					}
				}
			}
		}
	}
}
