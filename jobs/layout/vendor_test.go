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
