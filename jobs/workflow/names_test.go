package workflow

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"
)

// tagged finds a submission's tag ("[sd-7f3k2]", "sd_7f3k2") in a name.
var tagged = regexp.MustCompile(`(?i)\bsd[-_ ]?[2-9a-z]{5}\b`)

// TestNoNameAPersonReadsCarriesATag: the tag that makes a submission
// recognisable on the server stays in the uploaded file's name; every name
// a person reads — the jobs list and its events (the window's tabs and
// notifications take their names from them), the library and its search,
// the result files, the default export names, the callable list's
// Compliance sheet and its proof — is the person's own.
func TestNoNameAPersonReadsCarriesATag(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	// Events come from the tracker's goroutines: the names read are kept
	// under a lock.
	var mu sync.Mutex
	var names []string
	read := func(where, name string) {
		mu.Lock()
		names = append(names, name)
		mu.Unlock()
		if tagged.MatchString(name) {
			t.Errorf("%s reads %q", where, name)
		}
	}
	events := make(chan Event, 200)
	stop := d.Jobs().Subscribe(func(ev Event) {
		if ev.Job.Name != "" {
			read("an event", ev.Job.Name)
		}
		events <- ev
	})
	defer stop()
	done := traceSample(ctx, t, d, events)
	// The scrub's phone list is named as the person named the trace.
	phones, err := d.Submissions().TracePhones(ctx, done.ResultPath, done.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filepath.Base(phones.Path), strings.TrimSuffix(done.Name, filepath.Ext(done.Name))+" phones.csv"; got != want {
		t.Errorf("the scrub's phone list is %q, want %q", got, want)
	}
	scrub := scrubTracePhones(ctx, t, d, events, done)

	list, _, err := d.Jobs().List(ctx, 1)
	if err != nil || len(list) < 2 {
		t.Fatalf("jobs %+v %v", list, err)
	}
	for _, j := range list {
		read("the jobs list", j.Name)
		read("a result's file", filepath.Base(j.ResultPath))
		read("a default export name", ExportName(j.Name, "callable", ".xlsx"))
	}
	items, err := d.Library().SearchLibrary(ctx, "")
	if err != nil || len(items) < 2 {
		t.Fatalf("library %+v %v", items, err)
	}
	for _, it := range items {
		read("the library", it.Name)
	}
	hits, err := d.Library().SearchLibrary(ctx, "nomatch")
	if err != nil || len(hits) == 0 {
		t.Fatalf("search %+v %v", hits, err)
	}
	for _, it := range hits {
		read("a search hit", it.Name)
	}
	read("the scrub's result", filepath.Base(scrub))

	readCallableList(ctx, t, d, done, read)
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(names, "\n"), "sample-owners") {
		t.Errorf("the names read do not name the list: %q", names)
	}
}

// readCallableList reads, through read, every name the callable list of
// done shows: its Compliance and Summary sheets, its proof's name and the
// proof's text.
func readCallableList(ctx context.Context, t *testing.T, d *Service, done Job, read func(where, name string)) {
	t.Helper()
	dest := filepath.Join(t.TempDir(), ExportName(done.Name, "callable", ".xlsx"))
	rep, err := d.Jobs().ExportJob(ctx, done, dest, &CallableChoices{KeepUnknown: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sheet := range []string{"Compliance", "Summary"} {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatalf("%s: %v", sheet, err)
		}
		for _, r := range rows {
			read("the "+sheet+" sheet", strings.Join(r, " | "))
		}
	}
	if rep.Proof == "" {
		t.Fatal("no proof written")
	}
	read("the proof's name", filepath.Base(rep.Proof))
	if b, err := os.ReadFile(rep.Proof); err != nil || tagged.Match(b) {
		t.Errorf("the proof holds a tag (%v)", err)
	}
}
