package mapping

import (
	"reflect"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

func TestSuggestNameSplit(t *testing.T) {
	hs := []string{"Owner Name", "Property Address", "Property City", "Property State", "Property Zip"}
	sample := [][]string{
		{"SMITH JOHN A", "1 Elm St", "Austin", "TX", "78701"},
		{"GARCIA MARIA", "2 Oak Ave", "Waco", "TX", "76701"},
		{"ACME HOLDINGS LLC", "3 Pine Rd", "Waco", "TX", "76701"},
	}
	s := AutoMap(hs, sample, jobs.KindTrace)
	if len(s.Splits) != 1 {
		t.Fatalf("splits = %+v, want one name split", s.Splits)
	}
	sp := s.Splits[0]
	if sp.Kind != SplitName || sp.Column != "Owner Name" || sp.Order != LastFirst || !reflect.DeepEqual(sp.Keys, []string{FirstName, LastName}) {
		t.Errorf("split = %+v", sp)
	}
	if !reflect.DeepEqual(sp.ExampleInto, []string{"JOHN", "SMITH"}) {
		t.Errorf("example %q → %q", sp.Example, sp.ExampleInto)
	}
	m := s.WithSplits(hs)
	if m[FirstName] != "first_name" || m[LastName] != "last_name" || m[PropertyZip] != "Property Zip" {
		t.Errorf("WithSplits = %v", m)
	}
	if r := Validate(append(hs, "first_name", "last_name"), m, jobs.ModeNormal); !r.OK() {
		t.Errorf("mapping after split does not validate: %v", r.Problems)
	}
}

func TestNoNameSplitWhenNamesMapped(t *testing.T) {
	hs := []string{"Owner Name", "First Name", "Last Name", "Address", "City", "State", "Zip"}
	s := AutoMap(hs, [][]string{{"John Smith", "John", "Smith", "1 Elm St", "Austin", "TX", "78701"}}, jobs.KindTrace)
	if len(s.Splits) != 0 {
		t.Errorf("splits = %+v", s.Splits)
	}
}

func TestSuggestAddressSplit(t *testing.T) {
	hs := []string{"First Name", "Last Name", "Property Address", "Mailing Address"}
	sample := [][]string{
		{"Ann", "Lee", "123 Main St, Springfield, IL 62704", "PO Box 12, Austin, TX 78701-1234"},
		{"Bo", "Ray", "9 Elm Ave, Apt 4, Peoria IL 61602", "9 Elm Ave, Peoria, IL 61602"},
	}
	s := AutoMap(hs, sample, jobs.KindTrace)
	if len(s.Splits) != 2 {
		t.Fatalf("splits = %+v", s.Splits)
	}
	if s.Mapping()[PropertyStreet] != "" || s.Mapping()[MailingStreet] != "" {
		t.Errorf("one-line address columns must not be mapped whole: %v", s.Mapping())
	}
	p, m := s.Splits[0], s.Splits[1]
	if p.Group != GroupProperty || p.Column != "Property Address" || m.Group != GroupMailing || m.Column != "Mailing Address" {
		t.Errorf("splits = %+v", s.Splits)
	}
	if !reflect.DeepEqual(p.ExampleInto, []string{"123 Main St", "Springfield", "IL", "62704"}) {
		t.Errorf("property example = %q", p.ExampleInto)
	}
	got := s.WithSplits(hs)
	if r := Validate(append(hs, p.Columns(hs)...), got, jobs.ModeNormal); !reflect.DeepEqual(codes(r), []string{CodeColumnAbsent, CodeColumnAbsent, CodeColumnAbsent, CodeColumnAbsent}) {
		// Only the four mailing derived columns are absent from this header list.
		t.Errorf("after splits: %v", r.Problems)
	}
	if r := Validate(append(append(hs, p.Columns(hs)...), m.Columns(hs)...), got, jobs.ModeNormal); !r.OK() {
		t.Errorf("with both derived column sets: %v", r.Problems)
	}
}

func TestSplitApplyAddress(t *testing.T) {
	sp := Split{Kind: SplitAddress, Keys: propertyKeys}
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"123 Main St, Springfield, IL 62704", []string{"123 Main St", "Springfield", "IL", "62704"}, true},
		{"123 Main St, Springfield IL 62704-1234", []string{"123 Main St", "Springfield", "IL", "62704-1234"}, true},
		{"45 Oak Ave, Unit 3, St. Louis, mo 63101", []string{"45 Oak Ave, Unit 3", "St. Louis", "MO", "63101"}, true},
		{"12 N Lake Blvd Lake Tahoe CA 96145", []string{"12 N Lake Blvd", "Lake Tahoe", "CA", "96145"}, true},
		{"PO Box 7, Reno, NV 89501", []string{"PO Box 7", "Reno", "NV", "89501"}, true},
		{"  ", []string{"", "", "", ""}, true},
		{"Main Street Springfield", []string{"Main Street Springfield", "", "", ""}, false},
		{"123 Main St, Springfield, XX 62704", []string{"123 Main St, Springfield, XX 62704", "", "", ""}, false},
	}
	for _, tt := range tests {
		got, ok := sp.Apply(tt.in)
		if !reflect.DeepEqual(got, tt.want) || ok != tt.ok {
			t.Errorf("Apply(%q) = %q %v, want %q %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSplitFullName(t *testing.T) {
	tests := []struct {
		in          string
		order       NameOrder
		first, last string
	}{
		{"John A Smith", FirstLast, "John", "Smith"},
		{"Mr. John Smith Jr.", FirstLast, "John", "Smith"},
		{"John & Mary Smith", FirstLast, "John", "Smith"},
		{"SMITH JOHN A", LastFirst, "JOHN", "SMITH"},
		{"SMITH JOHN & MARY", LastFirst, "JOHN", "SMITH"},
		{"Smith, John A.", LastCommaFirst, "John", "Smith"},
		{"Smith, John", "", "John", "Smith"},
		{"Acme Holdings, LLC", LastCommaFirst, "Acme Holdings, LLC", ""},
		{"SMITH FAMILY TRUST", LastFirst, "SMITH FAMILY TRUST", ""},
		{"Cher", FirstLast, "", "Cher"},
		{"", FirstLast, "", ""},
		{"  José   García ", FirstLast, "José", "García"},
	}
	for _, tt := range tests {
		f, l := SplitFullName(tt.in, tt.order)
		if f != tt.first || l != tt.last {
			t.Errorf("SplitFullName(%q, %q) = %q, %q; want %q, %q", tt.in, tt.order, f, l, tt.first, tt.last)
		}
	}
}

func TestGuessOrder(t *testing.T) {
	col := func(vs ...string) [][]string {
		var out [][]string
		for _, v := range vs {
			out = append(out, []string{v})
		}
		return out
	}
	if got := guessOrder(col("John Smith", "Mary Jones", "Ortiz Holdings LLC"), 0); got != FirstLast {
		t.Errorf("first last: %q", got)
	}
	if got := guessOrder(col("SMITH JOHN", "JONES MARY A"), 0); got != LastFirst {
		t.Errorf("last first: %q", got)
	}
	if got := guessOrder(col("Smith, John", "Jones, Mary"), 0); got != LastCommaFirst {
		t.Errorf("last, first: %q", got)
	}
}

func TestSplitColumnsAvoidExistingHeaders(t *testing.T) {
	sp := Split{Kind: SplitName, Keys: []string{FirstName, LastName}}
	if got := sp.Columns([]string{"first_name", "first_name_2", "Owner"}); !reflect.DeepEqual(got, []string{"first_name_3", "last_name"}) {
		t.Errorf("Columns = %q", got)
	}
}
