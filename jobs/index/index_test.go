package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index/indextest"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

const traceCSV = "First Name,Last Name,Property Address,City,State,Zip,Mailing Address,Mailing City,Mailing State,Mailing Zip,owner_first_name,owner_last_name,phone_1,phone_1_type,phone_2,phone_2_type,email_1,is_entity,match_status\r\n" +
	"JOHN,SMITH,12 OAK AVE,AUSTIN,TX,78701,PO BOX 14,AUSTIN,TX,78701,JOHN,SMITH,5125550101,mobile,5125550102,landline,john.smith@example.com,false,matched\r\n" +
	"MARY,JONES,7 ELM ST APT 4B,DALLAS,TX,75201,7 ELM ST,DALLAS,TX,75201,MARY,JONES,2145550103,voip,,,,false,matched\r\n" +
	",,99 PINE RD,HOUSTON,TX,77002,,,,,,,,,,,,false,no_match\r\n" +
	"MARÍA,O'NEIL,5 CEDAR LN,AUSTIN,TX,78703,5 CEDAR LN,AUSTIN,TX,78703,MARÍA,O'NEIL,5125550104,mobile,,,maria@example.com,false,matched\r\n"

const dncCSV = "name,phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"JOHN SMITH,5125550101,5125550101,false,false,mobile,ok\r\n" +
	"JOHN SMITH,(512) 555-0102,5125550102,true,false,landline,ok\r\n" +
	"MARY JONES,214-555-0103,2145550103,false,true,voip,ok\r\n" +
	"BAD,555,,false,false,unknown,invalid\r\n"

// lib is a library folder with an index beside it.
type lib struct {
	t   *testing.T
	dir string
	x   *Index
}

func newLib(t *testing.T) *lib {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "results")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	x := openIndex(t, root, dir)
	return &lib{t: t, dir: dir, x: x}
}

// put writes a result (and its job record when meta has a job id).
func (l *lib) put(name, body string, meta library.Meta) string {
	l.t.Helper()
	p := filepath.Join(l.dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		l.t.Fatal(err)
	}
	if meta.JobID != "" {
		lb, _ := library.Open(l.dir)
		if err := lb.Record(meta, p); err != nil {
			l.t.Fatal(err)
		}
	}
	return p
}

// sync brings the index up to date, and checks that Current said, before,
// whether that had anything to do, and says, after, that it is current.
func (l *lib) sync() Report {
	l.t.Helper()
	ctx := context.Background()
	before, err := l.x.Current(ctx, l.x.corrections)
	if err != nil {
		l.t.Fatal(err)
	}
	rep, err := l.x.Sync(ctx, nil)
	if err != nil {
		l.t.Fatal(err)
	}
	if did := rep.Changed() || len(rep.Unreadable) > 0 || rep.Rebuilt != ""; before == did {
		l.t.Errorf("Current %v before a Sync that did %+v", before, rep)
	}
	if after, err := l.x.Current(ctx, l.x.corrections); err != nil || !after {
		l.t.Errorf("not Current after a Sync (%v)", err)
	}
	return rep
}

func (l *lib) search(q string) []library.Hit {
	l.t.Helper()
	hits, err := l.x.Search(context.Background(), q, 0)
	if err != nil {
		l.t.Fatalf("search %q: %v", q, err)
	}
	return hits
}

var day = time.Date(2026, 11, 2, 15, 4, 5, 0, time.UTC)

func traceMeta(id string, at time.Time) library.Meta {
	return library.Meta{JobID: id, Kind: jobs.KindTrace, Name: "owners.csv", Mode: jobs.ModeNormal, CreatedAt: at.Add(-time.Hour), CompletedAt: at}
}

func dncMeta(id string, at time.Time) library.Meta {
	return library.Meta{JobID: id, Kind: jobs.KindDNC, Name: "phones.csv", CreatedAt: at.Add(-time.Hour), CompletedAt: at}
}

func hitRows(hits []library.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, filepath.Base(h.Path)+":"+strconv.Itoa(h.Row))
	}
	return out
}

