package calltime

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Engine applies a rules table to phones. It is safe for concurrent use and
// caches each day's window per set of locations.
type Engine struct {
	rules   *Table
	places  *places
	byState map[string][]*Rule // the window and ban rows that apply in each state (AnyState: all)
	federal []*Rule            // the federal window and ban rows: a state without rows of its own
	windows sync.Map           // placement key + date + narrowing → DayWindow
}

// New returns an engine for a rules table (nil: the table SkipDesk ships).
func New(rules *Table) (*Engine, error) {
	p, err := loadPlaces()
	if err != nil {
		return nil, err
	}
	if rules == nil {
		if rules, err = Rules(); err != nil {
			return nil, err
		}
	}
	e := &Engine{rules: rules, places: p, byState: map[string][]*Rule{}}
	e.federal = append(rules.Of(KindWindow, Federal), rules.Of(KindBan, Federal)...)
	for _, r := range rules.Rules {
		if r.Kind != KindWindow && r.Kind != KindBan {
			continue
		}
		e.byState[AnyState] = append(e.byState[AnyState], r)
		if r.State != Federal {
			e.byState[r.State] = append(e.byState[r.State], r)
		}
	}
	for s, rs := range e.byState {
		if s != AnyState {
			e.byState[s] = append(slices.Clip(e.federal), rs...)
		}
	}
	return e, nil
}

// Table is the rules table the engine applies.
func (e *Engine) Table() *Table { return e.rules }

// DataInfo names the numbering data and its version.
func (e *Engine) DataInfo() string { return e.places.dataInfo }

// timeRules are the window and ban rows for a state.
func (e *Engine) timeRules(state string) []*Rule {
	if rs, ok := e.byState[state]; ok {
		return rs
	}
	return e.federal
}

// Reason codes.
const (
	ReasonWindow  = "window"  // outside a calling window
	ReasonBan     = "ban"     // a day with no calls (Sunday, holiday)
	ReasonInvalid = "invalid" // not a valid US number
	ReasonForeign = "foreign" // the area code is outside the United States
	ReasonVendor  = "vendor"  // the DNC vendor's window, offset or "do not call today"
)

// Reason is why a phone may not be called at an instant.
type Reason struct {
	Code     string
	Location Location  // the location whose rule refuses (zero for invalid, foreign)
	Rule     *Rule     // the refusing row (nil for invalid, foreign, vendor)
	Local    time.Time // the instant in the location's time
	Text     string    // one line a person reads
}

// Decision says whether a phone may be called at an instant.
type Decision struct {
	At        time.Time
	Callable  bool
	Reasons   []Reason // why not; empty when callable
	Placement Placement
	Window    DayWindow // the lawful stretches of the instant's day, in the called person's time
}

// Window decides whether the phone may be called at the instant, from its
// number and the owner's addresses.
func (e *Engine) Window(number string, addrs []Address, at time.Time) Decision {
	return e.Decide(e.Locate(number, addrs), at, nil)
}

// Decide decides for a placed phone, with what a DNC vendor said of it (nil
// when nothing).
func (e *Engine) Decide(pl Placement, at time.Time, v *Narrowing) Decision {
	d := Decision{At: at, Placement: pl}
	switch {
	case pl.Invalid != "":
		d.Reasons = []Reason{{Code: ReasonInvalid, Text: "not a valid US number: " + pl.Invalid}}
		return d
	case pl.Foreign != "":
		d.Reasons = []Reason{{Code: ReasonForeign, Text: fmt.Sprintf("area code %s is outside the United States (%s): its rules are not in the table", pl.Number[:3], pl.Foreign)}}
		return d
	}
	pl = v.place(pl)
	d.Window = e.dayWindow(pl, v, at.In(pl.Locations[0].tz).Format(time.DateOnly))
	d.Callable = d.Window.Contains(at)
	if !d.Callable {
		d.Reasons = e.reasons(pl, at, v)
	}
	return d
}

// DailyWindow is the window a phone's rules leave open on a date (YYYY-MM-DD
// in the called person's time: the zone of its first location).
func (e *Engine) DailyWindow(pl Placement, date string, v *Narrowing) DayWindow {
	if pl.Invalid != "" || pl.Foreign != "" {
		return DayWindow{Date: date}
	}
	return e.dayWindow(v.place(pl), v, date)
}

