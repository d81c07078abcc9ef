package mapping

import (
	"reflect"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

func TestAutoMapVendorHeaders(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		sample  [][]string
		kind    jobs.Kind
		want    Mapping
	}{
		{
			name:    "spec keys as headers",
			headers: []string{"first_name", "last_name", "property_street", "property_city", "property_state", "property_zip"},
			kind:    jobs.KindTrace,
			want:    Mapping{FirstName: "first_name", LastName: "last_name", PropertyStreet: "property_street", PropertyCity: "property_city", PropertyState: "property_state", PropertyZip: "property_zip"},
		},
		{
			name: "list vendor (owner 1/2, property and mailing)",
			headers: []string{"Owner 1 First Name", "Owner 1 Last Name", "Owner 2 First Name", "Owner 2 Last Name",
				"Property Address", "Property City", "Property State", "Property Zip", "Mailing Address", "Mailing City",
				"Mailing State", "Mailing Zip Code", "Estimated Value", "Equity %"},
			kind: jobs.KindTrace,
			want: Mapping{FirstName: "Owner 1 First Name", LastName: "Owner 1 Last Name",
				PropertyStreet: "Property Address", PropertyCity: "Property City", PropertyState: "Property State", PropertyZip: "Property Zip",
				MailingStreet: "Mailing Address", MailingCity: "Mailing City", MailingState: "Mailing State", MailingZip: "Mailing Zip Code"},
		},
		{
			name: "county assessor export (situs and mail)",
			headers: []string{"APN", "OWNER FIRST", "OWNER LAST", "SITUS ADDRESS", "SITUS CITY", "SITUS STATE", "SITUS ZIP",
				"MAIL ADDRESS", "MAIL CITY", "MAIL STATE", "MAIL ZIP", "LAND USE"},
			kind: jobs.KindTrace,
			want: Mapping{FirstName: "OWNER FIRST", LastName: "OWNER LAST",
				PropertyStreet: "SITUS ADDRESS", PropertyCity: "SITUS CITY", PropertyState: "SITUS STATE", PropertyZip: "SITUS ZIP",
				MailingStreet: "MAIL ADDRESS", MailingCity: "MAIL CITY", MailingState: "MAIL STATE", MailingZip: "MAIL ZIP"},
		},
		{
			name:    "camel case CRM export with site and zip+4",
			headers: []string{"FirstName", "LastName", "SiteAddress", "SiteCity", "SiteState", "SiteZip", "SiteZip4", "OwnerAddress", "OwnerCity", "OwnerState", "OwnerZip"},
			kind:    jobs.KindTrace,
			want: Mapping{FirstName: "FirstName", LastName: "LastName",
				PropertyStreet: "SiteAddress", PropertyCity: "SiteCity", PropertyState: "SiteState", PropertyZip: "SiteZip",
				MailingStreet: "OwnerAddress", MailingCity: "OwnerCity", MailingState: "OwnerState", MailingZip: "OwnerZip"},
		},
		{
			name:    "bare address columns are the property",
			headers: []string{"First", "Last", "Address", "Address 2", "City", "ST", "Zip", "County"},
			kind:    jobs.KindTrace,
			want:    Mapping{FirstName: "First", LastName: "Last", PropertyStreet: "Address", PropertyCity: "City", PropertyState: "ST", PropertyZip: "Zip"},
		},
		{
			name:    "bare address next to mailing columns",
			headers: []string{"First Name", "Last Name", "Street Address", "City", "State", "Zip Code", "Mail Street", "Mail City", "Mail State", "Mail Zip"},
			kind:    jobs.KindTrace,
			want: Mapping{FirstName: "First Name", LastName: "Last Name", PropertyStreet: "Street Address", PropertyCity: "City", PropertyState: "State", PropertyZip: "Zip Code",
				MailingStreet: "Mail Street", MailingCity: "Mail City", MailingState: "Mail State", MailingZip: "Mail Zip"},
		},
		{
			name:    "loose wording",
			headers: []string{"Owner's First Name (1)", "Owner Surname", "Property Street Addr.", "Property Town", "Property St", "Property Postal Code"},
			kind:    jobs.KindTrace,
			want: Mapping{FirstName: "Owner's First Name (1)", LastName: "Owner Surname", PropertyStreet: "Property Street Addr.",
				PropertyCity: "Property Town", PropertyState: "Property St", PropertyZip: "Property Postal Code"},
		},
		{
			name: "list platform export with owner 2, units and county",
			headers: []string{"Address", "Unit #", "City", "State", "Zip", "County", "APN", "Owner Occupied", "Owner 1 First Name",
				"Owner 1 Last Name", "Owner 2 First Name", "Owner 2 Last Name", "Mailing Care of Name", "Mailing Address", "Mailing Unit #",
				"Mailing City", "Mailing State", "Mailing Zip", "Mailing County", "Do Not Mail", "Property Type", "Phone 1", "Phone 1 Type"},
			kind: jobs.KindTrace,
			want: Mapping{FirstName: "Owner 1 First Name", LastName: "Owner 1 Last Name",
				PropertyStreet: "Address", PropertyCity: "City", PropertyState: "State", PropertyZip: "Zip",
				MailingStreet: "Mailing Address", MailingCity: "Mailing City", MailingState: "Mailing State", MailingZip: "Mailing Zip"},
		},
		{
			name: "snake-case app export (address_city, zipcode, owner address)",
			headers: []string{"property_address_full", "property_address_line_1", "property_address_line_2", "property_address_city",
				"property_address_state", "property_address_zipcode", "owner_1_name", "owner_1_firstname", "owner_1_lastname",
				"owner_address_full", "owner_address_line_1", "owner_address_city", "owner_address_state", "owner_address_zip"},
			kind: jobs.KindTrace,
			want: Mapping{FirstName: "owner_1_firstname", LastName: "owner_1_lastname",
				PropertyStreet: "property_address_line_1", PropertyCity: "property_address_city", PropertyState: "property_address_state", PropertyZip: "property_address_zipcode",
				MailingStreet: "owner_address_line_1", MailingCity: "owner_address_city", MailingState: "owner_address_state", MailingZip: "owner_address_zip"},
		},
		{
			name: "county tax roll (upper snake, addr1/addr2, street pieces)",
			headers: []string{"PARCEL_ID", "OWNER_NAME", "OWNER_NAME2", "MAIL_ADDR1", "MAIL_ADDR2", "MAIL_CITY", "MAIL_STATE", "MAIL_ZIP",
				"SITE_HOUSE_NO", "SITE_STREET_NAME", "SITE_ADDR", "SITE_CITY", "SITE_STATE", "SITE_ZIP", "SITE_ZIP4", "ASSESSED_VALUE"},
			kind: jobs.KindTrace,
			want: Mapping{PropertyStreet: "SITE_ADDR", PropertyCity: "SITE_CITY", PropertyState: "SITE_STATE", PropertyZip: "SITE_ZIP",
				MailingStreet: "MAIL_ADDR1", MailingCity: "MAIL_CITY", MailingState: "MAIL_STATE", MailingZip: "MAIL_ZIP"},
		},
		{
			name:    "compiled list (ZIP4, CRRT, combined city-state-zip)",
			headers: []string{"FIRST NAME", "LAST NAME", "ADDRESS", "CITY", "ST", "ZIP", "ZIP4", "CRRT", "MAIL CITY STATE ZIP"},
			kind:    jobs.KindTrace,
			want:    Mapping{FirstName: "FIRST NAME", LastName: "LAST NAME", PropertyStreet: "ADDRESS", PropertyCity: "CITY", PropertyState: "ST", PropertyZip: "ZIP"},
		},
		{
			name:    "nothing recognisable",
			headers: []string{"Parcel ID", "Acres", "Year Built"},
			kind:    jobs.KindTrace,
			want:    Mapping{},
		},
		{
			name:    "dnc phone 1 before phone 2",
			headers: []string{"Name", "Phone 2", "Phone 1", "Email"},
			kind:    jobs.KindDNC,
			want:    Mapping{Phone: "Phone 1"},
		},
		{
			name:    "dnc wireless column",
			headers: []string{"Full Name", "Wireless 1", "Landline Type"},
			kind:    jobs.KindDNC,
			want:    Mapping{Phone: "Wireless 1"},
		},
		{
			name:    "dnc sample decides between two phone-ish headers",
			headers: []string{"Mobile", "Cell"},
			sample:  [][]string{{"n/a", "(212) 555-0147"}, {"", "212.555.0148"}, {"unknown", "2125550149"}},
			kind:    jobs.KindDNC,
			want:    Mapping{Phone: "Cell"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := AutoMap(tt.headers, tt.sample, tt.kind)
			if got := s.Mapping(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AutoMap =\n %v\nwant\n %v\n(guesses %+v)", got, tt.want, s.Guesses)
			}
			seen := map[string]bool{}
			for _, g := range s.Guesses {
				if seen[g.Header] {
					t.Errorf("header %q mapped twice", g.Header)
				}
				seen[g.Header] = true
				if g.Confidence < MinConfidence || g.Confidence > 1 || tt.headers[g.Column] != g.Header {
					t.Errorf("bad guess %+v", g)
				}
			}
		})
	}
}

