package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Every list a column can be read as has its own words in the correction
// dialog: a column shown under another list's words would be saved as that
// list when the person saves the dialog without touching it.
func TestEveryColumnKindHasItsWords(t *testing.T) {
	t.Parallel()
	for _, k := range layout.WordsOrder {
		if k == layout.Company {
			continue // SkipDesk's own list, never a column of a file
		}
		if got := kindOf(wordsOfKind(k)); got != k {
			t.Errorf("a %s column is shown as %q, saved as %s", k, wordsOfKind(k), got)
		}
	}
}

// A column of numbers its header puts on a list is offered as what it is
// read as; choosing "Phone number" saves it as a plain phone, and the
// layout then reads its numbers by the other columns.
func TestListedColumnCorrection(t *testing.T) {
	test.NewTempApp(t)
	h := []string{"DNC Phone", "DNC Status", "Litigator"}
	rows := [][]string{{"5125550101", "Clean", "No"}}
	l := layout.Detect(h, rows, layout.Options{})
	f := newColumnFix(l.Columns[0])
	if f.role.Selected != listedWords || !slices.Contains(f.role.Options, listedWords) || !f.kind.Disabled() {
		t.Fatalf("listed column shown as %q (options %q, list enabled %v)", f.role.Selected, f.role.Options, !f.kind.Disabled())
	}
	if got := changedColumns([]*columnFix{f}); len(got) != 0 {
		t.Errorf("unchanged, it saves %+v", got)
	}
	if plain := newColumnFix(l.Columns[1]); slices.Contains(plain.role.Options, listedWords) {
		t.Errorf("%q is offered as listed", l.Columns[1].Header)
	}
	f.role.SetSelected(wordsOfRole(layout.RolePhone))
	got := changedColumns([]*columnFix{f})
	if fix, ok := got["DNC Phone"]; !ok || fix.Role != layout.RolePhone || len(got) != 1 {
		t.Fatalf("choosing a phone number saves %+v", got)
	}
	fixed := layout.Detect(h, rows, layout.Options{Correction: &layout.Correction{Signature: l.Signature, Columns: got}})
	if c := fixed.Columns[0]; c.Role != layout.RolePhone || c.Convention == layout.ConvListed {
		t.Errorf("corrected, %q reads as %s %q", c.Header, c.Role, c.Convention)
	}
}

// A flag column of a file of several phones offers the phone it answers
// for: set to how it reads, or to none where SkipDesk asks whose it is,
// so that the question is answered only by the person's choice.
func TestFlagColumnPhoneChoice(t *testing.T) {
	test.NewTempApp(t)
	h := []string{"Tel 1 Phone", "No Llamar", "Propietario 2 Tel 1 Phone", "Litigator"}
	rows := [][]string{{"5125550101", "No", "5125550102", "No"}}
	l := layout.Detect(h, rows, layout.Options{})
	between, after := newColumnFix(l.Columns[1]), newColumnFix(l.Columns[3])
	between.offerPhones(l)
	after.offerPhones(l)
	if between.phone == nil || between.phone.Selected != "" || after.phone == nil || after.phone.Selected != everyPhone {
		t.Fatalf("offered %+v and %+v: want no phone chosen for the asked column, every phone for the row's", between.phone, after.phone)
	}
	if got := changedColumns([]*columnFix{between, after}); len(got) != 0 {
		t.Errorf("unchanged, it saves %+v", got)
	}
	// A question of another kind (a word SkipDesk does not know) leaves
	// the column's phone as it is read.
	wh := []string{"Phone 1", "Phone 2", "DNC Waived"}
	wl := layout.Detect(wh, [][]string{{"5125550101", "5125550102", "N"}}, layout.Options{})
	waived := newColumnFix(wl.Columns[2])
	if waived.offerPhones(wl); waived.phone == nil || waived.phone.Selected != everyPhone {
		t.Errorf("\"DNC Waived\" offered %+v: want every phone of the row chosen", waived.phone)
	}
	phone := newColumnFix(l.Columns[0])
	if phone.offerPhones(l); phone.phone != nil {
		t.Errorf("a phone column is offered a phone")
	}
	first := between.phone.Options[1]
	between.phone.SetSelected(first)
	got := changedColumns([]*columnFix{between, after})
	fix, ok := got["No Llamar"]
	if !ok || len(got) != 1 || fix.SlotIndex == nil || *fix.SlotIndex != l.Slots[0].Index {
		t.Fatalf("choosing %q saves %+v", first, got)
	}
	fixed := layout.Detect(h, rows, layout.Options{Correction: &layout.Correction{Signature: l.Signature, Columns: got}})
	if len(fixed.Questions) != 0 {
		t.Errorf("answered, the layout still asks %+v", fixed.Questions)
	}
	if !slices.Contains(fixed.Slots[0].Flags, 1) || slices.Contains(fixed.Slots[1].Flags, 1) {
		t.Errorf("said to be %q's, \"No Llamar\" answers for %v and %v", first, fixed.Slots[0].Flags, fixed.Slots[1].Flags)
	}
}

// A scrub date among the phones' columns, naming none, is offered the
// phone it dates with none chosen (SkipDesk asks); said to be every
// phone's, it dates the row.
func TestDateColumnPhoneChoice(t *testing.T) {
	test.NewTempApp(t)
	h := []string{"Phone 1", "Phone 1 DNC", "Checked On", "Phone 2", "Phone 2 DNC", "Litigator"}
	rows := [][]string{{"5125550101", "N", "2026-11-20", "5125550102", "N", "N"}}
	l := layout.Detect(h, rows, layout.Options{})
	if !slices.Contains(l.Slots[0].Dates, 2) || len(l.Dates) != 0 || len(l.Questions) != 1 || l.Questions[0].Blocks {
		t.Fatalf("read: slot dates %v, row dates %v, questions %+v", l.Slots[0].Dates, l.Dates, l.Questions)
	}
	date := newColumnFix(l.Columns[2])
	if date.offerPhones(l); date.phone == nil || date.phone.Selected != "" {
		t.Fatalf("offered %+v: want no phone chosen", date.phone)
	}
	date.phone.SetSelected(everyPhone)
	got := changedColumns([]*columnFix{date})
	fixed := layout.Detect(h, rows, layout.Options{Correction: &layout.Correction{Signature: l.Signature, Columns: got}})
	if len(fixed.Questions) != 0 || !slices.Equal(fixed.Dates, []int{2}) || len(fixed.Slots[0].Dates) != 0 {
		t.Errorf("said to be every phone's (%+v): row dates %v, slot dates %v, questions %+v", got, fixed.Dates, fixed.Slots[0].Dates, fixed.Questions)
	}
}
