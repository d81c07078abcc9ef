package layout

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Scrub dates written in a file: when each row's answers were scrubbed (a
// "Date Scrubbed" column, a merged result's source_date). Every answer
// carries its own date: a row's date comes from such a column when the
// file has one, else from the file's job record; never from the file
// system. A date in the future is not a date the call can rest on.

// DateOrder is how a column writes the day and the month of numeric dates.
type DateOrder string

const (
	OrderMDY DateOrder = "month/day" // US: 03/04/2026 is March 4
	OrderDMY DateOrder = "day/month" // 03/04/2026 is April 3
	// OrderEither: no value tells (every day and month is 12 or less):
	// each date is read as the earlier of its two readings, so that no
	// answer looks fresher than it may be, and one whose later reading is
	// in the future dates no answer (see scrubDate).
	OrderEither DateOrder = "either"
)

var dateLayouts = []string{
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04",
	time.DateOnly, "2006/01/02", "20060102", "Jan 2, 2006", "January 2, 2006", "2 Jan 2006", "02-Jan-2006",
	"2-Jan-06", "Jan 2 2006", "Mon Jan 2 2006", "Mon, 02 Jan 2006 15:04:05 MST",
}

// wordLayouts are dates written in words that dateLayouts does not read
// (a weekday, the month's full name, a month abbreviated with a dot), tried
// only on values with letters.
var wordLayouts = []string{
	"Monday, January 2, 2006", "Monday, Jan 2, 2006", "Mon, January 2, 2006", "Mon, Jan 2, 2006", "Monday January 2, 2006",
	"Monday, 2 January 2006", "Mon, 2 Jan 2006", "2 January 2006", "January 2 2006", "Jan. 2, 2006", "Jan 2, 2006 3:04 PM",
	"January 2, 2006 3:04 PM", "Jan 2, 2006 15:04", "Mon Jan _2 15:04:05 2006", "Mon Jan _2 15:04:05 MST 2006", "02 Jan 2006 15:04",
	"2-January-2006", "January 2006",
}

// hasLetter reports a value with a letter other than the T and Z of an
// ISO 8601 date.
func hasLetter(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i] | 0x20
		if c >= 'a' && c <= 'z' && c != 't' && c != 'z' || v[i] >= 0x80 {
			return true
		}
	}
	return false
}

// parseDate reads a date in any of the common ways files write them; numeric
// day/month dates in the column's order. ok is false for a value that is no
// date.
func parseDate(v string, order DateOrder) (time.Time, bool) {
	t, _, ok := dateSpan(v, order)
	return t, ok
}

// dateSpan reads a date as parseDate does, and gives beside it the later
// reading of a numeric date whose day and month can be read both ways (the
// column's order "either"); else late is the date itself.
func dateSpan(v string, order DateOrder) (early, late time.Time, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, time.Time{}, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC(), t.UTC(), true
		}
	}
	if hasLetter(v) {
		for _, l := range wordLayouts {
			if t, err := time.Parse(l, v); err == nil {
				return t.UTC(), t.UTC(), true
			}
		}
	}
	if t, ok := excelSerial(v); ok {
		return t, t, true
	}
	if a, b, y, rest, num := numericDate(v); num {
		return dayMonthSpan(a, b, y, rest, order)
	}
	return time.Time{}, time.Time{}, false
}

// excelSerial reads a date Excel wrote as its serial number ("46345",
// "46345.63": days since 1899-12-30, a cell formatted as a number), from
// 2000 to 2099. A workbook of the 1904 date system (old Mac Excel) counts
// from 1904: read so, its dates come out four years older, never fresher.
func excelSerial(v string) (time.Time, bool) {
	whole, frac, _ := strings.Cut(v, ".")
	if len(whole) != 5 || !allDigits(whole) || frac != "" && !allDigits(frac) {
		return time.Time{}, false
	}
	n, _ := strconv.Atoi(whole)
	if n < 36526 || n >= 73051 {
		return time.Time{}, false
	}
	t := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n)
	if frac != "" {
		f, _ := strconv.ParseFloat("0."+frac, 64)
		t = t.Add(time.Duration(f * float64(24*time.Hour)).Truncate(time.Second))
	}
	return t, true
}

// dateLike is a value written as a date, read or not: a year (1990 to
// 2099), a month's name, or numbers joined by slashes, dashes or dots.
func dateLike(v string) bool {
	ws := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range ws {
		if n, err := strconv.Atoi(w); err == nil && len(w) == 4 && n >= 1990 && n < 2100 || monthNames[w] {
			return true
		}
	}
	_, _, _, _, num := numericDate(strings.TrimSpace(v))
	return num
}

