package export

import (
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// phoneWindow is a kept phone's calling window on the export's day, in the
// called person's time: "<phone> time zone", "call from", "call until".
type phoneWindow struct {
	zone, from, until string
}

// timeRule places the kept phones and gives their windows; with an instant
// (CallableAt) it also leaves out the phones that may not be called then.
// The answers are calltime.Places's.
type timeRule struct {
	e      *calltime.Engine
	places *calltime.Places
	at     time.Time // CallableAt; zero: no phone is left out for the time rule
	// day is the instant whose date, in each called person's time, the
	// windows are for: CallableAt, or the export's time.
	day time.Time
	// left counts the phones left out per reason (the proof's "windows
	// applied per reason").
	left    map[string]int
	addrID  int32 // the row's addresses' id
	rowRead bool  // addrID is the row's
	// seen keeps each answer in the export's words, by address id and
	// area id: seen[addr][area] is its place in answers + 1 (0: not met).
	seen    [][]int32
	answers []timeAnswer
	// seenVendor keeps those of the phones a DNC vendor said something of,
	// by area id, address id and vendor id.
	seenVendor map[[3]int32]timeAnswer
	// autodialed applies the rows by which any autodialed call needs
	// written consent (FL, OK, MD): the dialing mode autodials.
	autodialed bool
	// calls are the calls made to each number (phone.Key) in the 24 hours
	// up to the instant (CallableAt, or the export's time), from a
	// dialer's call log: a number that reached its states' cap is left out.
	calls map[uint64]int
}

type timeAnswer struct {
	w      phoneWindow
	reason string // "" when callable at the instant (or no instant)
	// autodial is why an autodialed call needs written consent ("": it
	// does not); capLimit and capped the cap of its states and its words.
	autodial string
	capLimit int
	capped   string
}

func newTimeRule(opts *CallableOptions, now time.Time) (*timeRule, error) {
	e := opts.Calltime
	if e == nil {
		var err error
		if e, err = calltime.New(nil); err != nil {
			return nil, err
		}
	}
	day := opts.CallableAt
	if day.IsZero() {
		day = now
	}
	t := &timeRule{e: e, places: calltime.NewPlaces(e), at: opts.CallableAt, day: day, left: map[string]int{},
		seenVendor: map[[3]int32]timeAnswer{}, autodialed: opts.LeaveOutMobiles}
	if len(opts.Calls) > 0 {
		t.calls = make(map[uint64]int, len(opts.Calls))
		for n, c := range opts.Calls {
			if k := phone.Key(n); k != 0 {
				t.calls[k] += c
			}
		}
	}
	return t, nil
}

// clone is a time rule of the same settings with answers of its own, for
// another goroutine.
func (t *timeRule) clone() *timeRule {
	return &timeRule{e: t.e, places: calltime.NewPlaces(t.e), at: t.at, day: t.day, left: map[string]int{},
		seenVendor: map[[3]int32]timeAnswer{}, autodialed: t.autodialed, calls: t.calls}
}

// newRow starts a row: its addresses are read at its first phone.
func (t *timeRule) newRow() { t.rowRead = false }

// check places a phone of a row and gives its window; reason is why it
// may not be called at the instant ("" when it may, or no instant).
func (t *timeRule) check(p *layout.Phone, row *layout.Row) (phoneWindow, string) {
	if !t.rowRead {
		t.addrID, t.rowRead = t.places.AddressID(calltime.RowAddresses(row)), true
	}
	a := t.answerOf(t.places.AreaID(p.Key), t.places.VendorID(p.Vendor))
	if a.reason != "" {
		t.left[a.reason]++
		return a.w, "not callable at " + t.at.Format(time.RFC3339) + ": " + a.reason
	}
	if t.autodialed && a.autodial != "" {
		t.left[a.autodial]++
		return a.w, a.autodial
	}
	if a.capLimit > 0 && t.calls[p.Key] >= a.capLimit {
		t.left[a.capped]++
		return a.w, a.capped
	}
	return a.w, ""
}

// answerOf is the answer for a phone of the row placed by its area id and
// vendor id, from those kept when met before.
func (t *timeRule) answerOf(area, vend int32) timeAnswer {
	if vend != 0 {
		k := [3]int32{area, t.addrID, vend}
		a, ok := t.seenVendor[k]
		if !ok {
			a = t.answer(k)
			t.seenVendor[k] = a
		}
		return a
	}
	if int(t.addrID) >= len(t.seen) {
		t.seen = append(t.seen, make([][]int32, int(t.addrID)+1-len(t.seen))...)
	}
	ids := t.seen[t.addrID]
	if int(area) >= len(ids) {
		ids = append(ids, make([]int32, int(area)+1-len(ids))...)
		t.seen[t.addrID] = ids
	}
	if i := ids[area]; i > 0 {
		return t.answers[i-1]
	}
	a := t.answer([3]int32{area, t.addrID, 0})
	t.answers = append(t.answers, a)
	ids[area] = int32(len(t.answers))
	return a
}

// answer is the answer for a phone placed by ids, in the export's words.
func (t *timeRule) answer(k [3]int32) timeAnswer {
	a := t.places.AnswerVendor(k[0], k[1], k[2], t.day, t.at)
	out := timeAnswer{reason: a.Reason}
	if r := a.Autodial; r != nil {
		out.autodial = fmt.Sprintf("autodialed: written consent needed in %s (%s)", r.State, r.Source)
	}
	if r := a.Cap; r != nil {
		out.capLimit = calltime.CapLimit(r)
		out.capped = fmt.Sprintf("reached the cap of %d calls in 24 hours in %s (%s)", out.capLimit, r.State, r.Source)
	}
	if a.Placed {
		out.w.zone = a.Window.Label()
		if from, until, ok := a.Window.Main(); ok {
			out.w.from, out.w.until = from.String(), until.String()
		}
	}
	return out
}
