package library

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
)

func TestSanitizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"owners", "owners"},
		{"a/b\\c", "a_b_c"},
		{"lead list: 3/4 *final*?", "lead list_ 3_4 _final__"},
		{`"x" <y> |z|`, "_x_ _y_ _z_"},
		{"tab\there\x00nul", "tab here_nul"},
		{"  spaced   out  ", "spaced out"},
		{"...hidden", "hidden"},
		{"trailing dots...", "trailing dots"},
		{"CON", "_CON"},
		{"nul.txt", "_nul.txt"},
		{"com1", "_com1"},
		{"CONTRACTS", "CONTRACTS"},
		{"Müller Grundstücke", "Müller Grundstücke"},
		// Windows: device names also with an extension or trailing spaces,
		// the superscript digits it reads as numbers, the console names.
		{"con.csv", "_con.csv"},
		{"Aux .txt", "_Aux .txt"},
		{"LPT9", "_LPT9"},
		{"com0", "_com0"},
		{"COM\u00b9", "_COM\u00b9"},
		{"lpt\u00b3.csv", "_lpt\u00b3.csv"},
		{"CONIN$", "_CONIN$"},
		{"conout$.xlsx", "_conout$.xlsx"},
		{"COM10", "COM10"},
		{"console", "console"},
		{"list. . .", "list"},
		{"a\x7fb\x1fc", "a_b_c"},
		{"d:\\lists\\owners", "d__lists_owners"},
	}
	for _, tc := range tests {
		if got := SanitizeName(tc.in); got != tc.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := SanitizeName(strings.Repeat("é", 200))
	if len(long) > maxNameBytes || !utf8.ValidString(long) {
		t.Errorf("long name: %d bytes, valid %v", len(long), utf8.ValidString(long))
	}
}

