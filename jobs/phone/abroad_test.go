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