// A phone is found in any format; a name, an address (in other words than
// the file's) and an e-mail too; each hit names its file, job, row and the
// column that matched, with the row's key fields.
func TestSearch(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		l.put("phones 2026-11-03 def456.csv", dncCSV, dncMeta("dnc_def456", day.Add(24*time.Hour)))
		if rep := l.sync(); rep.Indexed != 2 {
			t.Fatalf("indexed %+v", rep)
		}
		for _, tt := range []struct {
			q    string
			want []string
		}{
			{"5125550102", []string{"phones 2026-11-03 def456.csv:2", "owners 2026-11-02 abc123.csv:1"}},
			{"(512) 555-0102", []string{"phones 2026-11-03 def456.csv:2", "owners 2026-11-02 abc123.csv:1"}},
			{"1-512-555-0102", []string{"phones 2026-11-03 def456.csv:2", "owners 2026-11-02 abc123.csv:1"}},
			{"+1 512.555.0102", []string{"phones 2026-11-03 def456.csv:2", "owners 2026-11-02 abc123.csv:1"}},
			{"512 555 01", []string{"phones 2026-11-03 def456.csv:1", "phones 2026-11-03 def456.csv:2", "owners 2026-11-02 abc123.csv:1", "owners 2026-11-02 abc123.csv:4"}},
			{"mary jones", []string{"phones 2026-11-03 def456.csv:3", "owners 2026-11-02 abc123.csv:2"}},
			{"JONES MARY", []string{"phones 2026-11-03 def456.csv:3", "owners 2026-11-02 abc123.csv:2"}},
			{"maria o'neil", []string{"owners 2026-11-02 abc123.csv:4"}},
			{"oneil", []string{"owners 2026-11-02 abc123.csv:4"}},
			{"smi", []string{"phones 2026-11-03 def456.csv:1", "phones 2026-11-03 def456.csv:2", "owners 2026-11-02 abc123.csv:1"}},
			{"7 Elm Street Apt 4B", []string{"owners 2026-11-02 abc123.csv:2"}},
			{"7 elm st #4b", []string{"owners 2026-11-02 abc123.csv:2"}},
			{"12 oak avenue austin", []string{"owners 2026-11-02 abc123.csv:1"}},
			{"99 pine road", []string{"owners 2026-11-02 abc123.csv:3"}},
			{"78703", []string{"owners 2026-11-02 abc123.csv:4"}},
			{"John.Smith@Example.com", []string{"owners 2026-11-02 abc123.csv:1"}},
			{"nobody", nil},
			{"(999) 555-0199", nil},
		} {
			got := hitRows(l.search(tt.q))
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q: %v, want %v", tt.q, got, tt.want)
			}
		}
		hits := l.search("(512) 555-0102")
		h := hits[1]
		if h.JobID != "trc_abc123" || h.JobName != "owners.csv" || h.Line != 2 || h.Column != "phone_2" {
			t.Errorf("hit %+v", h)
		}
		fields := map[string]string{}
		for _, f := range h.Fields {
			fields[f.Name] = f.Value
		}
		if fields["owner_last_name"] != "SMITH" || fields["phone_1"] != "5125550101" || fields["Property Address"] != "12 OAK AVE" {
			t.Errorf("fields %v", h.Fields)
		}
		if c := l.search("john.smith@example.com")[0].Column; c != "email_1" {
			t.Errorf("e-mail hit column %q", c)
		}
		if _, err := l.x.Search(context.Background(), "  ", 0); !errors.Is(err, ErrNothingToFind) {
			t.Errorf("blank search: %v", err)
		}
		// The limit stops the search; newest result first.
		if got := hitRows(must(l.x.Search(context.Background(), "smith", 1))); !slices.Equal(got, []string{"phones 2026-11-03 def456.csv:1"}) {
			t.Errorf("limit 1: %v", got)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A result copied into the folder by hand is indexed at the next Sync; a
// removed one leaves the index; a changed one is read again; an unchanged
// library is left alone.
func TestSyncFollowsTheFolder(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		l.sync()
		if rep := l.sync(); rep.Changed() {
			t.Errorf("a second Sync changed %+v", rep)
		}
		// Copied by hand, without a job record: searchable.
		l.put("copied.csv", dncCSV, library.Meta{})
		if rep := l.sync(); rep.Indexed != 1 || rep.Removed != 0 {
			t.Errorf("after a copy: %+v", rep)
		}
		if got := hitRows(l.search("214-555-0103")); !slices.Equal(got, []string{"copied.csv:3", "owners 2026-11-02 abc123.csv:2"}) &&
			!slices.Equal(got, []string{"owners 2026-11-02 abc123.csv:2", "copied.csv:3"}) {
			t.Errorf("copied result not found: %v", got)
		}
		// Removed.
		os.Remove(filepath.Join(l.dir, "owners 2026-11-02 abc123.csv"))
		if rep := l.sync(); rep.Removed != 1 {
			t.Errorf("after a removal: %+v", rep)
		}
		if got := hitRows(l.search("214-555-0103")); !slices.Equal(got, []string{"copied.csv:3"}) {
			t.Errorf("removed result still found: %v", got)
		}
		if got, _ := l.x.Traced(context.Background(), []string{OwnerKey(NameKey("JOHN", "SMITH", ""), AddressKey(Address{Street: "12 Oak Ave", Zip: "78701"}))}); len(got) != 0 {
			t.Errorf("removed result still traced: %v", got)
		}
		// Changed in place.
		l.put("copied.csv", strings.Replace(dncCSV, "214-555-0103,2145550103", "214-555-0199,2145550199", 1), library.Meta{})
		future := time.Now().Add(time.Minute)
		os.Chtimes(filepath.Join(l.dir, "copied.csv"), future, future)
		if rep := l.sync(); rep.Indexed != 1 {
			t.Errorf("after a change: %+v", rep)
		}
		if got := hitRows(l.search("214-555-0199")); !slices.Equal(got, []string{"copied.csv:3"}) {
			t.Errorf("changed result: %v", got)
		}
		if got := l.search("214-555-0103"); len(got) != 0 {
			t.Errorf("old content still found: %v", hitRows(got))
		}
		// Not a result: noted, not an error.
		l.put("empty.csv", "", library.Meta{})
		if rep := l.sync(); !slices.Equal(rep.Unreadable, []string{"empty.csv"}) {
			t.Errorf("empty file: %+v", rep)
		}
	})
}

