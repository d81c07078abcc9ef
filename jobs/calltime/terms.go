package calltime

import (
	"time"
)

// Terms are what the rules say of one opt-out: the date by which it must be
// honoured and the first date its entry may be removed (with a reason:
// SkipDesk never lets an entry lapse by itself).
type Terms struct {
	HonourBy  time.Time // the last business day to honour it (a date, UTC midnight)
	Honour    *Rule     // the row that set HonourBy (nil when the table has none)
	NotBefore time.Time // removal refused before this date
	Keep      *Rule     // the row that set NotBefore (the longest that applies)
}

// OptOutTerms gives the terms of an opt-out made on a date (YYYY-MM-DD in
// the person's time) to a placed phone, by text or by call. The keeping
// rows of every candidate state apply (every state's when the phone cannot
// be placed); the longest wins.
func (e *Engine) OptOutTerms(pl Placement, text bool, made time.Time) Terms {
	day := time.Date(made.Year(), made.Month(), made.Day(), 0, 0, 0, 0, time.UTC)
	t := Terms{HonourBy: day, NotBefore: day}
	for _, r := range e.rules.Of(KindOptOut, Federal) {
		if n := r.HonourDays(); n > 0 {
			t.HonourBy, t.Honour = BusinessDaysAfter(day, n), r
		}
	}
	for _, r := range e.keepRows(pl) {
		years, textOnly, _ := r.Keep() // checked when the table was read
		if years == 0 || textOnly && !text {
			continue
		}
		if nb := day.AddDate(years, 0, 0); nb.After(t.NotBefore) {
			t.NotBefore, t.Keep = nb, r
		}
	}
	return t
}

// keepRows are the optout rows for the phone's states.
func (e *Engine) keepRows(pl Placement) []*Rule {
	states := map[string]bool{}
	for _, l := range pl.Locations {
		states[l.State] = true
	}
	var out []*Rule
	for _, r := range e.rules.Rules {
		if r.Kind == KindOptOut && (r.State == Federal || states[r.State] || states[AnyState] || len(pl.Locations) == 0) {
			out = append(out, r)
		}
	}
	return out
}

// Capped says whether a phone that was called calls times in the last 24
// hours has reached the cap of one of its states (every state's when it
// cannot be placed), and which row.
func (e *Engine) Capped(pl Placement, calls int) *Rule {
	if r := e.CapOf(pl); r != nil && calls >= CapLimit(r) {
		return r
	}
	return nil
}

// CapOf is the strictest calls-per-24-hours row of a phone's states (every
// state's when it cannot be placed); nil when none has one.
func (e *Engine) CapOf(pl Placement) *Rule {
	var out *Rule
	for _, r := range e.statesRows(pl, KindCap) {
		if out == nil || CapLimit(r) < CapLimit(out) {
			out = r
		}
	}
	return out
}

// AutodialConsent is the first row of a phone's states (every state's when
// it cannot be placed) by which any autodialed call needs prior express
// written consent, in force on date (YYYY-MM-DD); nil when none. The
// federal row on wireless numbers is not among them: a dialing mode that
// autodials leaves out mobiles and phones of unknown type by their type.
func (e *Engine) AutodialConsent(pl Placement, date string) *Rule {
	for _, r := range e.statesRows(pl, KindAutodial) {
		if r.Value == "any" && r.InForce(date) {
			return r
		}
	}
	return nil
}

// statesRows are the rows of a kind of the states of a placement's
// locations, in the table's order; every state's when a location is
// AnyState.
func (e *Engine) statesRows(pl Placement, kind Kind) []*Rule {
	var out []*Rule
	for _, r := range e.rules.Rules {
		if r.Kind != kind {
			continue
		}
		for _, l := range pl.Locations {
			if r.State == l.State || l.State == AnyState {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// CapLimit is the number of calls a cap row allows in 24 hours.
func CapLimit(r *Rule) int {
	n := 0
	for _, c := range r.Value {
		n = n*10 + int(c-'0') // checked: digits only
	}
	return n
}

// BusinessDaysAfter is the nth business day after a date: weekends and the
// federal holidays (5 U.S.C. § 6103, with their observed days) are skipped.
func BusinessDaysAfter(day time.Time, n int) time.Time {
	d := day
	for n > 0 {
		d = d.AddDate(0, 0, 1)
		if BusinessDay(d) {
			n--
		}
	}
	return d
}

// BusinessDay says whether a date is neither a weekend day nor a federal
// holiday.
func BusinessDay(d time.Time) bool {
	if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	for _, h := range FederalHolidays(d.Year()) {
		if h.Equal(d) {
			return false
		}
	}
	// New Year's Day of the next year, on a Saturday, is observed this year.
	for _, h := range FederalHolidays(d.Year() + 1)[:1] {
		if h.Equal(d) {
			return false
		}
	}
	return true
}

// FederalHolidays are the observed dates of a year's federal holidays (UTC
// midnights): a Saturday holiday is observed on the Friday before, a Sunday
// one on the Monday after. The first is New Year's Day's.
func FederalHolidays(year int) []time.Time {
	fixed := func(m time.Month, d int) time.Time { return observed(time.Date(year, m, d, 0, 0, 0, 0, time.UTC)) }
	return []time.Time{
		fixed(time.January, 1),
		nthWeekday(year, time.January, time.Monday, 3),    // Martin Luther King Jr.'s Birthday
		nthWeekday(year, time.February, time.Monday, 3),   // Washington's Birthday
		lastWeekday(year, time.May, time.Monday),          // Memorial Day
		fixed(time.June, 19),                              // Juneteenth
		fixed(time.July, 4),                               // Independence Day
		nthWeekday(year, time.September, time.Monday, 1),  // Labor Day
		nthWeekday(year, time.October, time.Monday, 2),    // Columbus Day
		fixed(time.November, 11),                          // Veterans Day
		nthWeekday(year, time.November, time.Thursday, 4), // Thanksgiving Day
		fixed(time.December, 25),
	}
}

func observed(d time.Time) time.Time {
	switch d.Weekday() {
	case time.Saturday:
		return d.AddDate(0, 0, -1)
	case time.Sunday:
		return d.AddDate(0, 0, 1)
	}
	return d
}

func nthWeekday(year int, m time.Month, wd time.Weekday, n int) time.Time {
	d := time.Date(year, m, 1, 0, 0, 0, 0, time.UTC)
	for d.Weekday() != wd {
		d = d.AddDate(0, 0, 1)
	}
	return d.AddDate(0, 0, 7*(n-1))
}

func lastWeekday(year int, m time.Month, wd time.Weekday) time.Time {
	d := time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC)
	for d.Weekday() != wd {
		d = d.AddDate(0, 0, -1)
	}
	return d
}
