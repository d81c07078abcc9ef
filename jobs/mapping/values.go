package mapping

import (
	"fmt"
	"iter"
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
)

// Values that fit their fields. Validate checks that the fields are mapped;
// CheckValues looks at what the mapped columns hold: a city column of codes
// or numbers (parcel numbers dropped on "Property city"), a name column of
// phones, a ZIP column of text, a state column that is not states. A field
// whose values mostly do not fit is an error until the person confirms it
// (the provider would take it, and search the wrong place); a few values
// that do not fit are a warning. The problems name how many values of how
// many and show examples, so that a window can show them beside the field.

// Problem codes of the values' checks.
const (
	// CodeValuesDontFit: most of a mapped column's values do not look like
	// the field's (an error until confirmed: WithConfirmed).
	CodeValuesDontFit = "values_dont_fit"
	// CodeSomeValuesDontFit: some of them do not (a warning).
	CodeSomeValuesDontFit = "some_values_dont_fit"
)

// ValueCheck is what CheckValues found in one mapped column.
type ValueCheck struct {
	Key    string `json:"key"`
	Column string `json:"column"`
	// Looked is how many non-blank values were looked at; Misfits how many
	// of them do not look like the field's values; Examples a few of them.
	Looked   int      `json:"looked"`
	Misfits  int      `json:"misfits"`
	Examples []string `json:"examples,omitempty"`
}

// Mostly reports whether most values looked at do not fit.
func (c ValueCheck) Mostly() bool { return c.Looked > 0 && c.Misfits*2 > c.Looked }

// maxValueExamples is how many misfit values a check keeps.
const maxValueExamples = 3

// fieldKind is what a field's values look like.
type fieldKind int

const (
	kindName fieldKind = iota
	kindStreet
	kindCity
	kindState
	kindZip
	kindPhone
)

var kindOfKey = map[string]fieldKind{
	FirstName: kindName, LastName: kindName,
	PropertyStreet: kindStreet, MailingStreet: kindStreet,
	PropertyCity: kindCity, MailingCity: kindCity,
	PropertyState: kindState, MailingState: kindState,
	PropertyZip: kindZip, MailingZip: kindZip,
	Phone: kindPhone,
}

// kindWords say what a field's values should look like, for the messages.
var kindWords = map[fieldKind]string{
	kindName:   "names",
	kindStreet: "street addresses",
	kindCity:   "city names",
	kindState:  "states",
	kindZip:    "ZIP codes",
	kindPhone:  "phone numbers",
}

// CheckValues looks at the values under each mapped field in rows (a
// sample of the file, or the whole of it), whose columns are headers, and
// returns a check for each mapped field with a value that does not fit, in
// the catalogue's order.
func CheckValues(headers []string, rows [][]string, m Mapping) []ValueCheck {
	var out []ValueCheck
	for _, k := range m.SortedKeys() {
		kind, ok := kindOfKey[k]
		col := indexOf(headers, m[k])
		if !ok || col < 0 {
			continue
		}
		c := ValueCheck{Key: k, Column: m[k]}
		for v := range columnValues(rows, col) {
			c.Looked++
			if fits(kind, v) {
				continue
			}
			c.Misfits++
			if len(c.Examples) < maxValueExamples && !contains(c.Examples, v) {
				c.Examples = append(c.Examples, v)
			}
		}
		if c.Misfits > 0 {
			out = append(out, c)
		}
	}
	return out
}

// columnValues yields the values of column col in rows, trimmed, in row
// order, passing over blanks and rows too short to have the column.
func columnValues(rows [][]string, col int) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, row := range rows {
			if col >= len(row) {
				continue
			}
			if v := strings.TrimSpace(row[col]); v != "" && !yield(v) {
				return
			}
		}
	}
}

