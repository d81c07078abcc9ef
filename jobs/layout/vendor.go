package layout

import (
	"strings"
	"time"
)

// What a DNC vendor says of a phone's calling time, beside its flags: a
// calling window ("8:00 AM - 8:00 PM CST"), the called person's UTC offset
// ("-6"), "do not call today". The layout reads them as the vendor wrote
// them (RoleCallWindow, RoleUTCOffset, RoleNoCallToday); jobs/calltime
// reads the values and narrows the phone's window with them (the strictest
// wins; a value it cannot read closes the phone's day).

// VendorTime is a DNC vendor's calling-time values for a phone, as written;
// Day is the date (YYYY-MM-DD) its "today" means: the day of the scrub that
// answered ("" when not known).
type VendorTime struct {
	Window, Offset, NoCall string
	Day                    string
}

// Empty reports values that say nothing.
func (v VendorTime) Empty() bool { return v.Window == "" && v.Offset == "" && v.NoCall == "" }

// vendorHeaders are the headers of each calling-time role, lower case with
// single spaces, punctuation as spaces.
var vendorHeaders = map[Role][]string{
	RoleCallWindow: {"calling window", "call window", "calling hours", "call hours", "calling time window",
		"safe calling window", "safe call window", "safe calling hours", "time window", "call time window"},
	RoleUTCOffset: {"utc offset", "gmt offset", "utc", "timezone offset", "time zone offset", "tz offset", "utc offset hours",
		"gmt"},
	RoleNoCallToday: {"do not call today", "dnc today", "no call today", "dont call today", "don t call today",
		"do not call now", "no calls today"},
}

// vendorRole is the calling-time role a header names, "" none.
func vendorRole(raw string) Role {
	h := strings.ToLower(strings.TrimPrefix(raw, "\ufeff"))
	h = strings.Join(strings.FieldsFunc(h, func(r rune) bool {
		return r == ' ' || r == '_' || r == '-' || r == '.' || r == '/' || r == '\'' || r == '(' || r == ')' || r == ':'
	}), " ")
	for role, names := range vendorHeaders {
		for _, n := range names {
			// The name alone, or after a phone's ("Phone 1 Calling Window").
			if h == n || len(n) > 4 && strings.HasSuffix(h, " "+n) && strings.HasPrefix(h, "phone") {
				return role
			}
		}
	}
	return ""
}

// vendorTimeRule gives a calling-time column its role (before the flag
// words: "Do Not Call Today" is not the DNC flag).
func vendorTimeRule(c Column, h *header, _ []ValueN) (Column, *Question, bool) {
	if r := vendorRole(h.raw); r != "" {
		c.Role = r
		return c, nil, true
	}
	return c, nil, false
}

// readVendor reads a row's calling-time values, dated by the row's date
// (nil when they say nothing).
func (r *Reader) readVendor(rec []string, date time.Time) *VendorTime {
	var v VendorTime
	for _, c := range r.l.VendorTime {
		val := strings.TrimSpace(cell(rec, c))
		if val == "" {
			continue
		}
		switch r.l.Columns[c].Role {
		case RoleCallWindow:
			v.Window = joinValue(v.Window, val)
		case RoleUTCOffset:
			v.Offset = joinValue(v.Offset, val)
		case RoleNoCallToday:
			v.NoCall = joinValue(v.NoCall, val)
		}
	}
	if v.Empty() {
		return nil
	}
	if !date.IsZero() {
		v.Day = date.UTC().Format(time.DateOnly)
	}
	return &v
}

// joinValue keeps a second column's different value beside the first: two
// values that disagree cannot be read as one, and close the day.
func joinValue(a, b string) string {
	if a == "" || a == b {
		return b
	}
	return a + " / " + b
}
