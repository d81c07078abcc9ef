package layout

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// phoneText writes a phone as "display type block".
func phoneText(l *Layout, p Phone) string {
	t := string(p.Type)
	if t == "" {
		t = "?"
	}
	return fmt.Sprintf("%s %s %s", p.Display(), t, p.Block)
}

// readAll reads rows with join (nil: the file's own answers, dated testDay
// and judged the day after).
func readAll(t *testing.T, l *Layout, rows [][]string, join *FlagIndex) [][]string {
	t.Helper()
	if join == nil {
		join = fresh()
	}
	rd := l.NewReader(join)
	var row Row
	var out [][]string
	for _, rec := range rows {
		rd.Read(rec, &row)
		var ps []string
		for _, p := range row.Phones {
			ps = append(ps, phoneText(l, p))
		}
		out = append(out, ps)
	}
	return out
}

func TestReadPropStream(t *testing.T) {
	l, rows, _ := detectFixture(t, "propstream.csv", Options{})
	got := readAll(t, l, rows, nil)
	want := [][]string{
		{"(512) 555-0101 mobile callable", "(512) 555-0102 landline DNC"},
		// Row-level Litigator: Yes is every phone's; "?" is unknown.
		{"(214) 555-0103 mobile litigator", "(214) 555-0107 voip litigator", "(214) 555-0108 landline litigator, DNC unknown"},
		{"(512) 555-0104 mobile callable", "(512) 555-0105 mobile callable", "(512) 555-0106 landline callable",
			"(512) 555-0109 mobile DNC", "(512) 555-0110 landline DNC unknown"},
		// A blank Litigator is unknown, never clean.
		{"(713) 555-0111 mobile litigator unknown"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d:\n %s\nwant\n %s", i+1, strings.Join(got[i], "\n "), strings.Join(want[i], "\n "))
		}
	}
	var row Row
	l.NewReader(nil).Read(rows[0], &row)
	if len(row.People) != 2 || row.People[0].String() != "John Smith" || row.People[1].Group != "owner 2" ||
		row.Property.String() != "12 Oak Ave, Austin, TX 78701" || row.Mailing.String() != "PO Box 14, Austin, TX 78701" ||
		!slices.Equal(row.Emails, []string{"john@example.com"}) || row.Match != MatchUnknown {
		t.Errorf("row 1 read as %+v", row)
	}
}

func TestReadDNCResults(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"skipdesk_dnc.csv", []string{
			"(512) 555-0101 mobile callable", "(512) 555-0102 landline DNC", "(214) 555-0103 voip litigator",
			"(512) 555-0104 mobile callable", "555-0199 ? invalid number",
		}},
		{"dnc_vendor_yn.csv", []string{
			"(512) 555-0101 mobile callable", "(512) 555-0102 landline federal DNC", "(214) 555-0103 voip litigator",
			"(512) 555-0104 mobile state DNC", "(512) 555-0105 mobile DNC unknown", "(512) 555-0106 landline state DNC unknown",
			"(512) 555-0109 mobile litigator unknown", "555-0199 ? invalid number",
		}},
		{"dnc_vendor_codes.csv", []string{
			// The Reason column states why: every reason stated counts.
			"(512) 555-0101 mobile callable", "(512) 555-0102 other the file says do not call, DNC or litigator, state DNC unknown",
			"(214) 555-0103 voip the file says do not call, DNC or litigator, state DNC unknown",
			"(512) 555-0104 other callable",
			// L: a state's law on wireless numbers, a restriction the file states.
			"(512) 555-0105 mobile the file says do not call, DNC unknown, litigator unknown",
			"(512) 555-0106 voip callable",
			"(512) 555-0109 ? invalid number", "(512) 555-0110 mobile DNC unknown, litigator unknown, state DNC unknown",
		}},
		{"invented_scrub.csv", []string{
			// Known Litigator is marks: a blank is unknown until confirmed.
			"(512) 555-0101 mobile litigator unknown", "(512) 555-0102 landline federal DNC, litigator unknown",
			"(214) 555-0103 voip litigator", "(512) 555-0104 mobile state DNC, litigator unknown",
			"(512) 555-0106 landline state DNC, litigator unknown",
		}},
	}
	for _, tt := range tests {
		l, rows, _ := detectFixture(t, tt.file, Options{})
		var got []string
		for _, ps := range readAll(t, l, rows, nil) {
			got = append(got, strings.Join(ps, "; "))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n %s\nwant\n %s", tt.file, strings.Join(got, "\n "), strings.Join(tt.want, "\n "))
		}
	}
}

