package prepare

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

func inspect(t *testing.T, p string, o input.Options) *input.Inspection {
	t.Helper()
	ins, err := input.Inspect(context.Background(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

func readCSV(t *testing.T, p string) [][]string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
		t.Error("upload starts with a BOM")
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func sum(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

var m = mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last",
	mapping.PropertyStreet: "Address", mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}

const plain = "First,Last,Address,City,State,Zip\r\nAnn,Lee,1 Elm St,Austin,TX,78701\r\nBo,Ray,2 Oak Ave,Waco,TX,76701\r\n"

func TestOriginalUploadedAsIs(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", []byte(plain))
	ins := inspect(t, p, input.Options{})
	u, err := Prepare(context.Background(), p, ins, Plan{Mapping: with(m, mapping.MailingZip, "")})
	if err != nil {
		t.Fatal(err)
	}
	if u.Written || u.Path != p || u.FileName != "owners.csv" || u.Rows != 2 || u.SHA256 != sum(t, p) || u.Size != int64(len(plain)) {
		t.Errorf("upload = %+v", u)
	}
	if _, ok := u.Mapping[mapping.MailingZip]; ok {
		t.Error("a key mapped to \"\" must not be sent")
	}
	if err := u.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Error("Remove deleted the original file")
	}
}

func with(m mapping.Mapping, kv ...string) mapping.Mapping {
	m = m.Clone()
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func cp1252(s string) []byte {
	var out []byte
	for _, r := range s {
		switch {
		case r < 0x80:
			out = append(out, byte(r))
		case r >= 0xA0 && r <= 0xFF:
			out = append(out, byte(r))
		default:
			panic("not in the test's 1252 subset")
		}
	}
	return out
}

func TestConverted(t *testing.T) {
	want := [][]string{{"First", "Last", "Address", "City", "State", "Zip"},
		{"José", "Núñez", "1 Elm St", "Austin", "TX", "78701"}, {"Zoë", "Ray", "2 Oak Ave", "Waco", "TX", "76701"}}
	utf16le := func(s string) []byte {
		b := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	xlsx := func(t *testing.T) string {
		f := excelize.NewFile()
		for i, row := range want {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			anyRow := make([]any, len(row))
			for j, v := range row {
				anyRow[j] = v
			}
			f.SetSheetRow("Sheet1", cell, &anyRow)
		}
		p := filepath.Join(t.TempDir(), "owners.xlsx")
		if err := f.SaveAs(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		file func(t *testing.T) string
	}{
		{"windows-1252 semicolons with a title line", func(t *testing.T) string {
			return testlists.WriteFile(t, "owners.txt", cp1252("Owner list export\r\n\r\nFirst;Last;Address;City;State;Zip\r\nJosé;Núñez;1 Elm St;Austin;TX;78701\r\nZoë;Ray;2 Oak Ave;Waco;TX;76701\r\n"))
		}},
		{"utf-16 with BOM, tabs", func(t *testing.T) string {
			return testlists.WriteFile(t, "owners.txt", utf16le("First\tLast\tAddress\tCity\tState\tZip\r\nJosé\tNúñez\t1 Elm St\tAustin\tTX\t78701\r\nZoë\tRay\t2 Oak Ave\tWaco\tTX\t76701\r\n"))
		}},
		{"utf-8 BOM", func(t *testing.T) string {
			return testlists.WriteFile(t, "owners.txt", []byte("\xEF\xBB\xBFFirst,Last,Address,City,State,Zip\nJosé,Núñez,1 Elm St,Austin,TX,78701\nZoë,Ray,2 Oak Ave,Waco,TX,76701\n"))
		}},
		{"xlsx", xlsx},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.file(t)
			ins := inspect(t, p, input.Options{})
			u, err := Prepare(context.Background(), p, ins, Plan{Mapping: m})
			if err != nil {
				t.Fatal(err)
			}
			defer u.Remove()
			if !u.Written || u.Path == p || u.FileName != "owners.csv" || filepath.Base(u.Path) != "owners.csv" || len(u.Reasons) == 0 {
				t.Errorf("upload = %+v", u)
			}
			if got := readCSV(t, u.Path); !reflect.DeepEqual(got, want) {
				t.Errorf("uploaded rows = %q", got)
			}
			if u.Rows != 2 || u.SHA256 != sum(t, u.Path) || !reflect.DeepEqual(u.Mapping, m) {
				t.Errorf("upload = %+v", u)
			}
			st, _ := os.Stat(u.Path)
			if st.Size() != u.Size {
				t.Errorf("size %d, file %d", u.Size, st.Size())
			}
			dir := filepath.Dir(u.Path)
			u.Remove()
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Error("Remove left the temporary folder")
			}
			if _, err := os.Stat(p); err != nil {
				t.Error("Remove deleted the original")
			}
		})
	}
}

func TestSplitsWritten(t *testing.T) {
	body := "Owner Name,Property Address,first_name\r\n" +
		"SMITH JOHN A,\"123 Main St, Springfield, IL 62704\",x\r\n" +
		"ACME HOLDINGS LLC,\"9 Elm Ave, Peoria, IL 61602\",y\r\n" +
		"GARCIA MARIA,somewhere,z\r\n"
	p := testlists.WriteFile(t, "owners.csv", []byte(body))
	ins := inspect(t, p, input.Options{})
	sug := mapping.AutoMap(ins.Headers, ins.Sample, jobs.KindTrace)
	// The file's own "first_name" column is taken by the auto-map; the user
	// prefers splitting the owner name (whose derived column must then not
	// clash with it).
	if len(sug.Splits) != 1 || sug.Mapping()[mapping.FirstName] != "first_name" {
		t.Fatalf("suggestion %+v", sug)
	}
	splits := []mapping.Split{{Kind: mapping.SplitName, Column: "Owner Name", Keys: []string{mapping.FirstName, mapping.LastName}, Order: mapping.LastFirst}, sug.Splits[0]}
	u, err := Prepare(context.Background(), p, ins, Plan{Mapping: sug.Mapping(), Splits: splits, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := readCSV(t, u.Path)
	wantHeader := []string{"Owner Name", "Property Address", "first_name", "first_name_2", "last_name", "property_street", "property_city", "property_state", "property_zip"}
	if !reflect.DeepEqual(got[0], wantHeader) {
		t.Fatalf("header %q", got[0])
	}
	wantRows := [][]string{
		{"SMITH JOHN A", "123 Main St, Springfield, IL 62704", "x", "JOHN", "SMITH", "123 Main St", "Springfield", "IL", "62704"},
		{"ACME HOLDINGS LLC", "9 Elm Ave, Peoria, IL 61602", "y", "ACME HOLDINGS LLC", "", "9 Elm Ave", "Peoria", "IL", "61602"},
		{"GARCIA MARIA", "somewhere", "z", "MARIA", "GARCIA", "somewhere", "", "", ""},
	}
	if !reflect.DeepEqual(got[1:], wantRows) {
		t.Errorf("rows %q", got[1:])
	}
	if u.SplitFailures["Property Address"] != 1 || len(u.SplitFailures) != 1 {
		t.Errorf("split failures %v", u.SplitFailures)
	}
	if r := mapping.Validate(got[0], u.Mapping, jobs.ModeNormal); !r.OK() {
		t.Errorf("mapping to send does not validate against the upload: %v (%v)", r.Problems, u.Mapping)
	}
	if u.Mapping[mapping.FirstName] != "first_name_2" {
		t.Errorf("mapping %v", u.Mapping)
	}
}

func TestDropDuplicates(t *testing.T) {
	body := "First,Last,Address,City,State,Zip,Note\n" +
		"Ann,Lee,1 Elm St,Austin,TX,78701,a\n" +
		"Acme,Holdings LLC,9 Elm St,Austin,TX,78701,f\n" +
		"ACME,HOLDINGS LLC,9 Elm St,Austin,TX,78701,g\n" + // dropped
		"Jones,Trust,8 Elm St,Austin,TX,78701,h\n" +
		"ANN,LEE,1 Elm St.,Austin,TX,78701,b\n" + // same once normalised: dropped
		"Bo,Ray,2 Oak Ave,Waco,TX,76701,c\n" +
		"Ann,Lee,1 Elm St,Austin,TX,78702,d\n" + // other zip: kept
		"Bo,Ray,2 Oak Ave,Waco,TX,76701,e\n" // dropped (the note is not mapped)
	p := testlists.WriteFile(t, "owners.csv", []byte(body))
	ins := inspect(t, p, input.Options{KeyColumns: m.Columns()})
	if ins.DuplicateRows != 3 {
		t.Fatalf("inspection found %d duplicates", ins.DuplicateRows)
	}
	u, err := Prepare(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: true, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := readCSV(t, u.Path)
	var notes []string
	for _, r := range got[1:] {
		notes = append(notes, r[6])
	}
	if !slices.Equal(notes, []string{"a", "f", "h", "c", "d"}) || u.DroppedDuplicates != ins.DuplicateRows || u.Rows != 5 {
		t.Errorf("kept %v, dropped %d, rows %d", notes, u.DroppedDuplicates, u.Rows)
	}
	// Count gives the same rows without writing, and the company rows of
	// the upload.
	c, err := Count(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	upIns := inspect(t, u.Path, input.Options{NameColumns: []string{"First", "Last"}})
	if c.Rows != u.Rows || c.DroppedDuplicates != u.DroppedDuplicates || c.EntityRows != upIns.EntityRows || c.EntityRows != 2 || !reflect.DeepEqual(c.Mapping, u.Mapping) {
		t.Errorf("counts %+v, upload rows %d dropped %d entity %d", c, u.Rows, u.DroppedDuplicates, upIns.EntityRows)
	}
	// Prepared twice into the same folder: the second file does not
	// overwrite the first, and keeps the name to send.
	again, err := Prepare(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: true, Dir: filepath.Dir(u.Path)})
	if err != nil {
		t.Fatal(err)
	}
	if again.Path == u.Path || again.FileName != "owners.csv" || again.SHA256 != u.SHA256 || sum(t, u.Path) != u.SHA256 {
		t.Errorf("second prepare %+v", again)
	}
	// Whole-row key.
	u2, err := Prepare(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: true, KeyColumns: []string{"First", "Last", "Address", "City", "State", "Zip", "Note"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if u2.DroppedDuplicates != 0 || u2.Rows != 8 {
		t.Errorf("whole rows: dropped %d", u2.DroppedDuplicates)
	}
}

func TestDropDuplicatePhones(t *testing.T) {
	body := "Name,Cell\n" +
		"Ann,(212) 555-0147\n" +
		"Bo,1-212-555-0147\n" + // the same number: dropped
		"Cy,1.23E+10\n" +
		"Di,1.23E+10\n" + // invalid: kept (billed, then refunded)
		"Ed,305 555 0101 x2\n" +
		"Fa,3055550101\n" // dropped
	p := testlists.WriteFile(t, "phones.csv", []byte(body))
	ins := inspect(t, p, input.Options{})
	u, err := Prepare(context.Background(), p, ins, Plan{Kind: jobs.KindDNC, Mapping: mapping.Mapping{mapping.Phone: "Cell"}, DropDuplicates: true, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range readCSV(t, u.Path)[1:] {
		names = append(names, r[0])
	}
	if !slices.Equal(names, []string{"Ann", "Cy", "Di", "Ed"}) || u.DroppedDuplicates != 2 || u.Rows != 4 {
		t.Errorf("kept %v, dropped %d", names, u.DroppedDuplicates)
	}
	if _, err := Prepare(context.Background(), p, ins, Plan{Kind: jobs.KindDNC, Mapping: mapping.Mapping{mapping.Phone: "Phone"}, DropDuplicates: true, Dir: t.TempDir()}); err == nil {
		t.Error("missing phone column: no error")
	}
}

func TestPrepareErrors(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", []byte(plain))
	ins := inspect(t, p, input.Options{})
	if _, err := Prepare(context.Background(), p, nil, Plan{Mapping: m}); err == nil {
		t.Error("no inspection: no error")
	}
	if _, err := Prepare(context.Background(), p, ins, Plan{Mapping: m, Splits: []mapping.Split{{Kind: mapping.SplitName, Column: "Owner", Keys: []string{"first_name", "last_name"}}}}); err == nil {
		t.Error("split of a missing column: no error")
	}
	// The file changed after inspection.
	os.WriteFile(p, []byte("A,B\n1,2\n"), 0o600)
	if _, err := Prepare(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: true, Dir: t.TempDir()}); err == nil {
		t.Error("changed file: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p2 := testlists.WriteFile(t, "o.csv", []byte(plain))
	if _, err := Prepare(ctx, p2, inspect(t, p2, input.Options{}), Plan{Mapping: m, DropDuplicates: true}); err == nil {
		t.Error("cancelled: no error")
	}
	big := &input.Inspection{Format: "csv", Size: input.MaxUploadBytes + 1, TooLarge: true, Rows: 1}
	if _, err := Prepare(context.Background(), p2, big, Plan{Mapping: m}); err == nil {
		t.Error("too large: no error")
	}
}

// TestRepairs: the ZIP codes Excel shortened get their zero back and the
// rows without an address leave the upload, counted; Count counts the
// same rows without writing anything.
func TestRepairs(t *testing.T) {
	body := "First,Last,Street,City,State,Zip\n" +
		"Ann,Lee,1 Elm St,Hoboken,NJ,7030\n" +
		"Bo,Wu,,Newark,NJ,7102\n" + // no street: left out
		"Cy,Ng,3 Oak Ave,Austin,TX,78701\n" +
		"Di,Ro,  ,Boston,MA,2108-1234\n" + // blank street: left out
		"Ed,Ma,5 Pine Rd,Boston,MA,2108-1234\n"
	p := testlists.WriteFile(t, "owners.csv", []byte(body))
	ins := inspect(t, p, input.Options{})
	m := mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
		mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	plan := Plan{Kind: jobs.KindTrace, Mapping: m, Dir: t.TempDir(), Repairs: Repairs{PadZips: []string{"Zip"}, LeaveOutBlank: []string{"Street"}}}
	u, err := Prepare(context.Background(), p, ins, plan)
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, u.Path)
	var zips, names []string
	for _, r := range recs[1:] {
		names, zips = append(names, r[0]), append(zips, r[5])
	}
	if !slices.Equal(names, []string{"Ann", "Cy", "Ed"}) || !slices.Equal(zips, []string{"07030", "78701", "02108-1234"}) {
		t.Errorf("upload rows %v, zips %v", names, zips)
	}
	if u.Rows != 3 || u.PaddedZips != 2 || u.LeftOutBlank != 2 || !u.Written {
		t.Errorf("rows %d, padded %d, left out %d, written %v", u.Rows, u.PaddedZips, u.LeftOutBlank, u.Written)
	}
	written, why := Describe(ins, plan)
	if !written || !slices.Contains(why, "ZIP codes get back the leading zero Excel dropped") || !slices.Contains(why, "rows without an address are left out") {
		t.Errorf("Describe: %v %v", written, why)
	}
	c, err := Count(context.Background(), p, ins, plan)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows != 3 || c.LeftOutBlank != 2 || c.PaddedZips != 2 {
		t.Errorf("Count: %+v", c)
	}
	plan.PadZips = []string{"Zipcode"}
	if _, err := Prepare(context.Background(), p, ins, plan); err == nil || !strings.Contains(err.Error(), "Zipcode") {
		t.Errorf("a repair of a column the file does not have: %v", err)
	}
}

// preparedPhones prepares the scrub of a phone list (column Cell), its
// duplicates dropped, with repairs r: the numbers kept, the upload, the
// list's inspection.
func preparedPhones(t *testing.T, body string, r Repairs) ([]string, *Upload, *input.Inspection) {
	t.Helper()
	p := testlists.WriteFile(t, "phones.csv", []byte(body))
	ins := inspect(t, p, input.Options{})
	u, err := Prepare(context.Background(), p, ins, Plan{Kind: jobs.KindDNC, Mapping: mapping.Mapping{mapping.Phone: "Cell"},
		DropDuplicates: true, Dir: t.TempDir(), Repairs: r})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, r := range readCSV(t, u.Path)[1:] {
		kept = append(kept, r[0])
	}
	return kept, u, ins
}

// TestLeaveOutInvalidPhones: a phone list's invalid numbers leave the
// upload before it is paid for, instead of being charged and refunded.
func TestLeaveOutInvalidPhones(t *testing.T) {
	kept, u, _ := preparedPhones(t, "Cell\n(212) 555-0147\n555-1234\n\n3055550101\ncall me\n(212) 555-0147\n", Repairs{LeaveOutInvalid: true})
	if !slices.Equal(kept, []string{"(212) 555-0147", "3055550101"}) || u.LeftOutInvalid != 2 || u.DroppedDuplicates != 1 {
		t.Errorf("kept %v, invalid left out %d, duplicates %d", kept, u.LeftOutInvalid, u.DroppedDuplicates)
	}
}

// TestLeaveOutAbroadPhones: a phone list's numbers outside the US leave
// the upload (a US scrub charges for them and cannot answer them), before
// its duplicates are looked for; invalid ones stay unless asked.
func TestLeaveOutAbroadPhones(t *testing.T) {
	kept, u, ins := preparedPhones(t, "Cell\n(416) 555-0147\n512-555-0101\ncall me\n1-876-555-0102\n416.555.0147\n5125550101\n", Repairs{LeaveOutAbroad: true})
	if !slices.Equal(kept, []string{"512-555-0101", "call me"}) || u.LeftOutAbroad != 3 || u.LeftOutInvalid != 0 || u.DroppedDuplicates != 1 {
		t.Errorf("kept %v, abroad left out %d, invalid %d, duplicates %d", kept, u.LeftOutAbroad, u.LeftOutInvalid, u.DroppedDuplicates)
	}
	if _, why := Describe(ins, Plan{Kind: jobs.KindDNC, Repairs: Repairs{LeaveOutAbroad: true}}); !slices.Contains(why, "phone numbers outside the US are left out") {
		t.Errorf("reasons %q", why)
	}
}

// CountBoth reads the file once for what two uploads would hold, the one
// with the duplicate rows and the one without: each as Prepare writes it
// (rows, company rows, duplicates, split failures, zips padded, rows left
// out), and hands every row with whether it repeats an earlier one.
func TestCountBothIsBothUploads(t *testing.T) {
	body := "Owner,Address,City,State,Zip,Note\n" +
		"Ann Lee,1 Elm St,Austin,TX,7030,a\n" +
		"ACME HOLDINGS LLC,9 Elm St,Austin,TX,78701,b\n" +
		"Acme Holdings LLC,9 Elm St,Austin,TX,78701,c\n" + // a duplicate
		"Prince,2 Oak Ave,Waco,TX,7671,d\n" + // one word: the split fails
		"PRINCE,2 Oak Ave.,Waco,TX,7671,e\n" + // a duplicate whose split fails and zip is padded
		"Bo Ray,,Waco,TX,76701,f\n" + // no street: left out
		"Ann Lee,1 Elm St,Austin,TX,7030,g\n" // a duplicate
	p := testlists.WriteFile(t, "owners.csv", []byte(body))
	ins := inspect(t, p, input.Options{})
	m, splits := ownerSplit(t, ins)
	plan := Plan{Kind: jobs.KindTrace, Mapping: m, Splits: splits, Repairs: Repairs{PadZips: []string{"Zip"}, LeaveOutBlank: []string{"Address"}}}
	var notes []string
	tally, err := CountBoth(context.Background(), p, ins, plan, func(rec []string, header, dup bool) error {
		if header {
			return nil
		}
		note := rec[5]
		if dup {
			note += "*"
		}
		notes = append(notes, note)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(notes, []string{"a", "b", "c*", "d", "e*", "g*"}) {
		t.Errorf("rows handed: %v", notes)
	}
	if tally.With.Rows != 6 || tally.Without.Rows != 3 || tally.With.PaddedZips != 4 || tally.Without.PaddedZips != 2 ||
		tally.Without.DroppedDuplicates != 3 || tally.With.EntityRows != 2 || tally.Without.EntityRows != 1 {
		t.Errorf("with %+v, without %+v", tally.With, tally.Without)
	}
	for _, tc := range []struct {
		drop bool
		got  Counts
	}{{false, tally.With}, {true, tally.Without}} {
		pl := plan
		pl.DropDuplicates, pl.Dir = tc.drop, t.TempDir()
		u, err := Prepare(context.Background(), p, ins, pl)
		if err != nil {
			t.Fatal(err)
		}
		up := inspect(t, u.Path, input.Options{NameColumns: tc.got.NameColumns})
		if tc.got.Rows != u.Rows || tc.got.EntityRows != up.EntityRows || tc.got.DroppedDuplicates != u.DroppedDuplicates ||
			!reflect.DeepEqual(tc.got.SplitFailures, u.SplitFailures) || tc.got.Repaired != u.Repaired {
			t.Errorf("drop %v: counted %+v; the upload: rows %d, companies %d, dropped %d, split failures %v, %+v",
				tc.drop, tc.got, u.Rows, up.EntityRows, u.DroppedDuplicates, u.SplitFailures, u.Repaired)
		}
	}
}

// TestKeySet: the duplicate guard's set answers as a map does, through its
// growth, for the zero key (kept as {1, 0}: a hash is never asked to be
// told from it) and for keys that share their first half.
func TestKeySet(t *testing.T) {
	s := newKeySet(1) // grows many times
	want := map[[2]uint64]bool{}
	for i := range uint64(20000) {
		for _, k := range [][2]uint64{{i * 2654435761, i}, {i * 2654435761, i + 1}, {0, 0}, {i%97 + 2, 0}} {
			if got := s.seenBefore(k); got != want[k] {
				t.Fatalf("key %v: seen %v, want %v", k, got, want[k])
			}
			want[k] = true
		}
	}
	if s.n != len(want) {
		t.Fatalf("%d keys held, want %d", s.n, len(want))
	}
}
