package layout

import (
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// A vendor that sorts a row's phones by what it found writes the numbers
// on a list in a column named for it ("DNC Mobile 1"): each is a phone of
// its own, flagged on that list whatever a newer scrub says, and the
// plain columns' phones are not answered by it.
func TestListedPhoneColumns(t *testing.T) {
	h := []string{"Owner First", "Owner Last", "Mobile 1", "Mobile 1 Type", "Mobile 2", "Landline 1", "DNC Mobile 1",
		"DNC Landline 1", "Litigator Phone 1", "Last Scrubbed"}
	rows := [][]string{
		{"John", "Smith", "(512) 555-0101", "mobile", "512-555-0102", "5125550103", "5125550104", "(512) 555-0105",
			"512.555.0106", "2025-05-01"},
		{"Mary", "Jones", "2145550107", "mobile", "", "2145550108", "2145550109", "", "", "2025-05-01"},
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l,
		"Mobile 1=Mobile 1|Mobile 1 Type|", "Mobile 2=Mobile 2|~mobile|", "Landline 1=Landline 1|~landline|",
		"DNC mobile 1=DNC Mobile 1|~mobile|DNC Mobile 1:dnc", "DNC landline 1=DNC Landline 1|~landline|DNC Landline 1:dnc",
		"Litigator phone 1=Litigator Phone 1||Litigator Phone 1:litigator",
	)
	for _, q := range l.Questions {
		if q.Blocks {
			t.Errorf("a question blocks the file: %s", q.Message)
		}
	}
	// A newer scrub calls every number clean: the listed ones stay out.
	join := cleanScrub("5125550101", "5125550102", "5125550103", "5125550104", "5125550105", "5125550106",
		"2145550107", "2145550108", "2145550109")
	got := readAll(t, l, rows, join)
	wantRows := [][]string{
		{"(512) 555-0101 mobile callable", "(512) 555-0102 mobile callable", "(512) 555-0103 landline callable",
			"(512) 555-0104 mobile DNC", "(512) 555-0105 landline DNC", "(512) 555-0106 ? litigator"},
		{"(214) 555-0107 mobile callable", "(214) 555-0108 landline callable", "(214) 555-0109 mobile DNC"},
	}
	for i := range wantRows {
		if !slices.Equal(got[i], wantRows[i]) {
			t.Errorf("row %d:\n %s\nwant\n %s", i+1, strings.Join(got[i], "\n "), strings.Join(wantRows[i], "\n "))
		}
	}
	// With the file's answers alone, the plain columns' phones are not
	// answered on the DNC list.
	for _, p := range readAll(t, l, rows[:1], nil)[0][:3] {
		if strings.HasSuffix(p, "callable") {
			t.Errorf("%s: callable without a DNC answer", p)
		}
	}
}

// A column named for a list whose phones another column answers for on
// that list ("DNC Phone" beside "DNC Status") may be the number the list
// was checked for: its numbers are still read as on the list, a note says
// so, and a correction naming it a phone reads them by the other columns.
// A header calling its numbers clean makes none so.
func TestListedPhoneColumnsAnsweredElsewhere(t *testing.T) {
	h := []string{"DNC Phone", "DNC Status", "Litigator", "Callable Mobile 1", "Non-DNC Phone 1", "Mobile 1", "Date Scrubbed"}
	rows := [][]string{
		{"5125550101", "Clean", "No", "5125550102", "5125550103", "5125550104", "2025-05-01"},
		{"5125550105", "DNC", "No", "", "", "", "2025-05-01"},
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l,
		"DNC phone=DNC Phone||DNC Phone:dnc,DNC Status:dnc,Litigator:litigator",
		"Callable mobile 1=Callable Mobile 1|~mobile|DNC Status:dnc,Litigator:litigator",
		"Non DNC phone 1=Non-DNC Phone 1||DNC Status:dnc,Litigator:litigator",
		"Mobile 1=Mobile 1|~mobile|DNC Status:dnc,Litigator:litigator",
	)
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, `"DNC Phone" holds phone numbers`) }) {
		t.Errorf("no note on \"DNC Phone\": %q", l.Notes)
	}
	got := readAll(t, l, rows, nil)
	if got[0][0] != "(512) 555-0101 ? DNC" || got[0][1] != "(512) 555-0102 mobile callable" || got[0][2] != "(512) 555-0103 ? callable" {
		t.Errorf("read %q", got[0])
	}
	fixed := Detect(h, rows, Options{Correction: &Correction{Signature: l.Signature,
		Columns: map[string]ColumnFix{"DNC Phone": {Role: RolePhone},
			// Between two phones now, the status and the litigator flag
			// are asked about (amidQuestion): the person says they are the
			// row's.
			"DNC Status": {Role: RoleFlag}, "Litigator": {Role: RoleFlag}}}})
	got = readAll(t, fixed, rows, nil)
	if got[0][0] != "(512) 555-0101 ? callable" || got[1][0] != "(512) 555-0105 ? DNC" {
		t.Errorf("corrected to a phone, \"DNC Phone\" read as %q, %q: want its status's answers", got[0][0], got[1][0])
	}
}