func (e *Engine) dayWindow(pl Placement, v *Narrowing, date string) DayWindow {
	key := pl.key + "|" + date + "|" + v.key()
	if w, ok := e.windows.Load(key); ok {
		return w.(DayWindow)
	}
	ref := pl.Locations[0].tz
	day, _ := time.ParseInLocation(time.DateOnly, date, ref)
	y, m, dd := day.Date()
	start, end := time.Date(y, m, dd, 0, 0, 0, 0, ref), time.Date(y, m, dd+1, 0, 0, 0, 0, ref)
	spans := []Span{{start, end}}
	for _, l := range pl.Locations {
		for _, r := range e.timeRules(l.State) {
			spans = intersect(spans, ruleSpans(r, l.tz, start, end))
		}
		spans = intersect(spans, v.spans(l, start, end))
	}
	w := DayWindow{Zone: pl.Locations[0].Zone, Date: date, Spans: spans, tz: ref}
	e.windows.Store(key, w)
	return w
}

// reasons lists every rule refusing the instant, location by location.
func (e *Engine) reasons(pl Placement, at time.Time, v *Narrowing) []Reason {
	var out []Reason
	for _, l := range pl.Locations {
		for _, r := range e.timeRules(l.State) {
			if !allows(ruleSpans(r, l.tz, at, at.Add(time.Nanosecond))) {
				out = append(out, refusal(l, r, at))
			}
		}
		if !allows(v.spans(l, at, at.Add(time.Nanosecond))) {
			out = append(out, Reason{Code: ReasonVendor, Location: l, Local: at.In(l.tz), Text: v.text(l, at)})
		}
	}
	if len(out) == 0 {
		// Every stretch ends where some rule's begins: an instant on the
		// boundary is refused by the window, not by one rule alone.
		out = append(out, Reason{Code: ReasonWindow, Text: "outside the calling window at " + at.Format(time.RFC3339)})
	}
	return out
}

func allows(spans []Span) bool { return len(spans) > 0 }

func refusal(l Location, r *Rule, at time.Time) Reason {
	tz := l.tz
	if r.Clock != nil {
		tz = r.Clock
	}
	local := at.In(tz)
	where := placeName(l)
	rs := Reason{Location: l, Rule: r, Local: local}
	when := local.Format("Mon ") + ClockText(local) + " " + ZoneLabel(tz.String())
	switch r.Kind {
	case KindBan:
		rs.Code = ReasonBan
		what := r.Note
		if r.Days.weekdays != 0 {
			what = "no calls on " + local.Weekday().String()
		}
		rs.Text = fmt.Sprintf("%s in %s (%s): %s (%s)", when, where, l.Source, what, r.Source)
	default:
		rs.Code = ReasonWindow
		rs.Text = fmt.Sprintf("%s in %s (%s): outside %s–%s (%s)", when, where, l.Source, r.From, r.Until, r.Source)
	}
	return rs
}

func placeName(l Location) string {
	if l.State == AnyState {
		return "an unknown place"
	}
	return l.State
}

// Span is a lawful stretch of time, from inclusive, to exclusive.
type Span struct{ From, To time.Time }

// DayWindow is what a day leaves open for a phone.
type DayWindow struct {
	Zone  string // the IANA zone the window is read in (the called person's, first location)
	Date  string // YYYY-MM-DD in Zone
	Spans []Span // lawful stretches, in order; none when the day is closed
	tz    *time.Location
}

// Open says whether any time of the day is lawful.
func (w DayWindow) Open() bool { return len(w.Spans) > 0 }

// Contains says whether the instant is lawful.
func (w DayWindow) Contains(t time.Time) bool {
	for _, s := range w.Spans {
		if !t.Before(s.From) && t.Before(s.To) {
			return true
		}
	}
	return false
}

// Main is the longest stretch (the first of equals), in Zone's local clock:
// the "call from" and "call until" of an export. ok is false on a closed day.
func (w DayWindow) Main() (from, until Clock, ok bool) {
	s, ok := w.main()
	if !ok {
		return 0, 0, false
	}
	return clockIn(s.From, w.tz, w.Date), clockIn(s.To, w.tz, w.Date), true
}

// main is the longest stretch (the first of equals); false on a closed day.
func (w DayWindow) main() (Span, bool) {
	best := -1
	for i, s := range w.Spans {
		if best < 0 || s.To.Sub(s.From) > w.Spans[best].To.Sub(w.Spans[best].From) {
			best = i
		}
	}
	if best < 0 {
		return Span{}, false
	}
	return w.Spans[best], true
}

// Label is the zone's short name ("CT").
func (w DayWindow) Label() string { return ZoneLabel(w.Zone) }

// String reads "8:00–20:00 CT" (or "closed").
func (w DayWindow) String() string {
	from, until, ok := w.Main()
	if !ok {
		return "no lawful hour on " + w.Date
	}
	return fmt.Sprintf("%s–%s %s", from, until, w.Label())
}

// meridiem writes AM and PM as people do.
var meridiem = strings.NewReplacer(" AM", " a.m.", " PM", " p.m.")

// ClockText reads a time of day as people write it: "7:42 p.m.".
func ClockText(t time.Time) string { return meridiem.Replace(t.Format("3:04 PM")) }

