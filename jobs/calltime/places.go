package calltime

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Places answers for many phones at once — the viewer's "Callable now",
// the export's windows — placing each distinct pair of an area code's key
// and a row's addresses' keys once: two phones with equal keys are placed
// alike and get the same windows (AreaKey, AddressKey). Ids stand for the
// keys; the answers are kept per day or instant asked. Safe for concurrent
// use.
type Places struct {
	e *Engine

	mu       sync.Mutex
	areaIDs  map[uint64]int32 // area code and exchange (digits / 10⁴) → area id
	areaKeys map[AreaKey]int32
	areaNums []string // a number of each area id
	addrIDs  map[[2]AddressKey]int32
	addrs    [][2]Address // the addresses of each address id
	// keyIDs number the keys of one address met (AddressKey); read gives
	// the number + 1 of each text's (addressText.memo: by state, a table
	// by ZIP prefix); pairIDs give two of those numbers their address id.
	// A row's addresses are placed from their text once per distinct text.
	keyIDs  map[AddressKey]uint32
	keys    []AddressKey
	read    map[uint32][]uint32
	pairIDs map[uint64]int32
	answers map[placesAsk]Answer
	// vendIDs are the DNC vendors' calling-time values met, vends their
	// narrowings (id 0: none).
	vendIDs map[layout.VendorTime]int32
	vends   []*Narrowing
}

// placesAsk is a question put to Places: an area id, an address id, the
// day of the windows and the instant (zero: none).
type placesAsk struct {
	area, addr, vend int32
	day, at          int64 // Unix seconds; at 0: no instant
}

// Answer is a phone's calling time: its window on a day, in the called
// person's time, and, at an instant, why it may not be called then ("" when
// it may, or when no instant was asked).
type Answer struct {
	Window DayWindow
	Reason string
	// Placed is false for a number that is not valid or not in the United
	// States: it has no window.
	Placed bool
	// Cap is the strictest calls-per-24-hours row of its states (nil: none);
	// Autodial the row by which an autodialed call to it needs written
	// consent on the day (nil: none).
	Cap, Autodial *Rule
}

// maxAnswers bounds the answers kept: past it, they are made again.
const maxAnswers = 1 << 16

// NewPlaces returns an empty cache over e's rules.
func NewPlaces(e *Engine) *Places {
	return &Places{e: e, areaIDs: map[uint64]int32{}, areaKeys: map[AreaKey]int32{}, addrIDs: map[[2]AddressKey]int32{},
		keyIDs: map[AddressKey]uint32{}, read: map[uint32][]uint32{}, pairIDs: map[uint64]int32{},
		answers: map[placesAsk]Answer{}, vendIDs: map[layout.VendorTime]int32{}, vends: []*Narrowing{nil}}
}

// Engine is the rules the answers come from.
func (p *Places) Engine() *Engine { return p.e }

// AreaID is the id of a number's area key (phone.Key digits; 0 for a
// number that is not valid).
func (p *Places) AreaID(digits uint64) int32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	area := digits / 1e4
	if id, ok := p.areaIDs[area]; ok {
		return id
	}
	k := p.e.AreaKey(digits)
	id, ok := p.areaKeys[k]
	if !ok {
		id = int32(len(p.areaNums))
		p.areaKeys[k] = id
		p.areaNums = append(p.areaNums, numberOf(digits))
	}
	p.areaIDs[area] = id
	return id
}

func numberOf(digits uint64) string {
	if digits == 0 {
		return ""
	}
	return phone.KeyDigits(digits)
}

// AddressID is the id of a row's addresses' keys (RowAddresses).
func (p *Places) AddressID(addrs [2]Address) int32 {
	t0, t1 := p.e.addressText(addrs[0]), p.e.addressText(addrs[1])
	p.mu.Lock()
	defer p.mu.Unlock()
	k0, ok0 := p.keyID(t0)
	k1, ok1 := p.keyID(t1)
	if !ok0 || !ok1 {
		return p.addressID(addrs, [2]AddressKey{p.e.addressKey(p.e.readPlace(t0)), p.e.addressKey(p.e.readPlace(t1))})
	}
	pair := uint64(k0)<<32 | uint64(k1)
	id, ok := p.pairIDs[pair]
	if !ok {
		id = p.addressID(addrs, [2]AddressKey{p.keys[k0], p.keys[k1]})
		p.pairIDs[pair] = id
	}
	return id
}

// keyID is the number of the key of an address whose text is t (false
// when its text has no memo).
func (p *Places) keyID(t addressText) (uint32, bool) {
	state, zip, ok := t.memo()
	if !ok {
		return 0, false
	}
	ids := p.read[state]
	if ids == nil {
		ids = make([]uint32, zipSlots)
		p.read[state] = ids
	}
	if id := ids[zip]; id != 0 {
		return id - 1, true
	}
	k := p.e.addressKey(p.e.readPlace(t))
	id, ok := p.keyIDs[k]
	if !ok {
		id = uint32(len(p.keys))
		p.keyIDs[k] = id
		p.keys = append(p.keys, k)
	}
	ids[zip] = id + 1
	return id, true
}