// monthNames are the months' names and abbreviations, lower case.
var monthNames = func() map[string]bool {
	m := map[string]bool{"sept": true}
	for mo := time.January; mo <= time.December; mo++ {
		n := strings.ToLower(mo.String())
		m[n], m[n[:3]] = true, true
	}
	return m
}()

// numericDate splits "03/04/2026", "3-4-26", "03.04.2026 14:05" into its
// numbers and the time after them.
func numericDate(v string) (a, b, y int, rest string, ok bool) {
	date, rest, _ := strings.Cut(v, " ")
	parts := strings.FieldsFunc(date, func(r rune) bool { return r == '/' || r == '-' || r == '.' })
	if len(parts) != 3 {
		return 0, 0, 0, "", false
	}
	n := [3]int{}
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return 0, 0, 0, "", false
		}
		n[i] = x
	}
	y = n[2]
	switch {
	case len(parts[2]) == 2:
		y += 2000
	case len(parts[2]) != 4:
		return 0, 0, 0, "", false
	}
	return n[0], n[1], y, strings.TrimSpace(rest), true
}

// dayMonthSpan reads a numeric date in the column's order; where the order
// is "either" and both readings are dates, early is the earlier reading and
// late the later one, else both are the one reading.
func dayMonthSpan(a, b, y int, rest string, order DateOrder) (early, late time.Time, ok bool) {
	mdy, okM := civil(y, a, b, rest)
	dmy, okD := civil(y, b, a, rest)
	switch {
	case order == OrderMDY || !okD:
		return mdy, mdy, okM
	case order == OrderDMY || !okM:
		return dmy, dmy, okD
	case dmy.Before(mdy):
		return dmy, mdy, true
	}
	return mdy, dmy, true
}

// dateProblem is why a value cannot date a scrub.
type dateProblem int

const (
	dateKnown       dateProblem = iota
	dateNone                    // not a date
	dateFuture                  // in the future
	dateMaybeFuture             // in the future read day first or month first
)

// maybeFutureWords says why a date of dateMaybeFuture dates nothing.
const maybeFutureWords = "in the future if read month first or day first"

// future says the date may lie in the future.
func (p dateProblem) future() bool { return p == dateFuture || p == dateMaybeFuture }

// scrubDate reads v as the date of a scrub, as of now: the date (the
// earlier reading where day and month can be read both ways), or why it
// cannot date one. A date whose day and month can be read both ways and
// one of whose readings lies in the future is not known: "12/11/2026" on
// November 26 is either two weeks old or not yet come, and SkipDesk cannot
// tell which.
func scrubDate(v string, order DateOrder, now time.Time) (time.Time, dateProblem) {
	early, late, ok := dateSpan(v, order)
	switch {
	case !ok:
		return time.Time{}, dateNone
	case early.After(now.Add(clockSkew)):
		return early, dateFuture
	case late.After(now.Add(clockSkew)):
		return early, dateMaybeFuture
	}
	return early, dateKnown
}

func civil(y, m, d int, rest string) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{}, false
	}
	if rest != "" {
		for _, l := range []string{"15:04:05", "15:04", "3:04 PM", "3:04:05 PM", "3:04PM"} {
			if c, err := time.Parse(l, rest); err == nil {
				return t.Add(time.Duration(c.Hour())*time.Hour + time.Duration(c.Minute())*time.Minute +
					time.Duration(c.Second())*time.Second), true
			}
		}
	}
	return t, true
}

// dateOrderOf decides a column's day/month order from all its values: a
// first number over 12 is a day (day/month), a second over 12 is a day
// (month/day); both seen, or neither, is "either".
func dateOrderOf(vals []ValueN) DateOrder {
	dmy, mdy := false, false
	for _, v := range vals {
		if a, b, _, _, ok := numericDate(strings.TrimSpace(v.V)); ok {
			dmy = dmy || a > 12
			mdy = mdy || b > 12
		}
	}
	switch {
	case dmy && !mdy:
		return OrderDMY
	case mdy && !dmy:
		return OrderMDY
	}
	return OrderEither
}

// datesShare is the share of a column's rows (blanks aside) that hold a date.
func datesShare(vals []ValueN, order DateOrder) float64 {
	n, ok := 0, 0
	for _, v := range vals {
		n += v.N
		if _, good := parseDate(v.V, order); good {
			ok += v.N
		}
	}
	if n == 0 {
		return 0
	}
	return float64(ok) / float64(n)
}
