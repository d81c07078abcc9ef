package resultgen

import (
	"strconv"
	"time"
)

// Scrub dates: their columns, their formats, and how old they are.

// dateHeaders name a row's scrub date in scrub portals, dialers and CRMs.
var dateHeaders = []string{"Scrub Date", "DNC Scrub Date", "Last Scrubbed", "Date Checked", "Checked On", "scrubbed_at",
	"ScrubDate", "DNC Date", "Scrubbed On", "Last DNC Check"}

// spanishDateHeaders are the same in Spanish exports.
var spanishDateHeaders = []string{"Fecha de Verificación", "Fecha Verificación", "Fecha"}

// dateFormats are the ways US exports write a date (Go layouts, and
// excelSerial).
var dateFormats = []string{"2006-01-02", "01/02/2006", "1/2/2006", "1/2/06", "Jan 2, 2006", "2006-01-02T15:04:05Z",
	"2006-01-02 15:04:05", "02-Jan-2006", "20060102", "January 2, 2006", "1/2/2006 3:04 PM", excelSerial, ordinalDate}

// Dates no Go layout writes: excelSerial, as Excel writes a date in a CSV
// saved from a cell formatted as a number (the days since 1899-12-30);
// ordinalDate, a day's ordinal as people type it ("5th June 2026").
const (
	excelSerial = "excel serial"
	ordinalDate = "ordinal"
)

// dayFirstFormats are the day-first formats of Spanish and European
// exports: 05/03/2025 is the 5th of March there.
var dayFirstFormats = []string{"02/01/2006", "2/1/2006", "02-01-2006"}

// Ages of scrubs, in days before the export. The rule allows 31 days; no
// generated date sits within a day or two of it, so that a date read in
// another time zone or at another hour judges the same.
const (
	freshMax = 29
	staleMin = 33
)

// age draws how old a file's scrub is: mostly fresh, sometimes stale,
// rarely in the future (a clock or a typing error).
func (g *gen) age() int {
	switch x := g.r.Float64(); {
	case x < 0.72:
		return g.r.between(0, freshMax)
	case x < 0.94:
		return g.r.between(staleMin, 240)
	}
	return -g.r.between(2, 60)
}

// dateText writes the date age days before now in format.
func dateText(now time.Time, age int, format string) string {
	t := now.AddDate(0, 0, -age)
	switch format {
	case excelSerial:
		day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		return strconv.Itoa(int(day.Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)).Hours() / 24))
	case ordinalDate:
		suffix := "th"
		if d := t.Day(); d < 4 || d > 20 && d < 24 || d > 30 {
			suffix = []string{"st", "nd", "rd"}[d%10-1]
		}
		return strconv.Itoa(t.Day()) + suffix + " " + t.Format("January 2006")
	}
	return t.Format(format)
}

// completedAt is when a job of ours that completed age days ago finished.
func completedAt(now time.Time, age int, hours int) time.Time {
	return now.AddDate(0, 0, -age).Add(-time.Duration(hours) * time.Hour).UTC()
}

// onDay moves age, within its kind (fresh, stale, in the future), to the
// nearest age whose date, counted back from now, falls on a day of the
// month up to 12 (low) or after it: so that whether "05/03" could be read
// either way depends on the seed alone, not on the day the test runs.
func onDay(now time.Time, age int, low bool) int {
	for k := range 40 {
		for _, a := range []int{age + k, age - k} {
			if ageKind(a) == ageKind(age) && (now.AddDate(0, 0, -a).Day() <= 12) == low {
				return a
			}
		}
	}
	return age
}

// ageKind sorts ages: in the future, fresh, stale, or in the margin around
// the 31 days that is never generated.
func ageKind(age int) int {
	switch {
	case age < -1:
		return -1
	case age >= 0 && age <= freshMax:
		return 0
	case age >= staleMin:
		return 1
	}
	return 2
}
