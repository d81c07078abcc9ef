package layout

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A note beside the number in a phone's cell is the file's word about that
// phone: a restriction flags it, anything SkipDesk cannot read leaves it
// unknown; its punctuation, extension and a word of what it is say nothing.
func TestNotesInPhoneCells(t *testing.T) {
	const (
		callable = "callable"
		says     = "the file says do not call"
		unclear  = "the file's notes unclear"
	)
	cells := []struct{ cell, want string }{
		{"%s", callable}, {"(%s) %s-%s", callable}, {"+1 %s", callable}, {"%s x445", callable}, {"%s ext. 12", callable},
		{"Mobile: %s", callable}, {"%s (cell)", callable}, {"Tel: %s", callable}, {"%s\u00a0", callable},
		{"%s–%s–%s", callable}, {"'%s", callable}, {"=\"%s\"", callable}, {"“%s”", callable},
		{"%s (DNC)", says}, {"DNC: %s", says}, {"%s - Do Not Call", says}, {"[Litigator] %s", says}, {"%s *DNC*", says},
		{"%s wrong number", says},
		{"%s*", unclear}, {"%s (verified)", unclear}, {"%s fax", unclear}, {"%s not DNC", unclear}, {"%s ✓", unclear},
	}
	h := []string{"Phone", "DNC", "Litigator", "Scrub Date"}
	var rows [][]string
	for i, c := range cells {
		d := fmt.Sprintf("51255501%02d", i+1)
		v := fmt.Sprintf(c.cell, d)
		if strings.Count(c.cell, "%s") == 3 {
			v = fmt.Sprintf(c.cell, d[:3], d[3:6], d[6:])
		}
		rows = append(rows, []string{v, "No", "No", "2025-05-01"})
	}
	// Most numbers of a file are written plainly.
	for i := range 60 {
		rows = append(rows, []string{fmt.Sprintf("51255502%02d", i), "No", "No", "2025-05-01"})
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l, "Phone=Phone||DNC:dnc,Litigator:litigator")
	for i, got := range readAll(t, l, rows, nil)[:len(cells)] {
		want := fmt.Sprintf("(512) 555-01%02d ? %s", i+1, cells[i].want)
		if !slices.Equal(got, []string{want}) {
			t.Errorf("cell %q: %q, want %q", rows[i][0], got, want)
		}
	}
}

// A note in a phone's cell naming the litigator list is that phone's: it
// is no sign that an "OK to call" verdict beside it checked the litigator
// list for every number.
func TestPhoneNoteIsNoLitigatorEvidence(t *testing.T) {
	h := []string{"Telephone", "scrubbed_at", "Dialable"}
	rows := [][]string{{"1-480-278-4836 (Litigator)", "2025-05-01", "0"}, {"Primary: 1-602-931-2923", "2025-05-01", "1"},
		{"7182734836", "2025-05-01", "1"}, {"9016406616", "2025-05-01", "0"}}
	for i := range 20 {
		rows = append(rows, []string{fmt.Sprintf("51255502%02d", i), "2025-05-01", "1"})
	}
	l := Detect(h, rows, Options{})
	if l.Columns[0].Role != RolePhone {
		t.Fatalf("%q read as %v", h[0], l.Columns[0].Role)
	}
	if k := l.Columns[2].Kind; k != DNC {
		t.Fatalf("the verdict answers %v, want the registry alone", k)
	}
	for i, got := range readAll(t, l, rows, nil) {
		if len(got) != 1 || strings.Contains(got[0], "callable") && !strings.Contains(got[0], "litigator unknown") {
			t.Errorf("row %d: %q: callable with no litigator answer", i+1, got)
		}
	}
}

// Two columns read as one phone's (its number and its number as written:
// "Phone" beside "Phone") that hold two numbers leave the phone unknown:
// the row's answers may be about either. The same number written two
// ways is one phone.
func TestTwinColumnsOfTwoNumbers(t *testing.T) {
	h := []string{"Phone", "Phone", "DNC", "Litigator"}
	rows := [][]string{{"5125550101", "5125550199", "No", "No"}, {"5125550102", "(512) 555-0102", "No", "No"}}
	l := Detect(h, rows, Options{})
	got := readAll(t, l, rows, nil)
	if len(got[0]) != 1 || !strings.Contains(got[0][0], "number status unknown") {
		t.Errorf("two numbers: %q", got[0])
	}
	if len(got[1]) != 1 || !strings.HasSuffix(got[1][0], "? callable") {
		t.Errorf("one number written two ways: %q", got[1])
	}
}

// A column named for a phone whose numbers all carry notes is still that
// phone ("Phone 3": "+1 (816) 282-2555 (opted out)"): read as anything
// else, its numbers and their notes would be lost, and a clean answer
// elsewhere would make them callable. A column not named for a phone is
// not read so ("Notes": "call 5125550101 after 5").
func TestPhoneColumnOfNotedNumbers(t *testing.T) {
	h := []string{"Phone 1", "Phone 1 DNC", "Phone 3", "Notes"}
	rows := [][]string{
		{"5095550101", "N", "+1 (816) 555-2555 (opted out)", "call 5125550101 after 5"},
		{"5095550102", "N", "DNC: 816-555-2556", ""},
	}
	l := Detect(h, rows, Options{})
	if len(l.Slots) != 2 || l.Columns[2].Role != RolePhone || l.Columns[3].Role == RolePhone {
		t.Fatalf("slots %d, roles %s and %s: want \"Phone 3\" a phone, \"Notes\" not", len(l.Slots), l.Columns[2].Role, l.Columns[3].Role)
	}
	for i, row := range readAll(t, l, rows, nil) {
		if len(row) != 2 || !strings.Contains(row[1], "the file says do not call") {
			t.Errorf("row %d read %q: want its third phone flagged by its note", i+1, row)
		}
	}
}