// In every example file, a callable phone is a valid number that every list
// the call depends on answered clean: never a flagged, unknown or invalid
// one, whatever the spelling of its flags.
func TestNoFixtureCallsAFlaggedPhone(t *testing.T) {
	files := []string{"skipdesk_trace.csv", "skipdesk_dnc.csv", "propstream.csv", "dealmachine.csv", "tracerfy.csv",
		"batchdata.csv", "dnc_vendor_yn.csv", "dnc_vendor_codes.csv", "invented_camel.csv", "invented_scrub.csv"}
	callable := 0
	for _, f := range files {
		l, rows, _ := detectFixture(t, f, Options{})
		rd := l.NewReader(fresh())
		var row Row
		for _, rec := range rows {
			rd.Read(rec, &row)
			for _, p := range row.Phones {
				if !p.Callable() {
					continue
				}
				callable++
				if !p.Valid() {
					t.Errorf("%s: invalid %q callable", f, p.Raw)
				}
				for _, fc := range l.Slots[p.Slot].Flags {
					x := l.readValue(fc, cell(rec, fc))
					if x.flag != Clean && l.Columns[fc].Kind != Number {
						t.Errorf("%s: %s callable with %s = %q", f, p.Display(), l.Headers[fc], cell(rec, fc))
					}
				}
			}
		}
	}
	if callable == 0 {
		t.Fatal("no callable phone at all: the test proves nothing")
	}
}

func TestFilters(t *testing.T) {
	l, rows, _ := detectFixture(t, "propstream.csv", Options{})
	if err := l.Check(nil, jobs.QuickMobile, jobs.QuickNotDNC, jobs.QuickNotLitigator, jobs.QuickCallable); err != nil {
		t.Fatal(err)
	}
	err := l.Check(nil, jobs.QuickMatched)
	if err == nil || !strings.Contains(err.Error(), "match status") {
		t.Errorf("matched on PropStream: %v", err)
	}
	run := func(fs ...jobs.QuickFilter) []string {
		rd := l.NewReader(fresh())
		var row Row
		var out []string
		for i, rec := range rows {
			rd.Read(rec, &row)
			if !Keep(&row, fs) {
				continue
			}
			var ps []string
			for _, p := range row.Phones {
				ps = append(ps, p.Digits()[6:])
			}
			out = append(out, fmt.Sprintf("%d:%s", i+1, strings.Join(ps, ",")))
		}
		return out
	}
	for _, tt := range []struct {
		fs   []jobs.QuickFilter
		want []string
	}{
		{[]jobs.QuickFilter{jobs.QuickMobile}, []string{"1:0101", "2:0103", "3:0104,0105,0109", "4:0111"}},
		{[]jobs.QuickFilter{jobs.QuickNotDNC}, []string{"1:0101", "2:0103,0107", "3:0104,0105,0106", "4:0111"}},
		{[]jobs.QuickFilter{jobs.QuickNotLitigator}, []string{"1:0101,0102", "3:0104,0105,0106,0109,0110"}},
		{[]jobs.QuickFilter{jobs.QuickCallable}, []string{"1:0101", "3:0104,0105,0106"}},
		{[]jobs.QuickFilter{jobs.QuickCallable, jobs.QuickMobile}, []string{"1:0101", "3:0104,0105"}},
		{nil, []string{"1:0101,0102", "2:0103,0107,0108", "3:0104,0105,0106,0109,0110", "4:0111"}},
	} {
		if got := run(tt.fs...); !slices.Equal(got, tt.want) {
			t.Errorf("%v: %q, want %q", tt.fs, got, tt.want)
		}
	}

	// Filters that cannot apply say why.
	tr, trows, _ := detectFixture(t, "tracerfy.csv", Options{})
	for _, f := range []jobs.QuickFilter{jobs.QuickMatched, jobs.QuickNotDNC, jobs.QuickNotLitigator, jobs.QuickCallable} {
		var ce *CannotFilterError
		if err := tr.Check(nil, f); err == nil || !errorAs(err, &ce) || ce.Filter != f {
			t.Errorf("%s on a Tracerfy-style file: %v", f, err)
		}
	}
	if err := tr.Check(nil, jobs.QuickMobile); err != nil {
		t.Errorf("mobile by column names: %v", err)
	}
	dm, _, _ := detectFixture(t, "skipdesk_trace.csv", Options{})
	if err := dm.Check(nil, jobs.QuickMatched, jobs.QuickMobile); err != nil {
		t.Errorf("matched and mobile on SkipDesk's trace: %v", err)
	}
	nt := Detect([]string{"Phone 1", "Name"}, [][]string{{"5125550101", "A"}}, Options{})
	if err := nt.Check(nil, jobs.QuickMobile); err == nil || !strings.Contains(err.Error(), "type") {
		t.Errorf("mobile without types: %v", err)
	}
	_ = trows
	if _, err := jobs.ParseQuickFilters("matched, NOT_DNC,callable"); err != nil {
		t.Error(err)
	}
	if _, err := jobs.ParseQuickFilters("matched,cheap"); err == nil || !strings.Contains(err.Error(), "cheap") {
		t.Errorf("unknown filter: %v", err)
	}
}

func TestMatchedFilter(t *testing.T) {
	l, rows, _ := detectFixture(t, "skipdesk_trace.csv", Options{})
	rd := l.NewReader(nil)
	var row Row
	kept := 0
	for _, rec := range rows {
		rd.Read(rec, &row)
		if Keep(&row, []jobs.QuickFilter{jobs.QuickMatched}) {
			kept++
		}
	}
	if kept != 3 {
		t.Errorf("%d matched rows, want 3", kept)
	}
}

