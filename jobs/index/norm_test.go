package index

import "testing"

// One rule reads a list's rows and the library's: the same owner at the
// same property gives the same key however the row writes it.
func TestNameKey(t *testing.T) {
	for _, tt := range []struct {
		first, last, full string
		want              string
	}{
		{"John", "Smith", "", "john smith"},
		{"JOHN", "SMITH", "", "john smith"},
		{"", "", "Smith, John", "john smith"},
		{"", "", "SMITH JOHN", "john smith"},
		{"John A.", "Smith", "", "john smith"},
		{"Mr. John", "Smith", "", "john smith"},
		{"María", "García", "", "garcia maria"},
		{"Patrick", "O'Neil", "", "oneil patrick"},
		{"Patrick", "O’Neil", "", "oneil patrick"},
		{"John", "Smith Jr.", "", "john jr smith"},
		{"John", "Smith Sr", "", "john smith sr"},
		{"ACME HOLDINGS, L.L.C.", "", "", "acme holdings llc"},
		{"Acme Holdings LLC", "", "", "acme holdings llc"},
		{"Smith & Jones Incorporated", "", "", "inc jones smith"},
		{"Smith and Jones, Inc.", "", "", "inc jones smith"},
		{"  ", "", "", ""},
	} {
		if got := NameKey(tt.first, tt.last, tt.full); got != tt.want {
			t.Errorf("NameKey(%q, %q, %q) = %q, want %q", tt.first, tt.last, tt.full, got, tt.want)
		}
	}
}

func TestAddressKeySameProperty(t *testing.T) {
	same := [][]Address{
		{ // case, punctuation, suffixes
			{Street: "123 Main Street", City: "Springfield", State: "IL", Zip: "62701"},
			{Street: "123 MAIN ST", City: "SPRINGFIELD", State: "IL", Zip: "62701"},
			{Street: "123 Main St.", City: "Springfield", State: "Illinois", Zip: "62701-1234"},
			{Street: "  123  main   str ", City: "springfield", State: "il", Zip: "627011234"},
			{Full: "123 Main Street, Springfield, IL 62701"},
		},
		{ // directions and suffixes
			{Street: "45 North Oak Avenue", Zip: "10001"},
			{Street: "45 N OAK AVE", Zip: "10001"},
			{Street: "45 N. Oak Av.", Zip: "10001"},
		},
		{ // unit numbers, however written
			{Street: "9 Elm St Apt 4B", Zip: "02134"},
			{Street: "9 Elm St #4B", Zip: "02134"},
			{Street: "9 Elm Street, Unit 4-B", Zip: "02134"},
			{Street: "9 ELM ST APARTMENT 4 B", Zip: "2134"}, // a zip that lost its zero in Excel
			{Street: "9 Elm St", Street2: "Apt. 4B", Zip: "02134"},
			{Street: "9 Elm St", Street2: "4B", Zip: "02134"},
			{Street: "9 Elm St Suite 4B", Zip: "02134"},
		},
		{ // no zip: city and state
			{Street: "7 Lakeview Blvd", City: "Saint Paul", State: "Minnesota"},
			{Street: "7 LAKEVIEW BOULEVARD", City: "ST. PAUL", State: "MN"},
		},
		{ // accents
			{Street: "12 Calle Año Nuevo", Zip: "78501"},
			{Street: "12 CALLE ANO NUEVO", Zip: "78501"},
		},
	}
	for _, group := range same {
		want := AddressKey(group[0])
		if want == "" {
			t.Fatalf("%+v: no key", group[0])
		}
		for _, a := range group[1:] {
			if got := AddressKey(a); got != want {
				t.Errorf("AddressKey(%+v) = %q, want %q (as %+v)", a, got, want, group[0])
			}
		}
	}
}

func TestAddressKeyDifferentProperty(t *testing.T) {
	base := Address{Street: "9 Elm St Apt 4B", Zip: "02134"}
	for _, a := range []Address{
		{Street: "9 Elm St Apt 4C", Zip: "02134"},  // another unit
		{Street: "9 Elm St", Zip: "02134"},         // the building, not the unit
		{Street: "9 Elm Ave Apt 4B", Zip: "02134"}, // another street
		{Street: "19 Elm St Apt 4B", Zip: "02134"}, // another number
		{Street: "9 Elm St Apt 4B", Zip: "02135"},  // another zip
		{Street: "9 W Elm St Apt 4B", Zip: "02134"},
	} {
		if AddressKey(a) == AddressKey(base) {
			t.Errorf("%+v reads as the same property as %+v (%q)", a, base, AddressKey(a))
		}
	}
	if k := AddressKey(Address{City: "Boston", Zip: "02134"}); k != "" {
		t.Errorf("no street: key %q, want none", k)
	}
}

func TestOwnerKey(t *testing.T) {
	a := OwnerKey(NameKey("John", "Smith", ""), AddressKey(Address{Street: "123 Main Street", Zip: "62701"}))
	b := OwnerKey(NameKey("", "", "SMITH, JOHN"), AddressKey(Address{Street: "123 MAIN ST", Zip: "62701-0001"}))
	if a != b || a == "" {
		t.Errorf("%q != %q", a, b)
	}
	// Father and son at one address are two owners.
	if OwnerKey(NameKey("John", "Smith Jr", ""), AddressKey(Address{Street: "123 Main St", Zip: "62701"})) == a {
		t.Error("Jr reads as the same owner")
	}
	if OwnerKey("john smith", "") != "" {
		t.Error("a row without an address has a key")
	}
	if OwnerHash(a) != OwnerHash(b) || OwnerHash(a) == OwnerHash(a+"x") {
		t.Error("hash")
	}
}

func TestZip5(t *testing.T) {
	for in, want := range map[string]string{"02134": "02134", "2134": "02134", "02134-1234": "02134", "021341234": "02134",
		"21341234": "02134", " 62701 ": "62701", "6270": "06270", "627": "", "ABCDE": "", "": ""} {
		if got := Zip5(in); got != want {
			t.Errorf("Zip5(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want []word
	}{
		{"(212) 555-0147", []word{{exact: []string{"2125550147"}}}},
		{"1-212-555-0147", []word{{exact: []string{"2125550147"}}}},
		{"+1 212.555.0147", []word{{exact: []string{"2125550147"}}}},
		{"212-555-0", []word{{prefix: "2125550"}}},
		{"J.Smith42@Example.com", []word{{exact: []string{"j.smith42@example.com"}}}},
		{"smith tx", []word{{exact: []string{"smith"}, prefix: "smith"}, {exact: []string{"tx"}}}},
		{"Main Street", []word{{exact: []string{"main"}, prefix: "main"}, {exact: []string{"street", "st"}, prefix: "street"}}},
		{"O'Neil", []word{{exact: []string{"oneil"}, prefix: "oneil"}}},
	} {
		got, err := parseQuery(tt.q)
		if err != nil {
			t.Fatalf("%q: %v", tt.q, err)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%q: %+v, want %+v", tt.q, got, tt.want)
		}
		for i := range got {
			if got[i].prefix != tt.want[i].prefix || len(got[i].exact) != len(tt.want[i].exact) {
				t.Errorf("%q: word %d %+v, want %+v", tt.q, i, got[i], tt.want[i])
				continue
			}
			for j := range got[i].exact {
				if got[i].exact[j] != tt.want[i].exact[j] {
					t.Errorf("%q: word %d %+v, want %+v", tt.q, i, got[i], tt.want[i])
				}
			}
		}
	}
	if _, err := parseQuery("  "); err == nil {
		t.Error("blank query accepted")
	}
}