func TestAutoMapConfidence(t *testing.T) {
	s := AutoMap([]string{"first_name", "Last Name", "Situs Address", "Property Street Addr.", "Property State Code", "Owner 2 First Name"}, nil, jobs.KindTrace)
	want := map[string]float64{FirstName: 1, LastName: 0.95, PropertyStreet: 0.9, PropertyState: 0.8}
	if s.Mapping()[PropertyStreet] != "Situs Address" {
		t.Error("a synonym must beat a looser reading")
	}
	for k, c := range want {
		if got := s.Confidence(k); got != c {
			t.Errorf("confidence of %s = %v, want %v", k, got, c)
		}
	}
	if s.Mapping()[FirstName] != "first_name" {
		t.Error("the exact key must beat Owner 2 First Name")
	}
}

func TestAutoMapSampleTiebreak(t *testing.T) {
	// Both "Zip" headers read alike; the one whose values are zips wins.
	hs := []string{"Zip", "Zip Code"}
	sample := [][]string{{"n/a", "62704"}, {"", "60601-1234"}, {"x", "0210"}}
	s := AutoMap(hs, sample, jobs.KindTrace)
	if got := s.Mapping()[PropertyZip]; got != "Zip Code" {
		t.Errorf("property_zip = %q, want the column holding zips (%+v)", got, s.Guesses)
	}
}

