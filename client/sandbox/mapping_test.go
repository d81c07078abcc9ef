package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
)

var mapHeaders = []string{"First", "Last", "Street", "City", "State", "Zip", "MStreet", "MCity", "MState", "MZip"}

func TestValidateMapping(t *testing.T) {
	full := map[string]string{"first_name": "First", "last_name": "Last",
		"property_street": "Street", "property_city": "City", "property_state": "State", "property_zip": "Zip"}
	with := func(edit func(m map[string]string)) map[string]string {
		m := map[string]string{}
		for k, v := range full {
			m[k] = v
		}
		edit(m)
		return m
	}
	cases := []struct {
		name string
		mode string
		m    map[string]string
		want [][]string // each problem: substrings it must contain
	}{
		{"valid", "normal", full, nil},
		{"valid mailing only", "normal", map[string]string{"first_name": "First", "last_name": "Last",
			"mailing_street": "MStreet", "mailing_city": "MCity", "mailing_state": "MState", "mailing_zip": "MZip"}, nil},
		{"enhanced ignores names", "enhanced", with(func(m map[string]string) { delete(m, "first_name"); delete(m, "last_name") }), nil},
		{"missing names", "normal", with(func(m map[string]string) { delete(m, "last_name") }),
			[][]string{{"first_name and last_name", "missing: last_name"}}},
		{"missing both names", "normal", with(func(m map[string]string) { delete(m, "last_name"); delete(m, "first_name") }),
			[][]string{{"missing: first_name, last_name"}}},
		{"no full address group", "enhanced", map[string]string{},
			[][]string{{"at least one complete address group", "property", "mailing"}}},
		{"unknown key", "normal", with(func(m map[string]string) { m["propery_zip"] = "Zip" }),
			[][]string{{`unknown key "propery_zip"`, `did you mean "property_zip"`}}},
		{"unknown key case", "normal", with(func(m map[string]string) { m["Mailing_City"] = "MCity" }),
			[][]string{{`"Mailing_City"`, `did you mean "mailing_city"`}}},
		{"incomplete group", "normal", with(func(m map[string]string) { m["mailing_street"] = "MStreet"; m["mailing_zip"] = "MZip" }),
			[][]string{{"mailing address group is all-or-nothing", "mapped mailing_street, mailing_zip", "missing mailing_city, mailing_state"}}},
		{"absent column", "normal", with(func(m map[string]string) { m["property_zip"] = "ZIP Code" }),
			[][]string{{`column "ZIP Code"`, "property_zip", `available headers: "First", "Last"`, `"MZip"`}}},
		{"all five together", "normal", map[string]string{"frist_name": "First", "last_name": "Surname",
			"property_street": "Street", "property_city": "City"},
			[][]string{
				{`unknown key "frist_name"`, `did you mean "first_name"`},
				{"missing: first_name"},
				{"property address group is all-or-nothing", "missing property_state, property_zip"},
				{"at least one complete address group"},
				{`column "Surname"`, "last_name", "available headers"},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := validateMapping(c.mode, c.m, mapHeaders)
			if len(got) != len(c.want) {
				t.Fatalf("got %d problems, want %d: %q", len(got), len(c.want), got)
			}
			for i, subs := range c.want {
				for _, sub := range subs {
					if !strings.Contains(got[i], sub) {
						t.Errorf("problem %d = %q, want it to contain %q", i, got[i], sub)
					}
				}
			}
		})
	}
}

func TestClosestKey(t *testing.T) {
	for in, want := range map[string]string{
		"firstname": "first_name", "lastname": "last_name", "property_adress": "property_street",
		"mail_zip": "mailing_zip", "prop_city": "property_city", "property_street_address": "property_street",
		"FIRST_NAME ": "first_name",
	} {
		if got := closestKey(in); got != want {
			t.Errorf("closestKey(%q) = %q, want %q", in, got, want)
		}
	}
	if editDistance("kitten", "sitting") != 3 || editDistance("", "abc") != 3 || editDistance("é", "e") != 1 {
		t.Error("editDistance")
	}
}

// Over HTTP the mapping problems come in the mapping shape, all at once.
func TestMappingErrorShape(t *testing.T) {
	s := startT(t, testConfig())
	r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv",
		`{"frist_name":"First","last_name":"Surname","property_street":"Street","property_city":"City"}`)...)
	if r.status != 400 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var body struct {
		Error   string   `json:"error"`
		Details []string `json:"details"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil || body.Error == "" || len(body.Details) != 5 {
		t.Fatalf("mapping shape expected with 5 details: %s (%v)", r.body, err)
	}
	if a, _ := s.Account(DemoKey); a.Credits != 25000 {
		t.Errorf("a refused job charged credits")
	}
}
