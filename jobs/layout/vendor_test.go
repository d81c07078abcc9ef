package layout

import (
	"strings"
	"testing"
	"time"
)

// A DNC vendor's calling-time columns are read as such ("Do Not Call
// Today" is no DNC flag), apply to the row's phone, and travel with the
// number through the join onto a trace's phone, dated by the scrub that
// sent them; the newest answer's values win, an older one's stand when
// the newer sends none.
func TestVendorTimeColumns(t *testing.T) {
	headers := []string{"Phone", "DNC", "Litigator", "Calling Window", "UTC Offset", "Do Not Call Today", "Scrub Date"}
	rows := [][]string{
		{"2145550101", "N", "N", "8:00 AM - 6:00 PM CST", "-6", "N", "2025-05-01"},
		{"3055550103", "N", "N", "", "", "Y", "2025-05-02"},
	}
	l := Detect(headers, rows, Options{Now: testDay.AddDate(0, 0, 3)})
	roles := map[string]Role{}
	for _, c := range l.Columns {
		roles[c.Header] = c.Role
	}
	if roles["Calling Window"] != RoleCallWindow || roles["UTC Offset"] != RoleUTCOffset || roles["Do Not Call Today"] != RoleNoCallToday {
		t.Fatalf("roles %v", roles)
	}
	if roles["DNC"] != RoleFlag || len(l.VendorTime) != 3 {
		t.Fatalf("vendor columns %v, roles %v", l.VendorTime, roles)
	}
	x := NewFlagIndex()
	x.SetDates(time.Time{}, testDay.AddDate(0, 0, 3))
	src := x.AddSource(Source{Name: "vendor.csv"}, l)
	rd := l.NewReader(nil)
	var row Row
	for _, rec := range rows {
		rd.Read(rec, &row)
		if len(row.Phones) != 1 || row.Phones[0].Vendor == nil {
			t.Fatalf("%v: phones %+v", rec, row.Phones)
		}
		x.AddRow(src, &row)
	}
	// An older scrub of the first number, with a window of its own: the
	// newer answer's values stand.
	old := x.AddSource(Source{Name: "old.csv", Date: testDay.AddDate(0, 0, -10)}, l)
	x.AddRow(old, &Row{Phones: []Phone{{Key: 2145550101, Vendor: &VendorTime{Window: "9-5"}}}})

	trace := Detect([]string{"Name", "Phone 1"}, [][]string{{"Ann", "2145550101"}, {"Bo", "3055550103"}, {"Cy", "2125550105"}}, Options{})
	trd := trace.NewReader(x)
	want := []VendorTime{
		{Window: "8:00 AM - 6:00 PM CST", Offset: "-6", NoCall: "N", Day: "2025-05-01"},
		{NoCall: "Y", Day: "2025-05-02"},
		{},
	}
	for i, rec := range [][]string{{"Ann", "2145550101"}, {"Bo", "3055550103"}, {"Cy", "2125550105"}} {
		trd.Read(rec, &row)
		var got VendorTime
		if v := row.Phones[0].Vendor; v != nil {
			got = *v
		}
		if got != want[i] {
			t.Errorf("%s: vendor %+v, want %+v", strings.Join(rec, " "), got, want[i])
		}
	}
}

// A DNC management report's "State" (NC, None) may name the state lists a
// phone is on, or where the phone is: with no address beside it, SkipDesk
// cannot tell, reads its codes as state lists (a guess) and asks; beside
// an address, or once the person says it is where the phone is, it is
// the address's state.
func TestLoneStateColumnIsAsked(t *testing.T) {
	t.Parallel()
	headers := []string{"Telephone", "Scrub Date", "State", "Litigator"}
	rows := [][]string{{"704 440 1438", "11/24/2026", "NC", "False"}, {"773 539 1679", "11/24/2026", "None", "False"}}
	l := Detect(headers, rows, Options{})
	c := l.Columns[2]
	if c.Role != RoleFlag || c.Kind != State || c.Convention != ConvStates {
		t.Fatalf(`"State" read as %s %s %s, want a state list flag in codes`, c.Role, c.Kind, c.Convention)
	}
	if len(l.Questions) != 1 || !l.Questions[0].Blocks || !l.Questions[0].Guess || l.Questions[0].Columns[0] != "State" {
		t.Fatalf("questions %+v, want one blocking guess about \"State\"", l.Questions)
	}
	for i, want := range []Flag{Flagged, Unknown} {
		var row Row
		l.NewReader(nil).Read(rows[i], &row)
		if len(row.Phones) != 1 || row.Phones[0].Flags.Of(State) != want || row.Phones[0].Block == 0 {
			t.Errorf("%q read as %+v, want the state list %s and the phone blocked", rows[i][2], row.Phones, want)
		}
	}

	// Camel case, and a word beside the codes.
	words := Detect([]string{"telephone", "stateList", "litigator"}, [][]string{{"9195392169", "Clean", ""}, {"2062517732", "WA", "no"}}, Options{})
	if c := words.Columns[1]; c.Role != RoleFlag || c.Kind != State || len(words.Questions) != 1 {
		t.Errorf(`"stateList" of Clean and WA read as %s %s, questions %+v`, c.Role, c.Kind, words.Questions)
	}

	// "State List", a one-letter code ("U") beside the codes.
	coded := Detect([]string{"Phone", "State List", "Litigator"}, [][]string{{"1-973-823-4867 x528", "U", ""}, {"1-720-459-9870 x291", "CO", "0"}}, Options{})
	if c := coded.Columns[1]; c.Role != RoleFlag || c.Kind != State || len(coded.Questions) == 0 || !coded.Questions[0].Blocks {
		t.Errorf(`"State List" of U and CO read as %s %s, questions %+v`, c.Role, c.Kind, coded.Questions)
	}

	where := Detect(headers, rows, Options{Correction: &Correction{Columns: map[string]ColumnFix{"State": {Role: RoleState}}}})
	if c := where.Columns[2]; c.Role != RoleState || len(where.Questions) != 0 {
		t.Errorf("answered as where the phone is: %s, questions %+v", c.Role, where.Questions)
	}
	for _, hs := range [][]string{
		{"Phone", "City", "State", "DNC"},               // an address's state
		{"Phone", "Owner State", "DNC"},                 // named for whose state
		{"Phone", "State", "Mailing State", "DNC"},      // two places
		{"Phone", "Scrub Date", "State DNC", "Federal"}, // a state list by name
	} {
		l := Detect(hs, [][]string{{"7044401438", "NC", "NC", "No"}}, Options{})
		for _, q := range l.Questions {
			if strings.Contains(q.Message, "holds a state for each phone") {
				t.Errorf("%v: asked %q", hs, q.Message)
			}
		}
	}
}
