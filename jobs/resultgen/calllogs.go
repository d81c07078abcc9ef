package resultgen

import (
	"strconv"
	"time"
)

// CallLogCase is a dialer's call log as dialers export one, with its
// truth: every call's person and instant. The log's times are written in
// a zone the file may not say (UTC, or a US zone from New York to
// Hawaii's), as a date and a time in one column or two, in any format. The
// promise it tests: counted at an instant, no number shows fewer calls in
// the 24 hours before it than it had, whatever zone the log was written
// in, unless its row is named as not read.
type CallLogCase struct {
	*ListCase
	Calls [][]LoggedCall // by sheet, by row
	Zone  *time.Location // the zone its times without one are written in
	At    time.Time      // the instant the calls are counted at
}

// LoggedCall is the truth of a row.
type LoggedCall struct {
	Person uint64 // the person's number; 0 where it cannot be read
	At     time.Time
}

// callLogZones are the zones a dialer writes its log in.
var callLogZones = []string{"UTC", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
	"America/Anchorage", "Pacific/Honolulu"}

// callLogShape is the columns of a call log.
type callLogShape struct {
	number, from, to, direction string
	when, date, clock           string // one column of both, or a date and a time
	dir                         [2]string
}

// CallLogs generates the case of seed.
func CallLogs(seed int64) *CallLogCase {
	r := newRNG(seed)
	nums := &numbers{r: r, used: map[string]bool{}}
	zone, err := time.LoadLocation(pick(r, callLogZones))
	if err != nil {
		zone = time.UTC
	}
	c := &CallLogCase{ListCase: &ListCase{Seed: seed, XLSX: r.chance(0.3), Delim: pick(r, []byte{',', ',', ';', '\t'})}, Zone: zone,
		At: time.Date(2026, 11, 25, r.between(0, 23), r.between(0, 59), 0, 0, time.UTC)}
	sh := callLogShapeOf(r)
	s := ListSheet{Name: "Calls"}
	add := shuffled(r, &s, sh.columns())
	ours := nums.next(pick(r, plainStates))
	var calls []LoggedCall
	for range r.between(1, 6) {
		d := nums.next(pick(r, []string{"FL", "TX", "NY"}))
		for range r.between(1, 5) {
			cells, call := c.callRow(r, sh, d, ours)
			add(cells)
			calls = append(calls, call)
		}
	}
	c.Sheets, c.Calls = []ListSheet{s}, [][]LoggedCall{calls}
	return c
}

// callLogShapeOf draws a log's columns.
func callLogShapeOf(r rng) callLogShape {
	sh := callLogShape{dir: pick(r, optOutDirections)}
	if r.chance(0.35) {
		p := pick(r, [][2]string{{"ANI", "DNIS"}, {"From", "To"}, {"Caller ID", "Called Number"}})
		sh.from, sh.to = p[0], p[1]
	} else {
		sh.number = pick(r, []string{"Phone", "Phone Number", "Number", "Dialed Number", "Lead Phone"})
	}
	if r.chance(0.5) {
		sh.direction = pick(r, []string{"Direction", "Call Direction", "Call Type"})
	}
	if r.chance(0.4) {
		p := pick(r, [][2]string{{"Date", "Time"}, {"Call Date", "Call Time"}, {"Date", "Start Time"}})
		sh.date, sh.clock = p[0], p[1]
	} else {
		sh.when = pick(r, []string{"Call Time", "Start Time", "Timestamp", "Date", "Call Date", "Created At", "Call Start"})
	}
	return sh
}

// columns are the shape's headers.
func (sh callLogShape) columns() []string {
	var cols []string
	for _, h := range []string{sh.number, sh.from, sh.to, sh.direction, sh.when, sh.date, sh.clock, "Disposition", "Agent"} {
		if h != "" {
			cols = append(cols, h)
		}
	}
	return cols
}

// callRow is a call to or from the person d: its cells and its truth.
func (c *CallLogCase) callRow(r rng, sh callLogShape, d, ours string) (map[string]ListCell, LoggedCall) {
	cells := map[string]ListCell{"Disposition": {Text: pick(r, dispoOther)}, "Agent": {Text: pick(r, []string{"Kim", "Lee"})}}
	k, _ := strconv.ParseUint(d, 10, 64)
	call := LoggedCall{Person: k, At: c.At.Add(-time.Duration(r.between(-120, 40*60)) * time.Minute)}
	person := ListCell{Text: phoneFormats[r.IntN(len(phoneFormats))](r, d)}
	if r.chance(0.03) {
		person, call.Person = ListCell{Text: damaged(r, d), Bad: true}, 0
	}
	out := r.chance(0.8)
	if sh.direction != "" {
		cells[sh.direction] = ListCell{Text: sh.dir[0]}
		if out {
			cells[sh.direction] = ListCell{Text: sh.dir[1]}
		}
	}
	if sh.number != "" {
		cells[sh.number] = person
	} else {
		mine := ListCell{Text: phoneFormats[r.IntN(len(phoneFormats))](r, ours)}
		cells[sh.from], cells[sh.to] = person, mine
		if out {
			cells[sh.from], cells[sh.to] = mine, person
		}
	}
	local := call.At.In(c.Zone)
	if sh.when != "" {
		cells[sh.when] = ListCell{Text: c.instant(r, local)}
	} else {
		cells[sh.date] = ListCell{Text: local.Format(pick(r, []string{"2006-01-02", "1/2/2006", "01/02/2006"}))}
		cells[sh.clock] = ListCell{Text: local.Format(pick(r, []string{"15:04", "15:04:05", "3:04 PM"}))}
	}
	return cells, call
}

// instant writes a call's time in one cell, as dialers do: with its zone
// now and then.
func (c *CallLogCase) instant(r rng, local time.Time) string {
	switch r.IntN(6) {
	case 0:
		return local.Format(time.RFC3339)
	case 1:
		return local.UTC().Format("2006-01-02T15:04:05Z")
	case 2:
		return local.Format("1/2/2006 3:04 PM")
	case 3:
		return local.Format("2006-01-02T15:04:05")
	}
	return local.Format("2006-01-02 15:04:05")
}