func TestAutoMapSampleDisagrees(t *testing.T) {
	// Columns labelled the wrong way round keep their header's reading but
	// with a confidence low enough for the window to ask.
	hs := []string{"First", "Last", "Address", "City", "Zip", "State"}
	sample := [][]string{{"Ann", "Lee", "1 Elm St", "Austin", "TX", "78701"}, {"Bo", "Ray", "2 Oak Ave", "Waco", "TX", "76701"}}
	s := AutoMap(hs, sample, jobs.KindTrace)
	for _, g := range s.Guesses {
		low := g.Key == PropertyZip || g.Key == PropertyState
		if low != (g.Confidence < 0.6) {
			t.Errorf("%s: confidence %v (%s)", g.Key, g.Confidence, g.Reason)
		}
		if !low && g.Confidence != 0.94 {
			t.Errorf("%s: values agree, confidence %v, want 0.94", g.Key, g.Confidence)
		}
	}
}

func TestAutoMapFromValues(t *testing.T) {
	hs := []string{"Column 1", "Column 2", "Column 3", "Parcel", "Best Contact"}
	sample := [][]string{
		{"1 Elm St", "TX", "78701", "12345", "(212) 555-0147"},
		{"22 Oak Ave", "TX", "76701", "23456", "212.555.0148"},
		{"3 Pine Rd", "NM", "87102", "34567", "2125550149"},
	}
	got := AutoMap(hs, sample, jobs.KindTrace).Mapping()
	want := Mapping{PropertyStreet: "Column 1", PropertyState: "Column 2", PropertyZip: "Column 3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("trace: %v, want %v (a named column is never guessed from its values)", got, want)
	}
	s := AutoMap(hs, sample, jobs.KindDNC)
	if s.Mapping()[Phone] != "Best Contact" || s.Confidence(Phone) != MinConfidence || s.Guesses[0].Reason != "values only" {
		t.Errorf("dnc: %+v", s.Guesses)
	}
	// One row is not enough to go on.
	if got := AutoMap(hs, sample[:1], jobs.KindTrace).Mapping(); len(got) != 0 {
		t.Errorf("from one row: %v", got)
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"Owner 1 First Name": {"owner", "1", "first", "name"},
		"OwnerFirstName":     {"owner", "first", "name"},
		"SITUS_ZIP5":         {"situs", "zip", "5"},
		"mailing-zip code":   {"mailing", "zip", "code"},
		"Owner1LastName":     {"owner", "1", "last", "name"},
		"  ":                 nil,
	} {
		if got := words(in); !reflect.DeepEqual(got, want) {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGuessCertain: a header that names the field exactly (the key, its
// words, a vendor's header) is certain unless its values disagree; a
// looser reading is not.
func TestGuessCertain(t *testing.T) {
	hs := []string{"first_name", "Last Name", "Situs Address", "Property State Code", "Property Zip"}
	sample := [][]string{{"Ann", "Lee", "1 Elm St", "TX", "Austin"}, {"Bo", "Wu", "2 Oak Ave", "CA", "Dallas"}}
	s := AutoMap(hs, sample, jobs.KindTrace)
	want := map[string]bool{FirstName: true, LastName: true, PropertyStreet: true, PropertyState: false}
	for _, g := range s.Guesses {
		if w, ok := want[g.Key]; ok && g.Certain() != w {
			t.Errorf("%s from %q (%s): certain %v, want %v", g.Key, g.Header, g.Reason, g.Certain(), w)
		}
		if g.Key == PropertyZip && g.Certain() {
			t.Errorf("a zip header whose values are city names is certain: %+v", g)
		}
	}
}