func TestPathFor(t *testing.T) {
	lib, err := Open(filepath.Join(t.TempDir(), "results"))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 21, 23, 30, 0, 0, time.FixedZone("X", -5*3600)) // 2026-11-22 in UTC
	m := Meta{JobID: "trc_01HX9Z8A7B6C5D", Kind: jobs.KindTrace, Name: "Owners: Essex/Union.csv", CreatedAt: day}
	p := lib.PathFor(m)
	if want := filepath.Join(lib.Dir(), "Owners_ Essex_Union 2026-11-22 7B6C5D.csv"); p != want {
		t.Errorf("PathFor = %q, want %q", p, want)
	}
	if lib.PathFor(m) != p {
		t.Error("PathFor is not stable")
	}
	if filepath.Dir(p) != lib.Dir() {
		t.Errorf("path escapes the library: %s", p)
	}
	base := filepath.Base(p)
	if strings.ContainsAny(base, `:*?"<>|\`) || !strings.HasSuffix(base, " 7B6C5D.csv") {
		t.Errorf("unsafe or unexpected name %q", base)
	}

	long := Meta{JobID: "dnc_123456789", Name: strings.Repeat("very long list name ", 30) + ".CSV", CreatedAt: day}
	lp := filepath.Base(lib.PathFor(long))
	if len(lp) > 120 || !strings.HasSuffix(lp, " 2026-11-22 456789.csv") {
		t.Errorf("long name → %q (%d bytes)", lp, len(lp))
	}

	// Same name, same day: the id ending tells them apart.
	a := Meta{JobID: "trc_aaaaaa111111", Name: "list.csv", CreatedAt: day}
	b := Meta{JobID: "trc_bbbbbb222222", Name: "list.csv", CreatedAt: day}
	if lib.PathFor(a) == lib.PathFor(b) {
		t.Error("two jobs share a path")
	}
	// Same name, day and id ending: the second gets its whole id, and keeps it.
	c := Meta{JobID: "trc_cccccc111111", Name: "list.csv", CreatedAt: day}
	pa := lib.PathFor(a)
	if err := os.WriteFile(pa, []byte("h\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lib.Record(a, pa); err != nil {
		t.Fatal(err)
	}
	pc := lib.PathFor(c)
	if pc == pa || !strings.Contains(pc, "trc_cccccc111111") {
		t.Errorf("colliding job got %q (first has %q)", pc, pa)
	}
	if lib.PathFor(a) != pa || lib.PathFor(c) != pc {
		t.Error("paths changed after recording")
	}
	if got := lib.PathFor(Meta{Name: "x.csv"}); filepath.Base(got) != "x.csv" {
		t.Errorf("no id, no date → %q", got)
	}
}

func TestRecordAndList(t *testing.T) {
	lib, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	older := Meta{JobID: "trc_000001", Kind: jobs.KindTrace, Name: "old.csv", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		CreditsCharged: 100, CreditsRefunded: 30, MatchCount: 7}
	newer := Meta{JobID: "dnc_000002", Kind: jobs.KindDNC, Name: "new.csv", CreatedAt: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}
	for _, m := range []Meta{older, newer} {
		p := lib.PathFor(m)
		if err := os.WriteFile(p, []byte("a,b\r\n1,2\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := lib.Record(m, p); err != nil {
			t.Fatal(err)
		}
	}
	// A result without a record, and files that are not results.
	orphan := filepath.Join(lib.Dir(), "found 2026-01-15 abc123.csv")
	os.WriteFile(orphan, []byte("first_name,match_status\r\nA,matched\r\n"), 0o644)
	os.WriteFile(filepath.Join(lib.Dir(), ".partial.csv.123.tmp"), nil, 0o644)
	os.WriteFile(filepath.Join(lib.Dir(), "notes.txt"), nil, 0o644)

	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Meta.Name)
	}
	if strings.Join(names, ",") != "new.csv,found,old.csv" {
		t.Fatalf("list = %v, want newest first", names)
	}
	if got := entries[2].Meta; got.Net() != 70 || got.MatchCount != 7 || !entries[2].HasRecord {
		t.Errorf("record read back = %+v", got)
	}
	o := entries[1]
	if o.HasRecord || o.Meta.JobID != "abc123" || o.Meta.Kind != jobs.KindTrace || o.Meta.CreatedAt.Format("2006-01-02") != "2026-01-15" {
		t.Errorf("orphan = %+v", o)
	}
	if _, err := os.Stat(RecordPath(entries[0].Path)); err != nil || !strings.HasSuffix(RecordPath(entries[0].Path), ".job.json") {
		t.Errorf("record path %s: %v", RecordPath(entries[0].Path), err)
	}
	ents, _ := os.ReadDir(lib.Dir())
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") && e.Name() != ".partial.csv.123.tmp" {
			t.Errorf("record left a temporary file %s", e.Name())
		}
	}
}

func TestSearch(t *testing.T) {
	lib, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	trace := "first_name,last_name,property_address,owner_first_name,phone_1,phone_1_type,match_status\r\n" +
		"John,Smith,12 Main St,JOHN,2125550147,mobile,matched\r\n" +
		",,,,,,\r\n" +
		"Mary,\"Jones, Jr\",\"7 Oak\r\nAve\",MARY,3125550100,landline,matched\r\n" +
		"Ann,Lee,9 Pine Rd,,,,no_match\r\n"
	dnc := "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
		"1 (212) 555-0147,2125550147,true,false,mobile,ok\r\n"
	tm := Meta{JobID: "trc_t1", Kind: jobs.KindTrace, Name: "owners.csv", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	dm := Meta{JobID: "dnc_d1", Kind: jobs.KindDNC, Name: "phones.csv", CreatedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
	for m, body := range map[*Meta]string{&tm: trace, &dm: dnc} {
		p := lib.PathFor(*m)
		os.WriteFile(p, []byte(body), 0o644)
		lib.Record(*m, p)
	}
	tests := []struct {
		q     string
		hits  []string // job name:row:column
		field string   // a key field the first hit must carry
	}{
		{"(212) 555-0147", []string{"phones.csv:1:phone", "owners.csv:1:phone_1"}, "phone_1=2125550147"},
		{"+1 212.555.0147", []string{"phones.csv:1:phone", "owners.csv:1:phone_1"}, ""},
		{"3125550100", []string{"owners.csv:2:phone_1"}, "last_name=Jones, Jr"},
		{"john smith", []string{"owners.csv:1:first_name"}, "property_address=12 Main St"},
		{"oak ave", []string{"owners.csv:2:property_address"}, ""},
		{"JONES", []string{"owners.csv:2:last_name"}, ""},
		{"9999999", nil, ""},
		{"nobody", nil, ""},
	}
	for _, tc := range tests {
		hits, err := lib.Search(context.Background(), tc.q, 0)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.JobName+":"+strconv.Itoa(h.Row)+":"+h.Column)
		}
		if strings.Join(got, " ") != strings.Join(tc.hits, " ") {
			t.Errorf("search %q = %v, want %v", tc.q, got, tc.hits)
			continue
		}
		if tc.field != "" {
			found := false
			for _, f := range hits[len(hits)-1].Fields {
				if f.Name+"="+f.Value == tc.field {
					found = true
				}
			}
			if !found {
				t.Errorf("search %q: fields %v lack %s", tc.q, hits[len(hits)-1].Fields, tc.field)
			}
		}
	}
	if hits, _ := lib.Search(context.Background(), "matched", 1); len(hits) != 1 {
		t.Errorf("limit 1 gave %d hits", len(hits))
	}
	if _, err := lib.Search(context.Background(), "  ", 0); err == nil {
		t.Error("empty search accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := lib.Search(ctx, "john", 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}

// A job name and a job id come from people and from the server: whatever
// they hold, the result's name is one Windows accepts, inside the library.
func TestPathForHostileNamesAndIDs(t *testing.T) {
	lib, err := Open(filepath.Join(t.TempDir(), "results"))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, m := range []Meta{
		{JobID: "CON", Name: "nul.csv", CreatedAt: day},
		{JobID: `..\..\evil`, Name: `C:\Users\me\owners.csv`, CreatedAt: day},
		{JobID: "trc_1:2*3?", Name: "aux", Kind: jobs.KindDNC},
		{JobID: "x|y", Name: "list. ", CreatedAt: day},
		{JobID: strings.Repeat("z", 300), Name: strings.Repeat("n", 300), CreatedAt: day},
	} {
		p := lib.PathFor(m)
		base := filepath.Base(p)
		if filepath.Dir(p) != lib.Dir() {
			t.Errorf("%+v: path escapes the library: %s", m, p)
		}
		if strings.ContainsAny(base, `<>:"/\|?*`) || strings.HasSuffix(base, ".") || strings.HasSuffix(base, " ") {
			t.Errorf("%+v: %q is not a Windows file name", m, base)
		}
		stem := strings.ToUpper(strings.TrimSpace(strings.SplitN(base, ".", 2)[0]))
		if reservedWindows[stem] {
			t.Errorf("%+v: %q is a Windows device name", m, base)
		}
		// Short names keep paths far from Windows' 260-character limit
		// (and Excel's, which is lower) whatever the data folder.
		if len(base)+len(RecordSuffix) > 190 {
			t.Errorf("%+v: %q is %d bytes", m, base, len(base))
		}
	}
}