// Current answers while a Sync runs, without waiting for it, and judges
// the files as the answers it is given would have them read.
func TestCurrentAnswersBesideASync(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		answers := func(sig string) *layout.Correction { return &layout.Correction{Signature: sig} }
		l.x.SetCorrections(answers)
		l.sync()
		ctx := context.Background()
		if cur, err := l.x.Current(ctx, answers); err != nil || !cur {
			t.Fatalf("not current with the answers it was read with (%v)", err)
		}
		if cur, err := l.x.Current(ctx, nil); err != nil || cur {
			t.Errorf("current for a reading without those answers (%v)", err)
		}
		l.put("copied.csv", dncCSV, library.Meta{})
		l.x.syncMu.Lock() // a Sync under way
		defer l.x.syncMu.Unlock()
		got := make(chan bool, 1)
		go func() {
			cur, _ := l.x.Current(ctx, answers)
			got <- cur
		}()
		select {
		case cur := <-got:
			if cur {
				t.Error("current with a file to read")
			}
		case <-time.After(time.Minute):
			t.Fatal("Current waited for the Sync")
		}
	})
}

// A damaged index is rebuilt from the files, never trusted: garbage in the
// file, another schema version, a missing table, a damaged page.
func TestDamagedIndexIsRebuilt(t *testing.T) {
	damage := map[string]func(t *testing.T, path string){
		"garbage": func(t *testing.T, path string) {
			os.WriteFile(path, []byte(strings.Repeat("not a database ", 1000)), 0o644)
		},
		"schema version": func(t *testing.T, path string) { exec(t, path, "PRAGMA user_version = 99") },
		"missing table":  func(t *testing.T, path string) { exec(t, path, "DROP TABLE owners") },
		"damaged page": func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			for i := 4096 * 2; i < len(b) && i < 4096*3; i++ {
				b[i] = 0xA5
			}
			os.WriteFile(path, b, 0o644)
			exec(t, path, "DELETE FROM meta") // not closed cleanly: the pages are looked at
		},
	}
	for name, hurt := range damage {
		t.Run(name, func(t *testing.T) {
			l, path := closedIndex(t, map[string]string{"owners 2026-11-02 abc123.csv": traceCSV})
			dir := l.dir
			hurt(t, path)
			x, err := Open(path, dir)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer x.Close()
			if x.Rebuilt() == "" {
				t.Fatal("the damage went unnoticed")
			}
			l.x = x
			rep := l.sync()
			if rep.Indexed != 1 || rep.Rebuilt == "" {
				t.Errorf("rebuild: %+v", rep)
			}
			if got := hitRows(l.search("5125550101")); !slices.Equal(got, []string{"owners 2026-11-02 abc123.csv:1"}) {
				t.Errorf("after the rebuild: %v", got)
			}
		})
	}
}

