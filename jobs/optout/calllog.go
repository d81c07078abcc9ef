package optout

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Call is one call of a dialer's call log.
type Call struct {
	Line   int
	Number string    // the 10 digits
	At     time.Time // zero when the time could not be read
	Zoned  bool      // the time was written with its zone ("…Z", "…-05:00")
}

// CallLog is what a call log held.
type CallLog struct {
	File     string
	Calls    []Call
	Problems []string // lines passed over or read with doubt, each named
	// Notes name the calls counted for both ends of a row that does not say
	// which way it went.
	Notes []string
	// loc reads the times written without a zone; guessed: it is this
	// computer's, not one the person said (Options.Guessed).
	loc     *time.Location
	guessed bool
}

// ReadCallLog reads a dialer's call log: a number and the call's date and
// time (one column, or a date column and a time column). A call whose time
// cannot be read is kept with a zero time: it counts as recent.
func ReadCallLog(ctx context.Context, path string, opt Options) (*CallLog, error) {
	log := &CallLog{File: path, loc: opt.Location, guessed: opt.Guessed}
	if log.loc == nil {
		log.loc = time.UTC
	}
	// A call left uncounted could let a number be called past its cap.
	problems, err := everySheet(ctx, func(sheet string) ([]string, error) { return log.readSheet(ctx, path, sheet, opt) })
	if err != nil {
		return nil, err
	}
	log.Problems = append(log.Problems, problems...)
	return log, nil
}

// readSheet adds the calls of one sheet of the file at path ("": the first
// holding rows, or the file), read by its own columns; it returns the
// workbook's other sheets holding rows when it read the first.
func (log *CallLog) readSheet(ctx context.Context, path, sheet string, opt Options) ([]string, error) {
	r, sheet, others, err := openSheet(path, sheet)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	h := r.Headers()
	cols := map[string]int{}
	if !numberColumns(h, cols) {
		return nil, fileErr(path, "no phone number column (phone, number, from and to…) among %q", h)
	}
	if i := headerIndex(h, directionHeaders); i >= 0 {
		cols["direction"] = i
	}
	date, clock := headerIndex(h, []string{"date", "call date"}), headerIndex(h, []string{"time", "call time", "start time"})
	if date < 0 || clock < 0 {
		date, clock = headerIndex(h, dateHeaders), -1
	}
	if date < 0 {
		return nil, fileErr(path, "no date or time column (date, call date, timestamp…) among %q", h)
	}
	names := map[string]string{} // role → header, for the notes
	for role, i := range cols {
		names[role] = h[i]
	}
	err = sheetRows(ctx, r, sheet, func(rec []string, line int, sheet string) {
		log.add(rec, line, sheet, names, cols, date, clock, opt.Location)
	})
	return others, err
}

func (log *CallLog) add(rec []string, line int, sheet string, names map[string]string, cols map[string]int, date, clock int, loc *time.Location) {
	get := func(role string) string {
		if i, ok := cols[role]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	// A call whose way is not said counts for both ends: a call left
	// uncounted could let a number be called past its cap.
	roles, doubt := person(cols, names, directionOf(get("direction")), get, "call was made or taken")
	if doubt != "" {
		log.Notes = append(log.Notes, At(sheet, line)+": "+doubt+" (the call counts for both)")
	}
	when, at, zoned := callTime(rec, date, clock, loc)
	if at.IsZero() {
		log.Problems = append(log.Problems, fmt.Sprintf("%s: the time %q could not be read: the call counts as made in the last 24 hours", At(sheet, line), when))
	}
	for _, role := range roles {
		n := phone.Normalize(phone.ForList(get(role)))
		if !n.Valid {
			log.Problems = append(log.Problems, fmt.Sprintf("%s: %q is not a valid US number (%s): the call is not counted", At(sheet, line), get(role), n.Reason))
			continue
		}
		log.Calls = append(log.Calls, Call{Line: line, Number: n.Digits, At: at, Zoned: zoned})
	}
}

// clockLayouts are the ways a call log writes a time of day in a column
// of its own.
var clockLayouts = []string{"15:04", "15:04:05", "3:04 PM", "3:04:05 PM", "3:04PM", "15:04:05.000"}

// callTime reads a call's time: the date column (date and time in one),
// or the date column and the clock column (-1 none); the text read, the
// instant (zero when it cannot be read) and whether it wrote its zone.
func callTime(rec []string, date, clock int, loc *time.Location) (string, time.Time, bool) {
	cell := func(i int) string {
		if i >= 0 && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	if clock < 0 {
		at, zoned := parseWhen(cell(date), loc)
		return cell(date), at, zoned
	}
	when := cell(date) + " " + cell(clock)
	day := ParseWhen(cell(date), loc)
	for _, l := range clockLayouts {
		if t, err := time.Parse(l, strings.ToUpper(cell(clock))); err == nil && !day.IsZero() && day.Hour() == 0 && day.Minute() == 0 {
			return when, time.Date(day.Year(), day.Month(), day.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc), false
		}
	}
	at, zoned := parseWhen(when, loc)
	return when, at, zoned
}

// Recent counts each number's calls in the 24 hours up to at (calls whose
// time is unknown count; calls after at do not). Where the log's zone was
// guessed, a call whose time was written without one counts when any zone
// from UTC to Hawaii's would put it in those 24 hours (Window): a call
// left uncounted could let a number be called past its cap.
func (log *CallLog) Recent(at time.Time) map[string]int {
	out := map[string]int{}
	early, late := log.Window(at)
	for _, c := range log.Calls {
		from, to := at.Add(-24*time.Hour), at
		if !c.Zoned {
			from, to = at.Add(-early), at.Add(late)
		}
		if c.At.IsZero() || c.At.After(from) && !c.At.After(to) {
			out[c.Number]++
		}
	}
	return out
}

// Window is how far before at (24 hours and more) and after it a call
// written without a zone is counted: exactly the 24 hours before where the
// person said the log's zone; else as far as a log written in any zone from
// UTC to Hawaii's (UTC-10), read in this computer's, may be off.
func (log *CallLog) Window(at time.Time) (before, after time.Duration) {
	if !log.guessed {
		return 24 * time.Hour, 0
	}
	_, off := at.In(log.loc).Zone()
	local := time.Duration(off) * time.Second
	early, late := min(-10*time.Hour-local, 0), max(-local, 0)
	return 24*time.Hour - early, late
}
