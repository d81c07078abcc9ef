package calltime

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Address is an owner's address as far as placing a phone goes.
type Address struct {
	Kind  string // "property" or "mailing": named in reasons
	State string // a postal code or a state's name
	ZIP   string
}

// AnyState is the State of a location nothing could place: every state's
// rules apply there.
const AnyState = "*"

// unknownZones are the zones a phone that cannot be placed is held to: the
// zones of the states, DC, Puerto Rico and the US Virgin Islands.
var unknownZones = []string{
	"America/Puerto_Rico", "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
	"America/Los_Angeles", "America/Anchorage", "America/Adak", "Pacific/Honolulu",
}

// Location is one place a called person may be.
type Location struct {
	State  string // postal code; AnyState when the phone could not be placed
	Zone   string // IANA zone, or a fixed offset a vendor gave ("UTC-05:00")
	Source string // what placed it: "area code 850, exchange 432", "mailing ZIP 32501"…
	tz     *time.Location
}

// Placement is where a phone's called person may be.
type Placement struct {
	Number    string // the 10 digits; "" when the number is not valid
	Invalid   string // why the number is not a valid US number
	Foreign   string // the region when the area code is outside the US and its territories ("CA", "JM")
	AreaCode  *AreaCode
	Unknown   bool // nothing placed it: every state's rules in every zone
	Locations []Location
	key       string // the set of locations, for caching windows
}

