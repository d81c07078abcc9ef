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
	// seen caches the answer for phones placed alike: by the id of their
	// area code's key and of their row's addresses' keys.
	seen     map[[2]int32]timeAnswer
	areaIDs  map[uint64]int32 // area code and exchange → id of its key
	areaKeys map[calltime.AreaKey]int32
	addrIDs  map[[2]calltime.AddressKey]int32
	addrs    [2]calltime.Address
	addrID   int32 // the row's addresses' id
	rowRead  bool  // addrs and addrID are the row's
}

type timeAnswer struct {
	w      phoneWindow
	reason string // "" when callable at the instant (or no instant)
}

// maxSeen bounds the cache: past it, it starts again.
const maxSeen = 1 << 16

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
	return &timeRule{e: e, at: at, day: day, left: map[string]int{}, seen: map[[2]int32]timeAnswer{}, areaIDs: map[uint64]int32{},
		areaKeys: map[calltime.AreaKey]int32{}, addrIDs: map[[2]calltime.AddressKey]int32{}}, nil
}

// newRow starts a row: its addresses are read at its first phone.
func (t *timeRule) newRow() { t.rowRead = false }

// key is the cache key of a phone of the row.
func (t *timeRule) key(p *layout.Phone, row *layout.Row) [2]int32 {
	if !t.rowRead {
		if len(t.addrIDs) >= maxSeen {
			clear(t.addrIDs)
			clear(t.seen) // its keys name ids given again
		}
		rowAddresses(row, &t.addrs)
		t.addrID = intern(t.addrIDs, [2]calltime.AddressKey{t.e.AddressKey(t.addrs[0]), t.e.AddressKey(t.addrs[1])})
		t.rowRead = true
	}
	area := p.Key / 1e4
	id, ok := t.areaIDs[area]
	if !ok {
		id = intern(t.areaKeys, t.e.AreaKey(p.Key))
		t.areaIDs[area] = id
	}
	return [2]int32{id, t.addrID}
}

// intern gives a key a small id, the same for equal keys.
func intern[K comparable](ids map[K]int32, k K) int32 {
	id, ok := ids[k]
	if !ok {
		id = int32(len(ids))
		ids[k] = id
	}
	return id
}

// check places a phone of a row and gives its window; reason is why it
// may not be called at the instant ("" when it may, or no instant).
func (t *timeRule) check(p *layout.Phone, row *layout.Row) (phoneWindow, string) {
	k := t.key(p, row)
	a, ok := t.seen[k]
	if !ok {
		if len(t.seen) >= maxSeen {
			clear(t.seen)
		}
		a.w, a.reason = t.answer(p)
		t.seen[k] = a
	}
	if a.reason != "" {
		t.left[a.reason]++
		return a.w, "not callable at " + t.at.Format(time.RFC3339) + ": " + a.reason
	}
	return a.w, ""
}

// answer places a phone (with the row's addresses in t.addrs) and gives
// its window and, at the instant, the first reason it may not be called.
func (t *timeRule) answer(p *layout.Phone) (w phoneWindow, reason string) {
	pl := t.e.Locate(p.Digits(), t.addrs[:])
	if pl.Invalid != "" || pl.Foreign != "" {
		if t.at.IsZero() {
			return w, "" // no window to give; without an instant nothing is left out for it
		}
		return w, t.e.Decide(pl, t.at, nil).Reasons[0].Summary()
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
		reason = d.Reasons[0].Summary()
	}
	return w, reason
}

// mustZone is the zone of a placed phone's first location.
func mustZone(pl calltime.Placement) *time.Location { return pl.Locations[0].Location() }

// rowAddresses are the row's property and mailing addresses as the time
// rule reads them. A one-line address gives its state and ZIP from its end
// ("…, Pensacola, FL 32501"); one that names neither counts as a place not
// known.
func rowAddresses(row *layout.Row, out *[2]calltime.Address) {
	for i, a := range [2]struct {
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
		out[i] = calltime.Address{Kind: a.kind, State: state, ZIP: zip}
	}
}

var stateZipRE = regexp.MustCompile(`\b([A-Za-z]{2})\.?,?\s+(\d{5})(?:-\d{4})?\s*$`)
