package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// Fail closed: each way a callable list once went wrong on files nobody
// here designed, through the application layer the window and the command
// line both call (Service.Export). A number that is flagged, unknown,
// unchecked, stale or undated never reaches the list.

// offline opens a service on a fresh data folder, no session: what the
// command line's export runs on.
func offline(t *testing.T) *Service {
	t.Helper()
	d, err := Open(Config{Secrets: secrets.Memory(), Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// resultFile writes a result CSV with a job record of ours (kind, completed
// at done) and returns its path; a zero done writes no record.
func resultFile(t *testing.T, dir, name string, kind jobs.Kind, done time.Time, rows ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Join(rows, "\r\n")+"\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !done.IsZero() {
		m := library.Meta{JobID: strings.TrimSuffix(name, ".csv"), Kind: kind, Status: jobs.StatusCompleted, CompletedAt: done}
		b, _ := json.Marshal(m)
		if err := os.WriteFile(library.RecordPath(p), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// listNumbers exports src's callable list (with the DNC results dncs)
// and returns every valid number written anywhere in it.
func listNumbers(t *testing.T, d *Service, src string, dncs ...string) (map[string]bool, error) {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "callable.csv")
	_, err := d.Results().Export(context.Background(), ExportRequest{Source: src, Dest: dst, DNC: dncs, OnlyCallable: true})
	if err != nil {
		return nil, err
	}
	rows := testlists.ReadCSV(t, dst)
	out := map[string]bool{}
	for _, row := range rows {
		for _, v := range row {
			for _, w := range strings.FieldsFunc(v, func(c rune) bool { return !strings.ContainsRune("0123456789()-. +", c) }) {
				if k := phone.Key(w); k != 0 {
					out[phone.KeyDigits(k)] = true
				}
			}
		}
	}
	return out, nil
}

func wantNumbers(t *testing.T, got map[string]bool, err error, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for n := range got {
		have = append(have, n)
	}
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Errorf("callable list holds %v, want %v", have, want)
	}
}

var yesterday = time.Now().Add(-24 * time.Hour)

// Files in layouts nobody here designed, each a way a callable list once
// went wrong: exported as callable lists, they hold exactly the numbers
// known to be callable.
func TestFailClosedFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		file string
		kind jobs.Kind
		rows []string // the header, then the rows
		want []string // the numbers the callable list holds
	}{
		// A CRM's phone status and tag columns, and a free-text note, state
		// restrictions ("DNC", "Dead", a litigator tag, "said stop calling"): they
		// are read, whatever the headers call them.
		{name: "RestrictionWordsInAnyColumn", file: "crm.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,Federal DNC,Litigator,Phone Status,Tags,Notes",
			"2125550101,N,N,Active,buyer,",
			"2125550102,N,N,DNC,buyer,",
			"2125550103,N,N,Dead,,",
			"2125550104,N,N,Active,TCPA litigator,",
			"2125550105,N,N,Active,,said stop calling",
			"2125550106,N,N,Active,,not a litigator", // a negation: not clear, never clean
			"2125550107,N,N,Wrong Number,,",
		}, want: []string{"2125550101"}},
		// Two columns about different lists are two lists: a known "no" in one
		// never answers for an empty "not checked" in the other.
		{name: "TwoListsOneUnchecked", file: "two.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,Federal DNC,DNC,DMA Suppression,Litigator",
			"2125550101,N,N,N,N",
			"2125550102,N,,N,N", // the file's DNC not checked
			"2125550103,N,N,,N", // DMA not checked
			"2125550104,,N,N,N", // federal not checked
		}, want: []string{"2125550101"}},
		// Flag columns numbered for one owner answer for that owner's phones only:
		// owner 1's "no" never clears owner 2's unchecked phone 1, and owner 1's
		// "yes" never blocks owner 2's clean one.
		{name: "TwoOwnersSlotFlags", file: "owners.csv", kind: jobs.KindTrace, rows: []string{
			"Owner 1 First Name,Owner 1 Phone 1,Owner 1 Phone 1 DNC,Owner 2 First Name,Owner 2 Phone 1,Owner 2 Phone 1 DNC,Litigator",
			"Ann,2125550101,N,Bob,2125550102,,N", // Bob's phone unchecked
			"Cy,2125550103,Y,Di,2125550104,N,N",  // Di's phone clean
			"Ed,2125550105,N,Flo,2125550106,Y,N", // Flo's flagged
		}, want: []string{"2125550101", "2125550104", "2125550105"}},
		// The vendor's "internal DNC" column not checked stays unknown beside an
		// empty company list: SkipDesk's own list answers only for itself.
		{name: "VendorInternalBesideEmptyCompanyList", file: "vendor.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,Federal DNC,Litigator,Internal DNC",
			"2125550101,N,N,N",
			"2125550102,N,N,",
		}, want: []string{"2125550101"}},
		// A scrub whose only answer is a status in words is read (it was refused
		// with the wrong cause), and a litigator named only in a note is seen.
		{name: "WordsOnlyStatusWithLitigatorNote", file: "words.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,Status,Notes",
			"2125550101,Clean,",
			"2125550102,DNC,",
			"2125550103,Clean,known litigator per vendor",
			"2125550104,Litigator,",
		}, want: []string{"2125550101"}},
		// A column saying which rows were scrubbed at all: a row it says was not
		// is unknown, whatever its blanks or noes say.
		{name: "ScopeColumn", file: "scope.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,DNC Scrubbed,Federal DNC,Litigator",
			"2125550101,Y,N,N",
			"2125550102,N,N,N",
			"2125550103,,N,N",
		}, want: []string{"2125550101"}},
		// A status of the check itself ("timeout") is unknown too.
		{name: "CheckStatusColumn", file: "timeout.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,DNC Check Status,Federal DNC,Litigator",
			"2125550101,complete,N,N",
			"2125550102,timeout,N,N",
		}, want: []string{"2125550101"}},
		// "National Registry" is the registry's own column, and "DNC_FL" is
		// Florida's list, never the registry's answer: a number on the
		// registry is flagged whatever Florida's list says.
		{name: "NationalRegistryBesideAStateColumn", file: "portal.csv", kind: jobs.KindDNC, rows: []string{
			"Phone,National Registry,DNC_FL,TCPA Litigator",
			"1-704-320-1997,1,Clean,Not Listed",
			"1-704-320-1998,0,Clean,Not Listed",
		}, want: []string{"7043201998"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src := resultFile(t, t.TempDir(), c.file, c.kind, yesterday, c.rows...)
			got, err := listNumbers(t, offline(t), src)
			wantNumbers(t, got, err, c.want...)
		})
	}
}