// Zones lists the distinct zones of the placement, in order.
func (p *Placement) Zones() []string {
	var out []string
	for _, l := range p.Locations {
		if !contains(out, l.Zone) {
			out = append(out, l.Zone)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Locate places a phone from its number and the owner's addresses.
func (e *Engine) Locate(number string, addrs []Address) Placement {
	var pl Placement
	n := phone.Normalize(number)
	if !n.Valid {
		pl.Invalid = n.Reason
		return pl
	}
	pl.Number = n.Digits
	e.placeAreaCode(&pl)
	for _, a := range addrs {
		e.placeAddress(&pl, a)
	}
	if len(pl.Locations) == 0 && pl.Foreign == "" {
		pl.Unknown = true
		e.addZones(&pl, AnyState, unknownZones, "location unknown")
	}
	var key strings.Builder
	for _, l := range pl.Locations {
		key.WriteString(l.State + "@" + l.Zone + ";")
	}
	pl.key = key.String()
	return pl
}

func (e *Engine) placeAreaCode(pl *Placement) {
	npa, _ := strconv.Atoi(pl.Number[:3])
	nxx, _ := strconv.Atoi(pl.Number[3:6])
	ac, zones, exchange := e.area(npa, nxx)
	pl.AreaCode = ac
	switch {
	case ac == nil:
		return // not an area code in use: the addresses (or nothing) place it
	case ac.State == "":
		if ac.Region != Federal {
			pl.Foreign = ac.Region
		}
		return // non-geographic (toll-free, personal) or outside the US
	}
	source := fmt.Sprintf("area code %03d", npa)
	if exchange {
		source = fmt.Sprintf("area code %03d, exchange %03d", npa, nxx)
	}
	e.addZones(pl, ac.State, zones, source)
}

// area is what an area code and exchange say: the code's record and the
// zones (the exchange's when the code spans zones and the data lists it).
func (e *Engine) area(npa, nxx int) (ac *AreaCode, zones []string, exchange bool) {
	ac = e.places.codes[npa]
	if ac == nil {
		return nil, nil, false
	}
	if len(ac.Zones) > 1 {
		if z, ok := e.places.exchanges[npa*1000+nxx]; ok {
			return ac, z, true
		}
	}
	return ac, ac.Zones, false
}

// AreaKey is what a phone's area code and exchange contribute to its
// calling time: phones with the same AreaKey and the same AddressKeys have
// the same windows and decisions (states without calling-time rows of their
// own keyed as Federal, as in AddressKey).
type AreaKey struct {
	State, Region string
	zones         *string // the zone list, by identity
	Invalid       bool
}

// AreaKey reads a phone's 10 digits (as an integer, phone.Key; 0 for a
// number that is not valid).
func (e *Engine) AreaKey(digits uint64) AreaKey {
	if digits == 0 {
		return AreaKey{Invalid: true}
	}
	ac, zones, _ := e.area(int(digits/1e7), int(digits/1e4%1000))
	var k AreaKey
	if ac != nil {
		k.State, k.Region = e.timeState(ac.State), ac.Region
	}
	if len(zones) > 0 {
		k.zones = &zones[0]
	}
	return k
}

// placed is an address read: its state and zones, and the ZIP's own state
// and zones when the ZIP names another state.
type placed struct {
	state    string   // "" when the address names no place SkipDesk can read
	zones    []string // the state's zones where the ZIP puts it
	zipState string   // the ZIP's state when it differs from state
	zipZones []string
	zip3     string
	present  bool // the address says something (a state or a ZIP)
}

// readAddress reads an address: the written state (or the ZIP's when none
// is written), in its ZIP's zones when the ZIP is the state's, else every
// zone of it; the ZIP's own state too when it is another.
func (e *Engine) readAddress(a Address) placed {
	return e.readPlace(e.addressText(a))
}

// addressText is what an address writes that placing reads: its state's
// postal code, its ZIP's prefix (its first three digits), and whether it
// says anything at all.
type addressText struct {
	state, zip3      string
	stateOK, present bool
}

func (e *Engine) addressText(a Address) addressText {
	state, stateOK := StateCode(a.State)
	return addressText{state: state, stateOK: stateOK, zip3: zipPrefix(a.ZIP),
		present: strings.TrimSpace(a.State) != "" || strings.TrimSpace(a.ZIP) != ""}
}

// zipSlots are the values of addressText.memo's ZIP part: no ZIP, and a
// prefix of -999 to 999 (what strconv reads of three characters).
const zipSlots = 2000

// memo is the text as two numbers, for caching what it reads as (false
// when it cannot be): its state and whether it says anything, and its ZIP
// prefix. Two addresses of equal memos read alike.
func (t addressText) memo() (state uint32, zip int, ok bool) {
	if t.stateOK {
		if len(t.state) != 2 {
			return 0, 0, false
		}
		state = uint32(t.state[0])<<8 | uint32(t.state[1])
	}
	state <<= 1
	if t.present {
		state |= 1
	}
	if t.zip3 != "" {
		n, err := strconv.Atoi(t.zip3)
		if err != nil || n < -999 || n > 999 {
			return 0, 0, false
		}
		zip = n + 1000 // 1…1999; 0: no ZIP
	}
	return state, zip, true
}

// readPlace reads an address's text.
func (e *Engine) readPlace(t addressText) placed {
	state, stateOK, zip3 := t.state, t.stateOK, t.zip3
	zipState := ""
	if zip3 != "" {
		zipState = e.places.zipStates[atoi3(zip3)]
	}
	r := placed{zip3: zip3, present: t.present}
	switch {
	case !stateOK && zipState == "":
		return r
	case !stateOK:
		state = zipState
	}
	r.state = state
	if zipState == state {
		r.zones = e.stateZip(state, zip3)
		return r
	}
	r.zones = e.places.stateZones[state]
	if zipState != "" {
		r.zipState, r.zipZones = zipState, e.stateZip(zipState, zip3)
	}
	return r
}

// AddressKey is what an address contributes to a phone's calling time:
// two addresses with the same key give a phone the same windows (for
// caching them). A state without calling-time rows of its own is keyed as
// Federal: it is held to the federal rows alone, like any other such.
type AddressKey struct {
	State, ZIPState string
	zones, zipZones *string // the zone lists, by identity
	Unplaced        bool
}

// AddressKey reads an address as placing goes.
func (e *Engine) AddressKey(a Address) AddressKey {
	return e.addressKey(e.readAddress(a))
}

func (e *Engine) addressKey(r placed) AddressKey {
	k := AddressKey{State: e.timeState(r.state), ZIPState: e.timeState(r.zipState), Unplaced: r.state == "" && r.present}
	if len(r.zones) > 0 {
		k.zones = &r.zones[0]
	}
	if len(r.zipZones) > 0 {
		k.zipZones = &r.zipZones[0]
	}
	return k
}

// placeAddress adds an address's locations. An address that names no place
// it can read counts as a place unknown: it may be anywhere.
func (e *Engine) placeAddress(pl *Placement, a Address) {
	r := e.readAddress(a)
	kind := a.Kind
	if kind == "" {
		kind = "owner"
	}
	switch {
	case r.state == "" && r.present:
		e.addZones(pl, AnyState, unknownZones, kind+" address not placed")
	case r.state == "":
	case r.zipState == "" && r.zip3 != "" && e.places.zipStates[atoi3(r.zip3)] == r.state:
		e.addZones(pl, r.state, r.zones, kind+" ZIP "+r.zip3+"xx")
	default:
		e.addZones(pl, r.state, r.zones, kind+" state "+r.state)
		if r.zipState != "" {
			e.addZones(pl, r.zipState, r.zipZones, kind+" ZIP "+r.zip3+"xx")
		}
	}
}

// timeState is a state as far as the calling time goes: itself when it has
// window or ban rows, Federal when only the federal ones apply ("" stays "").
func (e *Engine) timeState(state string) string {
	if _, own := e.byState[state]; own || state == "" {
		return state
	}
	return Federal
}

func atoi3(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// zipPrefix reads a ZIP (5 digits, ZIP+4, or one that lost its leading
// zero) and returns its first three digits ("" when it is none); their
// state is zipStates[atoi3(zip3)].
func zipPrefix(zip string) (zip3 string) {
	z := strings.TrimSpace(zip)
	if p, ok := input.PadZip(z); ok {
		z = p
	}
	if len(z) < 5 {
		return ""
	}
	if _, err := strconv.Atoi(z[:5]); err != nil {
		return ""
	}
	return z[:3]
}

// stateZip is the zones of a state's ZIP prefix: the prefix's own where the
// state is split, the state's otherwise.
func (e *Engine) stateZip(state, zip3 string) []string {
	if z, ok := e.places.zipZones[zipKey{state, atoi3(zip3)}]; ok {
		return z
	}
	return e.places.stateZones[state]
}

// addZones adds one location per zone, merging a location already there
// (same state and zone) by naming this source too.
func (e *Engine) addZones(pl *Placement, state string, zones []string, source string) {
	for _, z := range zones {
		merged := false
		for i := range pl.Locations {
			if l := &pl.Locations[i]; l.State == state && l.Zone == z {
				if !strings.Contains(l.Source, source) {
					l.Source += "; " + source
				}
				merged = true
			}
		}
		if !merged {
			pl.Locations = append(pl.Locations, Location{State: state, Zone: z, Source: source, tz: e.places.zones[z]})
		}
	}
}
