package input

import (
	"slices"
	"strings"
)

// headerWords splits a header into lowercase words of letters and digits:
// "Owner 1 First_Name" → [owner 1 first name]; "FirstName" stays one word
// ("firstname").
func headerWords(h string) []string {
	return strings.FieldsFunc(strings.ToLower(h), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// notName are words that make an "owner …" or "… name" header something
// other than a person's or company's name.
var notName = []string{"address", "addr", "street", "city", "state", "zip", "zipcode", "mail", "mailing",
	"phone", "email", "occupied", "type", "since", "date", "county", "file", "street", "st", "unit", "apn", "id"}

// guessNameColumns picks the columns deciding company rows when the caller
// has not mapped any: the first first-name column and the first last-name
// column; failing both, the first full-name or owner-name column.
func guessNameColumns(headers []string) []int {
	first, last, full := -1, -1, -1
	for i, h := range headers {
		w := headerWords(h)
		if len(w) == 0 || slices.ContainsFunc(w, func(x string) bool { return slices.Contains(notName, x) }) {
			continue
		}
		has := func(xs ...string) bool {
			return slices.ContainsFunc(w, func(x string) bool { return slices.Contains(xs, x) })
		}
		switch {
		case has("first", "firstname", "fname", "given"):
			if first < 0 {
				first = i
			}
		case has("last", "lastname", "lname", "surname"):
			if last < 0 {
				last = i
			}
		case has("owner", "owners", "ownername", "fullname", "name", "company", "entity"):
			if full < 0 {
				full = i
			}
		}
	}
	var idx []int
	if first >= 0 {
		idx = append(idx, first)
	}
	if last >= 0 {
		idx = append(idx, last)
	}
	if len(idx) == 0 && full >= 0 {
		idx = append(idx, full)
	}
	return idx
}

// isZipHeader: "Zip", "Mail Zip", "ZIP Code", "Zip5", "Postal Code", "zipcode".
func isZipHeader(h string) bool {
	for _, w := range headerWords(h) {
		switch w {
		case "zip", "zipcode", "zip5", "postal", "postcode", "postalcode":
			return true
		}
	}
	return false
}