// A phone whose number column is blank where the number as written is a
// phone is still that phone: a note on its row that says not to call it
// keeps the number out of the list wherever else it appears.
func TestFailClosedBlankNumberColumnKeepsThePhone(t *testing.T) {
	t.Parallel()
	d := offline(t)
	dir := t.TempDir()
	trace := resultFile(t, dir, "trace.csv", jobs.KindTrace, yesterday,
		"Owner 1 Phone 2,Owner 3 Phone 4,Owner 3 Phone 4 National Registry,Comments",
		"516 292 4249,,,Call back after 5pm",
		"3.12908E+09,,,",
		",516 292 4249,,DNC - requested by owner",
		"212 555 0101,,,")
	scrub := resultFile(t, dir, "scrub.csv", jobs.KindDNC, yesterday,
		"Telephone,Can Call,Litigator", "516.292.4249,Y,false", "212.555.0101,Y,false")
	got, err := listNumbers(t, d, trace, scrub)
	wantNumbers(t, got, err, "2125550101")
}

// A vendor's in-house list checked five months ago is five months old,
// whatever another vendor's in-house list said two days ago: each file's own
// list stands with its own date, and a stale clean answer clears nothing.
func TestFailClosedVendorListKeepsItsDate(t *testing.T) {
	t.Parallel()
	d := offline(t)
	dir := t.TempDir()
	trace := resultFile(t, dir, "trace.csv", jobs.KindTrace, yesterday, "Phone 2", "516 251 7262")
	old := resultFile(t, dir, "old.csv", jobs.KindDNC, time.Now().AddDate(0, -5, 0),
		"phoneNumber,inHouseDnc", "1-516-251-7262,false")
	recent := resultFile(t, dir, "recent.csv", jobs.KindDNC, time.Now().AddDate(0, 0, -2),
		"phone,ndnc,tcpaLitigator,inHouseDnc", "1-516-251-7262 x450,Not Found,No,n")
	_, err := listNumbers(t, d, trace, old, recent)
	var stale *StaleError
	if !errors.As(err, &stale) || len(stale.Numbers) != 1 || stale.Numbers[0] != "5162517262" {
		t.Fatalf("a number cleared by a vendor's list five months old: %v", err)
	}
}

