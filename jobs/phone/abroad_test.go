package phone

import "testing"

// Canada's and the Caribbean's numbers are ten digits like a US number:
// Abroad tells them by their area code; the US's territories are the US's.
func TestAbroad(t *testing.T) {
	for _, tc := range []struct{ number, want string }{
		{"(416) 555-0101", "CA"}, {"1-604-555-0101", "CA"}, {"876 555 0101", "JM"}, {"809-555-0101", "DO"},
		{"512-555-0101", ""}, {"787-555-0101", ""}, {"671-555-0101", ""}, {"800-555-0101", ""}, {"", ""},
	} {
		if got := Abroad(Key(tc.number)); got != tc.want {
			t.Errorf("Abroad(%q) = %q, want %q", tc.number, got, tc.want)
		}
	}
}

// Every country Abroad returns has a name; a scan counts the numbers
// abroad, those repeated among them, and shows the first with their country.
func TestScanAbroad(t *testing.T) {
	for _, c := range foreignAreaCodes {
		if CountryName(c) == c {
			t.Errorf("country %s has no name", c)
		}
	}
	sc := NewScanner("list.csv", "Phone", ScanOptions{})
	for i, v := range []string{"(416) 555-0101", "512-555-0101", "416.555.0101", "876 555 0102", "not a number", "512-555-0101"} {
		sc.Add(v, i+2)
	}
	s, err := sc.Scan(1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Abroad != 3 || s.AbroadRepeats != 1 || s.Duplicates != 2 || s.Valid != 5 {
		t.Errorf("abroad %d (repeats %d), duplicates %d, valid %d; want 3 (1), 2, 5", s.Abroad, s.AbroadRepeats, s.Duplicates, s.Valid)
	}
	if len(s.AbroadExamples) != 3 || s.AbroadExamples[0].Reason != "Canada" || s.AbroadExamples[2].Reason != "Jamaica" || s.AbroadExamples[2].Line != 5 {
		t.Errorf("examples %+v", s.AbroadExamples)
	}
}

// A cell of several numbers gives each; one part that is no number makes
// it no cell of numbers.
func TestKeysIn(t *testing.T) {
	for _, tc := range []struct {
		cell string
		want int // numbers; -1 not a cell of numbers
	}{
		{"5125550101", 1}, {"5125550101 / 5125550102", 2}, {"(512) 555-0103, (512) 555-0104; 512.555.0105", 3},
		{"5125550101\n5125550102", 2}, {"5125550101 / call after 5", -1}, {"", -1},
	} {
		keys, ok := KeysIn(tc.cell)
		if got := len(keys); !ok && tc.want != -1 || ok && got != tc.want {
			t.Errorf("KeysIn(%q) = %v, %v; want %d numbers", tc.cell, keys, ok, tc.want)
		}
	}
}