// closedIndex is a library of the results named (the trace's and the
// DNC's records as in the tests above) with its SQLite index synced and
// closed cleanly; it returns the library and the index file's path.
func closedIndex(t *testing.T, results map[string]string) (*lib, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "results")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(root, "index.db")
	x, err := Open(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	l := &lib{t: t, dir: dir, x: x}
	for name, body := range results {
		meta := traceMeta("trc_abc123", day)
		if body == dncCSV {
			meta = dncMeta("dnc_def456", day.Add(24*time.Hour))
		}
		l.put(name, body, meta)
	}
	l.sync()
	x.Close()
	return l, path
}

func exec(t *testing.T, path, q string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// Damage met while in use makes the next Sync rebuild.
func TestDamageInUseRebuilds(t *testing.T) {
	l := newLib(t)
	l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
	l.sync()
	db, done, _ := l.x.handle()
	db.Raw().Exec("DROP TABLE terms")
	done()
	if _, err := l.x.Search(context.Background(), "smith", 0); !errors.Is(err, ErrDamaged) {
		t.Fatalf("search on a damaged index: %v", err)
	}
	// A file changes: the next Sync meets the damage and rebuilds.
	l.put("more.csv", dncCSV, library.Meta{})
	rep := l.sync()
	if rep.Rebuilt == "" || rep.Indexed != 2 {
		t.Errorf("%+v", rep)
	}
	if len(l.search("smith")) == 0 {
		t.Error("nothing found after the rebuild")
	}
}

// Traced finds the rows of traced owners by their owner key: matched rows
// of results with a job record, newest first; not-matched rows are not
// reusable.
func TestTraced(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		l.put("again 2026-11-20 abc999.csv", traceCSV, traceMeta("trc_abc999", day.Add(18*24*time.Hour)))
		l.put("copied.csv", traceCSV, library.Meta{}) // no record: its date is not known
		l.sync()
		key := func(first, last, street, zip string) string {
			return OwnerKey(NameKey(first, last, ""), AddressKey(Address{Street: street, Zip: zip}))
		}
		smith := key("John", "Smith", "12 Oak Avenue", "78701")
		jones := key("Mary", "Jones", "7 Elm Street, Apartment 4B", "75201")
		pine := key("", "", "99 Pine Road", "77002")
		other := key("Mary", "Jones", "7 Elm St Apt 4C", "75201")
		got, err := l.x.Traced(context.Background(), []string{smith, jones, pine, other})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || len(got[smith]) != 2 || len(got[jones]) != 2 {
			t.Fatalf("traced: %+v", got)
		}
		e := got[smith][0]
		if e.JobID != "trc_abc999" || !e.Date.Equal(day.Add(18*24*time.Hour)) || e.Row != 0 || got[smith][1].JobID != "trc_abc123" {
			t.Errorf("newest first: %+v", got[smith])
		}
		// The rows read back, with the key that confirms the match.
		var keys []string
		err = l.x.Rows(context.Background(), []Ref{got[jones][0].Ref, e.Ref}, func(i int, r Row) error {
			keys = append(keys, r.OwnerKey)
			if i == 0 && r.Cells[slices.Index(r.Header, "phone_1")] != "2145550103" {
				t.Errorf("row %v", r.Cells)
			}
			return nil
		})
		if err != nil || !slices.Equal(keys, []string{jones, smith}) {
			t.Errorf("rows: %v %q", err, keys)
		}
	})
}

// The job's mapping in its record says which columns are the owner's.
func TestTracedByRecordedMapping(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		body := "Owner,Site,Site Zip,phone_1,match_status\r\nSMITH JOHN,12 OAK AVE,78701,5125550101,matched\r\n"
		m := traceMeta("trc_map1", day)
		m.Mapping = map[string]string{"last_name": "Owner", "property_street": "Site", "property_zip": "Site Zip"}
		l.put("mapped.csv", body, m)
		l.sync()
		k := OwnerKey(NameKey("John", "Smith", ""), AddressKey(Address{Street: "12 Oak Ave", Zip: "78701"}))
		if got, _ := l.x.Traced(context.Background(), []string{k}); len(got[k]) != 1 {
			t.Errorf("traced by the recorded mapping: %+v", got)
		}
	})
}