// A column's convention is the whole file's: a value met after the first
// rows that the convention does not cover is unknown, never read by a word
// list ("OK" is Oklahoma in a state column, not "okay").
func TestFailClosedValueOutsideTheConventionLate(t *testing.T) {
	t.Parallel()
	d := offline(t)
	dir := t.TempDir()
	rows := []string{"Phone,National DNC,State DNC,Litigator"}
	for i := range 300 {
		rows = append(rows, fmt.Sprintf("212555%04d,N,N,N", 1000+i))
	}
	rows = append(rows, "2125559998,N,OK,N", "2125559999,Clean,N,N")
	src := resultFile(t, dir, "late.csv", jobs.KindDNC, yesterday, rows...)
	dst := filepath.Join(t.TempDir(), "c.csv")
	_, err := d.Results().Export(context.Background(), ExportRequest{Source: src, Dest: dst, OnlyCallable: true})
	var open *QuestionError
	if !errors.As(err, &open) || !strings.Contains(err.Error(), `"Clean" (1 row)`) {
		t.Fatalf("a value outside the yes/no convention after 300 rows: %v", err)
	}
	// Left out by the person's choice, the late values' phones are not in
	// the list: Oklahoma is a state list, "Clean" is not this column's word.
	_, err = d.Results().Export(context.Background(), ExportRequest{Source: src, Dest: dst, OnlyCallable: true, LeaveOutUnsure: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dst)
	if strings.Contains(string(b), "9998") || strings.Contains(string(b), "9999") || !strings.Contains(string(b), "2125551000") {
		t.Errorf("the callable list:\n%s", b)
	}
}

// A correction made in Check the columns applies wherever the file is
// read: as the DNC result of a trace (--dnc, scrub-from-trace) too.
func TestFailClosedCorrectionUsedThroughDNC(t *testing.T) {
	t.Parallel()
	d := offline(t)
	dir := t.TempDir()
	trace := resultFile(t, dir, "trace.csv", jobs.KindTrace, yesterday,
		"first_name,phone_1,phone_2,match_status", "Ann,2125550101,2125550102,matched")
	// "Litigator Hit" marks litigators with X: blank is not known until the
	// person says it is clean.
	dnc := resultFile(t, dir, "scrub.csv", jobs.KindDNC, yesterday,
		"Phone,Federal DNC,Litigator Hit", "2125550101,N,", "2125550102,N,X")
	dst := filepath.Join(t.TempDir(), "c.csv")
	_, err := d.Results().Export(context.Background(), ExportRequest{Source: trace, Dest: dst, DNC: []string{dnc}, OnlyCallable: true})
	var open *QuestionError
	if !errors.As(err, &open) || open.Files[0].File != dnc {
		t.Fatalf("marks in the DNC result, not yet answered: %v", err)
	}
	r, err := d.Results().OpenResult(context.Background(), dnc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c := &layout.Correction{Signature: r.Layout().Signature, Values: map[string]map[string]layout.Flag{"Litigator Hit": {"blank": layout.Clean}}}
	if err := d.Results().CorrectLayout(context.Background(), r, c); err != nil {
		t.Fatal(err)
	}
	got, err := listNumbers(t, d, trace, dnc)
	wantNumbers(t, got, err, "2125550101")
	// The trace's scrub reads it the same way: a trace's callable list from
	// its scrubs in the library.
	lib := filepath.Join(d.cfg.ResultsDir())
	os.MkdirAll(lib, 0o755)
	tr := resultFile(t, lib, "trc_1.csv", jobs.KindTrace, yesterday,
		"first_name,phone_1,phone_2,match_status", "Ann,2125550101,2125550102,matched")
	sc := resultFile(t, lib, "dnc_1.csv", jobs.KindDNC, yesterday, "Phone,Federal DNC,Litigator Hit", "2125550101,N,", "2125550102,N,X")
	m, _ := library.ReadRecord(library.RecordPath(sc))
	m.ParentTraceID = "trc_1"
	b, _ := json.Marshal(m)
	os.WriteFile(library.RecordPath(sc), b, 0o600)
	dst = filepath.Join(t.TempDir(), "job.csv")
	if _, err := d.Jobs().ExportJob(context.Background(), Job{Kind: jobs.KindTrace, ResultPath: tr, Name: "trc_1"}, dst, &CallableChoices{}, nil); err != nil {
		t.Fatalf("the trace's callable list with its corrected scrub: %v", err)
	}
	if b, _ := os.ReadFile(dst); !strings.Contains(string(b), "2125550101") || strings.Contains(string(b), "2125550102") {
		t.Errorf("the trace's callable list:\n%s", b)
	}
}

// A scrub that reused earlier answers dates each row by the scrub that
// made it: an answer 35 days old is refused with its own date, though the
// new job is ten days old.
func TestFailClosedReusedAnswerKeepsItsDate(t *testing.T) {
	t.Parallel()
	d := offline(t)
	old := time.Now().AddDate(0, 0, -35).UTC()
	recent := time.Now().AddDate(0, 0, -10).UTC()
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	src := resultFile(t, t.TempDir(), "merged.csv", jobs.KindDNC, recent,
		"phone,phone_normalized,dnc,litigator,"+strings.Join(library.SourceColumns, ","),
		"2125550101,2125550101,false,false,"+library.SourceNew+",dnc_new,"+day(recent),
		"2125550102,2125550102,false,false,"+library.SourceReused+",dnc_old,"+day(old))
	_, err := listNumbers(t, d, src)
	var stale *StaleError
	if !errors.As(err, &stale) || len(stale.Numbers) != 1 || stale.Numbers[0] != "2125550102" ||
		!strings.Contains(err.Error(), old.Local().Format("Jan 2, 2006")) {
		t.Fatalf("a reused answer 35 days old: %v", err)
	}
	// Left out, the list holds the new answer alone, and its proof dates
	// each answer.
	dst := filepath.Join(t.TempDir(), "c.xlsx")
	rep, err := d.Results().Export(context.Background(), ExportRequest{Source: src, Dest: dst, OnlyCallable: true, LeaveOutStale: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Phones.Kept != 1 || rep.Phones.Left["scrub over 31 days old"] != 1 {
		t.Errorf("kept %d, left out %v", rep.Phones.Kept, rep.Phones.Left)
	}
}

// A DNC result with no job record of ours has no scrub date: copied with a
// fresh file time, it makes no phone callable; a record dated in the future
// is refused.
func TestFailClosedCopiedAndFutureDatedScrubs(t *testing.T) {
	t.Parallel()
	d := offline(t)
	dir := t.TempDir()
	trace := resultFile(t, dir, "trace.csv", jobs.KindTrace, yesterday, "first_name,phone_1,match_status", "Ann,2125550101,matched")
	copied := resultFile(t, dir, "copied.csv", "", time.Time{}, "phone,phone_normalized,dnc,litigator", "2125550101,2125550101,false,false")
	now := time.Now()
	os.Chtimes(copied, now, now)
	_, err := listNumbers(t, d, trace, copied)
	var stale *StaleError
	if !errors.As(err, &stale) || !stale.Scrubs[0].Date.IsZero() || !strings.Contains(err.Error(), "no scrub date") {
		t.Fatalf("a copied scrub with no record: %v", err)
	}
	future := resultFile(t, dir, "future.csv", jobs.KindDNC, now.AddDate(1, 0, 0), "phone,phone_normalized,dnc,litigator", "2125550101,2125550101,false,false")
	_, err = listNumbers(t, d, trace, future)
	var open *QuestionError
	if !errors.As(err, &open) || !strings.Contains(err.Error(), "in the future") {
		t.Fatalf("a scrub dated next year: %v", err)
	}
	// Imported with a date in the future: refused at the door.
	if _, err := d.Library().ImportResult(context.Background(), copied, ImportOptions{Scrubbed: now.AddDate(0, 1, 0)}); !errors.Is(err, ErrFutureDate) {
		t.Errorf("an import dated next month: %v", err)
	}
	// Imported with the date the person gives: dated by it, and callable.
	it, err := d.Library().ImportResult(context.Background(), copied, ImportOptions{Scrubbed: yesterday})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := library.ReadRecord(library.RecordPath(it.Path))
	if m.Scrubbed == nil || !m.ScrubbedAt().Equal(yesterday.UTC()) || m.Scrubbed.By == "" {
		t.Errorf("the import's record: %+v", m.Scrubbed)
	}
	got, err := listNumbers(t, d, trace, it.Path)
	wantNumbers(t, got, err, "2125550101")
}

// A view of the phones callable now, exported, writes exactly its rows:
// the export is judged at the instant the view was read at, whatever the
// time of the export.
func TestCallableNowViewExportsItsRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := offline(t)
	src := resultFile(t, t.TempDir(), "scrub.csv", jobs.KindDNC, yesterday, "phone,phone_normalized,dnc,litigator",
		"2145550101,2145550101,false,false", // Texas: 9 a.m. to 9 p.m. on weekdays
		"3055550102,3055550102,false,false", // Florida: 8 a.m. to 8 p.m.
		"2125550103,2125550103,false,false", // New York: the federal 8 a.m. to 9 p.m.
		"5045550104,5045550104,true,false")  // on the registry
	r, err := d.Results().OpenResult(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// A Tuesday, 8:30 p.m. in the East: Florida has closed, Texas and New
	// York have not.
	at := time.Date(2026, 11, 24, 20, 30, 0, 0, time.FixedZone("EST", -5*3600))
	v, err := r.Query(ctx, Query{Quick: []jobs.QuickFilter{jobs.QuickCallableNow}, SortCol: -1, At: at})
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for i := range v.Len() {
		shown = append(shown, v.Cell(i, 0))
	}
	if strings.Join(shown, " ") != "2145550101 2125550103" {
		t.Fatalf("callable at 8:30 p.m. ET: %v", shown)
	}
	dest := filepath.Join(t.TempDir(), "now.csv")
	rep, err := d.Results().ExportView(ctx, r, v, dest, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dest)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	var written []string
	for _, l := range lines {
		written = append(written, strings.SplitN(l, ",", 2)[0])
	}
	if !slices.Equal(written, shown) || rep.Proof == "" {
		t.Errorf("the export wrote %v (proof %q), the view shows %v", written, rep.Proof, shown)
	}
}

// A result workbook split over sheets ("Clean", "DNC": one header) is
// imported from every sheet as one result; a sheet of results under other
// columns ("Landlines") is a result of its own; a sheet of no results
// ("Summary") is named in a warning, never left out without a word.
// (Before, the first sheet alone was imported.)
func TestImportResultEverySheet(t *testing.T) {
	t.Parallel()
	d := offline(t)
	path := testlists.WriteWorkbook(t, "scrubbed.xlsx",
		testlists.Sheet{Name: "Clean", Rows: [][]any{{"Phone", "DNC", "Litigator"}, {"2125550101", "N", "N"}}},
		testlists.Sheet{Name: "DNC", Rows: [][]any{{"Phone", "DNC", "Litigator"}, {"2125550102", "Y", "N"}, {"2125550103", "N", "Y"}}},
		testlists.Sheet{Name: "Landlines", Rows: [][]any{{"Landline", "Federal DNC", "TCPA Litigator", "Carrier"},
			{"2125550104", "No", "No", "Verizon"}, {"2125550105", "Yes", "No", "AT&T"}}},
		testlists.Sheet{Name: "Summary", Rows: [][]any{{"Total", "Clean"}, {3, 1}}})
	it, err := d.Library().ImportResult(context.Background(), path, ImportOptions{Scrubbed: yesterday})
	if err != nil {
		t.Fatal(err)
	}
	if it.Rows != 3 || len(it.Warnings) != 1 || it.Warnings[0] != `sheet "Summary" holds no phone results: not imported` {
		t.Fatalf("imported %d rows, warnings %q", it.Rows, it.Warnings)
	}
	got, err := listNumbers(t, d, it.Path)
	wantNumbers(t, got, err, "2125550101")
	if len(it.Others) != 1 || it.Others[0].Rows != 2 || it.Others[0].Name != "scrubbed - Landlines (imported)" {
		t.Fatalf("the other sheets: %+v", it.Others)
	}
	got, err = listNumbers(t, d, it.Others[0].Path)
	wantNumbers(t, got, err, "2125550104")
	again, err := d.Library().ImportResult(context.Background(), path, ImportOptions{Scrubbed: yesterday})
	if err != nil || again.Path != it.Path || len(again.Others) != 1 || again.Others[0].Path != it.Others[0].Path {
		t.Fatalf("imported again: %+v, %v", again, err)
	}
}