func indexOf(headers []string, h string) int {
	if h == "" {
		return -1
	}
	for i, x := range headers {
		if x == h {
			return i
		}
	}
	return -1
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// fits reports whether v looks like a value of a field of kind. The rules
// accept what real lists hold (initials, "PO BOX 12", ZIP+4, "Tex.", the
// four digits Excel leaves of a ZIP) and refuse what belongs elsewhere.
func fits(kind fieldKind, v string) bool {
	d := jobs.CountDigits(v)
	switch kind {
	case kindName:
		// A phone, a number or a code is no one's name.
		return d*2 < len(v) && !strings.Contains(v, "@")
	case kindStreet:
		// A ZIP, a state or a phone number alone is not a street.
		return !isZip(v) && !isState(v) && !(d >= 7 && d*2 >= len(v))
	case kindCity:
		// City names are words: digits mean a code, a parcel or a ZIP;
		// two letters a state's code.
		return d == 0 && !isState(v)
	case kindState:
		return isState(v) || isStateName(v)
	case kindZip:
		return isZip(v) || isZip(strings.ReplaceAll(v, " ", ""))
	case kindPhone:
		return d >= 7 && d <= 15 && d*2 >= len(v)
	}
	return true
}

// stateNames are the states written out, as lists often have them.
var stateNames = map[string]bool{}

func init() {
	for _, s := range strings.Split("alabama,alaska,arizona,arkansas,california,colorado,connecticut,delaware,"+
		"district of columbia,florida,georgia,hawaii,idaho,illinois,indiana,iowa,kansas,kentucky,louisiana,maine,"+
		"maryland,massachusetts,michigan,minnesota,mississippi,missouri,montana,nebraska,nevada,new hampshire,"+
		"new jersey,new mexico,new york,north carolina,north dakota,ohio,oklahoma,oregon,pennsylvania,rhode island,"+
		"south carolina,south dakota,tennessee,texas,utah,vermont,virginia,washington,west virginia,wisconsin,wyoming,"+
		"puerto rico,guam,virgin islands,american samoa", ",") {
		stateNames[s] = true
	}
}

func isStateName(v string) bool {
	return stateNames[strings.ToLower(strings.Join(strings.Fields(strings.TrimSuffix(v, ".")), " "))]
}

// valueProblems are the problems of value checks: an error for a field
// whose values mostly do not fit (a warning once confirmed), a warning for
// one with a few.
func valueProblems(checks []ValueCheck, confirmed []string) []Problem {
	var out []Problem
	for _, c := range checks {
		kind := kindOfKey[c.Key]
		p := Problem{Code: CodeSomeValuesDontFit, Severity: Warning, Keys: []string{c.Key}, Column: c.Column}
		what := fmt.Sprintf("%d of %d values in %q, chosen for %s, do not look like %s", c.Misfits, c.Looked, c.Column,
			Label(c.Key), kindWords[kind])
		if c.Misfits == 1 {
			what = fmt.Sprintf("1 of %d values in %q, chosen for %s, does not look like %s", c.Looked, c.Column, Label(c.Key), kindWords[kind])
		}
		what += ": " + quoteValues(c.Examples)
		switch {
		case c.Mostly() && contains(confirmed, c.Key):
			p.Code = CodeValuesDontFit
			p.Message = what + ". You said this column is right."
		case c.Mostly():
			p.Code, p.Severity = CodeValuesDontFit, Error
			p.Message = what + ". Choose another column, or say that this one is right."
		default:
			p.Message = what + "."
		}
		out = append(out, p)
	}
	return out
}

func quoteValues(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// WithValues has Validate (and ValidateDNC) look at the values of the
// mapped columns in rows (see CheckValues); confirmed are the keys the
// person said are right although most of their values do not fit.
func WithValues(rows [][]string, confirmed []string) Option {
	return func(o *options) { o.values, o.confirmed, o.checkValues = rows, confirmed, true }
}

// addValueProblems adds the value checks' problems to r, errors among the
// errors, when WithValues asked for them.
func addValueProblems(r *Result, headers []string, m Mapping, o options) {
	if !o.checkValues {
		return
	}
	ps := valueProblems(CheckValues(headers, o.values, m), o.confirmed)
	for _, sev := range []Severity{Error, Warning} { // errors first
		for _, p := range ps {
			if p.Severity == sev {
				r.add(p)
			}
		}
	}
}
