package export

import (
	"regexp"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// phoneWindow is a kept phone's calling window on the export's day, in the
// called person's time: "<phone> time zone", "call from", "call until".
type phoneWindow struct {
	zone, from, until string
}

// timeRule places the kept phones and gives their windows; with an instant
// (CallableAt) it also leaves out the phones that may not be called then.
type timeRule struct {
	e  *calltime.Engine
	at time.Time // CallableAt; zero: no phone is left out for the time rule
	// day is the instant whose date, in each called person's time, the
	// windows are for: CallableAt, or the export's time.
	day time.Time
	// left counts the phones left out per reason (the proof's "windows
	// applied per reason").
	left map[string]int
}

func newTimeRule(e *calltime.Engine, at, now time.Time) (*timeRule, error) {
	if e == nil {
		var err error
		if e, err = calltime.New(nil); err != nil {
			return nil, err
		}
	}
	day := at
	if day.IsZero() {
		day = now
	}
	return &timeRule{e: e, at: at, day: day, left: map[string]int{}}, nil
}

// check places a phone of a row and gives its window; reason is why it
// may not be called at the instant ("" when it may, or no instant).
func (t *timeRule) check(p *layout.Phone, row *layout.Row) (w phoneWindow, reason string) {
	pl := t.e.Locate(p.Digits(), rowAddresses(row))
	if pl.Invalid != "" || pl.Foreign != "" {
		if t.at.IsZero() {
			return w, "" // no window to give; without an instant nothing is left out for it
		}
		d := t.e.Decide(pl, t.at, nil)
		t.left[d.Reasons[0].Summary()]++
		return w, "not callable at " + t.at.Format(time.RFC3339) + ": " + d.Reasons[0].Summary()
	}
	tz := pl.Locations[0].Zone
	date := t.day.In(mustZone(pl)).Format(time.DateOnly)
	dw := t.e.DailyWindow(pl, date, nil)
	w.zone = calltime.ZoneLabel(tz)
	if from, until, ok := dw.Main(); ok {
		w.from, w.until = from.String(), until.String()
	}
	if t.at.IsZero() {
		return w, ""
	}
	if d := t.e.Decide(pl, t.at, nil); !d.Callable {
		reason = "not callable at " + t.at.Format(time.RFC3339) + ": " + d.Reasons[0].Summary()
		t.left[d.Reasons[0].Summary()]++
	}
	return w, reason
}

// mustZone is the zone of a placed phone's first location.
func mustZone(pl calltime.Placement) *time.Location { return pl.Locations[0].Location() }

// rowAddresses are the row's property and mailing addresses as the time
// rule reads them. A one-line address gives its state and ZIP from its end
// ("…, Pensacola, FL 32501"); one that names neither counts as a place not
// known.
func rowAddresses(row *layout.Row) []calltime.Address {
	var out []calltime.Address
	for _, a := range []struct {
		kind string
		addr *layout.Address
	}{{"property", &row.Property}, {"mailing", &row.Mailing}} {
		state, zip := a.addr.State, a.addr.Zip
		if state == "" && zip == "" && strings.TrimSpace(a.addr.Full) != "" {
			if m := stateZipRE.FindStringSubmatch(a.addr.Full); m != nil {
				state, zip = m[1], m[2]
			} else {
				state = "?" // an address SkipDesk cannot place
			}
		}
		out = append(out, calltime.Address{Kind: a.kind, State: state, ZIP: zip})
	}
	return out
}

var stateZipRE = regexp.MustCompile(`\b([A-Za-z]{2})\.?,?\s+(\d{5})(?:-\d{4})?\s*$`)