// A number a row lists twice is one phone: the type either column names,
// and blocked when either reading blocks it.
func TestDistinctPhones(t *testing.T) {
	tr, rows, _ := detectFixture(t, "tracerfy.csv", Options{})
	var row Row
	tr.NewReader(nil).Read(rows[0], &row)
	var got []string
	for _, p := range row.DistinctPhones() {
		got = append(got, phoneText(tr, p))
	}
	want := []string{"(512) 555-0101 mobile DNC unknown, litigator unknown", "(512) 555-0113 mobile DNC unknown, litigator unknown",
		"(512) 555-0102 landline DNC unknown, litigator unknown"}
	if !slices.Equal(got, want) {
		t.Errorf("distinct phones of row 1:\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}

	// The same number read clean once and flagged once is flagged.
	clean := Phone{Key: 5125550101, Type: Mobile}
	clean.Flags.Set(Federal, Clean)
	flagged := Phone{Key: 5125550101, Block: BlockFederal}
	flagged.Flags.Set(Federal, Flagged)
	invalid := Phone{Raw: "555-01"}
	r := Row{Phones: []Phone{clean, invalid, flagged, invalid}}
	ps := r.DistinctPhones()
	if len(ps) != 3 || ps[0].Callable() || ps[0].Flags.Of(Federal) != Flagged || ps[0].Type != Mobile || ps[1].Raw != "555-01" {
		t.Errorf("clean and flagged readings of one number: %+v", ps)
	}
}

// Line types beyond the common words are read (PCS, Cellular, a
// "Wireless" yes/no column); what is not certain — a home phone, a work
// phone, words of two kinds — is "type unknown" for an autodialer, never
// mobile or landline by default.
func TestPhoneTypesFailClosed(t *testing.T) {
	for v, want := range map[string]PhoneType{
		"PCS": Mobile, "Cellular": Mobile, "WIRELESS": Mobile, "Cell Phone": Mobile, "Mobile/Wireless": Mobile,
		"Land Line": Landline, "Landline (POTS)": Landline, "Fixed VoIP": VoIP, "Non-Fixed VoIP": VoIP,
		"Home": Home, "Work": Work, "cell/landline": "", "Verizon": "", "": "",
	} {
		if got, _ := readType(v); got != want {
			t.Errorf("type %q: %q, want %q", v, got, want)
		}
	}
	for _, tt := range []struct {
		t        PhoneType
		wireless bool
	}{{Mobile, true}, {Home, true}, {Work, true}, {Other, true}, {"", true}, {Landline, false}, {VoIP, false}, {NotMobile, false}} {
		if tt.t.Wireless() != tt.wireless {
			t.Errorf("%q: wireless %v", tt.t, !tt.wireless)
		}
	}
	l := Detect([]string{"Phone", "Wireless", "Federal DNC", "Litigator"},
		[][]string{{"2125550101", "1", "N", "N"}, {"2125550102", "0", "N", "N"}, {"2125550103", "", "N", "N"}}, Options{})
	var got []string
	for _, ps := range readAll(t, l, [][]string{{"2125550101", "1", "N", "N"}, {"2125550102", "0", "N", "N"}, {"2125550103", "", "N", "N"}}, nil) {
		got = append(got, ps...)
	}
	want := []string{"(212) 555-0101 mobile callable", "(212) 555-0102 not mobile callable", "(212) 555-0103 ? callable"}
	if !slices.Equal(got, want) {
		t.Errorf("a Wireless 1/0 column:\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}
}

// A row the service found no one for is named as the list names it: its
// own name columns are read when the result's are blank.
func TestUnmatchedRowsKeepTheListsName(t *testing.T) {
	headers := []string{"Owner First Name", "Owner Last Name", "Property Address", "Property City", "Property State", "Property Zip",
		"owner_first_name", "owner_last_name", "phone_1", "phone_1_type", "is_entity", "match_status"}
	rows := [][]string{
		{"ann", "lee", "1 Elm St", "Austin", "TX", "78701", "Ann", "Lee", "5125550101", "mobile", "false", "matched"},
		{"Bo", "Ray", "2 Oak Ave", "Waco", "TX", "76701", "", "", "", "", "false", "no_match"},
	}
	l := Detect(headers, rows, Options{})
	if len(l.People) == 0 || l.People[0].First != 6 || l.People[0].ListFirst != 0 || l.People[0].ListLast != 1 {
		t.Fatalf("people %+v", l.People)
	}
	rd := l.NewReader(nil)
	var row Row
	for i, want := range []string{"Ann Lee", "Bo Ray"} {
		rd.Read(rows[i], &row)
		if len(row.People) != 1 || row.People[0].String() != want {
			t.Errorf("row %d named %+v, want %q", i+1, row.People, want)
		}
	}
}