// One state's list named with phones ("NJ DNC Phone 1"): its numbers are
// on that state's list, and the file then asks that list of every phone.
func TestListedPhoneColumnsOneState(t *testing.T) {
	h := []string{"Phone 1", "Phone 1 DNC", "Litigator", "NJ DNC Phone 1", "Date Scrubbed"}
	rows := [][]string{{"2015550101", "No", "No", "(201) 555-0110", "2025-05-01"}}
	l := Detect(h, rows, Options{})
	if s := slotText(l, l.Slots[1]); s != "NJ DNC phone 1=NJ DNC Phone 1||NJ DNC Phone 1:named-state,Litigator:litigator" {
		t.Errorf("slot %s", s)
	}
	got := readAll(t, l, rows, nil)[0]
	want := []string{"(201) 555-0101 ? state DNC unknown", "(201) 555-0110 ? state DNC, DNC unknown"}
	if !slices.Equal(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
}

// An empty column named as a listed column of another phone is
// ("DNC Listed Phone 2" beside a "DNC Listed Phone 1" of numbers) lists no
// number: it leaves its phone's own answers standing.
func TestListedPhoneColumnsEmptySibling(t *testing.T) {
	h := []string{"Phone 1", "Phone 1 DNC", "Phone 2", "Phone 2 DNC", "Litigator", "DNC Listed Phone 1", "DNC Listed Phone 2", "Date Scrubbed"}
	rows := [][]string{
		{"5125550101", "No", "5125550102", "No", "No", "5125550103", "", "2025-05-01"},
		{"5125550104", "No", "", "", "No", "", "", "2025-05-01"},
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l,
		"Phone 1=Phone 1||Phone 1 DNC:dnc,Litigator:litigator", "Phone 2=Phone 2||Phone 2 DNC:dnc,Litigator:litigator",
		"DNC phone 1=DNC Listed Phone 1||DNC Listed Phone 1:dnc,Litigator:litigator",
		"DNC phone 2=DNC Listed Phone 2||DNC Listed Phone 2:dnc,Litigator:litigator",
	)
	got := readAll(t, l, rows, nil)
	wantRows := [][]string{{"(512) 555-0101 ? callable", "(512) 555-0102 ? callable", "(512) 555-0103 ? DNC"}, {"(512) 555-0104 ? callable"}}
	for i := range wantRows {
		if !slices.Equal(got[i], wantRows[i]) {
			t.Errorf("row %d: %q, want %q", i+1, got[i], wantRows[i])
		}
	}
}

// wantSlots fails the test unless l's slots are want (slotText).
func wantSlots(t *testing.T, l *Layout, want ...string) {
	t.Helper()
	var got []string
	for _, s := range l.Slots {
		got = append(got, slotText(l, s))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("slots:\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}
}

// A column of the row's numbers on a list, several to a cell ("DNC
// Numbers"), flags the phones it lists and answers nothing of the others;
// one cell of several numbers among single ones makes it such a column,
// never a phone slot whose cell of two numbers would go unread.
func TestListedNumbersColumn(t *testing.T) {
	h := []string{"Phone 1", "Phone 2", "Phone 3", "DNC Numbers", "Litigator", "Scrubbed On"}
	rows := [][]string{
		{"5125550101", "5125550102", "5125550103", "5125550102; (512) 555-0103", "No", "2025-05-01"},
		{"2145550107", "2145550108", "", "", "No", "2025-05-01"},
		{"2545550111", "", "", "254-555-0111", "No", "2025-05-01"},
		{"2545550112", "", "", "254.555.0112", "No", "2025-05-01"},
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l,
		"Phone 1=Phone 1||DNC Numbers:dnc,Litigator:litigator", "Phone 2=Phone 2||DNC Numbers:dnc,Litigator:litigator",
		"Phone 3=Phone 3||DNC Numbers:dnc,Litigator:litigator",
	)
	for _, q := range l.Questions {
		if q.Blocks {
			t.Errorf("a question blocks the file: %s", q.Message)
		}
	}
	join := cleanScrub("5125550101", "5125550102", "5125550103", "2145550107", "2145550108", "2545550111", "2545550112")
	got := readAll(t, l, rows, join)
	want := [][]string{
		{"(512) 555-0101 ? callable", "(512) 555-0102 ? DNC", "(512) 555-0103 ? DNC"},
		{"(214) 555-0107 ? callable", "(214) 555-0108 ? callable"},
		{"(254) 555-0111 ? DNC"},
		{"(254) 555-0112 ? DNC"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d: %q, want %q", i+1, got[i], want[i])
		}
	}
	// Alone, the file answers none of them clean.
	for _, row := range readAll(t, l, rows, nil) {
		for _, p := range row {
			if strings.HasSuffix(p, "callable") {
				t.Errorf("%s: callable on the file's silence", p)
			}
		}
	}
	// A value that is not numbers is asked about; one that says the row
	// has numbers on the list flags every phone of the row.
	rows[1][3] = "Yes"
	l = Detect(h, rows, Options{})
	if !slices.ContainsFunc(l.Questions, func(q Question) bool { return q.Blocks && strings.Contains(q.Message, `"Yes"`) }) {
		t.Errorf("no question on \"Yes\": %+v", l.Questions)
	}
	if got := readAll(t, l, rows[1:2], join)[0]; got[0] != "(214) 555-0107 ? DNC" || got[1] != "(214) 555-0108 ? DNC" {
		t.Errorf("row of \"Yes\": %q", got)
	}
}

// cleanScrub is an index of one DNC result, dated testDay, that calls
// every one of numbers clean on the DNC and litigator lists.
func cleanScrub(numbers ...string) *FlagIndex {
	join := NewFlagIndex()
	join.SetDates(testDay, testDay.AddDate(0, 0, 1))
	src := join.AddSource(Source{Name: "scrub", Date: testDay}, Detect([]string{"PHONE", "DNC", "LITIGATOR"}, nil, Options{}))
	for _, n := range numbers {
		join.add(src, phone.Key(n), flagsOf(DNC, Clean, Litigator, Clean), testDay)
	}
	return join
}

// The sorted vendor's file (testdata/sorted_vendor.csv, also the window's
// end-to-end test): its own answers make the plain phones callable, never
// the numbers its list columns name, nor the other numbers no list answers.
func TestReadSortedVendor(t *testing.T) {
	l, rows, _ := detectFixture(t, "sorted_vendor.csv", Options{})
	got := readAll(t, l, rows, nil)
	want := [][]string{
		{"(512) 555-0101 mobile callable", "(512) 555-0102 landline callable", "(512) 555-0103 mobile DNC, litigator unknown"},
		{"(214) 555-0107 mobile DNC", "(214) 555-0109 ? litigator, DNC unknown",
			"(214) 555-0120 ? DNC unknown, litigator unknown", "(214) 555-0121 ? DNC unknown, litigator unknown"},
		{"(254) 555-0111 landline callable"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d:\n %s\nwant\n %s", i+1, strings.Join(got[i], "\n "), strings.Join(want[i], "\n "))
		}
	}
}
