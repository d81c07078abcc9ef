package reuse

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The merge keeps every row of the list in its order: rows of the new
// result, reused rows, and a row found in neither (kept with the list's
// values, marked missing); rows of the new result that match no list row
// are kept too.
func TestMergeKeepsEveryRow(t *testing.T) {
	root := t.TempDir()
	lib, _ := library.Open(filepath.Join(root, "results"))
	dir := filepath.Join(root, "reuse", "trc_new")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "list.csv"), []byte("first,last,street,zip\r\n"+
		"ANN,LEE,1 A ST,10001\r\nBOB,RAY,2 B ST,10002\r\nCAL,SUN,3 C ST,10003\r\nDEE,FOX,4 D ST,10004\r\nEVE,OAK,5 E ST,10005\r\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "pins.jsonl"), []byte(
		`{"header":["first","last","street","zip","phone_1","email_1","match_status","source","source_job","source_date"],"h":0}`+"\n"+
			`{"h":0,"row":1,"job":"trc_old","date":"2026-10-01","file":"old.csv","cells":["BOB","RAY","2 B ST","10002","2125550102","","matched","","",""]}`+"\n"+
			`{"header":["first","last","street","zip","phone_1","carrier","match_status"],"h":1}`+"\n"+
			`{"h":1,"row":3,"job":"trc_older","date":"2026-09-01","file":"older.csv","cells":["Dee","Fox","4 D Street","10004","2125550104","ACME","matched"]}`+"\n"), 0o600)
	raw := filepath.Join(lib.Dir(), "new 2026-11-24 trc_new.csv")
	// The new result has ANN and EVE, not CAL, and a row no list row has.
	os.WriteFile(raw, []byte("first,last,street,zip,phone_1,email_1,match_status\r\n"+
		"ann,lee,1 a st,10001,2125550101,,matched\r\nEVE,OAK,5 E ST,10005,,,no_match\r\nZED,ZOO,9 Z ST,10009,2125550109,,matched\r\n"), 0o644)
	lib.Record(library.Meta{JobID: "trc_new", Kind: jobs.KindTrace, Name: "new.csv", CreditsCharged: 3,
		CompletedAt: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)}, raw)
	st := State{Kind: jobs.KindTrace, Name: "new.csv", JobID: "trc_new", Rows: 5, Reused: 2}
	out, err := Merge(t.Context(), lib, dir, st, raw)
	if err != nil {
		t.Fatal(err)
	}
	got := testlists.ReadCSV(t, out)
	want := [][]string{
		{"first", "last", "street", "zip", "phone_1", "email_1", "match_status", "carrier", "source", "source_job", "source_date"},
		{"ann", "lee", "1 a st", "10001", "2125550101", "", "matched", "", "new", "trc_new", "2026-11-24"},
		{"BOB", "RAY", "2 B ST", "10002", "2125550102", "", "matched", "", "reused", "trc_old", "2026-10-01"},
		{"CAL", "SUN", "3 C ST", "10003", "", "", "", "", "missing", "", ""},
		{"DEE", "FOX", "4 D ST", "10004", "2125550104", "", "matched", "ACME", "reused", "trc_older", "2026-09-01"},
		{"EVE", "OAK", "5 E ST", "10005", "", "", "no_match", "", "new", "trc_new", "2026-11-24"},
		{"ZED", "ZOO", "9 Z ST", "10009", "2125550109", "", "matched", "", "new", "trc_new", "2026-11-24"},
	}
	if len(got) != len(want) {
		t.Fatalf("merged:\n%v", got)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %q\n want %q", i, got[i], want[i])
		}
	}
	meta, err := library.ReadRecord(library.RecordPath(out))
	if err != nil {
		t.Fatal(err)
	}
	m := meta.Merged
	if meta.JobID != "trc_new" || meta.CreditsCharged != 3 || meta.TotalRows != 6 || m.Raw != filepath.Base(raw) ||
		m.NewRows != 3 || m.ReusedRows != 2 || m.MissingRows != 1 {
		t.Errorf("record %+v merged %+v", meta, m)
	}
	// Merging again gives the same file (the job's merge happens once).
	if _, err := os.Stat(filepath.Join(dir, "merged.json")); err != nil {
		t.Error("merged.json not written")
	}
}