// addressID is the id of a row's addresses' keys k.
func (p *Places) addressID(addrs [2]Address, k [2]AddressKey) int32 {
	id, ok := p.addrIDs[k]
	if !ok {
		id = int32(len(p.addrs))
		p.addrIDs[k] = id
		p.addrs = append(p.addrs, addrs)
	}
	return id
}

// VendorID is the id of what a DNC vendor said of a phone's calling time
// (0 when it said nothing: v nil or empty).
func (p *Places) VendorID(v *layout.VendorTime) int32 {
	if v == nil || v.Empty() {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id, ok := p.vendIDs[*v]
	if !ok {
		id = int32(len(p.vends))
		p.vendIDs[*v] = id
		p.vends = append(p.vends, VendorNarrowing(v))
	}
	return id
}

// Answer is the calling time of a phone placed by ids: its window on the
// date of day in the called person's time, and at, when not zero, the
// first reason it may not be called then.
func (p *Places) Answer(area, addr int32, day, at time.Time) Answer {
	return p.AnswerVendor(area, addr, 0, day, at)
}

// AnswerVendor is Answer narrowed by what a DNC vendor said of the phone
// (VendorID; 0 nothing).
func (p *Places) AnswerVendor(area, addr, vend int32, day, at time.Time) Answer {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := placesAsk{area: area, addr: addr, vend: vend, day: day.Unix()}
	if !at.IsZero() {
		q.at = at.Unix()
	}
	if a, ok := p.answers[q]; ok {
		return a
	}
	if len(p.answers) >= maxAnswers {
		clear(p.answers)
	}
	a := p.answer(area, addr, p.vends[vend], day, at)
	p.answers[q] = a
	return a
}

func (p *Places) answer(area, addr int32, v *Narrowing, day, at time.Time) Answer {
	addrs := p.addrs[addr]
	pl := p.e.Locate(p.areaNums[area], addrs[:])
	if pl.Invalid != "" || pl.Foreign != "" {
		if at.IsZero() {
			return Answer{} // no window to give; without an instant nothing is refused for it
		}
		return Answer{Reason: p.e.Decide(pl, at, v).Reasons[0].Summary()}
	}
	date := day.In(pl.Locations[0].Location()).Format(time.DateOnly)
	a := Answer{Window: p.e.DailyWindow(pl, date, v), Placed: true, Cap: p.e.CapOf(pl), Autodial: p.e.AutodialConsent(pl, date)}
	if !at.IsZero() {
		if d := p.e.Decide(pl, at, v); !d.Callable {
			a.Reason = d.Reasons[0].Summary()
		}
	}
	return a
}

// Words say a phone's calling time at instant at (the instant it was
// answered for), in the called person's time, the hours first and the rule
// that refuses last: "Callable 8 a.m.–8 p.m. CT · now 7:42 p.m.", "Not now:
// callable 8 a.m.–8 p.m. ET · now 8:15 p.m. (calling hours FL
// 08:00–20:00)", "No calls today (no calls on Sunday in AL) · now 10 a.m.
// CT". listsClear says whether the lists let the phone be called at all:
// without it the hours are only hours ("Hours 8 a.m.–8 p.m. CT", "Outside
// hours …"), never "callable".
func (a Answer) Words(at time.Time, listsClear bool) string {
	if !a.Placed {
		if a.Reason != "" {
			return "No calling window: " + a.Reason
		}
		return "No calling window: the number is not a US number"
	}
	w := a.Window
	now := "now " + clockWords(at.In(w.tz))
	span, open := w.main()
	switch {
	case !open:
		return "No calls today (" + a.Reason + ") · " + now + " " + w.Label()
	case a.Reason == "" && listsClear:
		return "Callable " + spanWords(span, w) + " · " + now
	case a.Reason == "":
		return "Hours " + spanWords(span, w) + " · " + now
	case listsClear:
		return "Not now: callable " + spanWords(span, w) + " · " + now + " (" + a.Reason + ")"
	}
	return "Outside hours " + spanWords(span, w) + " · " + now + " (" + a.Reason + ")"
}

// spanWords is "8 a.m.–8 p.m. CT".
func spanWords(s Span, w DayWindow) string {
	return clockWords(s.From.In(w.tz)) + "–" + clockWords(s.To.In(w.tz)) + " " + w.Label()
}

// clockWords reads a time of day as people write it: "8 a.m.", "7:42 p.m.".
func clockWords(t time.Time) string {
	if t.Minute() == 0 {
		return strings.NewReplacer(" AM", " a.m.", " PM", " p.m.").Replace(t.Format("3 PM"))
	}
	return ClockText(t)
}

// RowAddresses are a row's property and mailing addresses as the rules
// read them. A one-line address gives its state and ZIP from its end
// ("…, Pensacola, FL 32501"); one that names neither counts as a place not
// known.
func RowAddresses(row *layout.Row) [2]Address {
	var out [2]Address
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
		out[i] = Address{Kind: a.kind, State: state, ZIP: zip}
	}
	return out
}

var stateZipRE = regexp.MustCompile(`\b([A-Za-z]{2})\.?,?\s+(\d{5})(?:-\d{4})?\s*$`)
