package layout

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A column of several numbers a cell ("Other Phones": "a, b; c") is one
// slot a number, named by the column, each read as the number it is; a
// column named for a phone holding other text is asked about.
func TestSeveralPhonesInACell(t *testing.T) {
	h := []string{"Phone 1", "Phone 1 DNC", "Phone 1 Litigator", "Other Phones"}
	// Phone 1, answered clean, beside the other phones of the row.
	var rows [][]string
	for _, other := range []string{"5125550101, 5125550102; (512) 555-0103", "2145550107 | 2145550108",
		"214-555-0109\n555-0110", "2145550111", ""} {
		rows = append(rows, []string{fmt.Sprintf("%d", 5125550199-len(rows)), "N", "N", other})
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l,
		"Phone 1=Phone 1||Phone 1 DNC:dnc,Phone 1 Litigator:litigator",
		"Other Phones 1=Other Phones||", "Other Phones 2=Other Phones||", "Other Phones 3=Other Phones||",
	)
	got := readAll(t, l, rows, nil)
	want := [][]string{
		{"(512) 555-0199 ? callable", "(512) 555-0101 ? DNC unknown, litigator unknown",
			"(512) 555-0102 ? DNC unknown, litigator unknown", "(512) 555-0103 ? DNC unknown, litigator unknown"},
		{"(512) 555-0198 ? callable", "(214) 555-0107 ? DNC unknown, litigator unknown",
			"(214) 555-0108 ? DNC unknown, litigator unknown"},
		{"(512) 555-0197 ? callable", "(214) 555-0109 ? DNC unknown, litigator unknown", "555-0110 ? invalid number"},
		{"(512) 555-0196 ? callable", "(214) 555-0111 ? DNC unknown, litigator unknown"},
		{"(512) 555-0195 ? callable"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d:\n %s\nwant\n %s", i+1, strings.Join(got[i], "\n "), strings.Join(want[i], "\n "))
		}
	}

	rows = [][]string{{"5125550199", "N", "N", "call after 5"}, {"2145550199", "N", "N", "ask for Bob"}}
	l = Detect(h, rows, Options{})
	found := slices.ContainsFunc(l.Questions, func(q Question) bool {
		return len(q.Columns) == 1 && q.Columns[0] == "Other Phones" && !q.Blocks &&
			strings.HasPrefix(q.Message, `"Other Phones" is named like a phone column but its values do not look like phone numbers`)
	})
	if !found || len(l.Slots) != 1 {
		t.Errorf("text: %d slots, questions %+v; want one slot and the question", len(l.Slots), l.Questions)
	}
}

// A row's answers were asked of the phone the row is about: the several
// numbers of a cell take what flags from them ("do not call" in the notes),
// never a clean answer on a list; notes that say nothing hold none back.
func TestSeveralPhonesTakeOnlyFlags(t *testing.T) {
	h := []string{"Phone", "DNC", "Litigator", "Notes", "Other Phones"}
	rows := [][]string{
		{"5125550199", "No", "No", "", "5125550101; 5125550102"},
		{"2145550199", "No", "No", "do not call", "2145550107; 2145550108"},
	}
	l := Detect(h, rows, Options{})
	got := readAll(t, l, rows, nil)
	want := [][]string{
		{"(512) 555-0199 ? callable", "(512) 555-0101 ? DNC unknown, litigator unknown", "(512) 555-0102 ? DNC unknown, litigator unknown"},
		{"(214) 555-0199 ? the file says do not call", "(214) 555-0107 ? the file says do not call, DNC unknown, litigator unknown",
			"(214) 555-0108 ? the file says do not call, DNC unknown, litigator unknown"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d:\n %s\nwant\n %s", i+1, strings.Join(got[i], "\n "), strings.Join(want[i], "\n "))
		}
	}
}

// A column of several numbers a cell named as another phone column is
// ("Phone Numbers" beside "Phone") is slots of its own: the one phone a
// DNC result's row answers for stays its phone, and the file a DNC result.
func TestSeveralPhonesBesideThePhone(t *testing.T) {
	h := []string{"Phone", "Phone Numbers", "ResultCode"}
	rows := [][]string{{"+18165489386", "", "C"}, {"+18168471131", "9735425002 | 4805153678", "P"}}
	l := Detect(h, rows, Options{})
	wantSlots(t, l, "Phone=Phone||ResultCode:dnc", "Phone Numbers 1=Phone Numbers||ResultCode:dnc",
		"Phone Numbers 2=Phone Numbers||ResultCode:dnc")
	if l.Kind != KindDNC {
		t.Errorf("kind %s, want a DNC result", l.Kind)
	}
	got := readAll(t, l, rows, nil)
	if got[1][0] != "(816) 847-1131 ? internal DNC (the file's), DNC unknown, litigator unknown" {
		t.Errorf("row 2: %q", got[1])
	}
}

// A file whose one phone column holds several numbers in some cells: a
// cell of one number is the row's phone, and the row's answers are its
// own; a cell of several takes only what flags. A number alone in a column
// of other phones ("Other Phones" beside "Phone") stays another phone: the
// row's answers are the phone's. (Before, every phone of such a file was
// unknown, the one number of a cell too.)
func TestOneNumberOfAColumnOfSeveral(t *testing.T) {
	h := []string{"Phone", "DNC", "Litigator"}
	rows := [][]string{
		{"5125550101; 5125550102", "No", "No"},
		{"2145550103", "No", "No"},
	}
	got := readAll(t, Detect(h, rows, Options{}), rows, nil)
	want := [][]string{
		{"(512) 555-0101 ? DNC unknown, litigator unknown", "(512) 555-0102 ? DNC unknown, litigator unknown"},
		{"(214) 555-0103 ? callable"},
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("row %d:\n %s\nwant\n %s", i+1, strings.Join(got[i], "\n "), strings.Join(want[i], "\n "))
		}
	}
	h = []string{"Phone", "DNC", "Litigator", "Other Phones"}
	rows = [][]string{{"5125550199", "No", "No", "5125550101; 5125550102"}, {"2145550199", "No", "No", "2145550103"}}
	got = readAll(t, Detect(h, rows, Options{}), rows, nil)
	if len(got[1]) != 2 || got[1][0] != "(214) 555-0199 ? callable" || got[1][1] != "(214) 555-0103 ? DNC unknown, litigator unknown" {
		t.Errorf("beside a phone: %q", got[1])
	}
}