// clockIn is the local clock of t; the end of the day is 24:00.
func clockIn(t time.Time, tz *time.Location, date string) Clock {
	lt := t.In(tz)
	if lt.Format(time.DateOnly) != date {
		return 24 * 60
	}
	return Clock(lt.Hour()*60 + lt.Minute())
}

// ruleSpans is when a window or ban row allows calls between start and end:
// on a day it covers (and is in force), a window's from–until or nothing for
// a ban; any other day whole. Days are the location's (or the row's clock).
func ruleSpans(r *Rule, tz *time.Location, start, end time.Time) []Span {
	if r.Clock != nil {
		tz = r.Clock
	}
	var out []Span
	s := start.In(tz)
	y, m, d := s.Date()
	for day := time.Date(y, m, d, 0, 0, 0, 0, tz); day.Before(end); day = time.Date(y, m, d+1, 0, 0, 0, 0, tz) {
		y, m, d = day.Date()
		next := time.Date(y, m, d+1, 0, 0, 0, 0, tz)
		date := day.Format(time.DateOnly)
		switch {
		case !r.InForce(date) || !r.Days.Has(date, day.Weekday()):
			out = appendSpan(out, day, next)
		case r.Kind == KindWindow:
			out = appendSpan(out, clockOn(day, r.From), clockOn(day, r.Until))
		}
	}
	return intersect(out, []Span{{start, end}})
}

// clockOn is the clock on a day in the day's zone (24:00 is the next midnight).
func clockOn(day time.Time, c Clock) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, int(c)/60, int(c)%60, 0, 0, day.Location())
}

// appendSpan adds a span, joining it to the last when they touch.
func appendSpan(spans []Span, from, to time.Time) []Span {
	if n := len(spans); n > 0 && !spans[n-1].To.Before(from) {
		if to.After(spans[n-1].To) {
			spans[n-1].To = to
		}
		return spans
	}
	return append(spans, Span{from, to})
}

// intersect returns the stretches in both lists (each ordered, disjoint).
func intersect(a, b []Span) []Span {
	var out []Span
	for i, j := 0, 0; i < len(a) && j < len(b); {
		from, to := later(a[i].From, b[j].From), earlier(a[i].To, b[j].To)
		if from.Before(to) {
			out = append(out, Span{from, to})
		}
		if a[i].To.Before(b[j].To) {
			i++
		} else {
			j++
		}
	}
	return out
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// zoneLabels are the short names people read.
var zoneLabels = map[string]string{
	"America/New_York": "ET", "America/Detroit": "ET", "America/Toronto": "ET",
	"America/Chicago": "CT", "America/North_Dakota/Center": "CT", "America/Winnipeg": "CT",
	"America/Denver": "MT", "America/Boise": "MT", "America/Edmonton": "MT", "America/Phoenix": "MST (Arizona)",
	"America/Los_Angeles": "PT", "America/Vancouver": "PT", "America/Anchorage": "AKT", "America/Juneau": "AKT",
	"America/Adak": "HAT", "Pacific/Honolulu": "HT", "America/Puerto_Rico": "AT", "America/St_Thomas": "AT",
	"Pacific/Guam": "ChT", "Pacific/Saipan": "ChT", "Pacific/Pago_Pago": "SST",
}

// ZoneLabel is a zone's short name ("CT"), or the name itself.
func ZoneLabel(zone string) string {
	if l, ok := zoneLabels[zone]; ok {
		return l
	}
	return strings.TrimPrefix(zone, "America/")
}

// Location is the location's time zone.
func (l Location) Location() *time.Location { return l.tz }

// Summary is the reason in a few words that are the same for every phone it
// refuses, to count phones by: "calling hours FL 08:00–20:00", "calling
// hours (federal) 08:00–21:00", "no calls on Sunday in AL", "no calls on
// Thanksgiving Day in LA".
func (r Reason) Summary() string {
	switch {
	case r.Rule == nil:
		return r.Text
	case r.Rule.Kind == KindBan && r.Rule.Days.weekdays != 0:
		return "no calls on " + r.Local.Weekday().String() + " in " + placeName(r.Location)
	case r.Rule.Kind == KindBan:
		day := r.Rule.Note
		for _, sep := range []string{" (", ": ", "; "} {
			day, _, _ = strings.Cut(day, sep)
		}
		return "no calls on " + day + " in " + placeName(r.Location)
	}
	place := placeName(r.Location)
	if r.Rule.State == Federal {
		place = "(federal)" // the same wherever it applies
	}
	hours := fmt.Sprintf("calling hours %s %s–%s", place, r.Rule.From, r.Rule.Until)
	if r.Rule.ClockName != "" {
		hours += " " + r.Rule.ClockName
	}
	return hours
}
