package mapping

import (
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
)

// profile summarises a column's sample values: the share of non-blank values
// that look like each kind of data.
type profile struct {
	n                                   int // non-blank values
	zip, state, street, fullAddr, phone float64
	alpha, multiWord, digits, comma     float64
}

func profileColumn(sample [][]string, col int) profile {
	var p profile
	var zip, state, street, full, phone, alpha, multi, digits, comma int
	for v := range columnValues(sample, col) {
		p.n++
		if isZip(v) {
			zip++
		}
		if isState(v) {
			state++
		}
		if startsWithHouseNumber(v) {
			street++
		}
		if _, ok := parseAddress(v); ok {
			full++
		}
		if d := jobs.CountDigits(v); d >= 7 && d <= 15 && d*2 >= len(v) {
			phone++
		}
		if d := jobs.CountDigits(v); d == 0 {
			alpha++
		} else if d*2 >= len(v) {
			digits++
		}
		if strings.ContainsAny(strings.TrimSpace(v), " ") {
			multi++
		}
		if strings.Contains(v, ",") {
			comma++
		}
	}
	if p.n == 0 {
		return p
	}
	f := func(c int) float64 { return float64(c) / float64(p.n) }
	p.zip, p.state, p.street, p.fullAddr, p.phone = f(zip), f(state), f(street), f(full), f(phone)
	p.alpha, p.multiWord, p.digits, p.comma = f(alpha), f(multi), f(digits), f(comma)
	return p
}

// adjustBySample nudges a header's score with what its values look like: a
// tie-break between look-alike headers and a veto of clear contradictions.
func adjustBySample(key string, s float64, why string, p profile) (float64, string) {
	if p.n == 0 || s >= 1 {
		return s, why
	}
	part := ""
	if kp, ok := keyPart[key]; ok {
		part = kp.part
	}
	fits, contradicts := false, false
	switch {
	case part == "zip":
		fits, contradicts = p.zip >= 0.8, p.zip < 0.3
	case part == "state":
		fits, contradicts = p.state >= 0.8, p.state < 0.3
	case part == "city":
		fits, contradicts = p.alpha >= 0.8, p.digits > 0.5
	case part == "street":
		fits, contradicts = p.street >= 0.6, p.zip > 0.8 || p.state > 0.8
		if p.fullAddr >= 0.6 {
			// Street, city, state and zip in one column: offered as a split.
			return 0, ""
		}
	case key == FirstName || key == LastName:
		fits, contradicts = p.alpha >= 0.8, p.digits > 0.5
	case key == Phone:
		fits, contradicts = p.phone >= 0.6, p.phone < 0.2
	}
	switch {
	case contradicts:
		return s - 0.35, why + ", values disagree"
	case fits:
		return s + 0.04, why + ", values agree"
	}
	return s, why
}

// isZip: 5 digits, ZIP+4, or the 4 digits Excel leaves of a zip with a leading 0.
func isZip(v string) bool {
	switch len(v) {
	case 4, 5:
		return jobs.CountDigits(v) == len(v)
	case 9:
		return jobs.CountDigits(v) == 9
	case 10:
		return v[5] == '-' && jobs.CountDigits(v) == 9
	}
	return false
}

var states = map[string]bool{}

func init() {
	for _, s := range strings.Fields("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP AA AE AP") {
		states[s] = true
	}
}

func isState(v string) bool {
	v = strings.TrimSuffix(strings.TrimSpace(v), ".")
	return len(v) == 2 && states[strings.ToUpper(v)]
}

func startsWithHouseNumber(v string) bool {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(v) {
		return i == 0 && len(v) > 0 && (v[0] == 'P' || v[0] == 'p') &&
			(hasPrefixFold(v, "PO BOX") || hasPrefixFold(v, "P O BOX") || hasPrefixFold(v, "P.O. BOX"))
	}
	// "123 Main", "123A Main", "12-14 Main"
	for i < len(v) && v[i] != ' ' {
		i++
	}
	return i < len(v)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
