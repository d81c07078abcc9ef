package calltime

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Narrowing is what a DNC vendor's result says of a phone's calling time:
// a calling window, a UTC offset, "do not call today". Each only narrows
// what the rules allow (the strictest wins); a value that cannot be read
// closes the phone's day instead of being ignored.
type Narrowing struct {
	// Window is the vendor's calling window; in WindowZone when the value
	// named a zone, else in each location's own time.
	Window     *[2]Clock
	WindowZone *time.Location
	// Offset is the UTC offset the vendor gives: the phone is also held to
	// its area-code state's rules at that offset.
	Offset *time.Location
	// NoCallOn are the dates (YYYY-MM-DD, the called person's) the vendor
	// said not to call; "" stands for a date unknown, which closes every day.
	NoCallOn []string
	// Unread are the values that could not be read: they close every day.
	Unread []string
}

// VendorWindow reads a calling-window value ("8:00 AM - 8:00 PM",
// "08:00-20:00", "8am–9pm CST", "0900-2100"). An empty value says nothing
// (ok false, no error).
func VendorWindow(v string) (from, until Clock, zone *time.Location, ok bool, err error) {
	t := strings.ToLower(strings.TrimSpace(v))
	if t == "" {
		return 0, 0, nil, false, nil
	}
	m := windowRE.FindStringSubmatch(t)
	if m == nil {
		return 0, 0, nil, false, fmt.Errorf("calling window %q is not a range of times like 8:00 AM - 8:00 PM", v)
	}
	if from, err = clock12(m[1], m[2], m[3]); err == nil {
		until, err = clock12(m[4], m[5], m[6])
	}
	if err == nil && from >= until {
		err = fmt.Errorf("calling window %q ends before it starts", v)
	}
	if err == nil && m[7] != "" {
		if zone, ok = zoneWords[m[7]]; !ok {
			err = fmt.Errorf("calling window %q names a time zone SkipDesk does not know (%s)", v, m[7])
		}
	}
	if err != nil {
		return 0, 0, nil, false, err
	}
	return from, until, zone, true, nil
}

var windowRE = regexp.MustCompile(`^(\d{1,2})(?::?(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|a|p)?\s*(?:-|–|—|to)\s*(\d{1,2})(?::?(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|a|p)?\s*([a-z ]+)?$`)

// clock12 reads an hour, minutes and an optional am/pm mark.
func clock12(h, m, mark string) (Clock, error) {
	hh, _ := strconv.Atoi(h)
	mm := 0
	if m != "" {
		mm, _ = strconv.Atoi(m)
	}
	if hh > 24 || mm > 59 || hh == 24 && mm > 0 || mark != "" && (hh == 0 || hh > 12) {
		return 0, fmt.Errorf("%s:%02d %s is not a time of day", h, mm, mark)
	}
	switch mark = strings.ReplaceAll(mark, ".", ""); mark {
	case "a", "am":
		if hh == 12 {
			hh = 0
		}
	case "p", "pm":
		if hh < 12 {
			hh += 12
		}
	}
	return Clock(hh*60 + mm), nil
}

// zoneWords are the zone names vendors write after a window.
var zoneWords = func() map[string]*time.Location {
	out := map[string]*time.Location{}
	for zone, words := range map[string][]string{
		"America/New_York":    {"et", "est", "edt", "eastern"},
		"America/Chicago":     {"ct", "cst", "cdt", "central"},
		"America/Denver":      {"mt", "mst", "mdt", "mountain"},
		"America/Phoenix":     {"arizona"},
		"America/Los_Angeles": {"pt", "pst", "pdt", "pacific"},
		"America/Anchorage":   {"akt", "akst", "akdt", "alaska"},
		"Pacific/Honolulu":    {"ht", "hst", "hawaii"},
		"America/Puerto_Rico": {"at", "ast", "atlantic"},
		"UTC":                 {"utc", "gmt"},
	} {
		tz, err := time.LoadLocation(zone)
		if err != nil {
			panic(err) // time/tzdata is linked in: cannot happen
		}
		for _, w := range words {
			out[w] = tz
		}
	}
	return out
}()

