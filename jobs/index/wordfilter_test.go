package index

import "testing"

// A word filter never turns away a key of its map: every short form, noise
// word and company word is still found.
func TestWordFiltersHoldEveryKey(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		f    *wordFilter
		keys []string
	}{
		"address": {addressFilter, keysOf(addressWords)},
		"noise":   {noiseFilter, keysOf(nameNoise)},
		"company": {companyFilter, keysOf(companyWords)},
	} {
		for _, k := range c.keys {
			if !c.f.mayHold([]byte(k)) {
				t.Errorf("%s filter turns away its key %q", name, k)
			}
		}
	}
	if n := NameKey("Mrs. Mary A.", "Smith Holdings Incorporated", ""); n != "holdings inc mary smith" {
		t.Errorf("NameKey = %q", n)
	}
	if s := string(appendStreetKey(nil, &scratch{}, "123 North Main Street Apartment 4-B", "")); s != "123 n main st #4b" {
		t.Errorf("street key = %q", s)
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
