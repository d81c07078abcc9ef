package mapping

import (
	"reflect"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

func TestCatalogue(t *testing.T) {
	if got := Keys(jobs.KindTrace); !reflect.DeepEqual(got, []string{FirstName, LastName, PropertyStreet, PropertyCity, PropertyState, PropertyZip,
		MailingStreet, MailingCity, MailingState, MailingZip}) {
		t.Errorf("trace keys %v", got)
	}
	if got := Keys(jobs.KindDNC); !reflect.DeepEqual(got, []string{Phone}) {
		t.Errorf("dnc keys %v", got)
	}
	for group, want := range map[string][]string{GroupName: nameKeys, GroupProperty: propertyKeys, GroupMailing: mailingKeys, GroupPhone: {Phone}} {
		if got := GroupKeys(group); !reflect.DeepEqual(got, want) {
			t.Errorf("GroupKeys(%q) = %v", group, got)
		}
	}
	for _, f := range append(Fields(jobs.KindTrace), Fields(jobs.KindDNC)...) {
		if f.Label == "" || f.Label == f.Key || Label(f.Key) != f.Label {
			t.Errorf("field %+v needs a human label", f)
		}
	}
	if Label("frist") != "frist" {
		t.Error("an unknown key labels as itself")
	}
	// Fields returns a copy.
	fs := Fields(jobs.KindTrace)
	fs[0].Label = "changed"
	if Label(FirstName) == "changed" {
		t.Error("Fields exposes the catalogue")
	}
}

func TestMappingHelpers(t *testing.T) {
	m := Mapping{"zz": "Z", MailingZip: "Zip", FirstName: "Name", LastName: "Name", PropertyCity: "", "aa": "A"}
	if got := m.SortedKeys(); !reflect.DeepEqual(got, []string{FirstName, LastName, PropertyCity, MailingZip, "aa", "zz"}) {
		t.Errorf("SortedKeys %v", got)
	}
	if got := m.NameColumns(); !reflect.DeepEqual(got, []string{"Name"}) {
		t.Errorf("NameColumns %v", got)
	}
	if got := m.Columns(); !reflect.DeepEqual(got, []string{"Name", "Zip", "A", "Z"}) {
		t.Errorf("Columns %v", got)
	}
	if c := m.Clean(); len(c) != 5 || c[PropertyCity] != "" {
		t.Errorf("Clean %v", c)
	}
	if (Mapping{}).NameColumns() != nil {
		t.Error("no names: nil")
	}
}