// Scrubbed finds each phone's newest answer within the window; unknown
// answers and invalid numbers are not reused; results without a record
// neither.
func TestScrubbed(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		now := time.Now().UTC()
		l.put("old.csv", dncCSV, dncMeta("dnc_old", now.Add(-40*24*time.Hour)))
		l.put("new.csv", strings.Replace(dncCSV, "(512) 555-0102,5125550102,true", "(512) 555-0102,5125550102,false", 1),
			dncMeta("dnc_new", now.Add(-3*24*time.Hour)))
		l.put("unknown.csv", "phone,phone_normalized,dnc,litigator,status\r\n2145550103,2145550103,?,false,ok\r\n",
			dncMeta("dnc_unk", now.Add(-time.Hour)))
		l.put("copied.csv", dncCSV, library.Meta{})
		// Imported from elsewhere: its date is its file's, not its scrub's.
		l.put("imported.csv", "phone,phone_normalized,dnc,litigator,status\r\n7135550100,7135550100,false,false,ok\r\n",
			dncMeta("imp_0123456789ab", now.Add(-time.Hour)))
		l.sync()
		keys := []uint64{phone.Key("5125550101"), phone.Key("5125550102"), phone.Key("2145550103"), phone.Key("7135550100")}
		got, err := l.x.Scrubbed(context.Background(), keys, now.Add(-31*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 {
			t.Fatalf("%d phones: %+v", len(got), got)
		}
		s := got[keys[1]]
		if s.JobID != "dnc_new" || s.Flags.Of(layout.DNC) != layout.Clean || s.Row != 1 {
			t.Errorf("newest scrub: %+v", s)
		}
		if s := got[keys[2]]; s.JobID != "dnc_new" || s.Flags.Of(layout.Litigator) != layout.Flagged {
			t.Errorf("an unknown answer is not reused: %+v", s)
		}
		// The old scrub is past the window.
		got, _ = l.x.Scrubbed(context.Background(), keys, now.Add(-2*24*time.Hour))
		if len(got) != 0 {
			t.Errorf("outside the window: %+v", got)
		}
	})
}

// A result's column read by a guess (a yes/no column whose header was
// lost, asked about) answers nothing the index reuses: the number is
// scrubbed again rather than reused on a clean answer nobody confirmed.
func TestScrubbedLeavesGuessesOut(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		now := time.Now().UTC()
		l.put("guessed.csv", "phone,phone_normalized,dnc,litigator,status,\r\n5125550109,5125550109,false,false,ok,n\r\n"+
			"5125550108,5125550108,false,false,ok,y\r\n", dncMeta("dnc_guess", now.Add(-time.Hour)))
		l.sync()
		keys := []uint64{phone.Key("5125550109")}
		got, err := l.x.Scrubbed(context.Background(), keys, now.Add(-31*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := got[keys[0]]; ok {
			t.Errorf("reused on a guessed column's clean answer: %+v", s)
		}
	})
}

