package export

import (
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
	// seen keeps each answer in the export's words, by area id and
	// address id.
	seen map[[2]int32]timeAnswer
}

type timeAnswer struct {
	w      phoneWindow
	reason string // "" when callable at the instant (or no instant)
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
	return &timeRule{e: e, places: calltime.NewPlaces(e), at: at, day: day, left: map[string]int{}, seen: map[[2]int32]timeAnswer{}}, nil
}

// newRow starts a row: its addresses are read at its first phone.
func (t *timeRule) newRow() { t.rowRead = false }

// check places a phone of a row and gives its window; reason is why it
// may not be called at the instant ("" when it may, or no instant).
func (t *timeRule) check(p *layout.Phone, row *layout.Row) (phoneWindow, string) {
	if !t.rowRead {
		t.addrID, t.rowRead = t.places.AddressID(calltime.RowAddresses(row)), true
	}
	k := [2]int32{t.places.AreaID(p.Key), t.addrID}
	a, ok := t.seen[k]
	if !ok {
		a = t.answer(k)
		t.seen[k] = a
	}
	if a.reason != "" {
		t.left[a.reason]++
		return a.w, "not callable at " + t.at.Format(time.RFC3339) + ": " + a.reason
	}
	return a.w, ""
}

// answer is the answer for a phone placed by ids, in the export's words.
func (t *timeRule) answer(k [2]int32) timeAnswer {
	a := t.places.Answer(k[0], k[1], t.day, t.at)
	out := timeAnswer{reason: a.Reason}
	if a.Placed {
		out.w.zone = a.Window.Label()
		if from, until, ok := a.Window.Main(); ok {
			out.w.from, out.w.until = from.String(), until.String()
		}
	}
	return out
}
