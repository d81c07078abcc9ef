package mapping

import (
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// valueRows are a list whose columns hold what their names say, but for
// "Parcel", which holds parcel numbers.
var valueHeaders = []string{"First Name", "Last Name", "Property Address", "Property City", "Property State", "Property Zip", "Parcel", "Phone"}

var valueRows = [][]string{
	{"Ann", "Lee", "12 Oak St", "Austin", "TX", "78701", "865-62-4308", "(512) 555-0101"},
	{"Bo", "Diaz", "PO BOX 9", "Fort Worth", "Texas", "7601", "865-62-4309", "512.555.0102"},
	{"Cy", "Ng", "4 Elm Ave", "Dallas", "tx", "75201-1234", "865-62-4310", "5125550103"},
	{"Di", "Ray", "", "Waco", "TX", "76701", "", "+1 512 555 0104"},
}

func TestCheckValues(t *testing.T) {
	tests := []struct {
		name     string
		m        Mapping
		key      string // the field with misfits ("" none)
		looked   int
		misfits  int
		examples []string
	}{
		{"values that fit", fullMapping(), "", 0, 0, nil},
		{"parcel numbers as the city", with(fullMapping(), PropertyCity, "Parcel"), PropertyCity, 3, 3, []string{"865-62-4308", "865-62-4309", "865-62-4310"}},
		{"phones as a first name", with(fullMapping(), FirstName, "Phone"), FirstName, 4, 4, []string{"(512) 555-0101", "512.555.0102", "5125550103"}},
		{"a name as the ZIP", with(fullMapping(), PropertyZip, "Last Name"), PropertyZip, 4, 4, []string{"Lee", "Diaz", "Ng"}},
		{"cities as the state", with(fullMapping(), PropertyState, "Property City"), PropertyState, 4, 4, []string{"Austin", "Fort Worth", "Dallas"}},
		{"a state code as the city", with(fullMapping(), PropertyCity, "Property State"), PropertyCity, 4, 3, []string{"TX", "tx"}},
		{"names as phones", Mapping{Phone: "Last Name"}, Phone, 4, 4, []string{"Lee", "Diaz", "Ng"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckValues(valueHeaders, valueRows, tc.m)
			if tc.key == "" {
				if len(got) != 0 {
					t.Fatalf("CheckValues = %+v, want nothing", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("CheckValues = %+v, want one check of %s", got, tc.key)
			}
			c := got[0]
			if c.Key != tc.key || c.Looked != tc.looked || c.Misfits != tc.misfits || !slices.Equal(c.Examples, tc.examples) {
				t.Errorf("check = %+v, want %s %d of %d, examples %q", c, tc.key, tc.misfits, tc.looked, tc.examples)
			}
		})
	}
}

// A field whose values mostly do not fit holds the mapping back until the
// person confirms it; a few values that do not fit are a warning.
func TestValidateWithValues(t *testing.T) {
	m := with(fullMapping(), PropertyCity, "Parcel")
	r := Validate(valueHeaders, m, jobs.ModeNormal, WithValues(valueRows, nil))
	if r.OK() {
		t.Fatalf("parcel numbers on Property city: %+v, want an error", r.Problems)
	}
	p := r.ForKey(PropertyCity)
	if len(p) != 1 || p[0].Code != CodeValuesDontFit || p[0].Severity != Error {
		t.Fatalf("problems of the city: %+v", p)
	}
	for _, w := range []string{"3 of 3 values", `"Parcel"`, "Property city", "city names", `"865-62-4308"`, "say that this one is right"} {
		if !strings.Contains(p[0].Message, w) {
			t.Errorf("message %q lacks %q", p[0].Message, w)
		}
	}

	r = Validate(valueHeaders, m, jobs.ModeNormal, WithValues(valueRows, []string{PropertyCity}))
	if !r.OK() || len(r.Warnings()) != 1 || !strings.Contains(r.Warnings()[0].Message, "You said this column is right") {
		t.Errorf("confirmed: %+v, want one warning", r.Problems)
	}

	// One ZIP of four that is a name: a warning, the mapping complete.
	rows := slices.Clone(valueRows)
	rows[0] = slices.Clone(rows[0])
	rows[0][5] = "Austin"
	r = Validate(valueHeaders, fullMapping(), jobs.ModeNormal, WithValues(rows, nil))
	if !r.OK() || len(r.Warnings()) != 1 || r.Warnings()[0].Code != CodeSomeValuesDontFit {
		t.Errorf("one ZIP that is a name: %+v", r.Problems)
	}

	// Without WithValues the values are not looked at: the provider's
	// rules alone.
	if r := Validate(valueHeaders, m, jobs.ModeNormal); !r.OK() {
		t.Errorf("without values: %+v", r.Problems)
	}
}