// A merged result's rows carry their own dates; the raw result it holds is
// not indexed (its rows are in the merged one).
func TestMergedResult(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		raw := "First Name,Last Name,Property Address,Zip,phone_1,match_status\r\nJOHN,SMITH,12 OAK AVE,78701,5125550101,matched\r\n"
		l.put("owners 2026-11-20 abc999.csv", raw, traceMeta("trc_abc999", day.Add(18*24*time.Hour)))
		merged := "First Name,Last Name,Property Address,Zip,phone_1,match_status,source,source_job,source_date\r\n" +
			"MARY,JONES,7 ELM ST,75201,2145550103,matched,reused,trc_abc123,2026-11-02\r\n" +
			"JOHN,SMITH,12 OAK AVE,78701,5125550101,matched,new,trc_abc999,2026-11-20\r\n"
		m := traceMeta("trc_abc999", day.Add(18*24*time.Hour))
		m.Merged = &library.Merged{Raw: "owners 2026-11-20 abc999.csv", NewRows: 1, ReusedRows: 1}
		l.put("owners merged 2026-11-20 abc999.csv", merged, m)
		l.sync()
		if got := hitRows(l.search("5125550101")); !slices.Equal(got, []string{"owners merged 2026-11-20 abc999.csv:2"}) {
			t.Errorf("the raw result is searched too: %v", got)
		}
		k := OwnerKey(NameKey("Mary", "Jones", ""), AddressKey(Address{Street: "7 Elm St", Zip: "75201"}))
		got, _ := l.x.Traced(context.Background(), []string{k})
		if len(got[k]) != 1 || !got[k][0].Date.Equal(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("a reused row keeps its own date: %+v", got[k])
		}
		// The quote's merge of the owner runs reads the row's own day too.
		newest := func() Newest {
			runs := l.x.ReadOwners(context.Background())
			defer runs.Close()
			n, err := runs.Newest([]int64{OwnerHash(k)})
			if err != nil {
				t.Fatal(err)
			}
			return n[0]
		}
		if !l.x.Shared() {
			if n := newest(); n != (Newest{Found: true, Date: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC).Unix()}) {
				t.Errorf("the merge of the owner runs: %+v", n)
			}
		}
		// The merged result removed: the raw one is indexed again.
		os.Remove(filepath.Join(l.dir, "owners merged 2026-11-20 abc999.csv"))
		l.sync()
		if got := hitRows(l.search("5125550101")); !slices.Equal(got, []string{"owners 2026-11-20 abc999.csv:1"}) {
			t.Errorf("after the merged result went: %v", got)
		}
		if !l.x.Shared() {
			var left int
			if err := l.x.db.QueryRowContext(context.Background(),
				"SELECT count(*) FROM owner_hashes WHERE file NOT IN (SELECT id FROM files WHERE skipped = '')").Scan(&left); err != nil || left != 0 {
				t.Errorf("owner runs of results no longer indexed: %d (%v)", left, err)
			}
			if newest().Found {
				t.Error("the removed result's owner runs are still merged")
			}
		}
	})
}

// Find with no limit gives every row; the hit's row numbers count data
// rows as the viewer does (blank records are not rows).
func TestFindAllAndRowNumbers(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		body := "first_name,last_name,phone_1,match_status\r\n\r\nANN,LEE,5125550111,matched\r\n,,,\r\n\"BOB\",\"LEE\",\"512-555-0112\",matched\r\n"
		l.put("r.csv", body, library.Meta{})
		l.sync()
		refs, err := l.x.Find(context.Background(), "lee", 0)
		if err != nil || len(refs) != 2 || refs[1].Row != 1 {
			t.Fatalf("%v %+v", err, refs)
		}
		hits := l.search("512-555-0112")
		if len(hits) != 1 || hits[0].Row != 2 || hits[0].Line != 5 {
			t.Errorf("%+v", hits)
		}
	})
}

// An owner listed more times than a chunk holds is written and found
// (a hash is never split between chunks).
func TestManyRowsOfOneOwner(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		var b strings.Builder
		b.WriteString("First Name,Last Name,Property Address,Zip,phone_1,match_status\r\n")
		for i := 0; i < 2500; i++ {
			b.WriteString("JOHN,SMITH,12 OAK AVE,78701,5125550101,matched\r\n")
			if i%3 == 0 {
				b.WriteString("ANN,LEE," + strconv.Itoa(i) + " ELM ST,78701,5125550102,matched\r\n")
			}
		}
		l.put("many.csv", b.String(), traceMeta("trc_many", day))
		if rep := l.sync(); rep.Indexed != 1 {
			t.Fatalf("%+v", rep)
		}
		k := OwnerKey(NameKey("John", "Smith", ""), AddressKey(Address{Street: "12 Oak Avenue", Zip: "78701"}))
		k2 := OwnerKey(NameKey("Ann", "Lee", ""), AddressKey(Address{Street: "2498 Elm Street", Zip: "78701"}))
		got, err := l.x.Traced(context.Background(), []string{k, k2})
		if err != nil || len(got[k]) != 2500 || len(got[k2]) != 0 {
			t.Fatalf("%d rows of the owner, %d of another (%v)", len(got[k]), len(got[k2]), err)
		}
		k3 := OwnerKey(NameKey("Ann", "Lee", ""), AddressKey(Address{Street: "2496 Elm Street", Zip: "78701"}))
		if got, _ := l.x.Traced(context.Background(), []string{k3}); len(got[k3]) != 1 {
			t.Errorf("ANN LEE at 2496: %v", got)
		}
	})
}

