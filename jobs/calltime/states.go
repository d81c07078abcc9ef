package calltime

import "strings"

// stateNames maps the names of the states, DC and the territories to their
// postal codes.
var stateNames = map[string]string{
	"alabama": "AL", "alaska": "AK", "arizona": "AZ", "arkansas": "AR", "california": "CA",
	"colorado": "CO", "connecticut": "CT", "delaware": "DE", "district of columbia": "DC",
	"washington d.c.": "DC", "washington dc": "DC", "florida": "FL", "georgia": "GA", "hawaii": "HI",
	"idaho": "ID", "illinois": "IL", "indiana": "IN", "iowa": "IA", "kansas": "KS", "kentucky": "KY",
	"louisiana": "LA", "maine": "ME", "maryland": "MD", "massachusetts": "MA", "michigan": "MI",
	"minnesota": "MN", "mississippi": "MS", "missouri": "MO", "montana": "MT", "nebraska": "NE",
	"nevada": "NV", "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY",
	"north carolina": "NC", "north dakota": "ND", "ohio": "OH", "oklahoma": "OK", "oregon": "OR",
	"pennsylvania": "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD",
	"tennessee": "TN", "texas": "TX", "utah": "UT", "vermont": "VT", "virginia": "VA",
	"washington": "WA", "washington state": "WA", "west virginia": "WV", "wisconsin": "WI", "wyoming": "WY",
	"puerto rico": "PR", "u.s. virgin islands": "VI", "us virgin islands": "VI", "virgin islands": "VI",
	"guam": "GU", "northern mariana islands": "MP", "american samoa": "AS",
}

// stateCodes are the postal codes of stateNames.
var stateCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range stateNames {
		m[c] = true
	}
	return m
}()

// StateCode reads a state as people write it: a postal code ("fl", "FL")
// or a name ("Florida", "Washington D.C."). ok is false for anything else.
func StateCode(s string) (code string, ok bool) {
	if len(s) == 2 && stateCodes[s] {
		return s, true // the common case, without allocating
	}
	t := strings.ToLower(strings.TrimSpace(s))
	if code, ok := stateNames[t]; ok {
		return code, true
	}
	if len(t) == 2 {
		if up := strings.ToUpper(t); stateCodes[up] {
			return up, true
		}
	}
	return "", false
}