// VendorOffset reads a UTC-offset value ("-5", "-05:00", "UTC-5",
// "GMT-0500"). An empty value says nothing (nil, no error).
func VendorOffset(v string) (*time.Location, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	tz, ok := parseOffset(v)
	if !ok {
		return nil, fmt.Errorf("UTC offset %q is not an offset like -05:00", v)
	}
	return tz, nil
}

// VendorNoCall reads a "do not call today" value: yes/y/true/1/x and the
// words "do not call" or "dnc" say not to call; no/n/false/0 and an empty
// value say nothing.
func VendorNoCall(v string) (bool, error) {
	switch t := strings.ToLower(strings.TrimSpace(v)); t {
	case "", "n", "no", "false", "0", "ok", "callable":
		return false, nil
	case "y", "yes", "true", "1", "x", "dnc", "do not call", "do not call today", "no call":
		return true, nil
	}
	return false, fmt.Errorf("\"do not call today\" value %q is neither yes nor no", v)
}

// place adds the vendor's offset as a location of the area code's state.
func (v *Narrowing) place(pl Placement) Placement {
	if v == nil || v.Offset == nil {
		return pl
	}
	state := pl.Locations[0].State
	out := pl
	out.Locations = append(append([]Location(nil), pl.Locations...),
		Location{State: state, Zone: v.Offset.String(), Source: "the DNC vendor's UTC offset", tz: v.Offset})
	out.key = pl.key + state + "@" + v.Offset.String() + ";"
	return out
}

func (v *Narrowing) key() string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v.Window, v.WindowZone, v.NoCallOn, len(v.Unread))
}

// spans is when the vendor allows calls to a location between start and end.
func (v *Narrowing) spans(l Location, start, end time.Time) []Span {
	all := []Span{{start, end}}
	if v == nil {
		return all
	}
	if len(v.Unread) > 0 || contains(v.NoCallOn, "") {
		return nil
	}
	for _, d := range v.NoCallOn {
		all = intersect(all, ruleSpans(&Rule{Kind: KindBan, Days: Days{dates: []string{d}}}, l.tz, start, end))
	}
	if v.Window != nil {
		w := &Rule{Kind: KindWindow, Days: Days{weekdays: 0x7f}, From: v.Window[0], Until: v.Window[1], Clock: v.WindowZone}
		all = intersect(all, ruleSpans(w, l.tz, start, end))
	}
	return all
}

func (v *Narrowing) text(l Location, at time.Time) string {
	lt := at.In(l.tz)
	local := lt.Format("Mon ") + ClockText(lt) + " " + ZoneLabel(l.Zone)
	switch {
	case len(v.Unread) > 0:
		return "the DNC vendor's value could not be read (" + strings.Join(v.Unread, "; ") + "): no hour is known to be lawful"
	case len(v.NoCallOn) > 0 && contains(v.NoCallOn, ""):
		return "the DNC vendor says do not call today, and the day it meant is not known"
	case v.Window != nil:
		return fmt.Sprintf("%s in %s: outside the DNC vendor's window %s–%s, or a day it said not to call", local, placeName(l), v.Window[0], v.Window[1])
	}
	return fmt.Sprintf("%s in %s: the DNC vendor said not to call that day", local, placeName(l))
}

// VendorNarrowing reads what a DNC result's calling-time columns said of a
// phone (layout.VendorTime) into a Narrowing; nil when they say nothing (v
// nil or empty). A
// value that cannot be read is kept in Unread (it closes the phone's day);
// "do not call today" with no date known closes every day.
func VendorNarrowing(v *layout.VendorTime) *Narrowing {
	if v == nil || v.Empty() {
		return nil
	}
	n := &Narrowing{}
	if from, until, zone, ok, err := VendorWindow(v.Window); err != nil {
		n.Unread = append(n.Unread, err.Error())
	} else if ok {
		n.Window, n.WindowZone = &[2]Clock{from, until}, zone
	}
	if tz, err := VendorOffset(v.Offset); err != nil {
		n.Unread = append(n.Unread, err.Error())
	} else {
		n.Offset = tz
	}
	if no, err := VendorNoCall(v.NoCall); err != nil {
		n.Unread = append(n.Unread, err.Error())
	} else if no {
		n.NoCallOn = append(n.NoCallOn, v.Day) // "" when the day is not known: every day
	}
	return n
}