// Holds says whether a lookup can find anything: a result of the kind with
// a record, recent enough; a library of none (or of results without a
// record, or too old) holds nothing a list's rows could be found in.
func TestHolds(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		ctx := context.Background()
		now := time.Now().UTC()
		check := func(when string, kind jobs.Kind, since time.Time, want bool) {
			t.Helper()
			if got, err := l.x.Holds(ctx, kind, since); err != nil || got != want {
				t.Errorf("%s: Holds(%s) = %v, %v; want %v", when, kind, got, err, want)
			}
		}
		l.sync()
		check("empty", jobs.KindTrace, time.Time{}, false)
		l.put("copied.csv", traceCSV, library.Meta{}) // no record
		l.put("old.csv", dncCSV, dncMeta("dnc_old", now.Add(-40*24*time.Hour)))
		l.sync()
		check("a trace without a record", jobs.KindTrace, time.Time{}, false)
		check("an old scrub", jobs.KindDNC, now.Add(-31*24*time.Hour), false)
		check("an old scrub, any age", jobs.KindDNC, time.Time{}, true)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		l.sync()
		check("a trace with its record", jobs.KindTrace, time.Time{}, true)
	})
}

// A long list is looked up in one reading of every owner run, a short one
// by the chunks that may hold its keys: both find the same rows.
func TestTracedLongListIsOneMerge(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		l.put("again 2026-11-20 abc999.csv", traceCSV, traceMeta("trc_abc999", day.Add(18*24*time.Hour)))
		l.sync()
		key := func(first, last, street, zip string) string {
			return OwnerKey(NameKey(first, last, ""), AddressKey(Address{Street: street, Zip: zip}))
		}
		found := []string{key("John", "Smith", "12 Oak Avenue", "78701"), key("Mary", "Jones", "7 Elm Street, Apartment 4B", "75201")}
		long := slices.Clone(found)
		for i := range mergeAll + 10 {
			long = append(long, key("Nobody", fmt.Sprint(i), fmt.Sprintf("%d Nowhere Rd", i), "00000"))
		}
		long = append(long, found[0]) // a key twice
		short, err := l.x.Traced(context.Background(), found)
		if err != nil {
			t.Fatal(err)
		}
		got, err := l.x.Traced(context.Background(), long)
		if err != nil {
			t.Fatal(err)
		}
		if len(short) != 2 || len(got) != len(short) {
			t.Fatalf("short list: %d keys found, long list: %d", len(short), len(got))
		}
		for k, es := range short {
			if !slices.EqualFunc(got[k], es, func(a, b Earlier) bool { return a.Ref == b.Ref && a.JobID == b.JobID && a.Date.Equal(b.Date) }) {
				t.Errorf("%q: long list %+v, short list %+v", k, got[k], es)
			}
		}
	})
}

// A damaged page that Open's checks pass over (the index was closed
// cleanly) and that a Sync with nothing to do never reads: the first read
// that meets it has SQLite check the pages, and the next Sync rebuilds the
// index; the look-ups answer again after it.
func TestDamagedPageMetByAReadIsRebuilt(t *testing.T) {
	for _, table := range []string{"owner_chunks", "owners", "phones", "terms"} {
		t.Run(table, func(t *testing.T) {
			l, path := closedIndex(t, map[string]string{"owners 2026-11-02 abc123.csv": traceCSV, "phones 2026-11-03 def456.csv": dncCSV})
			if err := indextest.DamagePage(path, table); err != nil {
				t.Fatal(err)
			}
			x, err := Open(path, l.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			l.x = x
			smith := OwnerKey(NameKey("John", "Smith", ""), AddressKey(Address{Street: "12 Oak Avenue", Zip: "78701"}))
			phones := []uint64{phone.Key("5125550101")}
			read := func() error {
				if _, err := x.Traced(context.Background(), []string{smith}); err != nil {
					return err
				}
				if _, err := x.Scrubbed(context.Background(), phones, day.Add(-time.Hour)); err != nil {
					return err
				}
				_, err := x.Search(context.Background(), "smith", 0)
				return err
			}
			if err := read(); !errors.Is(err, ErrDamaged) {
				t.Fatalf("a read of the damaged page: %v", err)
			}
			rep := l.sync()
			if rep.Rebuilt == "" || rep.Indexed != 2 {
				t.Fatalf("the next Sync: %+v", rep)
			}
			if err := read(); err != nil {
				t.Fatalf("after the rebuild: %v", err)
			}
			got, _ := x.Traced(context.Background(), []string{smith})
			if len(got[smith]) != 1 {
				t.Errorf("traced after the rebuild: %+v", got)
			}
		})
	}
}
